/*
** crowd_road.c: the walkable area in the crowd (crowd.h; nav/walk.h).
**
** Ground agents keep to the walkable area in three ways:
** - lanes fit the width that is free: when a walker takes a segment, the
**   room there is the narrower half width of this segment and the next,
**   minus its radius. A formation whose widest lane (g_wide) fits keeps
**   its lanes. Otherwise the road holds fewer abreast: as many lanes as
**   bodies fit across the room (LANE_GAP radii apart), and the formation's
**   lanes are mapped onto them in order, so lateral order is kept and
**   neighbours that share a lane follow one another (scan_agent's
**   followers); one lane is single file. The wave narrows, walks in single
**   file where it must, and widens again after;
** - the passing shift is clamped to the same room (td_crowd_road_shift);
** - after the move and the overlap projection, a disc that reaches out of
**   the area is put back at the nearest place inside (td_walk_constrain):
**   a collision with the boundary, the guarantee behind the first two.
** The metric off_road measures what that guarantee did not hold.
**
** The common case is cheap: a walker well inside its own segment's
** rectangle (with no tower footprint near that segment) or, on a grid,
** inside the open square around its cell, is tested with a few compares
** against data its corner holds.
**
** Memory: the walk is borrowed. Determinism: an agent's correction depends
** on its own position and the area only; the passes visit agents in slot
** order.
*/
#include "crowd/crowd_int.h"

#include <math.h>

#include "nav/walk.h"

/* Agent off the road by more than this share of its radius counts in off_road. */
#define OFF_ROAD_SHARE 0.05f
/* Lanes that a narrow road still holds abreast are this many radii apart. */
#define LANE_GAP 2.2f

void td_crowd_set_walk(td_crowd *c, td_walk *w) {
  c->walk = w;
  c->walk_version = w ? td_walk_version(w) : 0;
  td_crowd_corners_reset(c); /* their room changed */
}

void td_crowd_road_corner(const td_crowd *c, corner *k) {
  k->hw = INFINITY;
  k->ehw = 0.0f;
  k->quick = false;
  if (!c->walk) return;
  float here = td_walk_half_width(c->walk, k->a, k->b);
  float after = k->last ? here : td_walk_half_width(c->walk, k->b, c->next[k->b]);
  k->hw = here < after ? here : after;
  if (td_walk_is_grid(c->walk)) return;
  /* a road: the quick test on this edge's rectangle, where no block is near */
  float pad = here + c->max_radius;
  float x0 = fminf(k->ax, k->bx), x1 = fmaxf(k->ax, k->bx);
  float y0 = fminf(k->ay, k->by), y1 = fmaxf(k->ay, k->by);
  k->ehw = here;
  k->quick = !td_walk_blocks_near(c->walk, x0, y0, x1, y1, pad);
}

void td_crowd_road_fit(td_crowd *c, size_t i, const corner *k) {
  float lane = c->lane0[i];
  if (!(k->hw < INFINITY)) { /* open ground */
    c->lane[i] = lane;
    c->lane_max[i] = INFINITY;
    return;
  }
  float r = c->radius[i], room = k->hw - r;
  if (room < 0.0f) room = 0.0f;
  float wide = c->g_wide[c->group[i]];
  c->lane_max[i] = room;
  if (wide <= room) { /* the formation fits as it is */
    c->lane[i] = lane;
    return;
  }
  /* fewer abreast: as many lanes as bodies fit across the room, a little
  ** apart, the formation's lanes mapped onto them in order (neighbours may
  ** share one: they walk one behind the other); one: single file */
  int32_t lanes = (int32_t)(room / (LANE_GAP * r)) + 1;
  if (lanes < 2) {
    c->lane[i] = 0.0f;
    return;
  }
  float step = 2.0f * room / (float)(lanes - 1);
  float at = roundf((lane + wide) / (2.0f * wide) * (float)(lanes - 1));
  c->lane[i] = -room + step * at;
}

/* Whether the disc of agent i at (x, y) is surely inside (no exact test
** needed): inside its own edge's rectangle shrunk by its radius, or on a
** grid inside the open square around its cell. */
static inline bool quick_inside(const td_crowd *c, size_t i, const corner *k, float x, float y) {
  float r = c->radius[i];
  if (k->quick) {
    float h = k->ehw - r;
    float rx = x - k->ax, ry = y - k->ay;
    float u = rx * k->dx + ry * k->dy, v = rx * k->nx + ry * k->ny;
    return h >= 0.0f && u >= -h && u <= k->len + h && fabsf(v) <= h;
  }
  return td_walk_inside_quick(c->walk, x, y, r);
}

static inline bool on_ground(uint8_t s) {
  return s == TD_AGENT_WALK || s == TD_AGENT_STUNNED || s == TD_AGENT_STRANDED;
}

/* Agent i back in the area near its way (its segment and the route's
** next) when its disc reaches out; how far it moved (|dx| + |dy|). */
static float hold(td_crowd *c, size_t i) {
  if (!on_ground(c->state[i])) return 0.0f;
  const corner *k = corner_at(c, i);
  float x = c->x[i], y = c->y[i];
  if (quick_inside(c, i, k, x, y)) return 0.0f;
  int32_t b = c->to[i];
  if (!td_walk_constrain(c->walk, c->from[i], b, c->next[b], c->radius[i], &x, &y))
    return 0.0f;
  float d = fabsf(x - c->x[i]) + fabsf(y - c->y[i]);
  c->x[i] = x;
  c->y[i] = y;
  return d;
}

bool td_crowd_road_hold(td_crowd *c, size_t i) { return hold(c, i) > 0.0f; }

float td_crowd_road_keep(td_crowd *c, bool mark) {
  if (!c->walk) return 0.0f;
  float worst = 0.0f;
  for (size_t i = 0; i < c->used; i++) {
    float d = hold(c, i);
    if (d <= 0.0f) continue;
    if (d > worst) worst = d;
    if (mark) c->wp[i] = 1; /* it may have crossed its waypoint's bisector */
  }
  return worst;
}

void td_crowd_road_measure(td_crowd *c) {
  if (!c->walk) return;
  for (size_t i = 0; i < c->used; i++) {
    if (!on_ground(c->state[i])) continue;
    const corner *k = corner_at(c, i);
    float x = c->x[i], y = c->y[i], r = c->radius[i];
    if (quick_inside(c, i, k, x, y)) continue;
    float d = td_walk_depth(c->walk, c->from[i], c->to[i], x, y, r);
    if (!(d > OFF_ROAD_SHARE * r)) continue;
    c->m.off_road++;
    if ((double)d > c->m.off_road_depth) c->m.off_road_depth = (double)d;
  }
}
