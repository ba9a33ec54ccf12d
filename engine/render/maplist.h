/*
** maplist.h: the maps a menu offers: every map file of a directory with its
** title, one-line description and order (the map's own properties,
** docs/maps.md), sorted from the gentlest to the hardest, and a thumbnail
** of each drawn by the game.
**
** What. td_maplist_load loads each map file (*.tmx, *.tmj, *.lua) of a directory once
** (script/mapfile.h), keeps its menu words and a thumbnail's drawing - the
** ground (road and grass on a waypoint map, floor and walls on a grid map,
** at most TD_MAPLIST_THUMB_CELLS cells a side, a block drawn as wall when a
** line of it is), the tower bases, the route
** from each spawn to its goal (the reverse Dijkstra's next steps on the
** untouched map), spawns and goals - then frees the map: drawing a thumbnail
** (td_maplist_draw_thumb) reads only that cache. A map that does not load is
** listed with its error (and no thumbnail), never dropped silently. Order:
** by the `order` property (maps without one after those with), then by
** file name. td_maplist_add lists a second directory after the first (the
** player's own maps after the bundled ones, marked as theirs: user), in
** the same order among themselves; the list holds TD_MAPLIST_MAX maps at
** most in all.
**
** Memory: a td_maplist owns its entries and their caches (malloc);
** td_maplist_free releases them. Determinism: not part of the simulation.
*/
#ifndef TD_RENDER_MAPLIST_H
#define TD_RENDER_MAPLIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "render/batch.h"

#define TD_MAPLIST_MAX 32            /* maps listed at most */
#define TD_MAPLIST_THUMB_CELLS 64    /* thumbnail cells a side at most */

typedef struct td_maplist_entry {
  char path[800];             /* DIR/FILE.tmx (or .tmj, .lua) */
  char name[64];              /* as a mod reads it: "02-grid" */
  char title[64];             /* the map's title, else its name */
  char description[160];      /* "" when none */
  int32_t order;              /* 0: none */
  char error[256];            /* why it did not load; "" when it did */
  bool user;                  /* one of the player's own maps (td_maplist_add) */
  /* the thumbnail's cache */
  float map_w, map_h;         /* the map's size in map units */
  int32_t cw, ch;             /* ground cells */
  uint8_t *cells;             /* cw * ch kinds (maplist.c) */
  float *roads;               /* waypoint maps: x0 y0 x1 y1 width per edge */
  size_t road_count;
  float *bases;               /* x y w h per base */
  size_t base_count;
  float *route;               /* x y per point; a NAN x starts a new line */
  size_t route_count;
  float *spots;               /* x y kind (0 spawn, 1 goal) */
  size_t spot_count;
} td_maplist_entry;

typedef struct td_maplist {
  td_maplist_entry *e;
  size_t count;
} td_maplist;

/* Lists dir's maps into l (emptied first). Never fails: an empty or
** unreadable directory lists nothing, and out of memory lists fewer. */
void td_maplist_load(td_maplist *l, const char *dir);
/* Appends dir's maps to l, marked user when asked; an empty or unreadable
** directory adds nothing. */
void td_maplist_add(td_maplist *l, const char *dir, bool user);
void td_maplist_free(td_maplist *l);

/* The entry of a map path (compared by file name), or -1. */
int td_maplist_find(const td_maplist *l, const char *path);

/* Draws e's thumbnail fitted (aspect kept, centred) in the rectangle. */
void td_maplist_draw_thumb(td_batch *b, const td_maplist_entry *e, float x, float y, float w, float h);

#endif
