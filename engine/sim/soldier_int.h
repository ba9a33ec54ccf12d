/*
** soldier_int.h: what the soldiers' three files share (not a public
** header): soldier.c (the pool, the state machine, fighting, the world's
** calls), soldier_ground.c (where a soldier may stand: the footprints, the
** cells, the road; posts, doors, rally checks) and soldier_walk.c (ways:
** plans, the path queue's answers, moves).
**
** Distances are in tiles here, multiplied by the world's tile at use.
** Memory: nothing of their own beyond world_int.h's fields.
** Determinism: as soldier.c's note says.
*/
#ifndef TD_SOLDIER_INT_H
#define TD_SOLDIER_INT_H

#include <math.h>

#include "sim/world_int.h"

#define PI_F 3.14159265358979f
#define ARRIVE 0.02f      /* tiles: at a post or a corner */
#define OFF_POST 0.1f     /* tiles: an IDLE soldier this far off its post walks back */
#define TOUCH 0.1f        /* tiles between two bodies that touch */
#define REACH 0.25f       /* tiles: a fighter farther than touching steps closer */
#define SIGHT_SLACK 0.5f  /* tiles past its sight that a held enemy may stand */
#define STRAIGHT 4.0f     /* tiles: waypoint maps walk this far straight */
#define DOOR_GAP 0.05f    /* tiles between a footprint and its door */
#define RING_MIN 0.35f    /* tiles: radius of the posts' ring, at least */
#define RETRY_TICKS 60    /* a soldier with no way waits this long to ask again */
#define STALL_TICKS 60    /* ticks no nearer its next corner before it asks again */
#define FAR_BEST 3.0e38f  /* best: no corner yet */

static inline float dist(float ax, float ay, float bx, float by) {
  float dx = bx - ax, dy = by - ay;
  return sqrtf(dx * dx + dy * dy);
}

/* ---- soldier.c ----------------------------------------------------------- */

/* Every change of a soldier's state goes through here (unit.h). */
void soldier_go(td_world *w, size_t i, td_soldier_state to);
const td_soldier_type *soldier_type_of(const td_world *w, const soldier_rec *s);
float soldier_radius(const td_world *w, const soldier_rec *s); /* map units */
/* To MOVE (back to its post), its enemy let go, its way forgotten. */
void soldier_go_post(td_world *w, size_t i);

/* ---- soldier_ground.c ---------------------------------------------------- */

/* The towers' footprints (derived), and a base's own when it has no tower
** yet (a preview): what a soldier's disc stays out of. */
typedef struct obst {
  const float *rects;
  size_t n;
  float own[4];
  bool has_own;
} obst;

/* The derived footprints (w->s_rects) from the towers built. */
void soldier_rects_update(td_world *w);
/* The footprints, with own_base's (>= 0) added. */
obst obst_of(const td_world *w, int32_t own_base);
bool obst_inside(const obst *o, float x, float y, float r);
void obst_push(const obst *o, float r, float *x, float *y);
/* Grid cells: (x, y)'s cell, clamped into the grid (false: it was outside);
** whether a cell is open (walkable, not blocked); whether a point is in an
** open cell; whether a tick that began in (sx, sy) may end in (cx, cy). */
bool ground_cell(const td_grid *g, float x, float y, int32_t *cx, int32_t *cy);
bool ground_open(const td_world *w, int32_t cx, int32_t cy);
bool ground_point_open(const td_world *w, float x, float y);
bool ground_cell_ok(const td_world *w, int32_t sx, int32_t sy, int32_t cx, int32_t cy);
/* The ground a walking soldier may stand on nearest (x, y). */
void ground_settle(const td_world *w, const obst *o, float r, float x, float y, float *ox,
                   float *oy);
/* Posts of a barracks of `level` on base, rallied at (rx, ry): n in xy. */
size_t posts_make(const td_world *w, int32_t base, int32_t level, float rx, float ry, float *xy);
/* The barracks on base: its soldiers' posts made again. */
void posts_update(td_world *w, int32_t base);
/* The door of base's barracks for radius r, nearest (tx, ty); a soldier's. */
void door_of(const td_world *w, int32_t base, float r, float tx, float ty, float *dx, float *dy);
void door_for(const td_world *w, const soldier_rec *s, float *dx, float *dy);
/* A rally point's refusal for a barracks of `level` on base, or NONE. */
td_refusal rally_check(const td_world *w, int32_t base, int32_t level, float x, float y);

/* ---- soldier_walk.c ------------------------------------------------------ */

void way_stall_reset(soldier_rec *s);
/* Forgets the way (cancelling its request): the next walk plans again. */
void way_reset(td_world *w, soldier_rec *s);
void way_stand(soldier_rec *s);
/* One tick of walking to (tx, ty) along the plan (planning first when
** there is none); true when it stands there. */
bool way_walk(td_world *w, size_t i, float tx, float ty);
/* One tick's move straight toward (ax, ay) (see soldier_walk.c); true when
** it stands there. */
bool way_move(td_world *w, size_t i, float ax, float ay, bool *blocked);
/* Grids: whether the corners left still see each other. */
bool way_open(const td_world *w, const soldier_rec *s);

#endif
