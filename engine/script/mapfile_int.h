/*
** mapfile_int.h: what the parts of the map loader share (not a public header).
**   mapfile.c        the entry points: read the file, run it in the sandbox,
**                    extract, build
**   mapfile_lua.c    phase 1: the Lua table Tiled's Lua export returns ->
**                    `extract` (checked reads, inside the sandbox's
**                    protected call)
**   mapfile_build.c  phase 2: `extract` -> td_map, in plain C once the
**                    sandbox is closed
** Memory: `extract` owns its arrays (mapfile_extract_free); the build writes
** into the td_map as it goes (td_map_free undoes it). All through td_mem.
*/
#ifndef TD_MAPFILE_INT_H
#define TD_MAPFILE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <lua.h>

#include "script/mapfile.h"

#if defined(__GNUC__)
#define NORETURN_PRINTF(f, a) __attribute__((noreturn, format(printf, f, a)))
#else
#define NORETURN_PRINTF(f, a)
#endif

#define GID_MAX 0x0FFFFFFFu /* gids without Tiled's flip/rotation flags */

/* ---- extracted data ---------------------------------------------------- */

enum { CLASS_PATH, CLASS_SPAWN, CLASS_GOAL, CLASS_BASE, CLASS_COUNT };
extern const char *const mapfile_class_names[CLASS_COUNT]; /* "path", ... */

typedef struct vertex {
  double x, y;               /* absolute map position */
} vertex;

typedef struct object {
  int32_t id;
  int cls;
  char name[64];
  double x, y, w, h;         /* spawn/goal: the point; base: the rectangle */
  double cost;               /* path: cost factor of its edges */
  double road_width;         /* path: the road's width along its edges */
  size_t v0, vn;             /* path: its vertices, verts[v0 .. v0+vn) */
  bool closed;               /* path drawn as a polygon */
  bool pad;                  /* base: property blocking = false (blocks nothing) */
  uint32_t index;            /* its place in its layer's objects (from 1) */
  char layer[72];            /* its layer, as messages name it */
} object;

typedef struct walk_tile {
  uint32_t gid;
  uint8_t walkable;
  uint32_t seq;              /* declaration order: the first one wins */
} walk_tile;

typedef struct extract {
  lua_State *L;
  char where[192];           /* context prefix of messages */
  int32_t width, height, tile_w, tile_h;
  double road_width;         /* default width of a path's road */
  char title[64], description[160]; /* the menu's words (map properties) */
  int32_t order;             /* the menu's order (map property; 0: none) */
  walk_tile *tiles;
  size_t tile_count, tile_cap;
  td_map_layer *layers;
  size_t layer_count, layer_cap;
  object *objs;
  size_t obj_count, obj_cap;
  size_t base_count;
  vertex *verts;
  size_t vert_count, vert_cap;
  const void **data_of;      /* per tile layer: its Lua data table (identity only) */
  size_t data_cap;
  /* the C-side budgets (mapfile.h): every listing of a table counts */
  size_t layers_seen, cells_seen, objects_seen, tileset_tiles_seen;
  size_t spawn_count, goal_count;
  size_t bytes;              /* C bytes of the arrays above, capacity included */
} extract;

/* Frees what x holds and zeroes it. */
void mapfile_extract_free(extract *x);

/* Protected body of phase 1 (td_lsandbox_call): [extract ud, map table] -> []. */
int mapfile_extract(lua_State *L);

/* Phase 2: builds *out from x (metered against TD_MAPFILE_MAX_C_BYTES,
** counting from x->bytes); name prefixes messages. 0, or -1 with err set
** (*out then holds what was built so far: td_map_free it). */
int mapfile_build(const char *name, extract *x, td_map *out, td_err *err);

#endif
