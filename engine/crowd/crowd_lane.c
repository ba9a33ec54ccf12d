/*
** crowd_lane.c: lanes and corners, and steering along the route.
**
** A walker is on a segment (from -> to) and runs in its lane (crowd.h). Here
** are the corner geometry of a segment (the miter at its end, see corner),
** kept in a table; the steering of every agent (pure pursuit on the lane,
** cohesion, the turn and acceleration limits; flyers' wishes come from
** crowd_fly.c), four walkers at a time where SIMD allows; the waypoints and
** leaks; and what a route change does to the walkers.
**
** Corner geometry depends only on the segment (a, b) and the route: it is
** computed once per segment into a table, which a route update empties.
**
** Memory: the corner table (kc, kc_map) and the leak list grow here; out
** of memory, a corner is computed each time (kc_spare) and a leak goes
** unlisted. Determinism: each pass visits agents in slot order and writes
** only the visited agent's state (its progress also to the group sums,
** added in slot order).
*/
#include "crowd/crowd_int.h"

#include "nav/walk.h"

#include <math.h>
#include <string.h>

/* ---- the corner geometry of a lane --------------------------------------- */

/* Unit direction from node a to node b, and the length; (1, 0) when the
** nodes coincide. */
float td_crowd_seg_dir(const td_crowd *c, int32_t a, int32_t b, float *dx, float *dy) {
  float ax, ay, bx, by;
  node_pos(c, a, &ax, &ay);
  node_pos(c, b, &bx, &by);
  float l = len2(bx - ax, by - ay);
  if (l < 1e-6f) {
    *dx = 1.0f;
    *dy = 0.0f;
    return 0.0f;
  }
  *dx = (bx - ax) / l;
  *dy = (by - ay) / l;
  return l;
}

void td_crowd_corner_fill(const td_crowd *c, int32_t a, int32_t b, corner *k) {
  int32_t n2 = c->next[b];
  td_cost d = td_route_dist(c->route)[b];
  k->a = a;
  k->b = b;
  k->left = d == TD_COST_INF ? 0.0f : (float)td_graph_cost_to_units(d);
  node_pos(c, a, &k->ax, &k->ay);
  node_pos(c, b, &k->bx, &k->by);
  k->len = td_crowd_seg_dir(c, a, b, &k->dx, &k->dy);
  k->nx = -k->dy;
  k->ny = k->dx;
  k->last = n2 == TD_NONE;
  k->d2x = k->dx;
  k->d2y = k->dy;
  if (!k->last) td_crowd_seg_dir(c, b, n2, &k->d2x, &k->d2y);
  float mx = k->nx + (-k->d2y), my = k->ny + k->d2x;
  float ml = len2(mx, my);
  if (ml < 1e-4f) { /* a U-turn: no bisector; keep the incoming normal */
    k->mx = k->nx;
    k->my = k->ny;
    k->scale = 1.0f;
  } else {
    k->mx = mx / ml;
    k->my = my / ml;
    float cosh = k->mx * k->nx + k->my * k->ny;
    k->scale = cosh > 1.0f / c->p.miter_limit ? 1.0f / cosh : c->p.miter_limit;
  }
  float tx = k->dx + k->d2x, ty = k->dy + k->d2y, tl = len2(tx, ty);
  if (tl < 1e-4f) {
    k->tx = k->dx;
    k->ty = k->dy;
  } else {
    k->tx = tx / tl;
    k->ty = ty / tl;
  }
  k->mox = k->mx * k->scale;
  k->moy = k->my * k->scale;
  k->ml = (k->bx - k->ax) * k->dx + (k->by - k->ay) * k->dy;
  k->md = k->mox * k->dx + k->moy * k->dy;
  td_crowd_road_corner(c, k);
}

/* The index of segment a -> b's corner in the table, added if new; KC_NONE
** when out of memory. */
static uint32_t corner_id(td_crowd *c, int32_t a, int32_t b) {
  if (2 * ((size_t)c->kc_len + 1) > (size_t)c->kc_map_mask + 1 || !c->kc_map) {
    /* keep the map at most half full: double it, put the corners back */
    size_t size = c->kc_map ? 2 * ((size_t)c->kc_map_mask + 1) : 64;
    uint32_t *map = td_mem_calloc(size, sizeof *map);
    if (!map) return KC_NONE;
    td_mem_free(c->kc_map, c->kc_map ? (c->kc_map_mask + 1) * sizeof *c->kc_map : 0);
    c->kc_map = map;
    c->kc_map_mask = (uint32_t)(size - 1);
    for (uint32_t q = 0; q < (uint32_t)c->kc_len; q++) {
      uint32_t h = ((uint32_t)c->kc[q].a * 0x9E3779B1u) ^ ((uint32_t)c->kc[q].b * 0x85EBCA77u);
      for (h ^= h >> 16;; h++)
        if (!map[h & c->kc_map_mask]) {
          map[h & c->kc_map_mask] = q + 1;
          break;
        }
    }
  }
  uint32_t h = ((uint32_t)a * 0x9E3779B1u) ^ ((uint32_t)b * 0x85EBCA77u), free_at;
  for (h ^= h >> 16;; h++) {
    uint32_t e = c->kc_map[h & c->kc_map_mask];
    if (!e) {
      free_at = h & c->kc_map_mask;
      break;
    }
    if (c->kc[e - 1].a == a && c->kc[e - 1].b == b) return e - 1;
  }
  if (c->kc_len == c->kc_cap) {
    corner *p = td_mem_grow(c->kc, &c->kc_cap, c->kc_len + 1, sizeof *p);
    if (!p) return KC_NONE;
    c->kc = p;
  }
  uint32_t q = (uint32_t)c->kc_len++;
  td_crowd_corner_fill(c, a, b, &c->kc[q]);
  c->kc_map[free_at] = q + 1;
  return q;
}

/* Agent i took a new segment (from[i] -> to[i]): finds its corner. */
const corner *td_crowd_take_segment(td_crowd *c, size_t i) {
  c->ktab[i] = corner_id(c, c->from[i], c->to[i]);
  const corner *k = corner_at(c, i);
  c->dirx[i] = k->dx;
  c->diry[i] = k->dy;
  td_crowd_road_fit(c, i, k); /* its lane on this segment */
  return k;
}

/* Finds the corner of every agent on the ground (on a segment). */
void td_crowd_find_corners(td_crowd *c) {
  for (size_t i = 0; i < c->used; i++)
    if (layer(c->state[i]) == 0) td_crowd_take_segment(c, i);
}

/* After a route update the corners are stale (next[] and dist[] moved):
** empties the table and finds every agent's again. */
void td_crowd_check_route(td_crowd *c) {
  c->next = td_route_next(c->route);
  c->dist = td_route_dist(c->route);
  uint64_t v = route_version(c->route);
  bool moved = v != c->route_version;
  /* a grid's cells close and open only through the route: its clearance
  ** follows then; a road's blocks change through td_walk_set_blocks */
  if (moved && c->walk) td_walk_sync(c->walk);
  bool walk_moved = c->walk && td_walk_version(c->walk) != c->walk_version;
  if (!moved && !walk_moved) return;
  c->route_version = v;
  if (c->walk) c->walk_version = td_walk_version(c->walk);
  td_crowd_corners_reset(c);
}

void td_crowd_corners_reset(td_crowd *c) {
  c->nb_stale = true; /* next[] moved: the lists' directions of travel too */
  c->kc_len = 0;
  if (c->kc_map) memset(c->kc_map, 0, ((size_t)c->kc_map_mask + 1) * sizeof *c->kc_map);
  td_crowd_find_corners(c);
}

/* ---- steering ------------------------------------------------------------ */

/* Route distance left for a walker at t on its segment (k), plus its slot:
** equal for every agent of a group that keeps its formation. The agent's
** progress on its own lane segment (from where it entered it to the lane's
** miter point at the end) is mapped onto the centre line, so that an outer
** lane, which is longer round a corner, is not taken to lag: the formation
** wheels like a block. */
static inline float progress(const td_crowd *c, size_t i, const corner *k, float t) {
  return k->left + c->prog_a[i] - c->prog_b[i] * t;
}

/* Sums of progress over a run of walkers of one group (consecutive slots
** are mostly one wave), flushed when the group changes: the sum stays in
** registers instead of going through memory once per agent. */
typedef struct group_run {
  int32_t g, n;
  double sum;
} group_run;

static inline void run_flush(td_crowd *c, group_run *r) {
  if (r->n > 0) {
    c->g_sum[r->g] += r->sum;
    c->g_n[r->g] += r->n;
  }
  r->n = 0;
  r->sum = 0.0;
}

static inline void run_add(td_crowd *c, group_run *r, int32_t g, float prog) {
  if (g != r->g) {
    run_flush(c, r);
    r->g = g;
  }
  r->sum += (double)prog;
  r->n++;
}

/* Turns v = (vx, vy), of length vl, towards the wish w = e ws / |e| (a
** direction e of length el, and a speed ws) by at most the tick's turn
** limit, and changes its length towards ws by at most max_dv; returns the
** new speed, the length of (*ox, *oy). cs, sn: cosine and sine of the turn
** limit (cs = -2: no limit, for limits of half a turn or more).
**
** The turn exceeds the limit when the cosine of the angle between v and e,
** v.e / (|v| |e|), is below cs: no arctangent (and no division). Then v
** turns by exactly the limit, towards e's side (the sign of v x e). */
static inline float limit(float vx, float vy, float vl, float ex, float ey, float el, float ws,
                          float cs, float sn, float max_dv, float *ox, float *oy) {
  float wl = el > 1e-6f && ws > 0.0f ? ws : 0.0f;
  float speed = wl > vl + max_dv ? vl + max_dv : wl < vl - max_dv ? vl - max_dv : wl;
  if (speed < 0.0f) speed = 0.0f;
  if (wl > 0.0f && vl > 1e-6f && vx * ex + vy * ey < cs * (vl * el)) {
    float s = signbit(vx * ey - vy * ex) ? -sn : sn, f = speed / vl;
    *ox = (vx * cs - vy * s) * f;
    *oy = (vx * s + vy * cs) * f;
  } else if (wl > 0.0f) {
    float f = speed / el;
    *ox = ex * f;
    *oy = ey * f;
  } else if (vl > 1e-6f) { /* no wish: keep the heading, slow down */
    float f = speed / vl;
    *ox = vx * f;
    *oy = vy * f;
  } else {
    *ox = *oy = 0.0f;
    speed = 0.0f;
  }
  return speed;
}

/* The wish of a walker: pure pursuit of a point ahead on its lane (shifted
** by `shift` to pass), bent around the corner at the lane's miter point,
** as a direction (*ex, *ey) of length *el; cohesion and the follow cap set
** the speed, returned. The walker's progress now goes to *prog. */
static HOT_INLINE float walk_desire(td_crowd *c, size_t i, const corner *k, float shift,
                                float follow, float *exo, float *eyo, float *el,
                                float *prog) {
  float speed = c->max_speed[i];
  float lane = c->lane[i] + shift;
  float look = c->look[i];
  /* relative to a: the pursuit point is tc along the lane line a + n lane +
  ** d t, or past the lane's miter point (at tb) on the next segment */
  float rx = c->x[i] - k->ax, ry = c->y[i] - k->ay, t = rx * k->dx + ry * k->dy;
  float tc = t + look, tb = lane_end(k, lane), ex, ey;
  if (tc <= tb || k->last) {
    ex = k->nx * lane + k->dx * tc - rx;
    ey = k->ny * lane + k->dy * tc - ry;
  } else {
    ex = (k->bx - k->ax) + k->mox * lane + k->d2x * (tc - tb) - rx;
    ey = (k->by - k->ay) + k->moy * lane + k->d2y * (tc - tb) - ry;
  }

  /* cohesion: hurry when behind the group's mean progress, ease off ahead
  ** (as of the last tick; NAN: the agent was not walking then) */
  int32_t g = c->group[i];
  float behind = c->prog[i] - c->g_mean[g]; /* > 0: more left to go than the group */
  if (c->p.cohesion > 0.0f && c->g_use[g] && !isnan(behind)) {
    float f = 1.0f + c->coh[i] * behind;
    speed *= f < 0.7f ? 0.7f : f > 1.15f ? 1.15f : f;
  }
  c->prog[i] = *prog = progress(c, i, k, t);
  if (speed > follow) speed = follow;
  *exo = ex;
  *eyo = ey;
  *el = len2(ex, ey);
  return speed;
}

/* Agent i does not move: to holds its position and velocity as they are. */
static inline void stay(const td_crowd *c, size_t i, moves to) {
  to.x[i] = c->x[i];
  to.y[i] = c->y[i];
  to.vx[i] = c->vx[i];
  to.vy[i] = c->vy[i];
}

/* Steers agent i and moves it: its new position and velocity go to `to`
** (an agent that does not move is copied); res: what its neighbours asked
** of it (NULL when the tick has no neighbours). Returns a walker's progress
** (NAN for other agents), and its corner in *kout (else NULL). */
static HOT_INLINE float steer_agent(td_crowd *c, size_t i, const nbres *res, const corner **kout,
                                    moves to) {
  uint8_t s = c->state[i];
  float ex = 0.0f, ey = 0.0f, el = 0.0f, ws = 0.0f, prog = NAN; /* the wish */
  *kout = NULL;
  if (s == TD_AGENT_WALK) {
    const corner *kw = *kout = corner_at(c, i);
    ws = walk_desire(c, i, kw, res ? res->shift : 0.0f, res ? res->follow : INFINITY, &ex, &ey,
                     &el, &prog);
  } else {
    c->prog[i] = NAN;
    if (s == TD_AGENT_FLY) {
      float gd;
      td_crowd_fly_desire(c, i, &ex, &ey, &gd);
      if (gd <= 2.0f * c->radius[i] && !c->hold[i]) {
        c->state[i] = TD_AGENT_LEAKED; /* gone: no projection (layer -1) */
        stay(c, i, to);
        return prog;
      }
      el = ws = c->hold[i] ? 0.0f : len2(ex, ey);
    } else if (s != TD_AGENT_STUNNED && s != TD_AGENT_STRANDED) {
      stay(c, i, to);
      return prog;
    }
  }
  if (res && (res->px != 0.0f || res->py != 0.0f)) { /* the push joins the wish */
    float f = el > 1e-6f ? ws / el : 0.0f;
    ex = ex * f + res->px * c->max_speed[i];
    ey = ey * f + res->py * c->max_speed[i];
    el = ws = len2(ex, ey);
  }
  float dt = c->dt, nvx, nvy;
  float speed = limit(c->vx[i], c->vy[i], c->speed[i], ex, ey, el, ws, c->turn_cos[i],
                      c->turn_sin[i], c->dv[i], &nvx, &nvy);
  if (s == TD_AGENT_STUNNED || s == TD_AGENT_STRANDED || (s == TD_AGENT_FLY && c->hold[i])) {
    /* standing: only the push moves it, slowly */
    nvx *= 0.5f;
    nvy *= 0.5f;
    speed *= 0.5f;
  }
  float x = c->x[i], y = c->y[i];
  to.vx[i] = nvx;
  to.vy[i] = nvy;
  c->speed[i] = speed;
  to.x[i] = x + nvx * dt;
  to.y[i] = y + nvy * dt;
  c->travelled[i] += speed * dt;
  return prog;
}

/* Whether walker i at (x, y) on segment k has reached its end: crossed the
** bisector at its end, or (the last node) come within its radius of it.
** waypoint_agent's test, the same bits. */
static inline bool at_end(const td_crowd *c, size_t i, const corner *k, float x, float y) {
  float past = k->last ? (x - k->bx) * k->dx + (y - k->by) * k->dy + c->radius[i]
                       : (x - k->bx) * k->tx + (y - k->by) * k->ty;
  return past >= 0.0f;
}

#if SIMD4
/* ---- four walkers at a time ----------------------------------------------
**
** Walkers (most agents, in runs of consecutive slots: waves) are steered
** four at a time: walk_desire, limit and the move of steer_agent, with the
** same operations in the same order on four lanes (SSE2's are exact like
** the scalar ones), so the same bits. A branch becomes both its sides and
** a choice by mask (pick4), with the scalar comparisons (a NAN compares
** false), never _mm_min_ps or _mm_max_ps. */

/* Lanes of m set take a, the others b. */
static inline __m128 pick4(__m128 m, __m128 a, __m128 b) {
  return _mm_or_ps(_mm_and_ps(m, a), _mm_andnot_ps(m, b));
}

/* Four consecutive rows of four floats, at byte offset `off` of p[0 .. 3],
** as four columns: *f0 holds the first float of each, and so on. */
static HOT_INLINE void rows4(const void *const p[4], size_t off, __m128 *f0, __m128 *f1,
                             __m128 *f2, __m128 *f3) {
  __m128 r0 = _mm_loadu_ps((const float *)((const char *)p[0] + off));
  __m128 r1 = _mm_loadu_ps((const float *)((const char *)p[1] + off));
  __m128 r2 = _mm_loadu_ps((const float *)((const char *)p[2] + off));
  __m128 r3 = _mm_loadu_ps((const float *)((const char *)p[3] + off));
  _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
  *f0 = r0;
  *f1 = r1;
  *f2 = r2;
  *f3 = r3;
}

/* corners4 reads a corner as six rows of four (a, b, last, left; ax, ay,
** bx, by; ...; mox, moy, ml, md), and the scans' results as one. */
_Static_assert(offsetof(corner, a) == 0 && offsetof(corner, last) == 8 &&
                   offsetof(corner, left) == 12 && offsetof(corner, ax) == 16 &&
                   offsetof(corner, dx) == 32 &&
                   offsetof(corner, ny) == 48 && offsetof(corner, my) == 64 &&
                   offsetof(corner, mox) == 80 && offsetof(corner, md) == 92,
               "corner's layout (see steer_walk4)");
_Static_assert(sizeof(nbres) == 4 * sizeof(float) && offsetof(nbres, follow) == 0 &&
                   offsetof(nbres, shift) == 4 && offsetof(nbres, px) == 8,
               "nbres's layout (see steer_walk4)");

/* The corners of four walkers, field by field (lane l: agent i + l), and
** which corner all four share (KC_NONE: not one). */
typedef struct corner4 {
  __m128 last;            /* a mask */
  __m128 left, ax, ay, bx, by, dx, dy, nx, ny, d2x, d2y, tx, ty, mox, moy, ml, md;
  __m128 abx, aby;        /* b - a */
  uint32_t id;
} corner4;

/* The corners of walkers i .. i + 3 into *k; false if one is not in the
** table (then steer_agent takes them). Mostly the four (a wave) and the
** four before share one: *k holds it already. */
static HOT_INLINE bool corners4(const td_crowd *c, size_t i, corner4 *k) {
  const uint32_t *q = c->ktab + i;
  if (q[0] == q[1] && q[0] == q[2] && q[0] == q[3]) {
    if (k->id == q[0] || q[0] == KC_NONE) return q[0] != KC_NONE;
    const corner *o = &c->kc[q[0]];
    k->id = q[0];
    k->last = _mm_castsi128_ps(_mm_set1_epi32(o->last ? -1 : 0));
    k->left = _mm_set1_ps(o->left);
    k->ax = _mm_set1_ps(o->ax);
    k->ay = _mm_set1_ps(o->ay);
    k->bx = _mm_set1_ps(o->bx);
    k->by = _mm_set1_ps(o->by);
    k->abx = _mm_sub_ps(k->bx, k->ax);
    k->aby = _mm_sub_ps(k->by, k->ay);
    k->dx = _mm_set1_ps(o->dx);
    k->dy = _mm_set1_ps(o->dy);
    k->nx = _mm_set1_ps(o->nx);
    k->ny = _mm_set1_ps(o->ny);
    k->d2x = _mm_set1_ps(o->d2x);
    k->d2y = _mm_set1_ps(o->d2y);
    k->tx = _mm_set1_ps(o->tx);
    k->ty = _mm_set1_ps(o->ty);
    k->mox = _mm_set1_ps(o->mox);
    k->moy = _mm_set1_ps(o->moy);
    k->ml = _mm_set1_ps(o->ml);
    k->md = _mm_set1_ps(o->md);
    return true;
  }
  if (q[0] == KC_NONE || q[1] == KC_NONE || q[2] == KC_NONE || q[3] == KC_NONE) return false;
  const void *kp[4] = {&c->kc[q[0]], &c->kc[q[1]], &c->kc[q[2]], &c->kc[q[3]]};
  __m128 last, skip; /* skip: fields not needed */
  k->id = KC_NONE;
  rows4(kp, offsetof(corner, a), &skip, &skip, &last, &k->left);
  rows4(kp, offsetof(corner, ax), &k->ax, &k->ay, &k->bx, &k->by);
  k->abx = _mm_sub_ps(k->bx, k->ax);
  k->aby = _mm_sub_ps(k->by, k->ay);
  rows4(kp, offsetof(corner, dx), &k->dx, &k->dy, &skip, &k->nx);
  rows4(kp, offsetof(corner, ny), &k->ny, &k->d2x, &k->d2y, &skip);
  rows4(kp, offsetof(corner, my), &skip, &skip, &k->tx, &k->ty);
  rows4(kp, offsetof(corner, mox), &k->mox, &k->moy, &k->ml, &k->md);
  /* the bool's byte (the others are padding) */
  k->last = _mm_castsi128_ps(_mm_cmpgt_epi32(
      _mm_and_si128(_mm_castps_si128(last), _mm_set1_epi32(0xFF)), _mm_setzero_si128()));
  return true;
}

/* run_add for walkers i .. i + 3 (their progress skipped when NAN), in
** slot order: mostly all four add to the run as it is. */
static HOT_INLINE void run_add4(td_crowd *c, group_run *r, size_t i) {
  const float *p = c->prog + i;
  __m128 pv = _mm_loadu_ps(p);
  __m128i same = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(c->group + i)),
                                 _mm_set1_epi32(r->g));
  if (_mm_movemask_ps(_mm_and_ps(_mm_castsi128_ps(same), _mm_cmpord_ps(pv, pv))) == 15) {
    r->sum += (double)p[0];
    r->sum += (double)p[1];
    r->sum += (double)p[2];
    r->sum += (double)p[3];
    r->n += 4;
    return;
  }
  for (size_t q = 0; q < 4; q++)
    if (!isnan(p[q])) run_add(c, r, c->group[i + q], p[q]);
}

/* steer_agent for the four walkers i .. i + 3 (see walk4), whose corners
** are *k (see corners4): res, what their scans found (four in a row; NULL:
** no neighbours). Returns which are at their segment's end after the move
** (at_end), bit l for agent i + l. */
static HOT_INLINE unsigned steer_walk4(td_crowd *c, size_t i, const corner4 *k, const nbres *res,
                                       moves to) {
  const __m128 zero = _mm_setzero_ps(), tiny = _mm_set1_ps(1e-6f);
  __m128 follow = _mm_set1_ps(INFINITY), shift = zero, px = zero, py = zero;
  if (res) {
    const void *rp[4] = {res, res + 1, res + 2, res + 3};
    rows4(rp, 0, &follow, &shift, &px, &py);
  }

  /* walk_desire: the pursuit point, on the lane or past its miter point */
  __m128 x = _mm_loadu_ps(c->x + i), y = _mm_loadu_ps(c->y + i);
  __m128 max_speed = _mm_loadu_ps(c->max_speed + i), speed = max_speed;
  __m128 lane = _mm_add_ps(_mm_loadu_ps(c->lane + i), shift);
  __m128 rx = _mm_sub_ps(x, k->ax), ry = _mm_sub_ps(y, k->ay);
  __m128 t = _mm_add_ps(_mm_mul_ps(rx, k->dx), _mm_mul_ps(ry, k->dy));
  __m128 tc = _mm_add_ps(t, _mm_loadu_ps(c->look + i));
  __m128 tb = _mm_add_ps(k->ml, _mm_mul_ps(k->md, lane)), past = _mm_sub_ps(tc, tb);
  __m128 on_lane = _mm_or_ps(_mm_cmple_ps(tc, tb), k->last);
  __m128 ex_on = _mm_sub_ps(_mm_add_ps(_mm_mul_ps(k->nx, lane), _mm_mul_ps(k->dx, tc)), rx);
  __m128 ey_on = _mm_sub_ps(_mm_add_ps(_mm_mul_ps(k->ny, lane), _mm_mul_ps(k->dy, tc)), ry);
  __m128 ex_past = _mm_add_ps(_mm_add_ps(k->abx, _mm_mul_ps(k->mox, lane)), _mm_mul_ps(k->d2x, past));
  __m128 ey_past = _mm_add_ps(_mm_add_ps(k->aby, _mm_mul_ps(k->moy, lane)), _mm_mul_ps(k->d2y, past));
  __m128 ex = pick4(on_lane, ex_on, _mm_sub_ps(ex_past, rx));
  __m128 ey = pick4(on_lane, ey_on, _mm_sub_ps(ey_past, ry));
  /* cohesion (the group's mean and use, gathered) */
  __m128 prog = _mm_loadu_ps(c->prog + i);
  if (c->p.cohesion > 0.0f) {
    const int32_t *g = c->group + i;
    __m128 mean = _mm_setr_ps(c->g_mean[g[0]], c->g_mean[g[1]], c->g_mean[g[2]], c->g_mean[g[3]]);
    __m128i use = _mm_setr_epi32(c->g_use[g[0]], c->g_use[g[1]], c->g_use[g[2]], c->g_use[g[3]]);
    __m128 behind = _mm_sub_ps(prog, mean);
    __m128 on = _mm_and_ps(_mm_castsi128_ps(_mm_cmpgt_epi32(use, _mm_setzero_si128())),
                           _mm_cmpord_ps(behind, behind));
    __m128 f = _mm_add_ps(_mm_set1_ps(1.0f), _mm_mul_ps(_mm_loadu_ps(c->coh + i), behind));
    f = pick4(_mm_cmplt_ps(f, _mm_set1_ps(0.7f)), _mm_set1_ps(0.7f),
              pick4(_mm_cmpgt_ps(f, _mm_set1_ps(1.15f)), _mm_set1_ps(1.15f), f));
    speed = pick4(on, _mm_mul_ps(speed, f), speed);
  }
  prog = _mm_sub_ps(_mm_add_ps(k->left, _mm_loadu_ps(c->prog_a + i)),
                    _mm_mul_ps(_mm_loadu_ps(c->prog_b + i), t));
  _mm_storeu_ps(c->prog + i, prog);
  speed = pick4(_mm_cmpgt_ps(speed, follow), follow, speed);
  __m128 el = _mm_sqrt_ps(_mm_add_ps(_mm_mul_ps(ex, ex), _mm_mul_ps(ey, ey))), ws = speed;

  if (res) { /* the push joins the wish */
    __m128 push = _mm_or_ps(_mm_cmpneq_ps(px, zero), _mm_cmpneq_ps(py, zero));
    if (_mm_movemask_ps(push)) {
      __m128 f = pick4(_mm_cmpgt_ps(el, tiny), _mm_div_ps(ws, el), zero);
      __m128 pex = _mm_add_ps(_mm_mul_ps(ex, f), _mm_mul_ps(px, max_speed));
      __m128 pey = _mm_add_ps(_mm_mul_ps(ey, f), _mm_mul_ps(py, max_speed));
      __m128 pel = _mm_sqrt_ps(_mm_add_ps(_mm_mul_ps(pex, pex), _mm_mul_ps(pey, pey)));
      ex = pick4(push, pex, ex);
      ey = pick4(push, pey, ey);
      el = pick4(push, pel, el);
      ws = pick4(push, pel, ws);
    }
  }

  /* limit: the speed towards the wish within max_dv, the turn within the
  ** limit (or straight at the wish; or no wish: the heading kept) */
  __m128 vx = _mm_loadu_ps(c->vx + i), vy = _mm_loadu_ps(c->vy + i);
  __m128 vl = _mm_loadu_ps(c->speed + i), dv = _mm_loadu_ps(c->dv + i);
  __m128 cs = _mm_loadu_ps(c->turn_cos + i), sn = _mm_loadu_ps(c->turn_sin + i);
  __m128 wl = _mm_and_ps(_mm_and_ps(_mm_cmpgt_ps(el, tiny), _mm_cmpgt_ps(ws, zero)), ws);
  __m128 up = _mm_add_ps(vl, dv), down = _mm_sub_ps(vl, dv);
  __m128 sp = pick4(_mm_cmpgt_ps(wl, up), up, pick4(_mm_cmplt_ps(wl, down), down, wl));
  sp = pick4(_mm_cmplt_ps(sp, zero), zero, sp);
  __m128 wish = _mm_cmpgt_ps(wl, zero), moving = _mm_cmpgt_ps(vl, tiny);
  __m128 turn = _mm_and_ps(_mm_and_ps(wish, moving),
                           _mm_cmplt_ps(_mm_add_ps(_mm_mul_ps(vx, ex), _mm_mul_ps(vy, ey)),
                                        _mm_mul_ps(cs, _mm_mul_ps(vl, el))));
  /* the turn's sine, signed by v x e */
  __m128 cross = _mm_sub_ps(_mm_mul_ps(vx, ey), _mm_mul_ps(vy, ex));
  __m128 s = _mm_xor_ps(sn, _mm_and_ps(cross, _mm_set1_ps(-0.0f)));
  __m128 fv = _mm_div_ps(sp, vl), fe = _mm_div_ps(sp, el);
  __m128 ox = pick4(turn, _mm_mul_ps(_mm_sub_ps(_mm_mul_ps(vx, cs), _mm_mul_ps(vy, s)), fv),
                    pick4(wish, _mm_mul_ps(ex, fe), pick4(moving, _mm_mul_ps(vx, fv), zero)));
  __m128 oy = pick4(turn, _mm_mul_ps(_mm_add_ps(_mm_mul_ps(vx, s), _mm_mul_ps(vy, cs)), fv),
                    pick4(wish, _mm_mul_ps(ey, fe), pick4(moving, _mm_mul_ps(vy, fv), zero)));
  speed = _mm_and_ps(_mm_or_ps(wish, moving), sp);

  /* the move */
  __m128 dt = _mm_set1_ps(c->dt);
  __m128 nxp = _mm_add_ps(x, _mm_mul_ps(ox, dt)), nyp = _mm_add_ps(y, _mm_mul_ps(oy, dt));
  _mm_storeu_ps(to.vx + i, ox);
  _mm_storeu_ps(to.vy + i, oy);
  _mm_storeu_ps(c->speed + i, speed);
  _mm_storeu_ps(to.x + i, nxp);
  _mm_storeu_ps(to.y + i, nyp);
  _mm_storeu_ps(c->travelled + i,
                _mm_add_ps(_mm_loadu_ps(c->travelled + i), _mm_mul_ps(speed, dt)));

  /* at_end */
  __m128 qx = _mm_sub_ps(nxp, k->bx), qy = _mm_sub_ps(nyp, k->by);
  __m128 end = pick4(k->last,
                     _mm_add_ps(_mm_add_ps(_mm_mul_ps(qx, k->dx), _mm_mul_ps(qy, k->dy)),
                                _mm_loadu_ps(c->radius + i)),
                     _mm_add_ps(_mm_mul_ps(qx, k->tx), _mm_mul_ps(qy, k->ty)));
  return (unsigned)_mm_movemask_ps(_mm_cmpge_ps(end, zero));
}
#endif

/* Takes next[] at waypoints; a goal is a leak; a node without a route makes
** the agent wait there. k: the corner of the agent's segment if known. */
static HOT_INLINE void waypoint_agent(td_crowd *c, size_t i, const corner *k) {
  const int32_t *next = c->next;
  /* a stranded agent waits for td_crowd_route_changed, which knows
  ** whether its segment is open: it may stand on a blocked one */
  if (c->state[i] != TD_AGENT_WALK) return;
  if (!k) k = corner_at(c, i);
  for (int hops = 0; hops < 4; hops++) { /* short segments: several per tick (as at_end) */
    float past = (c->x[i] - k->bx) * k->tx + (c->y[i] - k->by) * k->ty;
    if (k->last) past = (c->x[i] - k->bx) * k->dx + (c->y[i] - k->by) * k->dy + c->radius[i];
    if (past < 0.0f) break;
    int32_t b = c->to[i];
    if (td_route_is_goal(c->route, b) && c->dist[b] == 0) {
      c->state[i] = TD_AGENT_LEAKED;
      return;
    }
    if (next[b] == TD_NONE) {
      c->state[i] = TD_AGENT_STRANDED;
      return;
    }
    if (next[b] == c->from[i]) c->lane[i] = -c->lane[i]; /* U-turn: keep its side */
    if (k->scale > STRAIGHT_SCALE || next[b] == c->from[i]) c->turn_at[i] = c->travelled[i];
    c->m_turn[i] = 0.0f;
    c->from[i] = b;
    c->to[i] = next[b];
    k = td_crowd_take_segment(c, i);
    enter_segment(c, i, k, (c->x[i] - k->ax) * k->dx + (c->y[i] - k->ay) * k->dy);
  }
}

static void note_leak(td_crowd *c, size_t i) {
  if (c->leak_len == c->leak_cap) {
    td_agent *p = td_mem_grow(c->leaks, &c->leak_cap, c->leak_len + 1, sizeof *p);
    if (!p) { /* the leak still happens; only the list misses it */
      c->m.leaks++;
      return;
    }
    c->leaks = p;
  }
  c->leaks[c->leak_len++] = make_handle(c, i);
  c->m.leaks++;
}

/* ---- the passes ---------------------------------------------------------- */

/* Pass 3, the steering with neighbours (td_crowd_step): in slot order,
** each agent steers with what its scan found (nb_res) and moves, four
** walkers at a time where SIMD allows. The new positions and velocities go
** to `to` (the next tick's; the caller swaps them in), free slots copied;
** wp marks the agents at their segment's end (or flyers that arrived) for
** the waypoint pass; the walkers' progress goes to the group sums. *moved:
** the largest move (|dx| + |dy|), for the projection; *far2: the largest
** squared distance from where the lists were made. */
void td_crowd_steer_pass(td_crowd *c, moves to, float *moved_out, float *far2_out) {
  group_run run = {.g = -1, .n = 0, .sum = 0.0};
  float moved = 0.0f; /* the largest move, |dx| + |dy|, for the projection */
  float far2 = 0.0f;  /* the largest squared distance from where the lists were made */
#if SIMD4
  /* the same maxima, lane by lane (of values >= 0 or NAN: any order) */
  __m128 moved4 = _mm_setzero_ps(), far4 = _mm_setzero_ps();
  corner4 k4 = {.id = KC_NONE};
#endif
  for (size_t i = 0; i < c->used;) {
#if SIMD4
    if (i + 4 <= c->used && walk4(c, i) && corners4(c, i, &k4)) {
      unsigned ends = steer_walk4(c, i, &k4, c->nb_res + i, to);
      run_add4(c, &run, i);
      uint32_t marks = (ends * 0x204081u) & 0x01010101u; /* bit l to byte l (little-endian) */
      memcpy(c->wp + i, &marks, sizeof marks);
      __m128 nxp = _mm_loadu_ps(to.x + i), nyp = _mm_loadu_ps(to.y + i);
      __m128 m = _mm_add_ps(abs4(_mm_sub_ps(nxp, _mm_loadu_ps(c->x + i))),
                            abs4(_mm_sub_ps(nyp, _mm_loadu_ps(c->y + i))));
      moved4 = pick4(_mm_cmpgt_ps(m, moved4), m, moved4);
      __m128 fx = _mm_sub_ps(nxp, _mm_loadu_ps(c->x0 + i));
      __m128 fy = _mm_sub_ps(nyp, _mm_loadu_ps(c->y0 + i));
      __m128 f2 = _mm_add_ps(_mm_mul_ps(fx, fx), _mm_mul_ps(fy, fy));
      far4 = pick4(_mm_cmpgt_ps(f2, far4), f2, far4);
      i += 4;
      continue;
    }
#endif
    if (c->state[i] == TD_AGENT_FREE) { /* kept as they were (saves hold them) */
      stay(c, i, to);
      i++;
      continue;
    }
    const corner *k;
    float prog = steer_agent(c, i, &c->nb_res[i], &k, to);
    if (!isnan(prog)) run_add(c, &run, c->group[i], prog);
    /* at its segment's end (a walker), or a flyer that arrived */
    c->wp[i] = k ? at_end(c, i, k, to.x[i], to.y[i]) : c->state[i] == TD_AGENT_LEAKED;
    float m = fabsf(to.x[i] - c->x[i]) + fabsf(to.y[i] - c->y[i]);
    if (m > moved) moved = m;
    float fx = to.x[i] - c->x0[i], fy = to.y[i] - c->y0[i], f2 = fx * fx + fy * fy;
    if (f2 > far2) far2 = f2;
    i++;
  }
#if SIMD4
  float lm[4], lf[4];
  _mm_storeu_ps(lm, moved4);
  _mm_storeu_ps(lf, far4);
  for (int l = 0; l < 4; l++) {
    if (lm[l] > moved) moved = lm[l];
    if (lf[l] > far2) far2 = lf[l];
  }
#endif
  run_flush(c, &run);
  *moved_out = moved;
  *far2_out = far2;
}

/* Pass 5: waypoints and leaks, in slot order, of the agents marked: where
** the steering left them at a segment's end, or the projection moved them
** (no other can be at one); eight marks at a time. */
void td_crowd_waypoint_pass(td_crowd *c) {
  for (size_t i = 0; i < c->used; i += 8) {
    uint64_t marks;
    memcpy(&marks, c->wp + i, sizeof marks); /* the column has SPARE bytes after the last */
    if (!marks) continue;
    for (size_t q = i; q < i + 8 && q < c->used; q++) {
      if (!c->wp[q]) continue;
      c->wp[q] = 0;
      waypoint_agent(c, q, NULL);
      if (c->state[q] == TD_AGENT_LEAKED) note_leak(c, q);
    }
  }
}

/* The tick without neighbours (separation and metrics off), one pass in
** slot order: frees the slots of agents that finished last tick, steers
** and moves each agent, takes its waypoints, lists the leaks. */
void td_crowd_walk_pass(td_crowd *c) {
  group_run run = {.g = -1, .n = 0, .sum = 0.0};
  moves here = {c->x, c->y, c->vx, c->vy};
#if SIMD4
  corner4 k4 = {.id = KC_NONE};
#endif
  for (size_t i = 0; i < c->used;) {
#if SIMD4
    /* four walkers (nothing to free), then their waypoints in order: an
    ** agent's waypoint changes no other's steering */
    if (i + 4 <= c->used && walk4(c, i) && corners4(c, i, &k4)) {
      unsigned ends = steer_walk4(c, i, &k4, NULL, here);
      run_add4(c, &run, i);
      for (size_t q = i; ends && q < i + 4; q++) {
        if (!(ends >> (q - i) & 1u)) continue; /* waypoint_agent's first test */
        waypoint_agent(c, q, NULL);
        if (c->state[q] == TD_AGENT_LEAKED) note_leak(c, q);
      }
      i += 4;
      continue;
    }
#endif
    if (free_finished(c, i) != TD_AGENT_FREE) {
      const corner *k;
      float prog = steer_agent(c, i, NULL, &k, here);
      if (!isnan(prog)) run_add(c, &run, c->group[i], prog);
      waypoint_agent(c, i, k);
      if (c->state[i] == TD_AGENT_LEAKED) note_leak(c, i);
    }
    i++;
  }
  run_flush(c, &run);
}

/* ---- route changes ------------------------------------------------------- */

void td_crowd_route_changed(td_crowd *c) {
  const td_graph *g = c->g;
  const td_cost *dist = td_route_dist(c->route);
  td_crowd_check_route(c);
  c->nb_stale = true; /* agents turn back: the lists' directions of travel change */
  for (size_t i = 0; i < c->used; i++) {
    if (c->state[i] != TD_AGENT_WALK && c->state[i] != TD_AGENT_STRANDED) continue;
    int32_t a = c->from[i], b = c->to[i];
    int32_t e = a != b ? td_graph_find_edge(g, a, b) : TD_NONE;
    bool seg_open = e == TD_NONE ? a == b : td_graph_edge_open(g, e);
    float ax, ay, bx, by;
    node_pos(c, a, &ax, &ay);
    node_pos(c, b, &bx, &by);
    /* with a walkable area, a closed segment is still road, and a tower's
    ** footprint stands somewhere on it: an agent past the tower (it stands
    ** between the agent and a) walks on, one before it turns back; a
    ** segment closed with no footprint on it is walked back, as without */
    float r = c->radius[i];
    bool back_free = !c->walk || !td_walk_blocked_way(c->walk, c->x[i], c->y[i], ax, ay, r);
    bool ahead_free = seg_open || (!back_free && a != b &&
                                   !td_walk_blocked_way(c->walk, c->x[i], c->y[i], bx, by, r));
    bool ahead_ok = ahead_free && !g->node_blocked[b] && dist[b] != TD_COST_INF;
    bool back_ok = a != b && back_free && !g->node_blocked[a] && dist[a] != TD_COST_INF;
    /* the cheaper way out of the segment: on through b, or back through a
    ** (a blocked segment can still be walked back: the tower is ahead) */
    double via_b = ahead_ok ? (double)len2(bx - c->x[i], by - c->y[i]) +
                                  td_graph_cost_to_units(dist[b])
                            : (double)INFINITY;
    double via_a = back_ok ? (double)len2(ax - c->x[i], ay - c->y[i]) +
                                 td_graph_cost_to_units(dist[a])
                           : (double)INFINITY;
    if (ahead_ok && !(via_a < via_b - 1e-3)) {
      if (c->state[i] == TD_AGENT_STRANDED && c->next[b] != TD_NONE)
        c->state[i] = TD_AGENT_WALK;
      continue;
    }
    if (back_ok) {
      c->from[i] = b;
      c->to[i] = a;
      c->lane0[i] = -c->lane0[i]; /* keep its side of the road (take_segment fits lane) */
      c->state[i] = TD_AGENT_WALK;
      const corner *k = td_crowd_take_segment(c, i);
      enter_segment(c, i, k, (c->x[i] - k->ax) * k->dx + (c->y[i] - k->ay) * k->dy);
    } else {
      c->state[i] = TD_AGENT_STRANDED;
    }
  }
}
