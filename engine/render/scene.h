/*
** scene.h: draws a world as the player sees it: the map's tiles, the tower
** bases, the route as golden arrows along every node's next, towers that
** turn to their targets, enemies with facing and health bars, projectiles,
** hit and death effects, the building ghost, and the debug overlays.
**
** What. A td_scene reads a td_world through its public read-only views
** (sim/world.h, nav/route.h, crowd/crowd.h) and appends to a td_batch
** (batch.h); it never changes the world. Between two ticks it interpolates:
** td_scene_before_step keeps each enemy's, shot's and turret's position of
** the tick before, and td_scene_draw draws at prev + (cur - prev) x alpha.
** td_scene_after_step turns the step's events (sim/event.h) into effects
** (sparks, bursts, floating gold, tracers, lightning, explosions), which age
** in simulation time (so they freeze in pause and run faster at 4x).
**
** Camera. Map units to screen pixels: sx = vx + vw/2 + (x - cx) x zoom.
**
** Sprites. A type's sprite is looked up in the atlas by name
** (enemy_<type>, base_<tower type>, turret_<level> then turret_<type>);
** a name not there is drawn as a shape in a colour made from the name, with
** its initial, so modded content still shows.
**
** Soldiers, fights, tower health bars, rubble and rally flags are drawn by
** the scene's td_units (units.h).
**
** The grid overlay's A*. On grid maps the "grid" overlay also shows, per
** spawn, A* (nav/astar.h) from the spawn to its nearest goal over the
** current graph: the path, the cells it expanded, and where the route's way
** differs (equal-cost ties). The scene computes it with its own td_astar
** when the overlay is drawn and the graph's blocked flags differ from those
** it was computed on (the route's update counters tell, in O(1), when
** nothing was applied since), never per frame, and keeps the result.
**
** Memory: a scene owns its snapshot and effect arrays and the A* cache
** (malloc, grown as needed; the td_astar through td_mem) and borrows the
** atlas. Determinism: not part of the simulation; it reads the world, which
** does not depend on it.
*/
#ifndef TD_RENDER_SCENE_H
#define TD_RENDER_SCENE_H

#include <stdbool.h>
#include <stdint.h>

#include "render/atlas.h"
#include "render/batch.h"
#include "render/palette.h"
#include "render/units.h"
#include "sim/world.h"

typedef struct td_camera {
  float cx, cy;          /* map point at the viewport's centre */
  float zoom;            /* pixels per map unit */
  int vx, vy, vw, vh;    /* viewport on screen */
} td_camera;

static inline float td_camera_sx(const td_camera *c, float x) {
  return (float)c->vx + (float)c->vw * 0.5f + (x - c->cx) * c->zoom;
}
static inline float td_camera_sy(const td_camera *c, float y) {
  return (float)c->vy + (float)c->vh * 0.5f + (y - c->cy) * c->zoom;
}
static inline float td_camera_wx(const td_camera *c, float sx) {
  return (sx - (float)c->vx - (float)c->vw * 0.5f) / c->zoom + c->cx;
}
static inline float td_camera_wy(const td_camera *c, float sy) {
  return (sy - (float)c->vy - (float)c->vh * 0.5f) / c->zoom + c->cy;
}

/* Debug overlays (the seeds' gizmos), toggled by F1.. in the game. */
typedef enum td_overlay {
  TD_OVERLAY_GRAPH = 0,  /* edges (blocked red), node ids, each node's next arrow */
  TD_OVERLAY_LANES,      /* each walker's lane, its lane target, segment from->to */
  TD_OVERLAY_SEPARATION, /* body radius and separation margin rings */
  TD_OVERLAY_HASH,       /* the crowd's neighbour grid, agents' cells shaded */
  TD_OVERLAY_GRID,       /* grid maps: cells (walkable / not), A* per spawn vs the route */
  TD_OVERLAY_FLYERS,     /* flyers' ray fans and hits, the obstacles they avoid */
  TD_OVERLAY_RANGES,     /* every tower's range */
  TD_OVERLAY_STATS,      /* frame time, tick, counts */
  TD_OVERLAY_UNITS,      /* each unit's state, soldiers' paths, the path queue (units.h) */
  TD_OVERLAY_COUNT
} td_overlay;

const char *td_overlay_name(td_overlay o);       /* "graph", "lanes", ... */
int td_overlay_find(const char *name);          /* -1 when unknown */

typedef struct td_scene td_scene;

typedef struct td_scene_ghost {
  int32_t base;          /* -1: no ghost */
  int32_t tower_type;
  bool ok;               /* would be placed */
  bool afford;           /* enough gold */
  const int32_t *next;   /* the route as it would become (NULL: none) */
  const char *reason;    /* why not, one line ("" when ok) */
} td_scene_ghost;

typedef struct td_scene_params {
  float alpha;           /* 0..1 between the last two ticks */
  double time;           /* seconds, for animations (real time) */
  bool overlay[TD_OVERLAY_COUNT];
  int32_t selected_base; /* -1: none */
  int32_t hover_base;    /* -1: none */
  bool building;         /* a tower type is picked: free bases glow */
  td_scene_ghost ghost;
  td_units_rally rally;  /* a rally flag being placed (base -1: none) */
} td_scene_params;

td_scene *td_scene_create(const td_atlas *atlas);     /* NULL: out of memory */
void td_scene_destroy(td_scene *s);
/* Forgets the snapshot, effects and A* cache (a new game or a load). */
void td_scene_reset(td_scene *s);
/* Call right before td_game_step / td_world_step. */
void td_scene_before_step(td_scene *s, const td_world *w);
/* Call right after it: the step's events become effects. */
void td_scene_after_step(td_scene *s, const td_world *w);
void td_scene_draw(td_scene *s, td_batch *b, const td_world *w, const td_camera *cam,
                   const td_scene_params *p);

/* The colours of the map's meanings from now on (palette.h; standard at
** creation). */
void td_scene_set_palette(td_scene *s, td_palette_kind k);
/* A colour made from a name (for fallbacks and legends). */
SDL_Color td_scene_name_color(const char *name);
/* Draws the sprite of an enemy type or a tower type in a box (HUD icons). */
void td_scene_enemy_icon(td_scene *s, td_batch *b, const td_rules *r, int32_t type, float cx,
                         float cy, float size);
void td_scene_tower_icon(td_scene *s, td_batch *b, const td_rules *r, int32_t level, float cx,
                         float cy, float size);

#endif
