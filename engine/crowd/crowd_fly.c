/*
** crowd_fly.c: flyers (seed 003).
**
** Flyers ignore the graph: each heads for the nearest goal and steers
** round the obstacles (rectangles: tower footprints, walls) with a fan of
** rays, and while the ray toward its goal is blocked goes round the
** nearest obstacle on the side it turns to (nav/fan.h: the rays and the
** steering live there, shared with the world's soldiers).
** The steering pass (crowd_lane.c) asks for a flyer's wish here; the rest
** of its step (the limits, the move, the projection) is every agent's.
**
** Memory: the crowd owns a copy of the obstacles (td_crowd_set_obstacles).
** Determinism: a wish depends only on the flyer, its goal and the
** obstacles (no other agent; of its own state, only whether it is a ghost,
** crowd_stall.c: then it heads straight for its goal, over them).
*/
#include "crowd/crowd_int.h"

#include <math.h>
#include <string.h>

/* The fan's cosines and sines, taken once (td_crowd_create). */
void td_crowd_fly_init(td_crowd *c) { td_fan_init(&c->fan); }

/* ---- obstacles ----------------------------------------------------------- */

int td_crowd_set_obstacles(td_crowd *c, const float *rects, size_t n, td_err *err) {
  float *o = n ? td_mem_alloc(n * 4 * sizeof *o) : NULL;
  if (n && !o) return td_err_set(err, "crowd: out of memory");
  if (n) memcpy(o, rects, n * 4 * sizeof *o);
  td_mem_free(c->obs, c->obs_n * 4 * sizeof *c->obs);
  c->obs = o;
  c->obs_n = n;
  return 0;
}

/* ---- a flyer's wish ------------------------------------------------------ */

/* Flyer i's heading: its velocity's direction, or (t) the goal's when it
** hardly moves. */
static void fly_heading(const td_crowd *c, size_t i, float tx, float ty, float *hx, float *hy) {
  float vx = c->vx[i], vy = c->vy[i], hl = len2(vx, vy);
  if (hl < 1e-3f) {
    *hx = tx;
    *hy = ty;
  } else {
    *hx = vx / hl;
    *hy = vy / hl;
  }
}

/* Desired velocity of a flyer: towards the nearest goal, steered round
** the obstacles by td_fan_steer (nav/fan.h); *gd: the distance to that
** goal.
**
** While the ray toward the goal is clear it heads for the goal, pushed off
** an obstacle closer than two radii (both continuous in its position).
** While that ray is blocked it goes round: along the nearest obstacle's
** boundary (perpendicular to the direction from the nearest point, kept
** about a radius off it), on the side it already turns to: the side its
** heading is on relative to the goal (heading straight at the goal, the
** fan's freer side). So along a wall it slides, round a corner it turns
** smoothly, and it turns to the goal only once the goal's ray is clear.
** Its heading is its velocity's direction (the goal's when it hardly
** moves): no state of its own. A goal inside an obstacle has no way
** round: there the fan steers alone (and zig-zags at its wall). */
void td_crowd_fly_desire(const td_crowd *c, size_t i, float *wx, float *wy, float *gd) {
  float gx, gy;
  *gd = fly_goal(c, i, &gx, &gy);
  float speed = c->max_speed[i];
  float tx = gx - c->x[i], ty = gy - c->y[i], tl = len2(tx, ty);
  if (tl < 1e-6f) {
    *wx = *wy = 0.0f;
    return;
  }
  tx /= tl;
  ty /= tl;
  if (c->ghost[i]) { /* breaking out of a trap (crowd_stall.c): over everything */
    *wx = tx * speed;
    *wy = ty * speed;
    return;
  }
  float hx = tx, hy = ty;
  if (c->obs_n) fly_heading(c, i, tx, ty, &hx, &hy);
  td_fan_steer(&c->fan, c->obs, c->obs_n, c->x[i], c->y[i], c->radius[i], speed, hx, hy, gx,
               gy, tx, ty, *gd, wx, wy);
}

/* ---- debug overlays ------------------------------------------------------ */

int td_crowd_flyer_rays(const td_crowd *c, size_t i, td_crowd_ray out[TD_CROWD_RAYS]) {
  if (i >= c->used || c->state[i] != TD_AGENT_FLY) return 0;
  float gx, gy;
  float gd = fly_goal(c, i, &gx, &gy);
  float tx = gx - c->x[i], ty = gy - c->y[i], tl = len2(tx, ty);
  if (tl < 1e-6f) return 0;
  float hx, hy;
  fly_heading(c, i, tx / tl, ty / tl, &hx, &hy);
  td_fan_ray rays[TD_FAN_RAYS + 1];
  td_fan_cast(&c->fan, c->obs, c->obs_n, c->x[i], c->y[i], c->radius[i], hx, hy, tx / tl,
              ty / tl, gd, c->max_speed[i], rays);
  for (int k = 0; k < TD_CROWD_RAYS; k++)
    out[k] = (td_crowd_ray){rays[k].ox, rays[k].oy, rays[k].dx, rays[k].dy, rays[k].len,
                            rays[k].hit};
  return TD_CROWD_RAYS;
}
