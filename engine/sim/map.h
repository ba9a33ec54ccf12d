/*
** map.h: a loaded map, as the simulation sees it.
**
** A map is a waypoint graph (or a grid and the graph built from it), the
** spawn and goal nodes, and the tower bases with the batch of graph changes a
** tower on each applies, the path objects of a waypoint map with the edges
** each made (what a rule names to change costs: "mud on this path"), plus
** the tile layers as drawn (for the renderer).
** It is plain data, filled by the loader
** (script/mapfile.h) or by code (tests, benchmarks), and read by the world.
** Every spawn, goal, base and path remembers the Tiled object id it came
** from so that errors, tools and scripts can name it.
**
** The walkable area. On a waypoint map it is the road: the union of its
** edges, each a rectangle road_width[e] wide centred on the edge and
** square-capped (extended by half the width past each end), so junctions
** and corners are covered (a closed edge stays road). On a grid map it is
** the open cells (walls and tower-blocked cells are not), and road_width is
** NULL. The loader always
** sets road_width on a waypoint map (script/mapfile.h: the `road_width`
** property, one tile by default); a waypoint map made in code may leave it
** NULL. When set, it lives and dies with the graph (td_map_free sizes it by
** graph->edge_count).
**
** Memory: the map owns everything it points to; td_map_free releases it all
** and leaves a zeroed map. Determinism: plain data.
*/
#ifndef TD_MAP_H
#define TD_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "nav/graph.h"
#include "nav/grid.h"
#include "nav/walk.h"

typedef struct td_map_point {
  int32_t node;        /* graph node */
  int32_t object_id;   /* Tiled object id */
  char name[64];       /* Tiled object name ("" when none) */
} td_map_point;

typedef struct td_tower_base {
  int32_t object_id;
  char name[64];
  double x, y, w, h;            /* rectangle in map units (x, y: top-left) */
  td_graph_change *block;       /* what a tower here applies */
  size_t block_count;
} td_tower_base;

/* A path object of a waypoint map: the graph edges its polyline (or
** polygon) made, in ascending id order, each once. An edge two paths drew
** is one edge (the smaller cost, maps.md), listed by both. */
typedef struct td_map_path {
  int32_t object_id;
  char name[64];
  int32_t *edges;
  size_t edge_count;            /* >= 1 */
} td_map_path;

/* A tile layer kept for the renderer: gids as Tiled wrote them, flip flags
** (top 4 bits, TD_MAP_GID_FLAGS) included; 0 is an empty cell. */
#define TD_MAP_GID_FLAGS 0xF0000000u
typedef struct td_map_layer {
  int32_t id;                   /* Tiled layer id (0 when absent) */
  char name[64];
  int32_t width, height;        /* in tiles (the map's size) */
  double offset_x, offset_y;    /* drawing offset in map units (with its groups') */
  uint32_t *gids;               /* width*height, row-major */
  uint8_t walkable;             /* nonzero: this layer made the grid */
  uint8_t shared;               /* nonzero: gids are an earlier layer's (the file
                                ** listed one data table twice): read-only here,
                                ** freed with that layer */
} td_map_layer;

typedef struct td_map {
  char source[256];             /* file name, for messages */
  char title[64];               /* the map's `title` property ("": none) */
  char description[160];        /* its `description` property ("": none) */
  int32_t order;                /* its `order` property (0: none): menus sort by it */
  int32_t width, height;        /* in tiles */
  int32_t tile_w, tile_h;       /* tile size in map units (pixels) */
  td_graph *graph;              /* finalized */
  td_grid *grid;                /* NULL on waypoint maps */
  float *road_width;            /* graph->edge_count entries: the road's width
                                ** along each edge, map units (waypoint maps);
                                ** NULL on grid maps */
  td_map_point *spawns;
  size_t spawn_count;
  td_map_point *goals;
  size_t goal_count;
  td_tower_base *bases;
  size_t base_count;
  td_map_path *paths;           /* waypoint maps (the loader's; NULL in code) */
  size_t path_count;
  td_map_layer *layers;         /* tile layers in file order */
  size_t layer_count;
  uint64_t deps_hash;           /* the loader's hash of the external files the map
                                ** file names (Tiled tilesets, templates); 0: none */
} td_map;

void td_map_free(td_map *map);

/* The tower base made from Tiled object `object_id`, or NULL (the loader
** refuses duplicate ids; in a map made in code the first match is the one). */
const td_tower_base *td_map_find_base(const td_map *map, int64_t object_id);

/* The path made from Tiled object `object_id`, or NULL. */
const td_map_path *td_map_find_path(const td_map *map, int64_t object_id);

/* Goal node ids into out (goal_count entries), for td_route_create. */
void td_map_goal_nodes(const td_map *map, int32_t *out);
/* Spawn node ids into out (spawn_count entries). */
void td_map_spawn_nodes(const td_map *map, int32_t *out);

/* The map's walkable area over g (its graph, or the world's copy of it): a
** grid's open cells, or the road its road widths make; in *out, NULL for a
** map without either (built in code: open ground). 0, or -1 with err set. */
int td_map_walk(const td_map *map, const td_graph *g, td_walk **out, td_err *err);

#endif
