/*
** mapfile_tmx.c: the XML tree of a Tiled .tmx map (and of its .tsx
** tilesets and .tx templates) -> the tables Tiled's Lua export writes
** (mapfile_int.h), in the sandbox's protected call.
**
** Attributes become fields of the same name, typed as the Lua export types
** them (a value that does not parse stays a string, and phase 1 names the
** type it expected). <properties> become a {name = value} table; a layer
** element becomes {type = "tilelayer" | "objectgroup" | "group" |
** "imagelayer", ...} in document order; an object's shape child becomes its
** `shape` (with the points of a polyline or polygon); a tile layer's <data>
** becomes a userdata of gids (mapfile_data.c), or `chunks` on an infinite
** map (phase 1 refuses it). A tileset's `source` and an object's `template`
** are read through mapfile_tiled.c. Node indices, not pointers, are kept
** across calls that may read another file (t->ext grows).
*/
#include "script/mapfile_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { A_STR, A_NUM, A_BOOL } attr_type;

static const mapfile_xml *doc(const mapfile_tiled *t, int from) {
  return from < 0 ? &t->xml : &t->ext[from].xml;
}

/* Sets field key of the table on top from attribute key, if present. */
static void set_attr(mapfile_tiled *t, int from, int32_t node, const char *key, attr_type type) {
  const char *v = mapfile_xml_attr(doc(t, from), node, key);
  if (!v) return;
  if (type == A_BOOL && (!strcmp(v, "1") || !strcmp(v, "true") || !strcmp(v, "0") ||
                         !strcmp(v, "false")))
    lua_pushboolean(t->L, v[0] == '1' || v[0] == 't');
  else
    mapfile_tiled_push_typed(t, v, type == A_NUM ? "float" : NULL);
  lua_setfield(t->L, -2, key);
}

/* <properties> of node -> field `properties` of the table on top. */
static void set_properties(mapfile_tiled *t, int from, int32_t node, int depth) {
  const mapfile_xml *d = doc(t, from);
  int32_t ps = mapfile_xml_child(d, node, "properties");
  if (ps < 0) return;
  mapfile_tiled_stack(t, 4);
  lua_newtable(t->L);
  for (int32_t p = d->nodes[ps].child; p >= 0; p = d->nodes[p].next) {
    if (strcmp(mapfile_xml_name(d, p), "property") != 0) continue;
    const char *name = mapfile_xml_attr(d, p, "name");
    const char *type = mapfile_xml_attr(d, p, "type");
    const char *value = mapfile_xml_attr(d, p, "value");
    if (!name) mapfile_tiled_fail(t, "line %u: a <property> without a name", d->nodes[p].line);
    if (type && strcmp(type, "class") == 0) { /* members: a table of their own */
      lua_newtable(t->L);
      if (depth < 8) set_properties(t, from, p, depth + 1);
      lua_getfield(t->L, -1, "properties");
      lua_remove(t->L, -2);
    } else {
      mapfile_tiled_push_typed(t, value ? value : d->pool + d->nodes[p].text, type);
    }
    lua_setfield(t->L, -2, name);
  }
  lua_setfield(t->L, -2, "properties");
}

static bool tile_size_ok(const char *s, int32_t *out) {
  char *end;
  long v = s ? strtol(s, &end, 10) : 0;
  if (!s || !s[0] || *end || v < 1 || v > TD_MAPFILE_MAX_TILES) return false;
  *out = (int32_t)v;
  return true;
}

static void tile_layer(mapfile_tiled *t, int from, int32_t node) {
  const mapfile_xml *d = doc(t, from);
  lua_State *L = t->L;
  set_attr(t, from, node, "width", A_NUM);
  set_attr(t, from, node, "height", A_NUM);
  int32_t data = mapfile_xml_child(d, node, "data"), w = 0, h = 0;
  if (data < 0) return; /* phase 1: "field 'data' is missing" */
  if (mapfile_xml_child(d, data, "chunk") >= 0) {
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, "chunks");
    return;
  }
  if (!tile_size_ok(mapfile_xml_attr(d, node, "width"), &w) ||
      !tile_size_ok(mapfile_xml_attr(d, node, "height"), &h))
    return; /* phase 1 names the bad size */
  const char *enc = mapfile_xml_attr(d, data, "encoding");
  if (enc) {
    const char *text = d->pool + d->nodes[data].text;
    mapfile_data_decode(t, text, strlen(text), enc, mapfile_xml_attr(d, data, "compression"), w,
                        h);
  } else { /* <tile gid="..."/> elements */
    size_t cells = (size_t)w * (size_t)h, n = 0;
    for (int32_t c = d->nodes[data].child; c >= 0; c = d->nodes[c].next)
      n += strcmp(mapfile_xml_name(d, c), "tile") == 0;
    if (n != cells)
      mapfile_tiled_fail(t, "data has %zu entries, expected %zu (%dx%d)", n, cells, w, h);
    uint32_t *gids = mapfile_data_new(t, w, h);
    n = 0;
    for (int32_t c = d->nodes[data].child; c >= 0; c = d->nodes[c].next) {
      if (strcmp(mapfile_xml_name(d, c), "tile") != 0) continue;
      const char *g = mapfile_xml_attr(d, c, "gid");
      char *end;
      unsigned long long v = g ? strtoull(g, &end, 10) : 0;
      if (g && (!g[0] || *end || v > UINT32_MAX || g[0] == '-'))
        mapfile_tiled_fail(t, "data[%zu]: expected a tile gid (integer in [0, 4294967295]), "
                           "got '%.20s'", n + 1, g);
      gids[n++] = (uint32_t)v;
    }
  }
  lua_setfield(L, -2, "data");
}

/* "x1,y1 x2,y2 ..." -> an array of {x = , y = } on top. */
static void push_points(mapfile_tiled *t, const char *s) {
  lua_State *L = t->L;
  lua_newtable(L);
  lua_Integer n = 0;
  while (*s) {
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') s++;
    if (!*s) break;
    char *end;
    double x = strtod(s, &end);
    if (end == s || *end != ',') mapfile_tiled_fail(t, "points: '%.20s' is not x,y", s);
    const char *ys = end + 1;
    double y = strtod(ys, &end);
    if (end == ys || (*end && *end != ' ' && *end != '\t' && *end != '\n' && *end != '\r'))
      mapfile_tiled_fail(t, "points: '%.20s' is not x,y", s);
    if (n == TD_MAPFILE_MAX_VERTICES)
      mapfile_tiled_fail(t, "the map has more than %d path vertices", TD_MAPFILE_MAX_VERTICES);
    lua_createtable(L, 0, 2);
    lua_pushnumber(L, (lua_Number)x);
    lua_setfield(L, -2, "x");
    lua_pushnumber(L, (lua_Number)y);
    lua_setfield(L, -2, "y");
    lua_rawseti(L, -2, ++n);
    s = end;
  }
}

/* An <object> -> its table on top; template: no default shape. */
static void convert_object(mapfile_tiled *t, int from, int32_t node, bool template) {
  lua_State *L = t->L;
  const mapfile_xml *d = doc(t, from);
  mapfile_tiled_stack(t, 8);
  char where[sizeof t->where];
  memcpy(where, t->where, sizeof where);
  const char *id = mapfile_xml_attr(d, node, "id");
  if (id) mapfile_tiled_where(t, "object %.24s", id);
  lua_newtable(L);
  static const char *const nums[] = {"id", "x", "y", "width", "height", "rotation", "gid"};
  for (size_t i = 0; i < sizeof nums / sizeof *nums; i++) set_attr(t, from, node, nums[i], A_NUM);
  set_attr(t, from, node, "name", A_STR);
  set_attr(t, from, node, "type", A_STR);
  set_attr(t, from, node, "class", A_STR);
  static const char *const shapes[] = {"point", "ellipse", "polygon", "polyline", "text"};
  for (int32_t c = d->nodes[node].child; c >= 0; c = d->nodes[c].next)
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++)
      if (strcmp(mapfile_xml_name(d, c), shapes[i]) == 0) {
        lua_pushstring(L, shapes[i]);
        lua_setfield(L, -2, "shape");
        if (i == 2 || i == 3) {
          const char *pts = mapfile_xml_attr(d, c, "points");
          push_points(t, pts ? pts : "");
          lua_setfield(L, -2, shapes[i]);
        }
      }
  set_properties(t, from, node, 0);
  const char *ref = mapfile_xml_attr(d, node, "template");
  if (ref) { /* the template's object, then the instance's own fields over it */
    mapfile_tiled_template(t, from, ref);
    mapfile_tiled_merge(t, -1, -2);
    lua_remove(L, -2);
  }
  if (!template && lua_getfield(L, -1, "shape") == LUA_TNIL) {
    lua_pushstring(L, "rectangle");
    lua_setfield(L, -3, "shape");
  }
  if (!template) lua_pop(L, 1);
  memcpy(t->where, where, sizeof where);
}

static void layers(mapfile_tiled *t, int32_t parent, int depth);

static void layer(mapfile_tiled *t, int32_t node, const char *type, int depth) {
  lua_State *L = t->L;
  const mapfile_xml *d = &t->xml;
  mapfile_tiled_stack(t, 8);
  lua_newtable(L);
  lua_pushstring(L, type);
  lua_setfield(L, -2, "type");
  set_attr(t, -1, node, "id", A_NUM);
  set_attr(t, -1, node, "name", A_STR);
  set_attr(t, -1, node, "offsetx", A_NUM);
  set_attr(t, -1, node, "offsety", A_NUM);
  set_properties(t, -1, node, 0);
  const char *name = mapfile_xml_attr(d, node, "name");
  if (name && name[0]) mapfile_tiled_where(t, "layer '%.63s'", name);
  else mapfile_tiled_where(t, "layer (line %u)", d->nodes[node].line);
  if (strcmp(type, "tilelayer") == 0) {
    tile_layer(t, -1, node);
  } else if (strcmp(type, "objectgroup") == 0) {
    lua_newtable(L);
    lua_Integer n = 0;
    for (int32_t c = d->nodes[node].child; c >= 0; c = d->nodes[c].next) {
      if (strcmp(mapfile_xml_name(&t->xml, c), "object") != 0) continue;
      if (n == TD_MAPFILE_MAX_OBJECTS)
        mapfile_tiled_fail(t, "the map lists more than %d objects (the loader's limit)",
                           TD_MAPFILE_MAX_OBJECTS);
      convert_object(t, -1, c, false);
      lua_rawseti(L, -2, ++n);
    }
    lua_setfield(L, -2, "objects");
  } else if (strcmp(type, "group") == 0 && depth <= TD_MAPFILE_MAX_DEPTH) {
    layers(t, node, depth + 1); /* deeper: phase 1 refuses the group */
    lua_setfield(L, -2, "layers");
  }
  t->where[0] = '\0';
}

/* The layer elements under parent -> an array on top. */
static void layers(mapfile_tiled *t, int32_t parent, int depth) {
  static const char *const kinds[][2] = {{"layer", "tilelayer"}, {"objectgroup", "objectgroup"},
                                         {"group", "group"}, {"imagelayer", "imagelayer"}};
  lua_State *L = t->L;
  lua_newtable(L);
  lua_Integer n = 0;
  for (int32_t c = t->xml.nodes[parent].child; c >= 0; c = t->xml.nodes[c].next)
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
      if (strcmp(mapfile_xml_name(&t->xml, c), kinds[k][0]) == 0) {
        if (n == TD_MAPFILE_MAX_LAYERS)
          mapfile_tiled_fail(t, "the map lists more than %d layers (the loader's limit)",
                             TD_MAPFILE_MAX_LAYERS);
        layer(t, c, kinds[k][1], depth);
        lua_rawseti(L, -2, ++n);
      }
}

/* name and tiles of a <tileset> into the table on top. */
static void tileset_fields(mapfile_tiled *t, int from, int32_t node) {
  lua_State *L = t->L;
  set_attr(t, from, node, "name", A_STR);
  lua_newtable(L);
  lua_Integer n = 0;
  const mapfile_xml *d = doc(t, from);
  for (int32_t c = d->nodes[node].child; c >= 0; c = d->nodes[c].next) {
    if (strcmp(mapfile_xml_name(d, c), "tile") != 0) continue;
    if (n == TD_MAPFILE_MAX_TILESET_TILES)
      mapfile_tiled_fail(t, "the tilesets list more than %d tiles (the loader's limit)",
                         TD_MAPFILE_MAX_TILESET_TILES);
    lua_newtable(L);
    set_attr(t, from, c, "id", A_NUM);
    set_properties(t, from, c, 0);
    lua_rawseti(L, -2, ++n);
  }
  lua_setfield(L, -2, "tiles");
}

void mapfile_tmx_tileset(mapfile_tiled *t, size_t e) {
  const mapfile_xml *d = &t->ext[e].xml;
  if (strcmp(mapfile_xml_name(d, 0), "tileset") != 0)
    mapfile_tiled_fail(t, "tileset '%s': the root element is <%.32s>, expected <tileset>",
                       t->ext[e].shown, mapfile_xml_name(d, 0));
  lua_newtable(t->L);
  tileset_fields(t, (int)e, 0);
}

void mapfile_tmx_template(mapfile_tiled *t, size_t e) {
  const mapfile_xml *d = &t->ext[e].xml;
  if (strcmp(mapfile_xml_name(d, 0), "template") != 0)
    mapfile_tiled_fail(t, "template '%s': the root element is <%.32s>, expected <template>",
                       t->ext[e].shown, mapfile_xml_name(d, 0));
  int32_t o = mapfile_xml_child(d, 0, "object");
  if (o < 0) mapfile_tiled_fail(t, "template '%s': it has no <object>", t->ext[e].shown);
  convert_object(t, (int)e, o, true);
}

void mapfile_tmx_map(mapfile_tiled *t) {
  lua_State *L = t->L;
  const mapfile_xml *d = &t->xml;
  if (strcmp(mapfile_xml_name(d, 0), "map") != 0)
    mapfile_tiled_fail(t, "the root element is <%.32s>, expected <map> (a Tiled map)",
                       mapfile_xml_name(d, 0));
  lua_newtable(L);
  set_attr(t, -1, 0, "orientation", A_STR);
  set_attr(t, -1, 0, "width", A_NUM);
  set_attr(t, -1, 0, "height", A_NUM);
  set_attr(t, -1, 0, "tilewidth", A_NUM);
  set_attr(t, -1, 0, "tileheight", A_NUM);
  set_attr(t, -1, 0, "infinite", A_BOOL);
  mapfile_tiled_where(t, "map");
  set_properties(t, -1, 0, 0);
  lua_newtable(L); /* tilesets */
  lua_Integer n = 0;
  for (int32_t c = d->nodes[0].child; c >= 0; c = d->nodes[c].next) {
    if (strcmp(mapfile_xml_name(d, c), "tileset") != 0) continue;
    if (n == TD_MAPFILE_MAX_TILESETS)
      mapfile_tiled_fail(t, "field 'tilesets': more than %d tilesets (the loader's limit)",
                         TD_MAPFILE_MAX_TILESETS);
    mapfile_tiled_where(t, "tilesets[%lld]", (long long)n + 1);
    const char *src = mapfile_xml_attr(d, c, "source");
    if (src) {
      mapfile_tiled_tileset(t, -1, src);
      mapfile_tiled_copy(t, -1);
      lua_remove(L, -2);
    } else {
      lua_newtable(L);
      tileset_fields(t, -1, c);
    }
    set_attr(t, -1, c, "firstgid", A_NUM);
    lua_rawseti(L, -2, ++n);
  }
  lua_setfield(L, -2, "tilesets");
  t->where[0] = '\0';
  layers(t, 0, 0);
  lua_setfield(L, -2, "layers");
}
