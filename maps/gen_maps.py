#!/usr/bin/env python3
"""Generates the bundled maps in maps/ as Tiled map files (.tmx).

    python3 maps/gen_maps.py             # writes maps/01-crossroads.tmx ... maps/06-expanse.tmx
    python3 maps/gen_maps.py DIR         # the same, into DIR
    python3 maps/gen_maps.py --lua DIR   # Tiled Lua exports instead (DIR/0N-*.lua)

The .tmx files are what Tiled 1.8 saves (File > Save): orthogonal, CSV tile
data, embedded tilesets, the object's class in the `type` attribute; Tiled
1.8.2 writes them back byte for byte (tests/cli/tiled.sh), so a map saved
in Tiled differs only where it was edited. Open them with the project
maps/td.tiled-project, which declares the classes and their properties.
The output is deterministic. --lua writes the same maps in the layout Tiled writes with
File > Export As > Lua files (tests/cli/tiled.sh compares what td reads
from the .tmx and from Tiled's own exports of it).

Each map's own properties title, description and order are the main menu's
(MENU below; docs/maps.md). docs/maps.md describes the conventions
(classes path/spawn/goal/tower_base, properties cost/road_width/walkable).

Every path declares its road_width, and the ground layer paints road tiles
on every tile the declared road covers (paint_road), so the road enemies
keep to is the road drawn.
"""
import os
import sys
from collections import deque
from xml.sax.saxutils import escape

T = 32  # tile size in pixels (map units)
ROAD = T  # road_width of every path: the roads are drawn one tile wide
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# ---- a tiny writer for Tiled's Lua layout ---------------------------------

def lua_value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return str(int(v)) if v == int(v) else repr(v)
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    raise TypeError(v)


class Raw:
    """Text emitted as is (a pre-formatted table body)."""

    def __init__(self, text):
        self.text = text


def emit(out, value, indent):
    pad = "  " * indent
    if isinstance(value, Raw):
        out.append(value.text)
    elif isinstance(value, dict):
        if not value:
            out.append("{}")
            return
        out.append("{\n")
        items = list(value.items())
        for i, (k, v) in enumerate(items):
            key = k if k.isidentifier() else '["%s"]' % k
            if k.startswith("@"):  # property tables use ["name"] keys
                key = '["%s"]' % k[1:]
            out.append("  " * (indent + 1) + key + " = ")
            emit(out, v, indent + 1)
            out.append(",\n" if i + 1 < len(items) else "\n")
        out.append(pad + "}")
    elif isinstance(value, list):
        if not value:
            out.append("{}")
            return
        if all(isinstance(v, dict) and set(v) == {"x", "y"} for v in value):
            out.append("{\n")
            for i, v in enumerate(value):
                out.append("  " * (indent + 1) + "{ x = %s, y = %s }" %
                           (lua_value(v["x"]), lua_value(v["y"])))
                out.append(",\n" if i + 1 < len(value) else "\n")
            out.append(pad + "}")
            return
        out.append("{\n")
        for i, v in enumerate(value):
            out.append("  " * (indent + 1))
            emit(out, v, indent + 1)
            out.append(",\n" if i + 1 < len(value) else "\n")
        out.append(pad + "}")
    else:
        out.append(lua_value(value))


def tile_data(gids, width, indent):
    pad = "  " * indent
    rows = [gids[i:i + width] for i in range(0, len(gids), width)]
    lines = [pad + "  " + ", ".join(str(g) for g in row) for row in rows]
    raw = Raw("{\n" + ",\n".join(lines) + "\n" + pad + "}")
    raw.gids, raw.width = gids, width
    return raw


def props(d):
    return {"@" + k: v for k, v in d.items()}


def write_lua(path, m):
    out = ["return "]
    emit(out, m, 0)
    out.append("\n")
    with open(path, "w") as f:
        f.write("".join(out))


# ---- the same maps as Tiled 1.8 saves them (.tmx) --------------------------

# Property types, as declared in maps/td.tiled-project and maps/objecttypes.xml.
PROPERTY_TYPES = {"cost": "float", "road_width": "float", "order": "int",
                  "blocking": "bool", "walkable": "bool"}


def xml_number(v):
    return lua_value(v)


def xml_attrs(pairs):
    """Attributes as Tiled's XML writer quotes them: double quotes, &quot;."""
    return "".join(' %s="%s"' % (k, escape(v if isinstance(v, str) else xml_number(v),
                                            {'"': "&quot;"}))
                   for k, v in pairs)


def xml_properties(out, props_, pad):
    """A <properties> element; Tiled writes them sorted by name."""
    if not props_:
        return
    out.append(pad + "<properties>\n")
    for key in sorted(props_):
        name, v = key[1:], props_[key]
        ptype = PROPERTY_TYPES.get(name, "string")
        if ptype == "bool":
            assert isinstance(v, bool), (name, v)
            value = "true" if v else "false"
        elif ptype == "string":
            assert isinstance(v, str), (name, v)
            value = v
        else:
            assert isinstance(v, (int, float)) and not isinstance(v, bool), (name, v)
            value = xml_number(v)
        attrs = [("name", name)] + ([("type", ptype)] if ptype != "string" else []) + \
            [("value", value)]
        out.append(pad + " <property%s/>\n" % xml_attrs(attrs))
    out.append(pad + "</properties>\n")


def xml_tileset(out, ts):
    out.append(" <tileset%s>\n" % xml_attrs([
        ("firstgid", ts["firstgid"]), ("name", ts["name"]), ("tilewidth", ts["tilewidth"]),
        ("tileheight", ts["tileheight"]), ("tilecount", ts["tilecount"]),
        ("columns", ts["columns"])]))
    out.append("  <image%s/>\n" % xml_attrs([
        ("source", ts["image"]), ("width", ts["imagewidth"]), ("height", ts["imageheight"])]))
    for tile in ts["tiles"]:
        out.append('  <tile id="%d">\n' % tile["id"])
        xml_properties(out, tile["properties"], "   ")
        out.append("  </tile>\n")
    out.append(" </tileset>\n")


def xml_tile_layer(out, layer):
    gids, width = layer["data"].gids, layer["data"].width
    out.append(" <layer%s>\n" % xml_attrs([
        ("id", layer["id"]), ("name", layer["name"]), ("width", layer["width"]),
        ("height", layer["height"])]))
    rows = [",".join(str(g) for g in gids[i:i + width]) for i in range(0, len(gids), width)]
    out.append('  <data encoding="csv">\n' + ",\n".join(rows) + "\n</data>\n")
    out.append(" </layer>\n")


def xml_object(out, o):
    attrs = [("id", o["id"])]
    if o["name"]:
        attrs.append(("name", o["name"]))
    cls = o.get("class", o.get("type"))
    if cls:
        attrs.append(("type", cls))  # Tiled 1.8 keeps the class in `type`
    attrs += [("x", o["x"]), ("y", o["y"])]
    if o["width"] or o["height"]:
        attrs += [("width", o["width"]), ("height", o["height"])]
    shape = o["shape"]
    assert shape in ("point", "polyline", "rectangle"), shape
    if not o["properties"] and shape == "rectangle":
        out.append("  <object%s/>\n" % xml_attrs(attrs))
        return
    out.append("  <object%s>\n" % xml_attrs(attrs))
    xml_properties(out, o["properties"], "   ")
    if shape == "point":
        out.append("   <point/>\n")
    elif shape == "polyline":
        points = " ".join("%s,%s" % (xml_number(v["x"]), xml_number(v["y"]))
                          for v in o["polyline"])
        out.append("   <polyline%s/>\n" % xml_attrs([("points", points)]))
    out.append("  </object>\n")


def write_tmx(path, m):
    """The map as Tiled 1.8 saves it: orthogonal, CSV data, embedded tilesets."""
    assert m["orientation"] == "orthogonal" and m["renderorder"] == "right-down"
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n']
    out.append("<map%s>\n" % xml_attrs([
        ("version", "1.8"), ("tiledversion", "1.8.2"), ("orientation", "orthogonal"),
        ("renderorder", "right-down"), ("width", m["width"]), ("height", m["height"]),
        ("tilewidth", m["tilewidth"]), ("tileheight", m["tileheight"]), ("infinite", 0),
        ("nextlayerid", m["nextlayerid"]), ("nextobjectid", m["nextobjectid"])]))
    xml_properties(out, m["properties"], " ")
    for ts in m["tilesets"]:
        xml_tileset(out, ts)
    for layer in m["layers"]:
        if layer["type"] == "tilelayer":
            xml_tile_layer(out, layer)
            continue
        assert layer["type"] == "objectgroup" and layer["draworder"] == "topdown"
        out.append(" <objectgroup%s>\n" % xml_attrs([("id", layer["id"]),
                                                     ("name", layer["name"])]))
        for o in layer["objects"]:
            xml_object(out, o)
        out.append(" </objectgroup>\n")
    out.append("</map>\n")
    with open(path, "w") as f:
        f.write("".join(out))


def obj(oid, name, cls, shape, x, y, w=0, h=0, key="type", polyline=None, properties=None):
    o = {"id": oid, "name": name, key: cls, "shape": shape, "x": x, "y": y,
         "width": w, "height": h, "rotation": 0, "visible": True}
    if polyline is not None:
        o["polyline"] = [{"x": px - x, "y": py - y} for px, py in polyline]
    o["properties"] = props(properties or {})
    return o


def object_layer(lid, name, objects, tiled19):
    layer = {"type": "objectgroup", "draworder": "topdown", "id": lid, "name": name}
    if tiled19:
        layer["class"] = ""
    layer.update({"visible": True, "opacity": 1, "offsetx": 0, "offsety": 0,
                  "parallaxx": 1, "parallaxy": 1, "properties": {}, "objects": objects})
    return layer


def tile_layer(lid, name, width, height, gids, tiled19):
    layer = {"type": "tilelayer", "x": 0, "y": 0, "width": width, "height": height,
             "id": lid, "name": name}
    if tiled19:
        layer["class"] = ""
    layer.update({"visible": True, "opacity": 1, "offsetx": 0, "offsety": 0,
                  "parallaxx": 1, "parallaxy": 1, "properties": {}, "encoding": "lua",
                  "data": tile_data(gids, width, 3)})
    return layer


def header(version, tiledversion, width, height, nextlayerid, nextobjectid, tiled19):
    m = {"version": version, "luaversion": "5.1", "tiledversion": tiledversion}
    if tiled19:
        m["class"] = ""
    m.update({"orientation": "orthogonal", "renderorder": "right-down", "width": width,
              "height": height, "tilewidth": T, "tileheight": T, "nextlayerid": nextlayerid,
              "nextobjectid": nextobjectid, "properties": {}})
    return m


def tileset(name, firstgid, image, columns, tiles, tiled19):
    ts = {"name": name, "firstgid": firstgid}
    if tiled19:
        ts["class"] = ""
    ts.update({"tilewidth": T, "tileheight": T, "spacing": 0, "margin": 0,
               "columns": columns, "image": image, "imagewidth": columns * T,
               "imageheight": T, "objectalignment": "unspecified",
               "tileoffset": {"x": 0, "y": 0},
               "grid": {"orientation": "orthogonal", "width": T, "height": T},
               "properties": {}, "wangsets": {}, "tilecount": columns,
               "tiles": [{"id": i, "properties": props(p)} for i, p in tiles]})
    return ts


def centre(tx, ty):
    return (tx * T + T // 2, ty * T + T // 2)


# ---- roads: what the paths declare is what the ground layer draws ---------

def merged(polylines):
    """The polylines with every vertex moved onto the first vertex drawn
    within 0.5 units of it, as the loader merges them into graph nodes."""
    seen, out = [], []
    for pl in polylines:
        moved = []
        for x, y in pl:
            hit = next((q for q in seen if (q[0] - x) ** 2 + (q[1] - y) ** 2 < 0.25), None)
            if hit is None:
                seen.append((x, y))
                hit = (x, y)
            moved.append(hit)
        out.append(moved)
    return out


def road_tiles(p0, p1, width):
    """Tiles that the road along segment p0-p1 overlaps with positive area:
    the rectangle `width` wide around the segment, extended by width / 2
    past each end (docs/maps.md). Separating axes: the tile's two and the
    rectangle's two."""
    (x0, y0), (x1, y1) = p0, p1
    length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    h = width / 2
    corners = [(px + (ux * s - uy * t) * h, py + (uy * s + ux * t) * h)
               for (px, py, s) in ((x0, y0, -1), (x1, y1, 1)) for t in (-1, 1)]
    eps = 1e-6

    def overlap(axis, pts_a, pts_b):
        pa = [axis[0] * x + axis[1] * y for x, y in pts_a]
        pb = [axis[0] * x + axis[1] * y for x, y in pts_b]
        return min(max(pa), max(pb)) - max(min(pa), min(pb)) > eps

    xs, ys = [c[0] for c in corners], [c[1] for c in corners]
    tiles = []
    for ty in range(int(min(ys) // T), int(max(ys) // T) + 1):
        for tx in range(int(min(xs) // T), int(max(xs) // T) + 1):
            sq = [(tx * T, ty * T), ((tx + 1) * T, ty * T), (tx * T, (ty + 1) * T),
                  ((tx + 1) * T, (ty + 1) * T)]
            if all(overlap(a, corners, sq) for a in ((1, 0), (0, 1), (ux, uy), (-uy, ux))):
                tiles.append((tx, ty))
    return tiles


def paint_road(gids, W, H, roads):
    """Road tiles (gid 2) under every road: roads is a list of (polyline,
    width), polylines as drawn (vertices merged as the loader does)."""
    polylines = merged([pl for pl, _ in roads])
    for pl, (_, width) in zip(polylines, roads):
        for a, b in zip(pl, pl[1:]):
            if a == b:
                continue
            for tx, ty in road_tiles(a, b, width):
                if 0 <= tx < W and 0 <= ty < H:
                    gids[ty * W + tx] = 2


# ---- 01-crossroads: a Defense Grid-style waypoint web ----------------------

def crossroads():
    W, H = 30, 20
    n = {k: centre(*v) for k, v in {
        "S": (1, 10), "A": (5, 10), "F": (10, 10), "H": (15, 10), "I": (20, 10),
        "E": (25, 10), "G": (28, 10), "B": (8, 4), "C": (15, 4), "D": (22, 4),
        "J": (8, 16), "K": (15, 16), "L": (22, 16)}.items()}

    def off(p, dx, dy):  # a vertex drawn slightly off (merges: < 0.5 units)
        return (p[0] + dx, p[1] + dy)

    paths = [
        (1, "trunk", [n[k] for k in "SAFHIEG"], {}),
        (2, "north", [off(n["A"], 0.25, -0.25)] + [n[k] for k in "BCDE"], {}),
        (3, "south", [n[k] for k in "AJKLE"], {}),
        (4, "link-c", [n["C"], off(n["H"], 0.25, 0.25), n["K"]], {}),
        (5, "mud", [n["D"], n["I"]], {"cost": 2}),
        (6, "link-bf", [n["B"], n["F"]], {}),
    ]
    for _, _, _, p in paths:
        p["road_width"] = ROAD
    path_objs = [obj(i, name, "path", "polyline", pts[0][0], pts[0][1], polyline=pts,
                     properties=p) for i, name, pts, p in paths]
    markers = [obj(7, "west gate", "spawn", "point", *n["S"]),
               obj(8, "core", "goal", "point", *n["G"])]
    # tower bases: (id, centre) of a 32x32 rectangle; comments name the
    # edges each one blocks (tests/test_mapfile.c checks them)
    base_centres = [(9, (400, 336)),    # F-H
                    (10, (560, 336)),   # H-I
                    (11, (592, 144)),   # C-D
                    (12, (592, 528)),   # K-L
                    (13, (496, 240)),   # C-H
                    (14, n["I"]),       # around I: H-I, I-E, D-I
                    (15, (224, 432)),   # A-J
                    (16, (384, 144)),   # B-C
                    (17, (768, 432))]   # L-E
    bases = [obj(i, "base %d" % (k + 1), "tower_base", "rectangle", cx - T // 2,
                 cy - T // 2, T, T) for k, (i, (cx, cy)) in enumerate(base_centres)]
    trees = [obj(18, "oak", "tree", "point", 100, 100), obj(19, "rock", "decoration",
                                                            "rectangle", 600, 560, 40, 24)]
    # decoration: grass, with road tiles under every road
    gids = [1] * (W * H)
    paint_road(gids, W, H, [(pts, p["road_width"]) for _, _, pts, p in paths])
    # a pad tile only where a base covers that whole tile: bases 7-9 (ids
    # 15-17) sit half a tile off the grid, on the roads they close, and the
    # game draws every base's pad at its own rectangle (scene.c)
    for _, (cx, cy) in base_centres:
        if (cx - T // 2) % T == 0 and (cy - T // 2) % T == 0:
            gids[(cy // T) * W + cx // T] = 3
    m = header("1.8", "1.8.6", W, H, 5, 20, False)
    m["tilesets"] = [tileset("crossroads", 1, "../assets/tiles/crossroads.png", 3,
                             [(0, {"terrain": "grass"}), (1, {"terrain": "road"}),
                              (2, {"terrain": "pad"})], False)]
    m["layers"] = [tile_layer(1, "ground", W, H, gids, False),
                   object_layer(2, "paths", path_objs, False),
                   object_layer(3, "markers", markers, False),
                   object_layer(4, "bases", bases + trees, False)]
    return m


# ---- 02-grid: a small maze on a walkable tile layer -----------------------

GRID_W, GRID_H = 24, 16


def grid_walls():
    wall = [[x in (0, GRID_W - 1) or y in (0, GRID_H - 1) for x in range(GRID_W)]
            for y in range(GRID_H)]

    def column(x, ys):
        for y in ys:
            wall[y][x] = True

    column(6, range(1, 11))                                 # gap at y 11..14
    column(12, [y for y in range(1, 15) if y not in (2, 3, 9, 10)])
    column(18, range(5, 13))                                # gaps at y 1..4 and 13..14
    for x in range(1, 5):                                    # a ledge near the spawn
        wall[6][x] = True
    for x in range(8, 11):                                   # pillars
        wall[5][x] = True
    for y in range(6, 9):
        wall[y][15] = True
    return wall


def reachable(wall, start, blocked=()):
    seen = {start}
    q = deque([start])
    while q:
        x, y = q.popleft()
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            c = (x + dx, y + dy)
            if 0 <= c[0] < GRID_W and 0 <= c[1] < GRID_H and not wall[c[1]][c[0]] \
                    and c not in blocked and c not in seen:
                seen.add(c)
                q.append(c)
    return seen


def grid_map():
    wall = grid_walls()
    spawn, goal = (2, 9), (21, 8)
    # tower bases: id -> cells (x, y); every one may be built on its own
    bases = {10: [(12, 9), (12, 10)],         # middle gap of the centre wall
             11: [(18, 3), (18, 4)],          # top gap of the east wall
             12: [(9, 7)],                    # open ground
             13: [(14, 12), (15, 12), (14, 13), (15, 13)],
             14: [(6, 11), (6, 12)],          # 14 and 15 together close the west gap
             15: [(6, 13), (6, 14)]}
    assert goal in reachable(wall, spawn)
    for oid, cells in bases.items():
        assert all(not wall[y][x] for x, y in cells), oid
        assert goal in reachable(wall, spawn, set(cells)), oid
    assert goal not in reachable(wall, spawn, set(bases[14] + bases[15]))

    # the grey tile (3, walkable) is a pad: under the bases' cells and
    # nowhere else, so what looks like a pad is one
    pads = {c for cells in bases.values() for c in cells}
    gids = []
    for y in range(GRID_H):
        for x in range(GRID_W):
            if wall[y][x]:
                gids.append(2)                                # wall
            elif (x, y) in pads:
                gids.append(3)                                # pad (walkable)
            else:
                gids.append(1)                                # floor
    # a flipped floor tile: Tiled sets the top bits; still walkable
    gids[9 * GRID_W + 4] = 1 | 0x80000000
    objs = [obj(1, "north gate", "spawn", "point", *centre(*spawn), key="class"),
            obj(2, "reactor", "goal", "point", *centre(*goal), key="class")]
    for oid, cells in bases.items():
        xs = [c[0] for c in cells]
        ys = [c[1] for c in cells]
        x0, y0 = min(xs) * T, min(ys) * T
        w, h = (max(xs) + 1) * T - x0, (max(ys) + 1) * T - y0
        objs.append(obj(oid, "pad %d" % oid, "tower_base", "rectangle", x0, y0, w, h,
                        key="class"))
    objs.append(obj(20, "lamp", "light", "point", 300, 40, key="class"))
    m = header("1.10", "1.10.2", GRID_W, GRID_H, 4, 21, True)
    m["tilesets"] = [tileset("maze", 1, "../assets/tiles/maze.png", 3,
                             [(0, {"walkable": True}), (1, {"walkable": False}),
                              (2, {"walkable": True})], True)]
    m["layers"] = [tile_layer(1, "floor", GRID_W, GRID_H, gids, True),
                   object_layer(2, "objects", objs, True)]
    return m


# ---- helpers for the maps below --------------------------------------------

def path_road(p):
    """A path object's road: (its polyline in map units, its road_width)."""
    pl = [(p["x"] + v["x"], p["y"] + v["y"]) for v in p["polyline"]]
    return (pl, p["properties"]["@road_width"])


def ground_layer(W, H, paths, base_tiles, lid=1):
    """Decoration: grass, road tiles under every path's road, pads under bases."""
    gids = [1] * (W * H)
    paint_road(gids, W, H, [path_road(p) for p in paths])
    for tx, ty in base_tiles:
        gids[ty * W + tx] = 3
    return tile_layer(lid, "ground", W, H, gids, True)


def road_tileset():
    return tileset("crossroads", 1, "../assets/tiles/crossroads.png", 3,
                   [(0, {"terrain": "grass"}), (1, {"terrain": "road"}),
                    (2, {"terrain": "pad"})], True)


def maze_tileset():
    return tileset("maze", 1, "../assets/tiles/maze.png", 3,
                   [(0, {"walkable": True}), (1, {"walkable": False}),
                    (2, {"walkable": True})], True)


class Ids:
    """Object ids in drawing order, from 1."""

    def __init__(self):
        self.n = 0

    def __call__(self):
        self.n += 1
        return self.n


def pad_objects(ids, tiles, names):
    """Pads beside a road: tower bases with the property blocking = false
    (docs/maps.md). A tower on a pad closes nothing, so the road stays the
    one fixed route and no placement there is ever refused."""
    bases = []
    for (tx, ty), name in zip(tiles, names):
        c = centre(tx, ty)
        bases.append(obj(ids(), name, "tower_base", "rectangle", c[0] - T // 2, c[1] - T // 2,
                         T, T, key="class", properties={"blocking": False}))
    return bases


# ---- 03-serpent: a classic fixed route with lane corners -------------------

def serpent():
    W, H = 24, 21
    turns = [(1, 2), (20, 2), (20, 6), (3, 6), (3, 10), (20, 10), (20, 14), (3, 14),
             (3, 18), (22, 18)]
    spots = [(x, y) for y in (4, 8, 12, 16) for x in range(5, 19, 2)]
    # beside the turns; none on the map's top or bottom row, where the
    # HUD's centred labels (PAUSED, the messages) lie over the map's edge
    spots += [(22, 4), (22, 12), (1, 8), (1, 16), (22, 8), (1, 12)]
    route = [centre(*t) for t in turns]
    ids = Ids()
    road = obj(ids(), "serpent", "path", "polyline", route[0][0], route[0][1], key="class",
               polyline=route, properties={"road_width": ROAD})
    spawn = obj(ids(), "cave", "spawn", "point", *route[0], key="class")
    goal = obj(ids(), "keep", "goal", "point", *route[-1], key="class")
    bases = pad_objects(ids, spots, ["pad %d" % (k + 1) for k in range(len(spots))])
    m = header("1.10", "1.10.2", W, H, 4, ids.n + 1, True)
    m["tilesets"] = [road_tileset()]
    m["layers"] = [ground_layer(W, H, [road], spots),
                   object_layer(2, "route", [road, spawn, goal], True),
                   object_layer(3, "bases", bases, True)]
    return m


# ---- 04-foundry: an open floor for free mazing ------------------------------

def foundry():
    W, H = 30, 20
    wall = [[x in (0, W - 1) or y in (0, H - 1) for x in range(W)] for y in range(H)]
    for x, y in ((14, 1), (15, 1), (14, 18), (15, 18)):       # two buttresses
        wall[y][x] = True
    spawn, goal = (1, 9), (28, 10)
    ids = Ids()
    objs = [obj(ids(), "furnace door", "spawn", "point", *centre(*spawn), key="class"),
            obj(ids(), "vault", "goal", "point", *centre(*goal), key="class")]
    base_tiles = []
    for by in range(1, H - 1, 2):
        for bx in range(3, W - 3, 2):
            cells = [(bx, by), (bx + 1, by), (bx, by + 1), (bx + 1, by + 1)]
            if all(wall[y][x] for x, y in cells):
                continue
            objs.append(obj(ids(), "floor %d,%d" % (bx, by), "tower_base", "rectangle",
                            bx * T, by * T, 2 * T, 2 * T, key="class"))
            base_tiles += cells
    assert goal in reachable_in(wall, spawn)
    gids = [2 if wall[y][x] else 1 for y in range(H) for x in range(W)]
    m = header("1.10", "1.10.2", W, H, 3, ids.n + 1, True)
    m["tilesets"] = [maze_tileset()]
    m["layers"] = [tile_layer(1, "floor", W, H, gids, True),
                   object_layer(2, "objects", objs, True)]
    return m


def reachable_in(wall, start):
    H, W = len(wall), len(wall[0])
    seen = {start}
    q = deque([start])
    while q:
        x, y = q.popleft()
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            c = (x + dx, y + dy)
            if 0 <= c[0] < W and 0 <= c[1] < H and not wall[c[1]][c[0]] and c not in seen:
                seen.add(c)
                q.append(c)
    return seen


# ---- 05-twin: two spawns, two exits, a web between them --------------------

def twin():
    W, H = 32, 20
    # two lanes that run side by side through the middle, three tiles apart,
    # with two links between them; each gate's nearest sluice is its own
    north = [(1, 3), (9, 3), (9, 8), (12, 8), (19, 8), (22, 8), (22, 3), (30, 3)]
    south = [(1, 16), (9, 16), (9, 11), (12, 11), (19, 11), (22, 11), (22, 16), (30, 16)]
    links = [[(12, 8), (12, 11)], [(19, 8), (19, 11)]]
    middle = [x for x in range(10, 22) if x not in (12, 19)]
    outer = [3, 5, 7, 24, 26, 28]
    spots_n = [(x, 9) for x in middle] + [(x, 6) for x in range(11, 21, 2)] + \
        [(x, y) for x in outer for y in (1, 5)]
    spots_s = [(x, 10) for x in middle] + [(x, 13) for x in range(11, 21, 2)] + \
        [(x, y) for x in outer for y in (14, 18)]
    north = [centre(*p) for p in north]
    south = [centre(*p) for p in south]
    ids = Ids()
    paths = [obj(ids(), name, "path", "polyline", pl[0][0], pl[0][1], key="class", polyline=pl,
                 properties={"road_width": ROAD})
             for name, pl in (("north lane", north), ("south lane", south),
                              ("west link", [centre(*p) for p in links[0]]),
                              ("east link", [centre(*p) for p in links[1]]))]
    markers = [obj(ids(), "north gate", "spawn", "point", *centre(1, 3), key="class"),
               obj(ids(), "south gate", "spawn", "point", *centre(1, 16), key="class"),
               obj(ids(), "upper sluice", "goal", "point", *centre(30, 3), key="class"),
               obj(ids(), "lower sluice", "goal", "point", *centre(30, 16), key="class")]
    # gates: bases across the middle of each lane and on the links; a tower
    # there closes that stretch and sends a gate's enemies the other way
    gate_tiles = [(16, 8), (16, 11), (12, 9), (19, 10)]
    gates = [obj(ids(), "gate %d,%d" % t, "tower_base", "rectangle", t[0] * T, t[1] * T, T, T,
                 key="class") for t in gate_tiles]
    spots = spots_n + spots_s
    pads = pad_objects(ids, spots, ["pad %d,%d" % s for s in spots])
    m = header("1.10", "1.10.2", W, H, 5, ids.n + 1, True)
    m["tilesets"] = [road_tileset()]
    m["layers"] = [ground_layer(W, H, paths, spots + gate_tiles),
                   object_layer(2, "lanes", paths, True),
                   object_layer(3, "markers", markers, True),
                   object_layer(4, "bases", gates + pads, True)]
    return m


# ---- 06-expanse: 256x256 cells, for performance ------------------------------

def expanse():
    N = 256
    C = N // 2
    wall = [[x in (0, N - 1) or y in (0, N - 1) for x in range(N)] for y in range(N)]
    gap = 3                               # half width of a gate in a ring
    rings = (96, 60, 28)                  # Chebyshev radius of each ring wall
    for r in rings:
        for k in range(-r, r + 2):        # two cells thick: r and r + 1
            for t in (r, r + 1):
                for x, y in ((C + k, C - t), (C + k, C + t), (C - t, C + k), (C + t, C + k)):
                    if 0 < x < N - 1 and 0 < y < N - 1:
                        wall[y][x] = True
        for d in range(-gap, gap):        # four gates, one in the middle of each side
            for t in (r, r + 1):
                for x, y in ((C + d, C - t), (C + d, C + t), (C - t, C + d), (C + t, C + d)):
                    wall[y][x] = False
    rng = 12345                           # rocks between the rings (a fixed LCG)
    for _ in range(900):
        rng = (rng * 1103515245 + 12345) % (1 << 31)
        x = 2 + rng % (N - 4)
        rng = (rng * 1103515245 + 12345) % (1 << 31)
        y = 2 + rng % (N - 4)
        if abs(x - C) < 6 or abs(y - C) < 6:
            continue                      # keep the four straight roads open
        wall[y][x] = True
        wall[y][x + 1] = True
    spawns = {"west gate": (1, C), "north gate": (C, 1)}
    goal = (C, C)
    seen = reachable_in(wall, goal)
    assert all(s in seen for s in spawns.values())
    ids = Ids()
    objs = [obj(ids(), name, "spawn", "point", *centre(*c), key="class")
            for name, c in spawns.items()]
    objs.append(obj(ids(), "citadel", "goal", "point", *centre(*goal), key="class"))
    placed = set()

    def base(bx, by, name):
        cells = [(bx, by), (bx + 1, by), (bx, by + 1), (bx + 1, by + 1)]
        if any(c in placed for c in cells) or all(wall[y][x] for x, y in cells):
            return
        if any(c == goal for c in cells):
            return
        placed.update(cells)
        objs.append(obj(ids(), name, "tower_base", "rectangle", bx * T, by * T, 2 * T,
                        2 * T, key="class"))

    for r in rings:                       # three 2x2 bases close each gate
        for d in (-gap, -gap + 2, -gap + 4):
            base(C + d, C - r - 1, "north gate %d" % r)
            base(C + d, C + r, "south gate %d" % r)
            base(C - r - 1, C + d, "west gate %d" % r)
            base(C + r, C + d, "east gate %d" % r)
    for k in range(4, 124, 4):            # both approach roads, lined on each side
        for side in (-5, 3):
            base(C - k, C + side, "west road %d" % k)
            base(C + side, C - k, "north road %d" % k)
    for bx in range(C - 10, C + 10, 3):   # the citadel's yard
        for by in range(C - 10, C + 10, 3):
            base(bx, by, "yard %d,%d" % (bx, by))
    gids = [2 if wall[y][x] else 1 for y in range(N) for x in range(N)]
    m = header("1.10", "1.10.2", N, N, 3, ids.n + 1, True)
    m["tilesets"] = [maze_tileset()]
    m["layers"] = [tile_layer(1, "floor", N, N, gids, True),
                   object_layer(2, "objects", objs, True)]
    return m


# The menu's words and order (docs/maps.md, "Map properties"): `order` sorts
# the maps from the gentlest to the hardest, by how the built-in player fares
# on them (docs/balance.md: lives kept on normal, then on hard).
MENU = [
    ("02-grid", grid_map, 1, "Little Maze",
     "A small walled maze; six pads decide the way."),
    ("03-serpent", serpent, 2, "Serpent",
     "One long winding road that never changes."),
    ("04-foundry", foundry, 3, "Foundry",
     "An open floor: your towers make the maze."),
    ("01-crossroads", crossroads, 4, "Crossroads",
     "A web of roads: block one and they take another."),
    ("06-expanse", expanse, 5, "Expanse",
     "A vast walled land: two far gates, thirty waves."),
    ("05-twin", twin, 6, "Twin Rivers",
     "Two gates, two lanes side by side: guard both."),
]


def main():
    args = sys.argv[1:]
    lua = "--lua" in args
    args = [a for a in args if a != "--lua"]
    out = args[0] if args else os.path.join(ROOT, "maps")
    os.makedirs(out, exist_ok=True)
    for name, make, order, title, description in sorted(MENU):
        m = make()
        m["properties"] = props({"title": title, "description": description, "order": order})
        if lua:
            write_lua(os.path.join(out, name + ".lua"), m)
        else:
            write_tmx(os.path.join(out, name + ".tmx"), m)


if __name__ == "__main__":
    main()
