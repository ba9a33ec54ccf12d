/*
** crowd_fly.c: flyers (seed 003).
**
** Flyers ignore the graph: each heads for the nearest goal and steers
** round the obstacles (rectangles: tower footprints, walls) with a fan of
** rays (cast_fan), and while the ray toward its goal is blocked goes round
** the nearest obstacle on the side it turns to (see td_crowd_fly_desire).
** The steering pass (crowd_lane.c) asks for a flyer's wish here; the rest
** of its step (the limits, the move, the projection) is every agent's.
**
** Memory: the crowd owns a copy of the obstacles (td_crowd_set_obstacles).
** Determinism: a wish depends only on the flyer, its goal and the
** obstacles (no other agent, no state of its own).
*/
#include "crowd/crowd_int.h"

#include <math.h>
#include <string.h>

/* The fan: a centre ray, then +-20, +-40 and +-60 degrees. */
static const float ray_angles[FAN_RAYS] = {0.0f, 0.349f, -0.349f, 0.698f, -0.698f, 1.047f, -1.047f};

/* The fan's cosines and sines, taken once (td_crowd_create). */
void td_crowd_fly_init(td_crowd *c) {
  for (int a = 0; a < FAN_RAYS; a++) {
    c->ray_cos[a] = cosf(ray_angles[a]);
    c->ray_sin[a] = sinf(ray_angles[a]);
  }
}

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

/* Obstacle rc (x, y, w, h) grown by r on every side: x0 y0 x1 y1. */
static inline void grown(const float *rc, float r, float b[4]) {
  b[0] = rc[0] - r;
  b[1] = rc[1] - r;
  b[2] = rc[0] + rc[2] + r;
  b[3] = rc[1] + rc[3] + r;
}

/* Distance along a ray (ox, oy) + t (dx, dy) to a rectangle grown by r, or
** INFINITY. */
static float ray_rect(float ox, float oy, float dx, float dy, const float *rc, float r) {
  float b[4];
  grown(rc, r, b);
  float x0 = b[0], y0 = b[1], x1 = b[2], y1 = b[3];
  float tmin = 0.0f, tmax = INFINITY;
  float o[2] = {ox, oy}, d[2] = {dx, dy}, lo[2] = {x0, y0}, hi[2] = {x1, y1};
  for (int a = 0; a < 2; a++) {
    if (fabsf(d[a]) < 1e-9f) {
      if (o[a] < lo[a] || o[a] > hi[a]) return INFINITY;
    } else {
      float t1 = (lo[a] - o[a]) / d[a], t2 = (hi[a] - o[a]) / d[a];
      if (t1 > t2) {
        float s = t1;
        t1 = t2;
        t2 = s;
      }
      if (t1 > tmin) tmin = t1;
      if (t2 < tmax) tmax = t2;
      if (tmin > tmax) return INFINITY;
    }
  }
  return tmin;
}

/* ---- a flyer's wish ------------------------------------------------------ */

/* Flyer i's nearest goal: its position in (gx, gy) and the distance (its
** own position and INFINITY when the route has no goal). */
static float fly_goal(const td_crowd *c, size_t i, float *gx, float *gy) {
  const int32_t *goals;
  size_t ng = td_route_goals(c->route, &goals);
  float best = INFINITY;
  *gx = c->x[i];
  *gy = c->y[i];
  for (size_t k = 0; k < ng; k++) {
    float x, y;
    node_pos(c, goals[k], &x, &y);
    float d = len2(x - c->x[i], y - c->y[i]);
    if (d < best) {
      best = d;
      *gx = x;
      *gy = y;
    }
  }
  return best;
}

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

/* Distance along a ray to the first obstacle (grown by r), or INFINITY. */
static float ray_hit(const td_crowd *c, float ox, float oy, float dx, float dy, float r) {
  float hit = INFINITY;
  for (size_t o = 0; o < c->obs_n; o++) {
    float h = ray_rect(ox, oy, dx, dy, c->obs + 4 * o, r);
    if (h < hit) hit = h;
  }
  return hit;
}

/* What a flyer's rays found (see cast_fan): the weights of the hits on the
** fan's left side, its right side and its centre ray, and whether the ray
** toward the goal hits an obstacle before the goal. */
typedef struct fan_hits {
  float left, right, centre;
  bool goal_blocked;
} fan_hits;

/* The fan of rays (seed 003) of flyer i along heading h: rays at +-20,
** +-40, +-60 degrees and a centre ray, cast from one radius behind the
** agent, speed + 3 radii long; a hit at fraction f of the length weighs
** (1 - f), more for rays nearer the centre. Then a ray toward the goal (t,
** at distance gd), as long, or to the goal when that is nearer: blocked
** when it hits before. With `rays`, each ray (the fan's, then the goal's). */
static fan_hits cast_fan(const td_crowd *c, size_t i, float hx, float hy, float tx, float ty,
                         float gd, float speed, td_crowd_ray *rays) {
  float len = speed * 1.0f + 3.0f * c->radius[i];
  float ox = c->x[i] - hx * c->radius[i], oy = c->y[i] - hy * c->radius[i];
  fan_hits f = {0.0f, 0.0f, 0.0f, false};
  for (int a = 0; a < FAN_RAYS; a++) {
    float cs = c->ray_cos[a], sn = c->ray_sin[a];
    float dx = hx * cs - hy * sn, dy = hx * sn + hy * cs;
    float hit = ray_hit(c, ox, oy, dx, dy, c->radius[i]);
    if (rays) rays[a] = (td_crowd_ray){ox, oy, dx, dy, len, hit < len ? hit : INFINITY};
    if (!(hit < len)) continue;
    float w = (1.0f - hit / len) * (1.2f - fabsf(ray_angles[a]));
    if (a == 0) f.centre = w;
    else if (ray_angles[a] > 0.0f) f.left += w; /* counter-clockwise side */
    else f.right += w;
  }
  /* the goal's ray, from the agent's centre */
  float glen = gd < len ? gd : len, hit = ray_hit(c, c->x[i], c->y[i], tx, ty, c->radius[i]);
  f.goal_blocked = hit < glen;
  if (rays) rays[FAN_RAYS] = (td_crowd_ray){c->x[i], c->y[i], tx, ty, len, hit < len ? hit : INFINITY};
  return f;
}

/* The point nearest (x, y) on the obstacles grown by r: *mx, *my, the unit
** direction from it to (x, y) (away from the obstacle), and the distance
** (0 inside one; INFINITY: no obstacle). Continuous in (x, y): round a
** corner the direction turns smoothly. */
static float obstacle_near(const td_crowd *c, float x, float y, float r, float *mx, float *my) {
  float best = INFINITY;
  *mx = *my = 0.0f;
  for (size_t o = 0; o < c->obs_n; o++) {
    const float *rc = c->obs + 4 * o;
    float b[4];
    grown(rc, r, b);
    float x0 = b[0], y0 = b[1], x1 = b[2], y1 = b[3];
    float qx = x < x0 ? x0 : x > x1 ? x1 : x, qy = y < y0 ? y0 : y > y1 ? y1 : y;
    float d = len2(x - qx, y - qy);
    if (d < best) {
      best = d;
      if (d > 1e-6f) {
        *mx = (x - qx) / d;
        *my = (y - qy) / d;
      } else { /* inside: out through the nearest side */
        float side[4] = {x - x0, x1 - x, y - y0, y1 - y}; /* left, right, bottom, top */
        static const float out[4][2] = {{-1.0f, 0.0f}, {1.0f, 0.0f}, {0.0f, -1.0f}, {0.0f, 1.0f}};
        int k = 0;
        for (int e = 1; e < 4; e++)
          if (side[e] < side[k]) k = e;
        *mx = out[k][0];
        *my = out[k][1];
      }
    }
  }
  return best;
}

/* Whether (x, y) lies in an obstacle grown by r. */
static bool in_obstacle(const td_crowd *c, float x, float y, float r) {
  for (size_t o = 0; o < c->obs_n; o++) {
    const float *rc = c->obs + 4 * o;
    float b[4];
    grown(rc, r, b);
    if (x > b[0] && x < b[2] && y > b[1] && y < b[3]) return true;
  }
  return false;
}

/* Desired velocity of a flyer: towards the nearest goal, bent by its fan
** of rays (cast_fan); *gd: the distance to that goal.
**
** While the ray toward the goal is clear it heads for the goal, pushed off
** an obstacle closer than two radii (both continuous in its position).
** While that ray is blocked it goes round: along the nearest obstacle's
** boundary (perpendicular to the direction from the nearest point, kept
** about a radius off it), on the side it already turns to: the side its
** heading is on relative to the goal (heading straight at the goal, the
** fan's freer side). So along a wall it slides, round a corner it turns
** smoothly, and it turns to the goal only once the goal's ray is clear.
** (The fan alone took the goal's direction whenever its rays were clear,
** turned back into the wall each time and zig-zagged along it.) The side
** is the heading's: no state of its own. A goal inside an obstacle has no
** way round: there the fan steers as before (and zig-zags at its wall). */
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
  if (c->obs_n == 0) {
    *wx = tx * speed;
    *wy = ty * speed;
    return;
  }
  float hx, hy, r = c->radius[i];
  fly_heading(c, i, tx, ty, &hx, &hy);
  fan_hits f = cast_fan(c, i, hx, hy, tx, ty, *gd, speed, NULL);
  float nx = -hy, ny = hx, dx, dy;
  if (in_obstacle(c, gx, gy, r)) {
    /* no way round: the fan alone (seed 003) */
    float turn = f.right - f.left;
    if (f.centre > 0.0f) turn += (f.left > f.right ? -1.0f : 1.0f) * f.centre;
    dx = tx + nx * turn * 2.0f;
    dy = ty + ny * turn * 2.0f;
    if (f.left + f.right + f.centre > 0.0f) {
      dx = hx + nx * turn * 2.0f;
      dy = hy + ny * turn * 2.0f;
    }
  } else {
    float mx, my, d = obstacle_near(c, c->x[i], c->y[i], r, &mx, &my);
    if (!f.goal_blocked) { /* to the goal, off a near obstacle */
      float push = d < 2.0f * r ? (2.0f * r - d) / (2.0f * r) : 0.0f;
      dx = tx + mx * push;
      dy = ty + my * push;
    } else {
      /* going round on the left (the obstacle on our right) when the goal
      ** is to the right of the heading */
      float gs = nx * tx + ny * ty;
      bool left = gs < -0.05f ? true : gs > 0.05f ? false : f.left <= f.right;
      float ux = left ? my : -my, uy = left ? -mx : mx; /* along the boundary */
      float k = (r - d) / r; /* keep a radius off */
      k = k < -0.25f ? -0.25f : k > 1.0f ? 1.0f : k;
      dx = ux + mx * k;
      dy = uy + my * k;
    }
  }
  float dl = len2(dx, dy);
  *wx = dl > 1e-6f ? dx / dl * speed : 0.0f;
  *wy = dl > 1e-6f ? dy / dl * speed : 0.0f;
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
  cast_fan(c, i, hx, hy, tx / tl, ty / tl, gd, c->max_speed[i], out);
  return TD_CROWD_RAYS;
}
