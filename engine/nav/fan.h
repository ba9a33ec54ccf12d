/*
** fan.h: steering round rectangles with a fan of rays (seed 003), for the
** bodies that leave the graph: the crowd's flyers and the world's soldiers.
**
** What. The obstacles are axis-aligned rectangles {x, y, w, h} (tower
** footprints, walls), each grown by the body's radius r before it is
** tested, so a body is a point against them. A ray is an origin and a unit
** direction; td_fan_ray_rect gives the distance along it to a grown
** rectangle (slab test), td_fan_ray_hit the nearest of many.
**
** The fan (td_fan_cast): seven rays along a heading h, the centre ray and
** +-20, +-40 and +-60 degrees, cast from one radius behind the body, speed
** + 3 radii long (speed: map units per second, so the fan reaches one
** second ahead); a hit at fraction f of the length weighs (1 - f) x (1.2 -
** |angle|), and the weights add up per side (left: counter-clockwise in a
** y-up frame, the positive angles) and on the centre. Then one ray from the
** body's centre toward its goal, as long, or to the goal when nearer: the
** goal is blocked when it hits first.
**
** Steering (td_fan_steer): towards the goal while its ray is clear, pushed
** off an obstacle nearer than two radii; while it is blocked, along the
** nearest obstacle's boundary (about a radius off it) on the side the
** heading already turns to, so a body slides along a wall and turns round
** corners smoothly. A goal inside an obstacle has no way round: the fan's
** side weights alone turn the heading. The wish has the given speed (0 on
** the goal).
**
** Memory: nothing is allocated; rectangles are borrowed for the call.
** Determinism: pure float arithmetic in a fixed order (the build disables
** contraction); a td_fan's table comes from cosf/sinf of constants, once.
** The crowd's flyers went through this code before it moved here, bit for
** bit (the golden replays check it).
*/
#ifndef TD_FAN_H
#define TD_FAN_H

#include <stdbool.h>
#include <stddef.h>

#define TD_FAN_RAYS 7          /* the fan's rays: the centre, then +- three */

/* The fan's cosines and sines (td_fan_init). */
typedef struct td_fan {
  float cos[TD_FAN_RAYS], sin[TD_FAN_RAYS];
} td_fan;

/* One ray cast: origin, unit direction, length, distance to the first hit
** (INFINITY: none within the length). */
typedef struct td_fan_ray {
  float ox, oy, dx, dy, len, hit;
} td_fan_ray;

/* What the rays found: the weights on the left, right and centre, and
** whether the ray toward the goal is blocked before the goal. */
typedef struct td_fan_hits {
  float left, right, centre;
  bool goal_blocked;
} td_fan_hits;

void td_fan_init(td_fan *f);
/* Ray a's angle from the heading, radians (0 for the centre ray, a = 0). */
float td_fan_angle(int a);

/* Distance along (ox, oy) + t (dx, dy), t >= 0, to rect grown by r (0 when
** the origin is inside it), or INFINITY. */
float td_fan_ray_rect(float ox, float oy, float dx, float dy, const float *rect, float r);
/* The nearest such distance over n rects (4 floats each), or INFINITY. */
float td_fan_ray_hit(const float *rects, size_t n, float ox, float oy, float dx, float dy,
                     float r);

/* The fan of a body at (x, y) of radius r along unit heading (hx, hy),
** toward a goal in unit direction (tx, ty) at distance gd (see the top).
** rays: NULL, or TD_FAN_RAYS + 1 entries (the fan's, then the goal's). */
td_fan_hits td_fan_cast(const td_fan *f, const float *rects, size_t n, float x, float y,
                        float r, float hx, float hy, float tx, float ty, float gd, float speed,
                        td_fan_ray *rays);

/* The point of the rects grown by r nearest (x, y): the unit direction
** from it to (x, y) in *mx, *my (away from the obstacle; out through the
** nearest side from inside) and the distance (0 inside; INFINITY and a
** zero direction without rects). */
float td_fan_nearest(const float *rects, size_t n, float x, float y, float r, float *mx,
                     float *my);
/* Whether (x, y) lies strictly inside a rect grown by r. */
bool td_fan_inside(const float *rects, size_t n, float x, float y, float r);
/* Pushes the disc of radius r at (*x, *y) out of the rects, each in turn
** the shortest way (a centre inside one: out through its nearest side),
** up to three rounds; a hair beyond the edge, so that td_fan_inside is
** then false. Returns whether it moved. Rects boxed in by others may leave
** it inside after the last round. */
bool td_fan_push_out(const float *rects, size_t n, float r, float *x, float *y);

/* The wish of a body at (x, y), radius r, at speed, heading (hx, hy) (a
** unit vector), for a goal (gx, gy) in unit direction (tx, ty) at distance
** gd (see the top); written to *wx, *wy. */
void td_fan_steer(const td_fan *f, const float *rects, size_t n, float x, float y, float r,
                  float speed, float hx, float hy, float gx, float gy, float tx, float ty,
                  float gd, float *wx, float *wy);

#endif
