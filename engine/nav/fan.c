/*
** fan.c: rays against grown rectangles, the fan of rays and the steering
** round obstacles (see fan.h). Moved here from crowd_fly.c unchanged in
** its arithmetic, so that the crowd's flyers move as they did.
*/
#include "nav/fan.h"

#include <math.h>

/* The fan: a centre ray, then +-20, +-40 and +-60 degrees. */
static const float ray_angles[TD_FAN_RAYS] = {0.0f,  0.349f, -0.349f, 0.698f,
                                              -0.698f, 1.047f, -1.047f};

static inline float len2(float x, float y) { return sqrtf(x * x + y * y); }

void td_fan_init(td_fan *f) {
  for (int a = 0; a < TD_FAN_RAYS; a++) {
    f->cos[a] = cosf(ray_angles[a]);
    f->sin[a] = sinf(ray_angles[a]);
  }
}

float td_fan_angle(int a) { return a >= 0 && a < TD_FAN_RAYS ? ray_angles[a] : 0.0f; }

/* Obstacle rc (x, y, w, h) grown by r on every side: x0 y0 x1 y1. */
static inline void grown(const float *rc, float r, float b[4]) {
  b[0] = rc[0] - r;
  b[1] = rc[1] - r;
  b[2] = rc[0] + rc[2] + r;
  b[3] = rc[1] + rc[3] + r;
}

float td_fan_ray_rect(float ox, float oy, float dx, float dy, const float *rc, float r) {
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

float td_fan_ray_hit(const float *rects, size_t n, float ox, float oy, float dx, float dy,
                     float r) {
  float hit = INFINITY;
  for (size_t o = 0; o < n; o++) {
    float h = td_fan_ray_rect(ox, oy, dx, dy, rects + 4 * o, r);
    if (h < hit) hit = h;
  }
  return hit;
}

td_fan_hits td_fan_cast(const td_fan *fan, const float *rects, size_t n, float x, float y,
                        float r, float hx, float hy, float tx, float ty, float gd, float speed,
                        td_fan_ray *rays) {
  float len = speed * 1.0f + 3.0f * r;
  float ox = x - hx * r, oy = y - hy * r;
  td_fan_hits f = {0.0f, 0.0f, 0.0f, false};
  for (int a = 0; a < TD_FAN_RAYS; a++) {
    float cs = fan->cos[a], sn = fan->sin[a];
    float dx = hx * cs - hy * sn, dy = hx * sn + hy * cs;
    float hit = td_fan_ray_hit(rects, n, ox, oy, dx, dy, r);
    if (rays) rays[a] = (td_fan_ray){ox, oy, dx, dy, len, hit < len ? hit : INFINITY};
    if (!(hit < len)) continue;
    float w = (1.0f - hit / len) * (1.2f - fabsf(ray_angles[a]));
    if (a == 0) f.centre = w;
    else if (ray_angles[a] > 0.0f) f.left += w; /* counter-clockwise side */
    else f.right += w;
  }
  /* the goal's ray, from the body's centre */
  float glen = gd < len ? gd : len, hit = td_fan_ray_hit(rects, n, x, y, tx, ty, r);
  f.goal_blocked = hit < glen;
  if (rays) rays[TD_FAN_RAYS] = (td_fan_ray){x, y, tx, ty, len, hit < len ? hit : INFINITY};
  return f;
}

/* Continuous in (x, y): round a corner the direction turns smoothly. */
float td_fan_nearest(const float *rects, size_t n, float x, float y, float r, float *mx,
                     float *my) {
  float best = INFINITY;
  *mx = *my = 0.0f;
  for (size_t o = 0; o < n; o++) {
    const float *rc = rects + 4 * o;
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

bool td_fan_inside(const float *rects, size_t n, float x, float y, float r) {
  for (size_t o = 0; o < n; o++) {
    float b[4];
    grown(rects + 4 * o, r, b);
    if (x > b[0] && x < b[2] && y > b[1] && y < b[3]) return true;
  }
  return false;
}

/* How far disc (x, y, r) reaches into rect b (<= 0: apart), and the unit
** direction out the shortest way. */
static float rect_depth(const float *b, float x, float y, float r, float *ox, float *oy) {
  float x0 = b[0], y0 = b[1], x1 = b[0] + b[2], y1 = b[1] + b[3];
  if (x > x0 && x < x1 && y > y0 && y < y1) { /* the centre inside: out by the nearest side */
    float l = x - x0, rr = x1 - x, t = y - y0, bo = y1 - y, m = l;
    *ox = -1.0f;
    *oy = 0.0f;
    if (rr < m) { m = rr; *ox = 1.0f; *oy = 0.0f; }
    if (t < m) { m = t; *ox = 0.0f; *oy = -1.0f; }
    if (bo < m) { m = bo; *ox = 0.0f; *oy = 1.0f; }
    return m + r;
  }
  float qx = x < x0 ? x0 : x > x1 ? x1 : x, qy = y < y0 ? y0 : y > y1 ? y1 : y;
  float vx = x - qx, vy = y - qy, d = len2(vx, vy);
  if (d >= r) return r - d;
  if (d > 0.0f) {
    *ox = vx / d;
    *oy = vy / d;
  } else { /* on the boundary: out through the nearer side */
    *ox = x <= x0 ? -1.0f : x >= x1 ? 1.0f : 0.0f;
    *oy = *ox != 0.0f ? 0.0f : y <= y0 ? -1.0f : 1.0f;
  }
  return r - d;
}

bool td_fan_push_out(const float *rects, size_t n, float r, float *x, float *y) {
  float x0 = *x, y0 = *y;
  for (int round = 0; round < 3; round++) {
    bool moved = false;
    for (size_t o = 0; o < n; o++) {
      float ox = 0.0f, oy = 0.0f, d = rect_depth(rects + 4 * o, *x, *y, r, &ox, &oy);
      if (d < 0.0f || (d == 0.0f && !td_fan_inside(rects + 4 * o, 1, *x, *y, r))) continue;
      /* a hair beyond: a little more than the float spacing at the edge */
      float hair = 1e-6f * (1.0f + fabsf(*x) + fabsf(*y)) + 1e-5f;
      *x += ox * (d + hair);
      *y += oy * (d + hair);
      moved = true;
    }
    if (!moved) break;
  }
  return *x != x0 || *y != y0;
}

/* The flyers' rule of seed 003, with a way round: see fan.h. (The fan
** alone took the goal's direction whenever its rays were clear, turned
** back into the wall each time and zig-zagged along it.) The side is the
** heading's: no state of its own. */
void td_fan_steer(const td_fan *fan, const float *rects, size_t n, float x, float y, float r,
                  float speed, float hx, float hy, float gx, float gy, float tx, float ty,
                  float gd, float *wx, float *wy) {
  if (n == 0) {
    *wx = tx * speed;
    *wy = ty * speed;
    return;
  }
  td_fan_hits f = td_fan_cast(fan, rects, n, x, y, r, hx, hy, tx, ty, gd, speed, NULL);
  float nx = -hy, ny = hx, dx, dy;
  if (td_fan_inside(rects, n, gx, gy, r)) {
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
    float mx, my, d = td_fan_nearest(rects, n, x, y, r, &mx, &my);
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
