/*
** mapfile_lua.c: phase 1 of the map loader (mapfile_int.h): the table a
** Tiled Lua export returns -> `extract`.
**
** Runs inside the sandbox's protected call: walk the returned table with raw
** accesses (no metatable can exist in an empty environment, but raw access
** does not rely on it), check every field's type and range, and copy what is
** needed into the C arrays of `extract`. Every td_mem block is stored into
** `extract` before the next Lua call that could raise, so an error (ours,
** raised as a string, or Lua's memory error) that unwinds the C frames leaks
** nothing: the caller frees `extract`.
*/
#include "script/mapfile_int.h"

#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const mapfile_class_names[CLASS_COUNT] = {"path", "spawn", "goal", "tower_base"};

void mapfile_extract_free(extract *x) {
  td_mem_free(x->tiles, x->tile_cap * sizeof *x->tiles);
  for (size_t i = 0; i < x->layer_count; i++)
    if (!x->layers[i].shared)
      td_mem_free(x->layers[i].gids, (size_t)x->layers[i].width *
                                         (size_t)x->layers[i].height * sizeof(uint32_t));
  td_mem_free(x->layers, x->layer_cap * sizeof *x->layers);
  td_mem_free(x->objs, x->obj_cap * sizeof *x->objs);
  td_mem_free(x->verts, x->vert_cap * sizeof *x->verts);
  td_mem_free(x->data_of, x->data_cap * sizeof *x->data_of);
  memset(x, 0, sizeof *x);
}

/* ---- phase 1: checked reads ------------------------------------------- */

static void fail(extract *x, const char *fmt, ...) NORETURN_PRINTF(2, 3);
static void fail(extract *x, const char *fmt, ...) {
  char msg[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (x->where[0]) lua_pushfstring(x->L, "%s: %s", x->where, msg);
  else lua_pushstring(x->L, msg);
  lua_error(x->L);
  abort(); /* not reached: lua_error does not return */
}

static const char *type_name(extract *x, int type) {
  return lua_typename(x->L, type);
}

/* Pushes t[key] without metamethods and returns its type. [-0, +1] */
static int field(extract *x, int t, const char *key) {
  lua_pushstring(x->L, key);
  return lua_rawget(x->L, t);
}

/* Optional integer field in [lo, hi]; false when absent. [-0, +0] */
static bool opt_integer(extract *x, int t, const char *key, lua_Integer lo,
                        lua_Integer hi, lua_Integer *out) {
  int type = field(x, t, key);
  if (type == LUA_TNIL) {
    lua_pop(x->L, 1);
    return false;
  }
  if (type != LUA_TNUMBER)
    fail(x, "field '%s': expected an integer, got %s", key, type_name(x, type));
  int isint = 0;
  lua_Integer v = lua_tointegerx(x->L, -1, &isint);
  if (!isint)
    fail(x, "field '%s': expected an integer, got %g", key, (double)lua_tonumber(x->L, -1));
  if (v < lo || v > hi)
    fail(x, "field '%s': %lld is out of range [%lld, %lld]", key, (long long)v,
         (long long)lo, (long long)hi);
  lua_pop(x->L, 1);
  *out = v;
  return true;
}

static lua_Integer req_integer(extract *x, int t, const char *key, lua_Integer lo,
                               lua_Integer hi) {
  lua_Integer v = 0;
  if (!opt_integer(x, t, key, lo, hi, &v))
    fail(x, "field '%s' is missing (expected an integer)", key);
  return v;
}

/* Optional finite number field in [lo, hi]; false when absent. [-0, +0] */
static bool opt_number(extract *x, int t, const char *key, double lo, double hi,
                       double *out) {
  int type = field(x, t, key);
  if (type == LUA_TNIL) {
    lua_pop(x->L, 1);
    return false;
  }
  if (type != LUA_TNUMBER)
    fail(x, "field '%s': expected a number, got %s", key, type_name(x, type));
  double v = (double)lua_tonumber(x->L, -1);
  if (!isfinite(v)) fail(x, "field '%s': expected a finite number, got %g", key, v);
  if (v < lo || v > hi) fail(x, "field '%s': %g is out of range [%g, %g]", key, v, lo, hi);
  lua_pop(x->L, 1);
  *out = v;
  return true;
}

static double req_number(extract *x, int t, const char *key, double lo, double hi) {
  double v = 0;
  if (!opt_number(x, t, key, lo, hi, &v))
    fail(x, "field '%s' is missing (expected a number)", key);
  return v;
}

/* Optional string field, copied (truncated) into buf; false when absent.
** Control characters become '?': names end up in one-line messages and on
** screen. */
static bool opt_string(extract *x, int t, const char *key, char *buf, size_t size) {
  int type = field(x, t, key);
  if (type == LUA_TNIL) {
    lua_pop(x->L, 1);
    return false;
  }
  if (type != LUA_TSTRING)
    fail(x, "field '%s': expected a string, got %s", key, type_name(x, type));
  size_t len = 0;
  const char *s = lua_tolstring(x->L, -1, &len);
  size_t n = len < size - 1 ? len : size - 1;
  for (size_t i = 0; i < n; i++)
    buf[i] = (char)((unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i]);
  buf[n] = '\0';
  lua_pop(x->L, 1);
  return true;
}

static bool opt_boolean(extract *x, int t, const char *key, bool *out) {
  int type = field(x, t, key);
  if (type == LUA_TNIL) {
    lua_pop(x->L, 1);
    return false;
  }
  if (type != LUA_TBOOLEAN)
    fail(x, "field '%s': expected a boolean, got %s", key, type_name(x, type));
  *out = lua_toboolean(x->L, -1);
  lua_pop(x->L, 1);
  return true;
}

/* Optional table field: returns its absolute index with the table pushed,
** or 0 with nothing pushed when absent. */
static int opt_table(extract *x, int t, const char *key) {
  int type = field(x, t, key);
  if (type == LUA_TNIL) {
    lua_pop(x->L, 1);
    return 0;
  }
  if (type != LUA_TTABLE)
    fail(x, "field '%s': expected a table, got %s", key, type_name(x, type));
  return lua_gettop(x->L);
}

static int req_table(extract *x, int t, const char *key) {
  int i = opt_table(x, t, key);
  if (!i) fail(x, "field '%s' is missing (expected a table)", key);
  return i;
}

/* Pushes array element t[i], which must be a table; returns its index. */
static int elem_table(extract *x, int t, lua_Integer i, const char *array) {
  int type = lua_rawgeti(x->L, t, i);
  if (type != LUA_TTABLE)
    fail(x, "%s[%lld]: expected a table, got %s", array, (long long)i, type_name(x, type));
  return lua_gettop(x->L);
}

/* Length of an array field, bounded so that size_t arithmetic is safe (the
** memory cap bounds real tables far below this). */
static size_t array_len(extract *x, int t) {
  lua_Unsigned n = lua_rawlen(x->L, t);
  if (n > (lua_Unsigned)INT32_MAX) fail(x, "array too long");
  return (size_t)n;
}

/* Room for n more values: the C API does not check (Debian builds Lua
** without api checks), and group layers nest. */
static void need_stack(extract *x, int n) {
  if (!lua_checkstack(x->L, n)) fail(x, "out of memory (Lua stack)");
}

/* Takes n more C bytes from the budget of TD_MAPFILE_MAX_C_BYTES. */
static void take_bytes(extract *x, size_t n) {
  if (n > TD_MAPFILE_MAX_C_BYTES - x->bytes)
    fail(x, "the map needs more than %zu MiB outside Lua (the loader's limit)",
         TD_MAPFILE_MAX_C_BYTES >> 20);
  x->bytes += n;
}

/* td_mem_grow's doubling, with the growth taken from the byte budget first. */
static void *grow(extract *x, void *p, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) return p;
  size_t ncap = *cap ? *cap : 8;
  while (ncap < need) ncap = ncap <= SIZE_MAX / 2 ? ncap * 2 : need;
  size_t room = (TD_MAPFILE_MAX_C_BYTES - x->bytes) / elem + *cap; /* what the budget allows */
  if (ncap > room) ncap = need; /* near the budget: no more than needed */
  if (ncap > room) take_bytes(x, TD_MAPFILE_MAX_C_BYTES + 1); /* refuses */
  take_bytes(x, (ncap - *cap) * elem);
  void *q = td_mem_realloc(p, *cap * elem, ncap * elem);
  if (!q) fail(x, "out of memory");
  *cap = ncap;
  return q;
}

static void set_where(extract *x, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void set_where(extract *x, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(x->where, sizeof x->where, fmt, ap);
  va_end(ap);
}

/* ---- phase 1: the map table ------------------------------------------- */

static void read_header(extract *x, int m) {
  char orient[32];
  if (!opt_string(x, m, "orientation", orient, sizeof orient))
    fail(x, "field 'orientation' is missing (expected \"orthogonal\")");
  if (strcmp(orient, "orthogonal") != 0)
    fail(x, "orientation '%s' is not supported (only orthogonal maps)", orient);
  bool infinite = false;
  if (opt_boolean(x, m, "infinite", &infinite) && infinite)
    fail(x, "infinite maps are not supported (untick Infinite in the map properties)");
  x->width = (int32_t)req_integer(x, m, "width", 1, TD_MAPFILE_MAX_TILES);
  x->height = (int32_t)req_integer(x, m, "height", 1, TD_MAPFILE_MAX_TILES);
  x->tile_w = (int32_t)req_integer(x, m, "tilewidth", 1, 4096);
  x->tile_h = (int32_t)req_integer(x, m, "tileheight", 1, 4096);
}

/* Property `road_width` of the properties table at t, if present: a
** positive finite number up to TD_MAPFILE_MAX_ROAD_WIDTH, and still
** positive as the float the map keeps (1e-300 is not). [-0, +0] */
static bool opt_road_width(extract *x, int t, double *out) {
  int type = field(x, t, "road_width");
  if (type == LUA_TNIL) {
    lua_pop(x->L, 1);
    return false;
  }
  if (type != LUA_TNUMBER)
    fail(x, "property 'road_width': expected a number, got %s", type_name(x, type));
  double w = (double)lua_tonumber(x->L, -1);
  if (!(w > 0.0) || !((float)w > 0.0f) || !(w <= TD_MAPFILE_MAX_ROAD_WIDTH))
    fail(x, "property 'road_width' must be > 0 and <= %.0f, is %g", TD_MAPFILE_MAX_ROAD_WIDTH,
         w);
  lua_pop(x->L, 1);
  *out = w;
  return true;
}

/* The map's own properties: `road_width`, the default of its paths (one
** tile without it); `title`, `description` and `order`, what a menu shows
** and sorts by (TD_MAPFILE_MAX_ORDER). */
static void read_map_properties(extract *x, int m) {
  x->road_width = (double)x->tile_w;
  set_where(x, "map");
  int props = opt_table(x, m, "properties");
  if (props) {
    lua_Integer order = 0;
    opt_road_width(x, props, &x->road_width);
    opt_string(x, props, "title", x->title, sizeof x->title);
    opt_string(x, props, "description", x->description, sizeof x->description);
    if (opt_integer(x, props, "order", -TD_MAPFILE_MAX_ORDER, TD_MAPFILE_MAX_ORDER, &order))
      x->order = (int32_t)order;
    lua_pop(x->L, 1);
  }
  x->where[0] = '\0';
}

/* Records the `walkable` property of every tile of every embedded tileset. */
static void read_tilesets(extract *x, int m) {
  int ts = opt_table(x, m, "tilesets");
  if (!ts) return;
  size_t n = array_len(x, ts);
  if (n > TD_MAPFILE_MAX_TILESETS)
    fail(x, "field 'tilesets': %zu tilesets, more than %d (the loader's limit)", n,
         TD_MAPFILE_MAX_TILESETS);
  for (size_t i = 1; i <= n; i++) {
    x->where[0] = '\0';
    int t = elem_table(x, ts, (lua_Integer)i, "tilesets");
    char name[64] = "";
    opt_string(x, t, "name", name, sizeof name);
    if (name[0]) set_where(x, "tileset '%s'", name);
    else set_where(x, "tilesets[%zu]", i);
    lua_Integer first = req_integer(x, t, "firstgid", 1, GID_MAX);
    int tiles = opt_table(x, t, "tiles");
    if (tiles) {
      size_t tn = array_len(x, tiles);
      if (tn > TD_MAPFILE_MAX_TILESET_TILES - x->tileset_tiles_seen)
        fail(x, "the tilesets list more than %d tiles (the loader's limit)",
             TD_MAPFILE_MAX_TILESET_TILES);
      x->tileset_tiles_seen += tn;
      size_t keep = strlen(x->where);
      for (size_t k = 1; k <= tn; k++) {
        x->where[keep] = '\0';
        int e = elem_table(x, tiles, (lua_Integer)k, "tiles");
        snprintf(x->where + keep, sizeof x->where - keep, ": tiles[%zu]", k);
        lua_Integer id = req_integer(x, e, "id", 0, (lua_Integer)GID_MAX - first);
        int props = opt_table(x, e, "properties");
        if (props) {
          int type = field(x, props, "walkable");
          if (type != LUA_TNIL && type != LUA_TBOOLEAN)
            fail(x, "property 'walkable': expected a boolean, got %s", type_name(x, type));
          if (type == LUA_TBOOLEAN) {
            x->tiles = grow(x, x->tiles, &x->tile_cap, x->tile_count + 1, sizeof *x->tiles);
            x->tiles[x->tile_count] = (walk_tile){.gid = (uint32_t)(first + id),
                                                  .walkable = (uint8_t)lua_toboolean(x->L, -1),
                                                  .seq = (uint32_t)x->tile_count};
            x->tile_count++;
          }
          lua_pop(x->L, 2); /* walkable, properties */
        }
        lua_pop(x->L, 1); /* tile */
      }
      lua_pop(x->L, 1); /* tiles */
    }
    lua_pop(x->L, 1); /* tileset */
  }
  lua_pop(x->L, 1); /* tilesets */
  x->where[0] = '\0';
}

static void read_tile_layer(extract *x, int l, int32_t id, const char *name,
                            double ox, double oy) {
  int32_t w = (int32_t)req_integer(x, l, "width", 1, TD_MAPFILE_MAX_TILES);
  int32_t h = (int32_t)req_integer(x, l, "height", 1, TD_MAPFILE_MAX_TILES);
  if (w != x->width || h != x->height)
    fail(x, "size %dx%d differs from the map's %dx%d", w, h, x->width, x->height);
  int type = field(x, l, "chunks");
  if (type != LUA_TNIL) fail(x, "chunks (infinite maps) are not supported");
  lua_pop(x->L, 1);
  char enc[32];
  bool base64 = false;
  if (opt_string(x, l, "encoding", enc, sizeof enc) && strcmp(enc, "lua") != 0) {
    if (strcmp(enc, "base64") != 0)
      fail(x, "encoding '%s' is not supported (set the tile layer format to CSV in "
              "the map properties)", enc);
    base64 = true;
  }
  int d = 0;
  if (base64) {
    /* the Lua export of a map whose layer format is base64: a string,
    ** decoded (and decompressed) as Tiled's XML and JSON are */
    char comp[32] = "";
    opt_string(x, l, "compression", comp, sizeof comp);
    if (field(x, l, "data") != LUA_TSTRING)
      fail(x, "field 'data': expected a base64 string, got %s",
           type_name(x, lua_type(x->L, -1)));
    size_t slen = 0;
    const char *str = lua_tolstring(x->L, -1, &slen);
    mapfile_tiled t;
    memset(&t, 0, sizeof t);
    t.L = x->L;
    memcpy(t.where, x->where, sizeof t.where < sizeof x->where ? sizeof t.where : sizeof x->where);
    t.where[sizeof t.where - 1] = '\0';
    mapfile_data_decode(&t, str, slen, "base64", comp, w, h); /* [string, gids] */
    lua_remove(x->L, -2);
    d = lua_gettop(x->L);
  } else if (field(x, l, "data") == LUA_TUSERDATA) {
    /* a userdata: the gids Tiled's XML or JSON held (mapfile_data.c; a Lua
    ** file cannot make one) */
    d = lua_gettop(x->L);
  } else {
    lua_pop(x->L, 1);
    d = req_table(x, l, "data");
  }
  bool packed = lua_type(x->L, d) == LUA_TUSERDATA;
  size_t cells = (size_t)w * (size_t)h;
  size_t n = packed ? lua_rawlen(x->L, d) / sizeof(uint32_t) : array_len(x, d);
  if (n != cells)
    fail(x, "data has %zu entries, expected %zu (%dx%d)", n, cells, w, h);
  if (cells > TD_MAPFILE_MAX_CELLS - x->cells_seen)
    fail(x, "the tile layers have more than %zu cells in all (the loader's limit)",
         TD_MAPFILE_MAX_CELLS);
  x->cells_seen += cells;
  x->layers = grow(x, x->layers, &x->layer_cap, x->layer_count + 1, sizeof *x->layers);
  x->data_of = grow(x, x->data_of, &x->data_cap, x->layer_count + 1, sizeof *x->data_of);
  const void *table = lua_topointer(x->L, d); /* compared, never ordered */
  x->data_of[x->layer_count] = table;
  td_map_layer *ly = &x->layers[x->layer_count];
  memset(ly, 0, sizeof *ly);
  ly->id = id;
  snprintf(ly->name, sizeof ly->name, "%s", name);
  ly->offset_x = ox;
  ly->offset_y = oy;
  /* the very table of an earlier layer (a file can list one table many
  ** times; Tiled never does): share its gids, checked already (at most
  ** MAX_LAYERS earlier layers to look through) */
  for (size_t j = 0; j < x->layer_count; j++)
    if (x->data_of[j] == table && !x->layers[j].shared) {
      ly->gids = x->layers[j].gids;
      ly->shared = 1;
      ly->width = w;
      ly->height = h;
      x->layer_count++;
      lua_pop(x->L, 1); /* data */
      return;
    }
  take_bytes(x, cells * sizeof(uint32_t));
  uint32_t *gids = td_mem_alloc(cells * sizeof *gids);
  if (!gids) fail(x, "out of memory");
  ly->gids = gids;
  ly->width = w;  /* from here on extract_free frees gids by this size */
  ly->height = h;
  x->layer_count++;
  if (packed) {
    memcpy(gids, lua_touserdata(x->L, d), cells * sizeof *gids);
    lua_pop(x->L, 1); /* data */
    return;
  }
  for (size_t k = 0; k < cells; k++) {
    int t = lua_rawgeti(x->L, d, (lua_Integer)k + 1);
    int isint = 0;
    lua_Integer v = t == LUA_TNUMBER ? lua_tointegerx(x->L, -1, &isint) : 0;
    if (!isint || v < 0 || v > (lua_Integer)UINT32_MAX)
      fail(x, "data[%zu]: expected a tile gid (integer in [0, 4294967295]), got %s",
           k + 1, t == LUA_TNUMBER ? "an out-of-range number" : type_name(x, t));
    gids[k] = (uint32_t)v;
    lua_pop(x->L, 1);
  }
  lua_pop(x->L, 1); /* data */
}

static bool coord_ok(double v) {
  return isfinite(v) && fabs(v) <= TD_MAPFILE_MAX_COORD;
}

static void read_path(extract *x, int o, object *ob, const char *shape, double rot) {
  int pv = req_table(x, o, shape);
  size_t n = array_len(x, pv);
  if (n < 2) fail(x, "a path needs at least 2 vertices, has %zu", n);
  if (n > TD_MAPFILE_MAX_VERTICES - x->vert_count)
    fail(x, "the map has more than %d path vertices", TD_MAPFILE_MAX_VERTICES);
  /* Tiled rotates clockwise on screen (y down) around the object's origin */
  double a = rot * (3.14159265358979323846 / 180.0), c = cos(a), s = sin(a);
  size_t keep = strlen(x->where);
  ob->v0 = x->vert_count;
  ob->vn = n;
  for (size_t k = 1; k <= n; k++) {
    x->where[keep] = '\0';
    int e = elem_table(x, pv, (lua_Integer)k, shape);
    snprintf(x->where + keep, sizeof x->where - keep, ": %s[%zu]", shape, k);
    double vx = req_number(x, e, "x", -TD_MAPFILE_MAX_COORD * 2, TD_MAPFILE_MAX_COORD * 2);
    double vy = req_number(x, e, "y", -TD_MAPFILE_MAX_COORD * 2, TD_MAPFILE_MAX_COORD * 2);
    vertex v = {ob->x + vx * c - vy * s, ob->y + vx * s + vy * c}; /* exact at 0 */
    if (!coord_ok(v.x) || !coord_ok(v.y))
      fail(x, "vertex at (%g, %g) is outside the coordinate range [-1e6, 1e6]", v.x, v.y);
    x->verts = grow(x, x->verts, &x->vert_cap, x->vert_count + 1, sizeof *x->verts);
    x->verts[x->vert_count++] = v;
    lua_pop(x->L, 1);
  }
  x->where[keep] = '\0';
  lua_pop(x->L, 1); /* vertex array */
  ob->cost = 1.0;
  ob->road_width = x->road_width;
  int props = opt_table(x, o, "properties");
  if (props) {
    opt_road_width(x, props, &ob->road_width);
    int type = field(x, props, "cost");
    if (type != LUA_TNIL) {
      if (type != LUA_TNUMBER)
        fail(x, "property 'cost': expected a number, got %s", type_name(x, type));
      double cost = (double)lua_tonumber(x->L, -1);
      if (!(cost > 0.0) || !(cost <= TD_MAPFILE_MAX_COST))
        fail(x, "property 'cost' must be > 0 and <= %g, is %g", TD_MAPFILE_MAX_COST, cost);
      ob->cost = cost;
    }
    lua_pop(x->L, 2);
  }
}

/* One object of an object layer; objects of other classes are skipped
** without further checks (they are decoration for other tools). */
static void read_object(extract *x, int o, double ox, double oy, const char *layer,
                        size_t index) {
  char cls[64] = "";
  if (!opt_string(x, o, "class", cls, sizeof cls) || !cls[0])
    opt_string(x, o, "type", cls, sizeof cls);
  int k = 0;
  while (k < CLASS_COUNT && strcmp(cls, mapfile_class_names[k]) != 0) k++;
  if (k == CLASS_COUNT) return;
  lua_Integer id = req_integer(x, o, "id", 0, INT32_MAX);
  set_where(x, "object %lld (%s)", (long long)id, mapfile_class_names[k]);
  object ob;
  memset(&ob, 0, sizeof ob);
  ob.id = (int32_t)id;
  ob.cls = k;
  ob.index = (uint32_t)index;
  snprintf(ob.layer, sizeof ob.layer, "%.*s", (int)sizeof ob.layer - 1, layer);
  opt_string(x, o, "name", ob.name, sizeof ob.name);
  char shape[32] = "rectangle";
  opt_string(x, o, "shape", shape, sizeof shape);
  ob.x = req_number(x, o, "x", -TD_MAPFILE_MAX_COORD, TD_MAPFILE_MAX_COORD) + ox;
  ob.y = req_number(x, o, "y", -TD_MAPFILE_MAX_COORD, TD_MAPFILE_MAX_COORD) + oy;
  opt_number(x, o, "width", 0, TD_MAPFILE_MAX_COORD, &ob.w);
  opt_number(x, o, "height", 0, TD_MAPFILE_MAX_COORD, &ob.h);
  double rot = 0;
  opt_number(x, o, "rotation", -1e6, 1e6, &rot);
  lua_Integer gid = 0;
  bool tile_object = opt_integer(x, o, "gid", 0, UINT32_MAX, &gid) && gid != 0;
  if (!coord_ok(ob.x) || !coord_ok(ob.y))
    fail(x, "position (%g, %g) is outside the coordinate range [-1e6, 1e6]", ob.x, ob.y);
  switch (k) {
  case CLASS_PATH:
    if (strcmp(shape, "polyline") != 0 && strcmp(shape, "polygon") != 0)
      fail(x, "a path must be a polyline (or a polygon), not a %s", shape);
    ob.closed = shape[4] == 'g';
    read_path(x, o, &ob, shape, rot);
    break;
  case CLASS_SPAWN:
  case CLASS_GOAL:
    if (strcmp(shape, "point") != 0 || tile_object)
      fail(x, "a %s must be a point object, not a %s", mapfile_class_names[k],
           tile_object ? "tile object" : shape);
    if (k == CLASS_SPAWN && x->spawn_count++ == TD_MAPFILE_MAX_SPAWNS)
      fail(x, "the map has more than %d spawns (the loader's limit)", TD_MAPFILE_MAX_SPAWNS);
    if (k == CLASS_GOAL && x->goal_count++ == TD_MAPFILE_MAX_GOALS)
      fail(x, "the map has more than %d goals (the loader's limit)", TD_MAPFILE_MAX_GOALS);
    break;
  default: /* CLASS_BASE */
    if (strcmp(shape, "rectangle") != 0)
      fail(x, "a tower_base must be a rectangle, not a %s", shape);
    if (!(ob.w > 0) || !(ob.h > 0))
      fail(x, "a tower_base needs a positive width and height, has %gx%g", ob.w, ob.h);
    if (rot != 0.0) fail(x, "rotated tower bases are not supported (rotation %g)", rot);
    if (tile_object) ob.y -= ob.h; /* tile objects are anchored bottom-left */
    if (!coord_ok(ob.x + ob.w) || !coord_ok(ob.y) || !coord_ok(ob.y + ob.h))
      fail(x, "rectangle is outside the coordinate range [-1e6, 1e6]");
    if (x->base_count >= TD_MAPFILE_MAX_BASES)
      fail(x, "the map has more than %d tower bases", TD_MAPFILE_MAX_BASES);
    int props = opt_table(x, o, "properties");
    if (props) {
      bool blocking = true;
      int type = field(x, props, "blocking");
      if (type != LUA_TNIL && type != LUA_TBOOLEAN)
        fail(x, "property 'blocking': expected a boolean, got %s", type_name(x, type));
      if (type == LUA_TBOOLEAN) blocking = lua_toboolean(x->L, -1);
      ob.pad = !blocking;
      lua_pop(x->L, 2);
    }
    x->base_count++;
    break;
  }
  x->objs = grow(x, x->objs, &x->obj_cap, x->obj_count + 1, sizeof *x->objs);
  x->objs[x->obj_count++] = ob;
}

static void read_layers(extract *x, int lt, double ox, double oy, int depth) {
  need_stack(x, 12); /* a layer, its objects, an object, its polyline, a vertex, a field */
  size_t n = array_len(x, lt);
  for (size_t i = 1; i <= n; i++) {
    int top = lua_gettop(x->L);
    x->where[0] = '\0';
    int l = elem_table(x, lt, (lua_Integer)i, "layers");
    char name[64] = "", type[32];
    opt_string(x, l, "name", name, sizeof name);
    if (name[0]) set_where(x, "layer '%s'", name);
    else set_where(x, "layers[%zu]", i);
    if (x->layers_seen++ == TD_MAPFILE_MAX_LAYERS)
      fail(x, "the map lists more than %d layers (a group's layers count each time the "
              "group is listed; the loader's limit)", TD_MAPFILE_MAX_LAYERS);
    if (!opt_string(x, l, "type", type, sizeof type))
      fail(x, "field 'type' is missing (expected a string)");
    lua_Integer id = 0;
    opt_integer(x, l, "id", 0, INT32_MAX, &id);
    double lox = 0, loy = 0;
    opt_number(x, l, "offsetx", -TD_MAPFILE_MAX_COORD, TD_MAPFILE_MAX_COORD, &lox);
    opt_number(x, l, "offsety", -TD_MAPFILE_MAX_COORD, TD_MAPFILE_MAX_COORD, &loy);
    lox += ox;
    loy += oy;
    if (strcmp(type, "tilelayer") == 0) {
      read_tile_layer(x, l, (int32_t)id, name, lox, loy);
    } else if (strcmp(type, "objectgroup") == 0) {
      int ot = opt_table(x, l, "objects");
      if (ot) {
        size_t on = array_len(x, ot);
        if (on > TD_MAPFILE_MAX_OBJECTS - x->objects_seen)
          fail(x, "the map lists more than %d objects (the loader's limit)",
               TD_MAPFILE_MAX_OBJECTS);
        x->objects_seen += on;
        char layer_where[sizeof x->where];
        memcpy(layer_where, x->where, sizeof layer_where);
        for (size_t k = 1; k <= on; k++) {
          memcpy(x->where, layer_where, sizeof layer_where);
          int o = elem_table(x, ot, (lua_Integer)k, "objects");
          size_t keep = strlen(x->where);
          snprintf(x->where + keep, sizeof x->where - keep, ": objects[%zu]", k);
          read_object(x, o, lox, loy, layer_where, k);
          lua_pop(x->L, 1);
        }
        lua_pop(x->L, 1);
      }
    } else if (strcmp(type, "group") == 0) {
      if (depth >= TD_MAPFILE_MAX_DEPTH)
        fail(x, "layer groups nested deeper than %d", TD_MAPFILE_MAX_DEPTH);
      int sub = opt_table(x, l, "layers");
      if (sub) {
        read_layers(x, sub, lox, loy, depth + 1);
        lua_pop(x->L, 1);
      }
    } /* image layers and future types: nothing to read */
    lua_pop(x->L, 1);
    assert(lua_gettop(x->L) == top);
    (void)top;
  }
}

/* Protected body of phase 1: [extract ud, map table] -> []. */
int mapfile_extract(lua_State *L) {
  extract *x = lua_touserdata(L, 1);
  x->L = L;
  need_stack(x, 12);
  if (lua_type(L, 2) != LUA_TTABLE)
    fail(x, "the file must return a table (return { ... }), got %s",
         type_name(x, lua_type(L, 2)));
  read_header(x, 2);
  read_map_properties(x, 2);
  read_tilesets(x, 2);
  assert(lua_gettop(L) == 2);
  int lt = opt_table(x, 2, "layers");
  if (lt) {
    read_layers(x, lt, 0, 0, 0);
    lua_pop(L, 1);
  }
  assert(lua_gettop(L) == 2);
  return 0;
}
