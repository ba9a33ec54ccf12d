/*
** mapfile.h: loads a map drawn in Tiled: its own files, .tmx (XML) and .tmj
** (JSON), or its Lua export (`return {...}`).
**
** The reader is chosen by the name's extension (.lua, .tmx, .tmj/.json; by
** the content for any other) and must agree with the content's first byte
** ('<' XML, '{' JSON, else Lua), or the file is refused saying so. A Lua
** export runs in a sandbox (lsandbox.h: text only, empty environment,
** TD_MAPFILE_MEMORY bytes and TD_MAPFILE_INSTRUCTIONS instructions at most),
** and must return a table; a .tmx or .tmj is parsed (expat, cJSON) and made,
** in the same sandbox, into the very table the Lua export would return, its
** tile data (CSV, base64, zlib, gzip, zstd) a userdata of gids. External
** tilesets (.tsx/.tsj) and templates (.tx/.tj) are read relative to the
** file naming them, only from the map's folder tree (or the roots of
** td_mapfile_options), TD_MAPFILE_MAX_FILES files, templates
** TD_MAPFILE_MAX_INCLUDE deep; map->deps_hash hashes them (0: none). The
** loader reads that table through the C API,
** checking the type and range of every field it uses, copies what it needs
** into C arrays, closes the state, then builds the td_map in plain C:
**   - objects of class `path` (polylines, or polygons for closed loops) make a
**     waypoint graph: vertices closer than 0.5 units merge (transitively)
**     into one node, consecutive vertices are joined by an edge, the
**     property `cost` (> 0) scales the edges of its polyline, the property
**     `road_width` (> 0, map units) is the road's width along them (the
**     map's own `road_width` property when the path has none, else one
**     tile: tilewidth); an edge drawn twice keeps the smaller cost and the
**     larger width; map->road_width holds one width per edge, and
**     map->paths each path object with the edges it made (what rules name
**     to change costs: td.set_cost);
**   - or a tile layer whose tiles carry the boolean property `walkable` makes
**     a grid map (td_grid, one node per walkable cell);
**   - `spawn` and `goal` point objects become nodes; `tower_base`
**     rectangles get the batch of changes a tower there applies;
**   - every spawn must reach a goal (checked with td_route_create);
**   - the map's own properties `title` and `description` (strings, cut to
**     fit map->title and map->description) and `order` (an integer) are
**     what a menu shows and sorts by; all optional.
** docs/maps.md is the modder's description of the format, the limits, and
** the error messages.
**
** Budgets. The sandbox bounds the Lua side; the C side has its own budgets,
** because a small file can list one Lua table many times (a group listed
** four times at each of 16 levels, a big tile layer listed 200 times, one
** spawn 300,000 times). Every listing counts: layers visited (a group's
** layers again each time the group is listed), tile cells of every tile
** layer visited, objects visited (any class), tileset tiles, path vertices,
** spawns and goals, and the bytes the loader allocates outside Lua (the
** copies it extracts plus the graph, grid and route it builds, metered
** through td_mem: mem.h). A map past one is refused as soon as the count
** passes it, with a message that names the limit. A tile layer whose data
** is the very table of an earlier one shares that layer's gids
** (td_map_layer.shared) instead of copying them. Vertices merge through a
** spatial hash, spawns are checked against goals through a per-node index,
** and a tower base looks only at the path edges listed in the grid cells
** its rectangle covers within the nodes' box; only a base whose rectangle
** spans more cells there than the map has edges looks at every edge (so
** the bases' step is at worst bases x edges, 1024 x 100,000 tests: about
** half a second).
** Object ids must be unique among the objects of td's classes (Tiled makes
** them so; tools, replays and saves name tower bases by id): duplicates are
** found by sorting, and refused naming both objects.
**
** Errors: one line in err, "<file>: <object/layer/field>: <what is wrong>",
** e.g. "maps/x.lua: object 12 (spawn): not on any path vertex".
**
** Memory: on success *out owns everything (td_map_free); on error *out is
** left zeroed and nothing leaks. All allocation goes through td_mem.
** Determinism: node, edge, spawn, goal and base order follow the file
** (layers, then objects, then vertices, in order); nothing depends on
** addresses, clocks or Lua's hash order.
*/
#ifndef TD_MAPFILE_H
#define TD_MAPFILE_H

#include <stddef.h>
#include <stdint.h>

#include "nav/mem.h"
#include "sim/map.h"

#define TD_MAPFILE_MEMORY ((size_t)64 << 20)          /* sandbox memory cap */
#define TD_MAPFILE_INSTRUCTIONS ((uint64_t)10000000)  /* sandbox instruction cap */
#define TD_MAPFILE_MAX_BYTES ((size_t)32 << 20)       /* largest file read */
#define TD_MAPFILE_MERGE_DIST 0.5      /* vertices closer than this merge */
#define TD_MAPFILE_SNAP_DIST 0.5       /* spawn/goal within this of a vertex */
#define TD_MAPFILE_MAX_COORD 1e6       /* |x|, |y| of every position */
#define TD_MAPFILE_MAX_COST 1000.0     /* largest `cost` property */
#define TD_MAPFILE_MAX_ROAD_WIDTH 1e6  /* largest `road_width` property */
#define TD_MAPFILE_MAX_VERTICES 100000 /* path vertices per map */
#define TD_MAPFILE_MAX_CLUSTER 32      /* vertices in one 0.5 x 0.5 square */
#define TD_MAPFILE_MAX_BASES 1024      /* tower bases per map */
#define TD_MAPFILE_MAX_BASE_CELLS 64   /* cells under one base (grid maps) */
#define TD_MAPFILE_MAX_BASE_EDGES 64   /* edges one base touches (waypoint maps) */
#define TD_MAPFILE_MAX_TILES 4096      /* map width or height in tiles */
#define TD_MAPFILE_MAX_ORDER 1000000   /* |order| (map property) */
#define TD_MAPFILE_MAX_LAYERS 4096     /* layers visited (groups' each time listed) */
#define TD_MAPFILE_MAX_DEPTH 16        /* group layers nested */
#define TD_MAPFILE_MAX_CELLS ((size_t)1 << 24) /* tile cells of all tile layers visited */
#define TD_MAPFILE_MAX_OBJECTS 100000  /* objects visited, any class */
#define TD_MAPFILE_MAX_TILESETS 1024   /* tilesets */
#define TD_MAPFILE_MAX_TILESET_TILES 100000 /* entries of the tilesets' tiles lists */
#define TD_MAPFILE_MAX_SPAWNS 64       /* spawn objects per map */
#define TD_MAPFILE_MAX_GOALS 64        /* goal objects per map */
#define TD_MAPFILE_MAX_C_BYTES ((size_t)128 << 20) /* allocated outside Lua, at once */
#define TD_MAPFILE_MAX_FILES 256       /* external files (tilesets, templates) */
#define TD_MAPFILE_MAX_INCLUDE 4       /* templates nested in templates */

/* Where external files (tilesets, templates) may be: the map's own folder
** tree, and these. */
typedef struct td_mapfile_options {
  const char *const *roots;   /* more folders (their trees) external files may be in */
  size_t root_count;
} td_mapfile_options;

/* Reads and loads the file at path; messages name it as given. */
int td_mapfile_load(const char *path, td_map *out, td_err *err);

/* Loads a map from memory; name is used in messages and map->source. */
int td_mapfile_load_buffer(const char *name, const char *data, size_t len,
                           td_map *out, td_err *err);

/* The same with options (NULL: none). */
int td_mapfile_load_opts(const char *path, const td_mapfile_options *opts, td_map *out,
                         td_err *err);
int td_mapfile_load_buffer_opts(const char *name, const char *data, size_t len,
                                const td_mapfile_options *opts, td_map *out, td_err *err);

#endif
