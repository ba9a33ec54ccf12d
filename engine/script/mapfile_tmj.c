/*
** mapfile_tmj.c: the cJSON tree of a Tiled .tmj map (and of its .tsj
** tilesets and .tj templates) -> the tables Tiled's Lua export writes
** (mapfile_int.h), in the sandbox's protected call.
**
** Tiled's JSON is close to its Lua export already: the scalar members of
** the map, a layer, an object, a tileset or a tile become fields of the
** same name (a number without a fraction an integer). What differs is
** converted: `properties` arrays of {name, type, value} become {name =
** value} tables; an object's `point`/`ellipse`/`polygon`/`polyline`/`text`
** become its `shape`; a tile layer's `data` (an array, or a base64 string
** with its `encoding` and `compression`) becomes a userdata of gids
** (mapfile_data.c), `chunks` stays a mark phase 1 refuses. A tileset's
** `source` and an object's `template` are read through mapfile_tiled.c.
**
** Parsing: cJSON_ParseWithLengthOpts, its allocations through td_mem under
** a meter (TD_MAPFILE_MAX_C_BYTES): a 32 MiB file of small numbers would
** otherwise take a gigabyte of cJSON items.
*/
#include "script/mapfile_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

/* ---- parsing ------------------------------------------------------------ */

#define HEADER 16 /* each block starts with its size: cJSON frees without one */

static void *json_malloc(size_t n) {
  if (n > SIZE_MAX - HEADER) return NULL;
  unsigned char *p = td_mem_alloc(n + HEADER);
  if (!p) return NULL;
  memcpy(p, &n, sizeof n);
  return p + HEADER;
}

static void json_free(void *q) {
  if (!q) return;
  unsigned char *p = (unsigned char *)q - HEADER;
  size_t n;
  memcpy(&n, p, sizeof n);
  td_mem_free(p, n + HEADER);
}

cJSON *mapfile_json_parse(const char *data, size_t len, char *msg, size_t size) {
  cJSON_Hooks hooks = {.malloc_fn = json_malloc, .free_fn = json_free};
  cJSON_InitHooks(&hooks);
  td_mem_meter meter = {.limit = TD_MAPFILE_MAX_C_BYTES};
  td_mem_meter *outer = td_mem_meter_set(&meter);
  const char *end = NULL;
  cJSON *j = cJSON_ParseWithLengthOpts(data, len, &end, 0);
  td_mem_meter_set(outer);
  if (!j && end && end > data && end <= data + len) end--; /* cJSON stops past the culprit */
  if (j) { /* nothing but white space may follow */
    const char *p = end;
    while (p < data + len && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')) p++;
    if (p < data + len) {
      cJSON_Delete(j);
      j = NULL;
      end = p;
    }
  }
  if (j) return j;
  if (meter.over) {
    snprintf(msg, size, "1: the JSON needs more than %zu MiB to read (the loader's limit)",
             TD_MAPFILE_MAX_C_BYTES >> 20);
    return NULL;
  }
  if (!end || end < data || end > data + len) end = data + len;
  unsigned long line = 1;
  for (const char *p = data; p < end; p++) line += *p == '\n';
  char near[24];
  size_t n = 0;
  for (const char *p = end; p < data + len && n < sizeof near - 1; p++)
    near[n++] = (char)((unsigned char)*p < 0x20 || *p == 0x7f ? ' ' : *p);
  near[n] = '\0';
  if (n) snprintf(msg, size, "%lu: JSON syntax error near '%s'", line, near);
  else snprintf(msg, size, "%lu: JSON syntax error at the end of the file", line);
  return NULL;
}

/* ---- values --------------------------------------------------------------- */

static const cJSON *doc(const mapfile_tiled *t, int from) {
  return from < 0 ? t->json : t->ext[from].json;
}

/* Pushes a scalar (false when it is not one: nothing pushed). */
static bool push_scalar(mapfile_tiled *t, const cJSON *v) {
  lua_State *L = t->L;
  if (cJSON_IsString(v)) {
    lua_pushstring(L, v->valuestring);
  } else if (cJSON_IsNumber(v)) {
    double d = v->valuedouble;
    if (d == floor(d) && fabs(d) < 9007199254740992.0) lua_pushinteger(L, (lua_Integer)d);
    else lua_pushnumber(L, (lua_Number)d);
  } else if (cJSON_IsBool(v)) {
    lua_pushboolean(L, cJSON_IsTrue(v));
  } else {
    return false;
  }
  return true;
}

/* The scalar members of o, but those in skip, into the table on top. */
static void set_scalars(mapfile_tiled *t, const cJSON *o, const char *const *skip) {
  mapfile_tiled_stack(t, 4);
  for (const cJSON *c = o->child; c; c = c->next) {
    if (!c->string) continue;
    bool skipped = false;
    for (size_t k = 0; skip && skip[k]; k++) skipped |= strcmp(c->string, skip[k]) == 0;
    if (!skipped && push_scalar(t, c)) lua_setfield(t->L, -2, c->string);
  }
}

/* A member that must be an array (or absent: NULL). */
static const cJSON *array_member(mapfile_tiled *t, const cJSON *o, const char *key) {
  const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, key);
  if (!a || cJSON_IsNull(a)) return NULL;
  if (!cJSON_IsArray(a)) mapfile_tiled_fail(t, "field '%s': expected an array", key);
  return a;
}

static void push_value(mapfile_tiled *t, const cJSON *v, int depth);

/* A JSON object's members -> a table on top (class property values). */
static void push_members(mapfile_tiled *t, const cJSON *o, int depth) {
  mapfile_tiled_stack(t, 4);
  lua_newtable(t->L);
  if (depth > 8) return;
  for (const cJSON *c = o->child; c; c = c->next)
    if (c->string) {
      push_value(t, c, depth + 1);
      lua_setfield(t->L, -2, c->string);
    }
}

static void push_value(mapfile_tiled *t, const cJSON *v, int depth) {
  if (push_scalar(t, v)) return;
  if (cJSON_IsObject(v)) push_members(t, v, depth);
  else lua_pushnil(t->L);
}

/* `properties` [{name, type, value}] of o -> field `properties` of the top. */
static void set_properties(mapfile_tiled *t, const cJSON *o) {
  const cJSON *ps = array_member(t, o, "properties");
  if (!ps) return;
  mapfile_tiled_stack(t, 4);
  lua_newtable(t->L);
  size_t i = 0;
  for (const cJSON *p = ps->child; p; p = p->next) {
    i++;
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(p, "name");
    if (!cJSON_IsString(name))
      mapfile_tiled_fail(t, "properties[%zu]: field 'name' is missing (expected a string)", i);
    push_value(t, cJSON_GetObjectItemCaseSensitive(p, "value"), 0);
    lua_setfield(t->L, -2, name->valuestring);
  }
  lua_setfield(t->L, -2, "properties");
}

/* ---- layers and objects ------------------------------------------------- */

static bool tile_size(const cJSON *o, const char *key, int32_t *out) {
  const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
  if (!cJSON_IsNumber(v) || !(v->valuedouble >= 1) || v->valuedouble > TD_MAPFILE_MAX_TILES ||
      v->valuedouble != floor(v->valuedouble))
    return false;
  *out = (int32_t)v->valuedouble;
  return true;
}

static void tile_data(mapfile_tiled *t, const cJSON *l) {
  lua_State *L = t->L;
  int32_t w, h;
  if (cJSON_GetObjectItemCaseSensitive(l, "chunks")) {
    lua_pushboolean(L, 1);
    lua_setfield(L, -2, "chunks");
    return;
  }
  const cJSON *data = cJSON_GetObjectItemCaseSensitive(l, "data");
  if (!data || !tile_size(l, "width", &w) || !tile_size(l, "height", &h))
    return; /* phase 1 names what is missing or wrong */
  const cJSON *enc = cJSON_GetObjectItemCaseSensitive(l, "encoding");
  const cJSON *comp = cJSON_GetObjectItemCaseSensitive(l, "compression");
  if (cJSON_IsString(data)) {
    mapfile_data_decode(t, data->valuestring, strlen(data->valuestring),
                        cJSON_IsString(enc) ? enc->valuestring : "base64",
                        cJSON_IsString(comp) ? comp->valuestring : NULL, w, h);
  } else if (cJSON_IsArray(data)) {
    size_t cells = (size_t)w * (size_t)h, n = (size_t)cJSON_GetArraySize(data);
    if (n != cells)
      mapfile_tiled_fail(t, "data has %zu entries, expected %zu (%dx%d)", n, cells, w, h);
    uint32_t *gids = mapfile_data_new(t, w, h);
    n = 0;
    for (const cJSON *c = data->child; c; c = c->next, n++) {
      double v = cJSON_IsNumber(c) ? c->valuedouble : -1;
      if (!(v >= 0) || v > 4294967295.0 || v != floor(v))
        mapfile_tiled_fail(t, "data[%zu]: expected a tile gid (integer in [0, 4294967295])",
                           n + 1);
      gids[n] = (uint32_t)v;
    }
  } else {
    mapfile_tiled_fail(t, "field 'data': expected an array or a base64 string");
  }
  lua_setfield(L, -2, "data");
}

/* An array of {x, y} -> an array of tables on top. */
static void push_points(mapfile_tiled *t, const cJSON *a) {
  lua_State *L = t->L;
  lua_newtable(L);
  lua_Integer n = 0;
  for (const cJSON *c = a->child; c; c = c->next) {
    if (n == TD_MAPFILE_MAX_VERTICES)
      mapfile_tiled_fail(t, "the map has more than %d path vertices", TD_MAPFILE_MAX_VERTICES);
    lua_newtable(L);
    if (cJSON_IsObject(c)) set_scalars(t, c, NULL);
    lua_rawseti(L, -2, ++n);
  }
}

/* An object -> its table on top; template: no default shape. */
static void convert_object(mapfile_tiled *t, int from, const cJSON *o, bool template) {
  lua_State *L = t->L;
  mapfile_tiled_stack(t, 8);
  char where[sizeof t->where];
  memcpy(where, t->where, sizeof where);
  const cJSON *id = cJSON_GetObjectItemCaseSensitive(o, "id");
  if (cJSON_IsNumber(id)) mapfile_tiled_where(t, "object %.0f", id->valuedouble);
  lua_newtable(L);
  if (!cJSON_IsObject(o)) {
    if (!template) {
      lua_pushstring(L, "rectangle");
      lua_setfield(L, -2, "shape");
    }
    memcpy(t->where, where, sizeof where);
    return; /* phase 1: fields missing */
  }
  static const char *const skip[] = {"point", "ellipse", "text", "template", "shape", NULL};
  set_scalars(t, o, skip);
  const char *shape = NULL;
  if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "point"))) shape = "point";
  if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "ellipse"))) shape = "ellipse";
  if (cJSON_GetObjectItemCaseSensitive(o, "text")) shape = "text";
  static const char *const lines[] = {"polygon", "polyline"};
  for (int k = 0; k < 2; k++) {
    const cJSON *a = array_member(t, o, lines[k]);
    if (a) {
      shape = lines[k];
      push_points(t, a);
      lua_setfield(L, -2, lines[k]);
    }
  }
  if (shape) {
    lua_pushstring(L, shape);
    lua_setfield(L, -2, "shape");
  }
  set_properties(t, o);
  const cJSON *ref = cJSON_GetObjectItemCaseSensitive(o, "template");
  if (cJSON_IsString(ref)) {
    mapfile_tiled_template(t, from, ref->valuestring);
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

static void layers(mapfile_tiled *t, const cJSON *a, int depth);

static void layer(mapfile_tiled *t, const cJSON *l, size_t index, int depth) {
  lua_State *L = t->L;
  mapfile_tiled_stack(t, 8);
  lua_newtable(L);
  if (!cJSON_IsObject(l)) return; /* phase 1: "field 'type' is missing" */
  static const char *const skip[] = {"encoding", "compression", "data", NULL};
  set_scalars(t, l, skip);
  set_properties(t, l);
  const cJSON *name = cJSON_GetObjectItemCaseSensitive(l, "name");
  const cJSON *type = cJSON_GetObjectItemCaseSensitive(l, "type");
  if (cJSON_IsString(name) && name->valuestring[0])
    mapfile_tiled_where(t, "layer '%.63s'", name->valuestring);
  else mapfile_tiled_where(t, "layers[%zu]", index);
  const char *ty = cJSON_IsString(type) ? type->valuestring : "";
  if (strcmp(ty, "tilelayer") == 0) {
    tile_data(t, l);
  } else if (strcmp(ty, "objectgroup") == 0) {
    const cJSON *os = array_member(t, l, "objects");
    if (os) {
      lua_newtable(L);
      lua_Integer n = 0;
      for (const cJSON *o = os->child; o; o = o->next) {
        if (n == TD_MAPFILE_MAX_OBJECTS)
          mapfile_tiled_fail(t, "the map lists more than %d objects (the loader's limit)",
                             TD_MAPFILE_MAX_OBJECTS);
        convert_object(t, -1, o, false);
        lua_rawseti(L, -2, ++n);
      }
      lua_setfield(L, -2, "objects");
    }
  } else if (strcmp(ty, "group") == 0 && depth <= TD_MAPFILE_MAX_DEPTH) {
    const cJSON *sub = array_member(t, l, "layers");
    if (sub) {
      layers(t, sub, depth + 1);
      lua_setfield(L, -2, "layers");
    }
  }
  t->where[0] = '\0';
}

static void layers(mapfile_tiled *t, const cJSON *a, int depth) {
  lua_newtable(t->L);
  lua_Integer n = 0;
  for (const cJSON *l = a->child; l; l = l->next) {
    if (n == TD_MAPFILE_MAX_LAYERS)
      mapfile_tiled_fail(t, "the map lists more than %d layers (the loader's limit)",
                         TD_MAPFILE_MAX_LAYERS);
    layer(t, l, (size_t)n + 1, depth);
    lua_rawseti(t->L, -2, ++n);
  }
}

/* ---- tilesets, templates, the map ---------------------------------------- */

/* The scalars and tiles of tileset ts into the table on top. */
static void tileset_fields(mapfile_tiled *t, const cJSON *ts) {
  lua_State *L = t->L;
  static const char *const skip[] = {"firstgid", "source", NULL};
  set_scalars(t, ts, skip);
  const cJSON *tiles = array_member(t, ts, "tiles");
  if (!tiles) return;
  lua_newtable(L);
  lua_Integer n = 0;
  for (const cJSON *c = tiles->child; c; c = c->next) {
    if (n == TD_MAPFILE_MAX_TILESET_TILES)
      mapfile_tiled_fail(t, "the tilesets list more than %d tiles (the loader's limit)",
                         TD_MAPFILE_MAX_TILESET_TILES);
    lua_newtable(L);
    if (cJSON_IsObject(c)) {
      static const char *const tskip[] = {"properties", NULL};
      set_scalars(t, c, tskip);
      set_properties(t, c);
    }
    lua_rawseti(L, -2, ++n);
  }
  lua_setfield(L, -2, "tiles");
}

void mapfile_tmj_tileset(mapfile_tiled *t, size_t e) {
  const cJSON *ts = t->ext[e].json;
  if (!cJSON_IsObject(ts))
    mapfile_tiled_fail(t, "tileset '%s': expected a JSON object", t->ext[e].shown);
  lua_newtable(t->L);
  tileset_fields(t, ts);
}

void mapfile_tmj_template(mapfile_tiled *t, size_t e) {
  const cJSON *o = cJSON_GetObjectItemCaseSensitive(t->ext[e].json, "object");
  if (!cJSON_IsObject(o))
    mapfile_tiled_fail(t, "template '%s': it has no 'object'", t->ext[e].shown);
  convert_object(t, (int)e, o, true);
}

void mapfile_tmj_map(mapfile_tiled *t) {
  lua_State *L = t->L;
  const cJSON *m = doc(t, -1);
  if (!cJSON_IsObject(m))
    mapfile_tiled_fail(t, "the file must be a JSON object ({ ... }), a Tiled map");
  lua_newtable(L);
  static const char *const skip[] = {"type", NULL};
  set_scalars(t, m, skip);
  mapfile_tiled_where(t, "map");
  set_properties(t, m);
  const cJSON *ts = array_member(t, m, "tilesets");
  if (ts) {
    lua_newtable(L);
    lua_Integer n = 0;
    for (const cJSON *c = ts->child; c; c = c->next) {
      if (n == TD_MAPFILE_MAX_TILESETS)
        mapfile_tiled_fail(t, "field 'tilesets': more than %d tilesets (the loader's limit)",
                           TD_MAPFILE_MAX_TILESETS);
      mapfile_tiled_where(t, "tilesets[%lld]", (long long)n + 1);
      const cJSON *src = cJSON_GetObjectItemCaseSensitive(c, "source");
      if (cJSON_IsString(src)) {
        mapfile_tiled_tileset(t, -1, src->valuestring);
        mapfile_tiled_copy(t, -1);
        lua_remove(L, -2);
      } else {
        lua_newtable(L);
        if (cJSON_IsObject(c)) tileset_fields(t, c);
      }
      const cJSON *first = cJSON_GetObjectItemCaseSensitive(c, "firstgid");
      if (first && push_scalar(t, first)) lua_setfield(L, -2, "firstgid");
      lua_rawseti(L, -2, ++n);
    }
    lua_setfield(L, -2, "tilesets");
  }
  t->where[0] = '\0';
  const cJSON *ls = array_member(t, m, "layers");
  if (ls) {
    layers(t, ls, 0);
    lua_setfield(L, -2, "layers");
  }
}
