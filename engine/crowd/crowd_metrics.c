/*
** crowd_metrics.c: the behaviour metrics (seed 004; DESIGN.md "Behaviour
** metrics"): min_gap, lane_error, lane_swaps, group_spread, jitter, orbits,
** and off_road (measured in crowd_road.c).
**
** While they are enabled, td_crowd_step measures at the end of each tick
** (td_crowd_measure), after the waypoints; leaks are counted where they are
** listed (crowd_lane.c).
**
** Memory: the sort keys and points grow here (out of memory, the lane
** metrics of the tick are skipped); td_crowd_metrics_free frees them.
** Cost: O(n log n) a tick: one sort of the walkers for the lane order, and
** each group's diameter from its convex hull (rotating calipers).
** Determinism: the metrics read the crowd and write only themselves and
** each agent's metrics state (m_*, inv_with); they never change how agents
** move.
*/
#include "crowd/crowd_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* jitter: a zig-zag, three sharp turns (faster than JITTER_RATE, rad/s)
** alternating left and right, each within JITTER_TIME seconds of the last
** (one turn back after a corner is a correction, not a jitter) */
#define JITTER_RATE 1.047f
#define JITTER_TIME 0.1f

/* The keys of the lane metrics: walkers by group and segment, then lane
** order, then slot; and the points of a group's diameter. */
struct metric_key {
  int64_t seg;            /* group << 20 | from */
  float lane;
  int32_t i;
};
struct metric_pt {
  float x, y;
};

/* Sorts that the compiler can inline the order into (qsort's calls through
** a pointer took half the time of the metrics of a 100k wave): a bottom-up
** merge sort of a[0 .. n) with tmp[0 .. n) as scratch, runs of 16 sorted
** by insertion first. The orders are total (the slot breaks ties). */
/* NOLINTBEGIN(bugprone-macro-parentheses): `type` names a type, which no
** parentheses may wrap */
#define MERGE_SORT(name, type, before)                                               \
  static void name(type *a, type *tmp, size_t n) {                                   \
    for (size_t lo = 0; lo < n; lo += 16) {                                          \
      size_t hi = lo + 16 < n ? lo + 16 : n;                                         \
      for (size_t i = lo + 1; i < hi; i++) {                                         \
        type v = a[i];                                                               \
        size_t j = i;                                                                \
        for (; j > lo && before(&v, &a[j - 1]); j--) a[j] = a[j - 1];                \
        a[j] = v;                                                                    \
      }                                                                              \
    }                                                                                \
    type *src = a, *dst = tmp;                                                       \
    for (size_t w = 16; w < n; w *= 2) {                                             \
      for (size_t lo = 0; lo < n; lo += 2 * w) {                                     \
        size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;  \
        size_t i = lo, j = mid, k = lo;                                              \
        while (i < mid && j < hi) dst[k++] = before(&src[j], &src[i]) ? src[j++] : src[i++]; \
        while (i < mid) dst[k++] = src[i++];                                         \
        while (j < hi) dst[k++] = src[j++];                                          \
      }                                                                              \
      type *t = src;                                                                 \
      src = dst;                                                                     \
      dst = t;                                                                       \
    }                                                                                \
    if (src != a) memcpy(a, src, n * sizeof *a);                                     \
  }
/* NOLINTEND(bugprone-macro-parentheses) */

static inline bool key_before(const metric_key *p, const metric_key *q) {
  if (p->seg != q->seg) return p->seg < q->seg;
  if (p->lane != q->lane) return p->lane < q->lane;
  return p->i < q->i;
}
MERGE_SORT(sort_keys, metric_key, key_before)

/* ---- group spread: the diameter of a group's positions ------------------- */

static inline bool pt_before(const metric_pt *p, const metric_pt *q) {
  return p->x < q->x || (p->x == q->x && p->y < q->y);
}
MERGE_SORT(sort_pts, metric_pt, pt_before)

static inline double cross(metric_pt o, metric_pt a, metric_pt b) {
  double ox = (double)o.x, oy = (double)o.y;
  return ((double)a.x - ox) * ((double)b.y - oy) - ((double)a.y - oy) * ((double)b.x - ox);
}

/* The largest distance between two of p[0 .. n) (reordered): the convex
** hull (Andrew's monotone chain, into h), then its antipodal pairs
** (rotating calipers): O(n log n). Distances as len2 gives them. */
static double diameter(metric_pt *p, size_t n, metric_pt *h) {
  if (n < 2) return 0.0;
  sort_pts(p, h, n); /* h (room for 2n) is the scratch until the hull */
  size_t k = 0;
  for (size_t i = 0; i < n; i++) { /* lower hull */
    while (k >= 2 && cross(h[k - 2], h[k - 1], p[i]) <= 0.0) k--;
    h[k++] = p[i];
  }
  for (size_t i = n - 1, lo = k + 1; i-- > 0;) { /* upper hull */
    while (k >= lo && cross(h[k - 2], h[k - 1], p[i]) <= 0.0) k--;
    h[k++] = p[i];
  }
  size_t m = k - 1; /* the last repeats the first */
  if (m < 2) return (double)len2(p[n - 1].x - p[0].x, p[n - 1].y - p[0].y);
  double best = 0.0;
  for (size_t i = 0, j = 1; i < m; i++) {
    metric_pt a = h[i], b = h[i + 1];
    /* advance j while the triangle a, b, h[j + 1] grows */
    while (cross(a, b, h[(j + 1) % m]) > cross(a, b, h[j])) j = (j + 1) % m;
    double d1 = (double)len2(a.x - h[j].x, a.y - h[j].y);
    double d2 = (double)len2(b.x - h[j].x, b.y - h[j].y);
    if (d1 > best) best = d1;
    if (d2 > best) best = d2;
  }
  return best;
}


/* ---- the measures of a tick ---------------------------------------------- */

/* Adds the tick just stepped to the metrics (td_crowd_step, while they are
** enabled): min_gap in a grid sorted now, each moving agent's turn (jitter,
** orbits), the lane error on straight parts, lane swaps and group spread. */
void td_crowd_measure(td_crowd *c) {
  /* min_gap over the pairs of one layer closer than the interaction reach,
  ** in a grid of where the agents are now */
  td_crowd_grid_sort(c);
  c->grid_tick = UINT64_MAX;
  float reach = c->reach, r = reach * 1.001f + 1e-4f;
  for (size_t k = 0; k < c->n_grid; k++) {
    size_t i = (size_t)c->order[k];
    int li = layer(c->state[i]);
    if (li < 0) continue;
    float xi = c->x[i], yi = c->y[i];
    cellbox box = cell_box(c, xi - r, yi - r, xi + r, yi + r);
    for (int32_t row = box.y0; row <= box.y1; row++) {
      int32_t lo, hi;
      row_run(c, &box, row, &lo, &hi);
      for (int32_t kk = lo; kk < hi; kk++) {
        size_t j = (size_t)c->order[kk];
        if (j <= i || layer(c->state[j]) != li) continue;
        float d = len2(xi - c->x[j], yi - c->y[j]);
        if (d > reach) continue;
        double gap = (double)d - (double)c->radius[i] - (double)c->radius[j];
        if (gap < c->m.min_gap) c->m.min_gap = gap;
      }
    }
  }
  /* jitter and orbits, from each moving agent's turn in this tick */
  for (size_t i = 0; i < c->used; i++) {
    uint8_t st = c->state[i];
    if (st != TD_AGENT_WALK && st != TD_AGENT_FLY) {
      c->m_vx[i] = c->m_vy[i] = 0.0f;
      continue;
    }
    float ax = c->m_vx[i], ay = c->m_vy[i], bx = c->vx[i], by = c->vy[i];
    c->m_vx[i] = bx;
    c->m_vy[i] = by;
    /* a heading means something while the agent moves (a fifth of its speed) */
    float slow = 0.04f * c->base_speed[i] * c->base_speed[i];
    if (ax * ax + ay * ay < slow || bx * bx + by * by < slow) continue;
    float turn = atan2f(ax * by - ay * bx, ax * bx + ay * by);
    int32_t now = (int32_t)(c->tick % 0x3FFFFFFF) + 1;
    if (fabsf(turn) > JITTER_RATE * c->dt) {
      int32_t last = c->m_sharp[i], sign = turn > 0.0f ? 1 : -1;
      bool flip = last != 0 && (last > 0) != (sign > 0) &&
                  (float)(now - (last > 0 ? last : -last)) * c->dt <= JITTER_TIME * 1.001f;
      c->m_flips[i] = flip ? (uint8_t)(c->m_flips[i] + 1) : 0;
      if (c->m_flips[i] == 2) { /* left, right, left (or the other way) */
        c->m.jitter++;
        c->m_flips[i] = 0;
      }
      c->m_sharp[i] = sign * now;
    }
    /* turning on one way through a whole circle before the next waypoint */
    float sum = c->m_turn[i];
    sum = (sum > 0.0f) == (turn > 0.0f) ? sum + turn : turn;
    if (fabsf(sum) > 2.0f * PI_F) {
      c->m.orbits++;
      sum = 0.0f;
    }
    c->m_turn[i] = sum;
  }

  /* lane error on straight parts, and the keys for swaps and spread */
  size_t n = 0;
  if (c->sort_cap < 2 * c->used) { /* the keys and the sort's scratch */
    metric_key *p = td_mem_grow(c->sort_keys, &c->sort_cap, 2 * c->used, sizeof *p);
    if (!p) return;
    c->sort_keys = p;
  }
  for (size_t i = 0; i < c->used; i++) {
    if (c->state[i] != TD_AGENT_WALK) continue;
    const corner *k = corner_at(c, i);
    float t = (c->x[i] - k->ax) * k->dx + (c->y[i] - k->ay) * k->dy;
    float lat = (c->x[i] - k->ax) * k->nx + (c->y[i] - k->ay) * k->ny;
    /* away from the last turning waypoint and the next one: a straight
    ** waypoint between two segments (a grid's cells) is no corner */
    float zone = c->p.lookahead * c->max_speed[i] + 2.0f * c->radius[i] +
                 fabsf(c->lane[i]) * k->scale;
    bool turns = k->last || k->scale > STRAIGHT_SCALE;
    if (c->travelled[i] - c->turn_at[i] > zone && (!turns || t < k->len - zone)) {
      double e = (double)lat - (double)c->lane[i];
      c->m.lane_sq_sum += e * e;
      c->m.samples++;
    }
    /* key: group and segment, then lane order, then slot */
    c->sort_keys[n++] = (metric_key){
        .seg = ((int64_t)c->group[i] << 20) | (int64_t)(c->from[i] & 0xFFFFF),
        .lane = c->lane[i], .i = (int32_t)i};
  }
  c->m.lane_error = c->m.samples ? sqrt(c->m.lane_sq_sum / (double)c->m.samples) : 0.0;
  /* swaps: neighbours in lane order on one segment whose lateral order is
  ** inverted; counted when the inversion begins. One sort: O(n log n) */
  if (n > 1) sort_keys(c->sort_keys, c->sort_keys + n, n);
  for (size_t a = 0; a < n;) {
    size_t b = a;
    while (b < n && c->sort_keys[b].seg == c->sort_keys[a].seg) b++;
    for (size_t u = a; u < b; u++) {
      size_t i = (size_t)c->sort_keys[u].i;
      int32_t with = -1;
      if (u + 1 < b) {
        size_t j = (size_t)c->sort_keys[u + 1].i;
        if (c->to[i] == c->to[j] && c->lane[j] > c->lane[i] + 1e-4f) {
          const corner *k = corner_at(c, i);
          float li = (c->x[i] - k->ax) * k->nx + (c->y[i] - k->ay) * k->ny;
          float lj = (c->x[j] - k->ax) * k->nx + (c->y[j] - k->ay) * k->ny;
          if (li > lj + 0.01f * c->radius[i]) with = (int32_t)j;
        }
      }
      if (with >= 0 && c->inv_with[i] != with) c->m.lane_swaps++;
      c->inv_with[i] = with;
    }
    a = b;
  }
  /* group spread: each group's diameter (the keys are in group order) */
  if (c->pts_cap < 3 * n) {
    metric_pt *p = td_mem_grow(c->pts, &c->pts_cap, 3 * n, sizeof *p);
    if (!p) return;
    c->pts = p;
  }
  for (size_t a = 0; a < n;) {
    int64_t grp = c->sort_keys[a].seg >> 20;
    size_t b = a;
    for (; b < n && (c->sort_keys[b].seg >> 20) == grp; b++) {
      size_t i = (size_t)c->sort_keys[b].i;
      c->pts[b - a] = (metric_pt){c->x[i], c->y[i]};
    }
    double d = diameter(c->pts, b - a, c->pts + n);
    if (d > c->m.group_spread) c->m.group_spread = d;
    a = b;
  }
  td_crowd_road_measure(c);
}

/* ---- access -------------------------------------------------------------- */

void td_crowd_enable_metrics(td_crowd *c, bool on) { c->metrics_on = on; }

void td_crowd_metrics_free(td_crowd *c) {
  td_mem_free(c->sort_keys, c->sort_cap * sizeof *c->sort_keys);
  td_mem_free(c->pts, c->pts_cap * sizeof *c->pts);
}

const td_crowd_metrics *td_crowd_get_metrics(const td_crowd *c) { return &c->m; }
