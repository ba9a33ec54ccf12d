#!/usr/bin/env python3
"""lua2tiled.py: a Tiled Lua export -> the same map as Tiled's own .tmx or
.tmj (tests/cli/tiled.sh; not a test itself).

    lua2tiled.py MAP.lua OUT.tmx|OUT.tmj [--data csv|base64|zlib|gzip|zstd|xml]
                 [--external] [--templates] [--class]

Reads the export with lua5.4 (trusted test input) and writes the map the
way Tiled 1.8 writes it: tile data in the chosen encoding (zstd through the
`zstd` program), objects' class in `type` (or in `class`, Tiled 1.9's name,
with --class). With --external every tileset goes to its own .tsx/.tsj
beside the map and the map names it by `source`; with --templates every
spawn, goal and tower_base becomes an instance of a template (.tx/.tj, one
per class and shape) that holds its class, shape and size, the instance
keeping its id, name, position and properties.
"""
import base64
import gzip
import json
import os
import subprocess
import sys
import zlib
from xml.sax.saxutils import quoteattr, escape

DUMP = r'''
local t = dofile(arg[1])
local function enc(v)
  local ty = type(v)
  if ty == "table" then
    local n = #v
    local count = 0
    for _ in pairs(v) do count = count + 1 end
    if n > 0 and n == count then
      local out = {}
      for i = 1, n do out[i] = enc(v[i]) end
      return "[" .. table.concat(out, ",") .. "]"
    end
    local keys = {}
    for k in pairs(v) do keys[#keys + 1] = tostring(k) end
    table.sort(keys)
    local out = {}
    for _, k in ipairs(keys) do out[#out + 1] = string.format("%q", k) .. ":" .. enc(v[k]) end
    return "{" .. table.concat(out, ",") .. "}"
  elseif ty == "string" then
    return (string.format("%q", v):gsub("\\\n", "\\n"))
  elseif ty == "number" then
    if math.type(v) == "integer" then return tostring(v) end
    return string.format("%.17g", v)
  elseif ty == "boolean" then
    return tostring(v)
  end
  return "null"
end
io.write(enc(t))
'''


def load_lua(path):
    out = subprocess.run(["lua5.4", "-", path], input=DUMP, capture_output=True, text=True,
                         check=True).stdout
    return json.loads(out)


def as_list(v):
    return v if isinstance(v, list) else []


def prop_type(v):
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        return "int"
    if isinstance(v, float):
        return "float"
    return None


def fmt(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v == int(v):
        return str(int(v))
    return str(v)


def gid_bytes(data):
    return b"".join(int(g).to_bytes(4, "little") for g in data)


def encode_data(data, how, width):
    raw = gid_bytes(data)
    if how == "csv":
        rows = [",".join(str(g) for g in data[i:i + width]) for i in range(0, len(data), width)]
        return "csv", None, "\n" + ",\n".join(rows) + "\n"
    if how == "base64":
        return "base64", None, base64.b64encode(raw).decode()
    if how == "zlib":
        return "base64", "zlib", base64.b64encode(zlib.compress(raw)).decode()
    if how == "gzip":
        return "base64", "gzip", base64.b64encode(gzip.compress(raw)).decode()
    if how == "zstd":
        z = subprocess.run(["zstd", "-q", "-c"], input=raw, capture_output=True, check=True).stdout
        return "base64", "zstd", base64.b64encode(z).decode()
    raise SystemExit("unknown data encoding " + how)


class Writer:
    def __init__(self, out, how, external, templates, use_class):
        self.out = out
        self.dir = os.path.dirname(os.path.abspath(out))
        self.stem = os.path.splitext(os.path.basename(out))[0]
        self.json = out.endswith(".tmj") or out.endswith(".json")
        self.how = how
        self.external = external
        self.templates = templates
        self.cls = "class" if use_class else "type"
        self.made = {}

    # ---- templates ---------------------------------------------------------
    def template_for(self, o):
        cls = o.get("class") or o.get("type") or ""
        if not self.templates or cls not in ("spawn", "goal", "tower_base"):
            return None
        shape = o.get("shape", "rectangle")
        key = (cls, shape, o.get("width", 0), o.get("height", 0), o.get("gid", 0))
        if key in self.made:
            return self.made[key]
        name = "%s-%s-%d.%s" % (self.stem, cls, len(self.made), "tj" if self.json else "tx")
        tobj = {"name": "", self.cls: cls, "shape": shape, "width": o.get("width", 0),
                "height": o.get("height", 0)}
        if o.get("gid"):
            tobj["gid"] = o["gid"]
        with open(os.path.join(self.dir, name), "w") as f:
            if self.json:
                jo = self.json_object(tobj, template=True)
                json.dump({"type": "template", "object": jo}, f, indent=1)
            else:
                f.write('<?xml version="1.0" encoding="UTF-8"?>\n<template>\n')
                f.write(self.xml_object(tobj, "  ", template=True))
                f.write("</template>\n")
        self.made[key] = name
        return name

    # ---- XML ---------------------------------------------------------------
    def xml_props(self, props, ind):
        if not isinstance(props, dict) or not props:
            return ""
        s = ind + "<properties>\n"
        for k in sorted(props):
            v = props[k]
            t = prop_type(v)
            s += ind + " <property name=%s%s value=%s/>\n" % (
                quoteattr(k), (" type=%s" % quoteattr(t)) if t else "", quoteattr(fmt(v)))
        return s + ind + "</properties>\n"

    def xml_object(self, o, ind, template=False):
        tname = None if template else self.template_for(o)
        attrs = []
        keys = ["id", "name", self.cls, "x", "y", "width", "height", "rotation", "gid"]
        if tname:
            keys = ["id", "name", "x", "y"]
            attrs.append(("template", tname))
        for k in keys:
            src = "class" if k in ("class", "type") else k
            v = o.get(src) if src != "class" else (o.get("class") or o.get("type"))
            if v is None or v == "" and k != "name" or (k in ("width", "height", "rotation", "gid") and not v):
                continue
            attrs.append((k, fmt(v)))
        s = ind + "<object" + "".join(" %s=%s" % (k, quoteattr(str(v))) for k, v in attrs) + ">\n"
        if not tname:
            shape = o.get("shape", "rectangle")
            if shape in ("point", "ellipse"):
                s += ind + " <%s/>\n" % shape
            elif shape in ("polyline", "polygon"):
                pts = " ".join("%s,%s" % (fmt(p["x"]), fmt(p["y"])) for p in o[shape])
                s += ind + " <%s points=%s/>\n" % (shape, quoteattr(pts))
        s += self.xml_props(o.get("properties"), ind + " ")
        return s + ind + "</object>\n"

    def xml_tileset_body(self, ts, ind):
        s = ""
        for tile in as_list(ts.get("tiles")):
            s += ind + '<tile id="%d">\n' % tile["id"]
            s += self.xml_props(tile.get("properties"), ind + " ")
            s += ind + "</tile>\n"
        return s

    def xml_layer(self, l, ind):
        t = l["type"]
        common = ' id="%d" name=%s' % (l.get("id", 0), quoteattr(l.get("name", "")))
        for k in ("offsetx", "offsety"):
            if l.get(k):
                common += ' %s="%s"' % (k, fmt(l[k]))
        if t == "tilelayer":
            s = ind + '<layer%s width="%d" height="%d">\n' % (common, l["width"], l["height"])
            s += self.xml_props(l.get("properties"), ind + " ")
            if self.how == "xml":
                s += ind + " <data>\n" + "".join(ind + '  <tile gid="%d"/>\n' % g for g in l["data"])
                s += ind + " </data>\n"
            else:
                enc, comp, text = encode_data(l["data"], self.how, l["width"])
                s += ind + ' <data encoding="%s"%s>%s</data>\n' % (
                    enc, (' compression="%s"' % comp) if comp else "", text)
            return s + ind + "</layer>\n"
        if t == "objectgroup":
            s = ind + "<objectgroup%s>\n" % common
            s += self.xml_props(l.get("properties"), ind + " ")
            for o in as_list(l.get("objects")):
                s += self.xml_object(o, ind + " ")
            return s + ind + "</objectgroup>\n"
        if t == "group":
            s = ind + "<group%s>\n" % common
            for sub in as_list(l.get("layers")):
                s += self.xml_layer(sub, ind + " ")
            return s + ind + "</group>\n"
        return ind + "<imagelayer%s/>\n" % common

    def write_xml(self, m):
        s = '<?xml version="1.0" encoding="UTF-8"?>\n'
        s += ('<map version="1.8" tiledversion="1.8.2" orientation=%s renderorder="right-down" '
              'width="%d" height="%d" tilewidth="%d" tileheight="%d" infinite="0">\n') % (
            quoteattr(m["orientation"]), m["width"], m["height"], m["tilewidth"], m["tileheight"])
        s += self.xml_props(m.get("properties"), " ")
        for i, ts in enumerate(as_list(m.get("tilesets"))):
            head = 'name=%s tilewidth="%d" tileheight="%d"' % (
                quoteattr(ts.get("name", "")), ts.get("tilewidth", 32), ts.get("tileheight", 32))
            if self.external:
                name = "%s-tileset%d.tsx" % (self.stem, i)
                with open(os.path.join(self.dir, name), "w") as f:
                    f.write('<?xml version="1.0" encoding="UTF-8"?>\n<tileset %s>\n' % head)
                    f.write(self.xml_tileset_body(ts, " "))
                    f.write("</tileset>\n")
                s += ' <tileset firstgid="%d" source="%s"/>\n' % (ts["firstgid"], name)
            else:
                s += ' <tileset firstgid="%d" %s>\n' % (ts["firstgid"], head)
                s += self.xml_tileset_body(ts, "  ")
                s += " </tileset>\n"
        for l in as_list(m.get("layers")):
            s += self.xml_layer(l, " ")
        s += "</map>\n"
        with open(self.out, "w") as f:
            f.write(s)

    # ---- JSON --------------------------------------------------------------
    def json_props(self, props):
        if not isinstance(props, dict) or not props:
            return None
        out = []
        for k in sorted(props):
            v = props[k]
            out.append({"name": k, "type": prop_type(v) or "string", "value": v})
        return out

    def json_object(self, o, template=False):
        tname = None if template else self.template_for(o)
        jo = {}
        keys = ["id", "name", "x", "y"] if tname else [
            "id", "name", "x", "y", "width", "height", "rotation", "gid"]
        for k in keys:
            if k in o and o[k] is not None:
                jo[k] = o[k]
        if tname:
            jo["template"] = tname
        else:
            jo[self.cls] = o.get("class") or o.get("type") or ""
            shape = o.get("shape", "rectangle")
            if shape in ("point", "ellipse"):
                jo[shape] = True
            elif shape in ("polyline", "polygon"):
                jo[shape] = [{"x": p["x"], "y": p["y"]} for p in o[shape]]
        p = self.json_props(o.get("properties"))
        if p:
            jo["properties"] = p
        return jo

    def json_tileset_body(self, ts):
        out = {"name": ts.get("name", ""), "tilewidth": ts.get("tilewidth", 32),
               "tileheight": ts.get("tileheight", 32)}
        tiles = []
        for tile in as_list(ts.get("tiles")):
            jt = {"id": tile["id"]}
            p = self.json_props(tile.get("properties"))
            if p:
                jt["properties"] = p
            tiles.append(jt)
        if tiles:
            out["tiles"] = tiles
        return out

    def json_layer(self, l):
        t = l["type"]
        jl = {"type": t, "id": l.get("id", 0), "name": l.get("name", "")}
        for k in ("offsetx", "offsety"):
            if l.get(k):
                jl[k] = l[k]
        p = self.json_props(l.get("properties"))
        if p:
            jl["properties"] = p
        if t == "tilelayer":
            jl["width"], jl["height"] = l["width"], l["height"]
            if self.how in ("csv", "xml"):
                jl["data"] = l["data"]
            else:
                enc, comp, text = encode_data(l["data"], self.how, l["width"])
                jl["encoding"] = enc
                if comp:
                    jl["compression"] = comp
                jl["data"] = text
        elif t == "objectgroup":
            jl["objects"] = [self.json_object(o) for o in as_list(l.get("objects"))]
        elif t == "group":
            jl["layers"] = [self.json_layer(s) for s in as_list(l.get("layers"))]
        return jl

    def write_json(self, m):
        jm = {"type": "map", "version": "1.8", "tiledversion": "1.8.2",
              "orientation": m["orientation"], "renderorder": "right-down",
              "width": m["width"], "height": m["height"], "tilewidth": m["tilewidth"],
              "tileheight": m["tileheight"], "infinite": False}
        p = self.json_props(m.get("properties"))
        if p:
            jm["properties"] = p
        tss = []
        for i, ts in enumerate(as_list(m.get("tilesets"))):
            if self.external:
                name = "%s-tileset%d.tsj" % (self.stem, i)
                with open(os.path.join(self.dir, name), "w") as f:
                    json.dump(self.json_tileset_body(ts), f, indent=1)
                tss.append({"firstgid": ts["firstgid"], "source": name})
            else:
                body = self.json_tileset_body(ts)
                body["firstgid"] = ts["firstgid"]
                tss.append(body)
        jm["tilesets"] = tss
        jm["layers"] = [self.json_layer(l) for l in as_list(m.get("layers"))]
        with open(self.out, "w") as f:
            json.dump(jm, f, indent=1)


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        raise SystemExit(__doc__)
    src, out = args[0], args[1]
    how = "csv"
    if "--data" in args:
        how = args[args.index("--data") + 1]
    w = Writer(out, how, "--external" in args, "--templates" in args, "--class" in args)
    m = load_lua(src)
    if w.json:
        w.write_json(m)
    else:
        w.write_xml(m)


if __name__ == "__main__":
    main()
