/*
** trails.h: a picture of a crowd run for designers (td sim --png): the map,
** its waypoint graph, the route, and every agent's trail coloured by its
** lane, drawn in software and saved as a PNG, without a window.
**
** The picture, back to front: the map area with its tile grid (walkable
** and blocked cells on grid maps); the graph's edges as grey roads with node
** ids (blocked edges red with a cross); the route from every spawn as a
** pale band, and a faint arrow on every edge a node's next[] takes; tower
** bases as outlines (filled when a tower stands); spawns (green) and goals
** (red); then the trails: one polyline per agent, its colour a hue ramp
** across the lanes of its wave, from blue (the leftmost lane, as seen on
** the picture facing the direction of travel) through green, yellow and
** orange to pink (the rightmost); flyers dashed. Each agent's final position is a circle of its radius: a ring
** where it arrived, a filled disc where it still stands. A title line at
** the top, and a legend at the bottom.
**
** The view covers the map, the graph and every trail (agents spawn behind
** the spawn, possibly off the map), scaled so that its long side is
** long_side pixels less the margins.
**
** Memory: the scene is borrowed for the duration of a call; the surface and
** masks are allocated and freed inside it.
** Determinism: the pixels depend only on the scene (same binary, same
** picture); nothing reads a clock. No SDL_Init is needed.
*/
#ifndef TD_RENDER_TRAILS_H
#define TD_RENDER_TRAILS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nav/route.h"
#include "render/raster.h"
#include "sim/map.h"

typedef struct td_trail {
  const float *xy;       /* n points (x, y interleaved), map units, in time order */
  size_t n;
  float lane_t;          /* 0 = leftmost lane of its wave .. 1 = rightmost, as seen
                            on the picture facing the direction of travel */
  float radius;          /* map units, for the final circle */
  bool flying;           /* drawn dashed */
  bool arrived;          /* leaked at a goal: the final circle is a ring */
} td_trail;

typedef struct td_trails_scene {
  const td_map *map;     /* tiles, graph (with its blocked flags), spawns, goals, bases */
  const td_route *route; /* the route to draw (NULL: none) */
  const uint8_t *tower;  /* map->base_count flags, nonzero: a tower stands (NULL: none) */
  const td_trail *trails;
  size_t trail_count;
  const char *title;     /* one line at the top (NULL: none), ASCII */
} td_trails_scene;

/* The colour of a lane: t = 0 leftmost .. 1 rightmost (clamped). */
td_rgba td_render_lane_color(float t);

/* The picture's size in pixels for a given long side (clamped to 200..8000). */
void td_render_trails_size(const td_trails_scene *s, int long_side, int *w, int *h);

/* Draws the scene on a canvas of exactly the size given by
** td_render_trails_size. 0 ok, -1 with err set (out of memory). */
int td_render_trails_draw(const td_trails_scene *s, int long_side, td_canvas *c, td_err *err);

/* Draws the scene on a new 32-bit surface and writes it to path as PNG
** (SDL2_image). 0 ok, -1 with err set ("<path>: <why>"). */
int td_render_trails_png(const td_trails_scene *s, int long_side, const char *path,
                         td_err *err);

#endif
