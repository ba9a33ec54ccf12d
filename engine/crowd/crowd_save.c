/*
** crowd_save.c: saves and loads a crowd (td_crowd_save, td_crowd_load),
** and the checksum of its agents (td_crowd_checksum).
**
** A save holds everything a step reads from the last one (the saved
** columns, the free list, the groups' sums, the obstacles, the metrics);
** the rest is derived (corners, cells, lists) or scratch, made again.
**
** Memory: a load builds a fresh crowd and swaps it in only when the whole
** save is read and checked, so a bad save leaves the crowd as it was.
** Determinism: a loaded crowd steps on with the same bits as the saved one.
*/
#include "crowd/crowd_int.h"

#include "nav/blob.h"
#include "nav/walk.h"

#include <math.h>
#include <string.h>

/* ---- the checksum -------------------------------------------------------- */

uint64_t td_crowd_checksum(const td_crowd *c) {
  uint64_t h = TD_BLOB_FNV_SEED;
  for (size_t i = 0; i < c->used; i++) {
    if (c->state[i] == TD_AGENT_FREE) continue;
    h = td_blob_fnv(h, &i, sizeof i);
    h = td_blob_fnv(h, &c->state[i], 1);
    h = td_blob_fnv(h, &c->hold[i], 1);
    h = td_blob_fnv(h, &c->x[i], sizeof(float));
    h = td_blob_fnv(h, &c->y[i], sizeof(float));
    h = td_blob_fnv(h, &c->vx[i], sizeof(float));
    h = td_blob_fnv(h, &c->vy[i], sizeof(float));
    h = td_blob_fnv(h, &c->max_speed[i], sizeof(float));
    h = td_blob_fnv(h, &c->lane[i], sizeof(float));
    h = td_blob_fnv(h, &c->from[i], sizeof(int32_t));
    h = td_blob_fnv(h, &c->to[i], sizeof(int32_t));
    /* a ghost's ticks (crowd_stall.c); not the stall counter, a trigger
    ** whose firing this shows (and a game with no jam keeps its checksums) */
    if (c->ghost[i]) h = td_blob_fnv(h, &c->ghost[i], sizeof(int32_t));
  }
  return h;
}

/* ---- save and load ------------------------------------------------------- */

/* The per-agent state a save holds, in this order: everything a step reads
** from the last one. The rest is derived (corners, cells) or scratch. */
#define SAVE_MAGIC 0x44575243u /* "CRWD" */
#define SAVE_VERSION 3u /* 2: lanes fitted to the road, gates; 3: jams (stall, ghost) */
#define SAVE_OLDEST 2u  /* a version 2 save loads with no walker stopped */

typedef struct saved_column {
  size_t off;             /* of the pointer in td_crowd */
  uint8_t kind;           /* 'f': float, 'i': int32, 'u': uint32, 'b': byte, 'q': uint64 */
  uint8_t since;          /* the first version that has it (older: zeros) */
} saved_column;

#define COL(field, kind) {offsetof(td_crowd, field), kind, 2}
#define COL3(field, kind) {offsetof(td_crowd, field), kind, 3}
static const saved_column saved[] = {
  COL(x, 'f'),         COL(y, 'f'),          COL(vx, 'f'),        COL(vy, 'f'),
  COL(speed, 'f'),     COL(radius, 'f'),     COL(max_speed, 'f'), COL(base_speed, 'f'),
  COL(dv, 'f'),        COL(lane, 'f'),       COL(slot, 'f'),      COL(travelled, 'f'),
  COL(prog, 'f'),      COL(prog_a, 'f'),     COL(prog_b, 'f'),    COL(look, 'f'),
  COL(coh, 'f'),       COL(turn_cos, 'f'),   COL(turn_sin, 'f'),  COL(group, 'i'),
  COL(from, 'i'),      COL(to, 'i'),         COL(inv_with, 'i'),  COL(state, 'b'),
  COL(hold, 'b'),      COL(gen, 'u'),        COL(spawn_tick, 'q'),  COL(turn_at, 'f'),
  COL(m_vx, 'f'),      COL(m_vy, 'f'),       COL(m_turn, 'f'),    COL(m_sharp, 'i'),
  COL(m_flips, 'b'),    COL(lane0, 'f'),      COL(wq_next, 'i'),
  COL(wq_prev, 'i'),    COL(w_fly, 'b'),          COL3(stall, 'i'),    COL3(ghost, 'i'),
  COL3(best, 'f'),
};
#undef COL
#undef COL3

static void *col_ptr(const td_crowd *c, const saved_column *k) {
  void *p;
  memcpy(&p, (const char *)c + k->off, sizeof p);
  return p;
}

void td_crowd_save(const td_crowd *c, td_blob *b) {
  td_blob_u32(b, SAVE_MAGIC);
  td_blob_u32(b, SAVE_VERSION);
  td_blob_u64(b, c->tick);
  td_blob_u64(b, c->used);
  td_blob_u64(b, c->live);
  td_blob_f64(b, c->bx0);
  td_blob_f64(b, c->by0);
  td_blob_f64(b, c->bx1);
  td_blob_f64(b, c->by1);
  td_blob_f32(b, c->max_radius);
  td_blob_f32(b, c->max_speed_all);
  for (size_t k = 0; k < sizeof saved / sizeof saved[0]; k++) {
    const void *p = col_ptr(c, &saved[k]);
    for (size_t i = 0; i < c->used; i++) switch (saved[k].kind) {
      case 'f': td_blob_f32(b, ((const float *)p)[i]); break;
      case 'i': td_blob_i32(b, ((const int32_t *)p)[i]); break;
      case 'u': td_blob_u32(b, ((const uint32_t *)p)[i]); break;
      case 'b': td_blob_u8(b, ((const uint8_t *)p)[i]); break;
      default: td_blob_u64(b, ((const uint64_t *)p)[i]); break;
      }
  }
  td_blob_u64(b, c->free_len);
  for (size_t k = 0; k < c->free_len; k++) td_blob_u32(b, c->free_list[k]);
  td_blob_u64(b, c->g_cap);
  for (size_t g = 0; g < c->g_cap; g++) {
    td_blob_f64(b, c->g_sum[g]);
    td_blob_i32(b, c->g_n[g]);
    td_blob_f32(b, c->g_wide[g]);
  }
  td_blob_u64(b, c->obs_n);
  for (size_t k = 0; k < 4 * c->obs_n; k++) td_blob_f32(b, c->obs[k]);
  td_blob_u8(b, c->metrics_on);
  td_blob_f64(b, c->m.min_gap);
  td_blob_f64(b, c->m.lane_error);
  td_blob_u64(b, (uint64_t)c->m.lane_swaps);
  td_blob_f64(b, c->m.group_spread);
  td_blob_u64(b, (uint64_t)c->m.leaks);
  td_blob_u64(b, (uint64_t)c->m.samples);
  td_blob_f64(b, c->m.lane_sq_sum);
  td_blob_u64(b, (uint64_t)c->m.jitter);
  td_blob_u64(b, (uint64_t)c->m.orbits);
  td_blob_u64(b, (uint64_t)c->m.off_road);
  td_blob_f64(b, c->m.off_road_depth);
  /* the gates (their queues are in the columns) */
  td_blob_u64(b, c->n_gates);
  for (size_t g = 0; g < c->n_gates; g++) {
    const gate *q = &c->gates[g];
    td_blob_i32(b, q->node);
    td_blob_u32(b, q->lead);
    td_blob_f32(b, q->lead_slot);
    td_blob_i32(b, q->lead_group);
    td_blob_i32(b, q->head);
    td_blob_i32(b, q->tail);
    for (int k = 0; k < GATE_RECENT; k++) td_blob_u32(b, q->recent[k]);
    td_blob_i32(b, q->next_recent);
  }
}

/* Most a loaded crowd may hold: sizes and speeds in map units (a tile is
** tens of units). Beyond these, or with a box that is not the graph's
** widened a bounded amount (agents added off the graph widen it), a step
** would overflow its grid or take minutes (found by fuzzing saves). */
#define LOAD_MAX_SIZE 1e5f
#define LOAD_MAX_SPEED 1e5f
#define LOAD_MAX_COORD 1e7f

/* Within [lo, hi] (NAN is not). */
static inline bool in_range(float v, float lo, float hi) { return v >= lo && v <= hi; }

/* The numbers of loaded agent i that a step reads, past those check_loaded
** tests itself, against what td_crowd_add and the steps can make of them
** (vmax: the velocity bound; far: how far from the box anything reaches).
** NULL, or what is wrong. */
static const char *check_agent_numbers(const td_crowd *c, size_t i, float vmax, float far) {
  /* the projection can push big agents far apart: positions get the
  ** world's own bound (1e7) beyond the box */
  float off = far > LOAD_MAX_COORD ? far : LOAD_MAX_COORD;
  float x0 = (float)c->bx0 - off, x1 = (float)c->bx1 + off;
  float y0 = (float)c->by0 - off, y1 = (float)c->by1 + off;
  float look = c->p.lookahead * c->max_speed_all;
  look = (look > 2.0f * c->max_radius ? look : 2.0f * c->max_radius) * 1.001f + 1e-3f;
  if (!in_range(c->x[i], x0, x1) || !in_range(c->y[i], y0, y1)) return "position far off the map";
  if (!in_range(c->speed[i], 0.0f, vmax)) return "speed out of range";
  if (!in_range(c->dv[i], 0.0f, vmax)) return "acceleration out of range";
  if (!in_range(c->look[i], 0.0f, look)) return "look-ahead out of range";
  if (!in_range(c->coh[i], 0.0f, 1e6f)) return "cohesion out of range";
  if (!in_range(c->lane[i], -far, far) || !in_range(c->slot[i], -far, far) ||
      !in_range(c->lane0[i], -far, far))
    return "lane or slot out of range";
  /* cos and sin of the largest turn in a tick in (0, pi), or -2 and 0: no limit */
  bool unlimited = c->turn_cos[i] == -2.0f && c->turn_sin[i] == 0.0f;
  if (!unlimited && (!in_range(c->turn_cos[i], -1.0f, 1.0f) || !in_range(c->turn_sin[i], 0.0f, 1.0f)))
    return "turn rate out of range";
  float big = 1e12f;
  if (!in_range(c->travelled[i], 0.0f, big) || !in_range(c->turn_at[i], -big, big))
    return "distance travelled out of range";
  if ((!isnan(c->prog[i]) && !in_range(c->prog[i], -big, big)) ||
      !in_range(c->prog_a[i], -big, big) || !in_range(c->prog_b[i], 0.0f, big))
    return "progress out of range";
  if (!in_range(c->m_vx[i], -big, big) || !in_range(c->m_vy[i], -big, big) ||
      !in_range(c->m_turn[i], -big, big))
    return "metrics state out of range";
  int32_t stall, ghost;
  td_crowd_stall_ticks(c, &stall, &ghost);
  if (c->stall[i] < 0 || c->stall[i] >= stall || c->ghost[i] < 0 || c->ghost[i] > ghost ||
      (c->ghost[i] && c->stall[i]))
    return "jam counters out of range";
  if (!(c->best[i] >= 0.0f)) return "distance to the goal out of range"; /* INFINITY: none */
  return NULL;
}

/* Checks what a step relies on in loaded agents and the crowd's bounds
** (gbox: the graph's own box, which the saved box may only widen); the
** first bad one named. */
static int check_loaded(const td_crowd *c, size_t live, const double gbox[4], td_err *err) {
  double ext = (gbox[2] - gbox[0]) + (gbox[3] - gbox[1]);
  double slack = 10.0 * ext + 1e4;
  if (!isfinite(c->bx0) || !isfinite(c->by0) || !isfinite(c->bx1) || !isfinite(c->by1) ||
      c->bx0 > gbox[0] || c->by0 > gbox[1] || c->bx1 < gbox[2] || c->by1 < gbox[3] ||
      c->bx0 < gbox[0] - slack || c->by0 < gbox[1] - slack || c->bx1 > gbox[2] + slack ||
      c->by1 > gbox[3] + slack)
    return td_err_set(err, "crowd: bad bounds (%g, %g) .. (%g, %g) for a graph in (%g, %g) .. "
                      "(%g, %g)", c->bx0, c->by0, c->bx1, c->by1, gbox[0], gbox[1], gbox[2],
                      gbox[3]);
  if (!(c->max_radius >= 0.0f && c->max_radius <= LOAD_MAX_SIZE) ||
      !(c->max_speed_all >= 0.0f && c->max_speed_all <= LOAD_MAX_SPEED))
    return td_err_set(err, "crowd: bad largest radius %g or speed %g", (double)c->max_radius,
                      (double)c->max_speed_all);
  float vmax = 100.0f * c->max_speed_all + 1000.0f; /* pushes add to a walk, never this much */
  size_t n = 0;
  for (size_t i = 0; i < c->used; i++) {
    uint8_t s = c->state[i];
    if (s > TD_AGENT_REMOVED) return td_err_set(err, "crowd: bad agent %zu: state %u", i, s);
    if (s == TD_AGENT_FREE) continue;
    n++;
    if (!isfinite(c->x[i]) || !isfinite(c->y[i]) || !isfinite(c->vx[i]) || !isfinite(c->vy[i]))
      return td_err_set(err, "crowd: bad agent %zu: position or velocity not finite", i);
    if (!(c->radius[i] > 0.0f) || !(c->base_speed[i] > 0.0f) || !(c->max_speed[i] > 0.0f) ||
        c->max_speed[i] > c->base_speed[i] || c->radius[i] > c->max_radius ||
        c->base_speed[i] > c->max_speed_all)
      return td_err_set(err, "crowd: bad agent %zu: radius or speed out of range", i);
    if (fabsf(c->vx[i]) > vmax || fabsf(c->vy[i]) > vmax)
      return td_err_set(err, "crowd: bad agent %zu: velocity (%g, %g) past %g", i,
                        (double)c->vx[i], (double)c->vy[i], (double)vmax);
    /* everything else a step reads: a huge lane, slot, look-ahead or rate
    ** sent agents to 1e32 in a few ticks */
    const char *bad = check_agent_numbers(c, i, vmax, (float)slack);
    if (bad) return td_err_set(err, "crowd: bad agent %zu: %s", i, bad);
    if (c->group[i] < 0 || (size_t)c->group[i] >= c->g_cap)
      return td_err_set(err, "crowd: bad agent %zu: group %d", i, (int)c->group[i]);
    if (fabsf(c->lane0[i]) > c->g_wide[c->group[i]]) /* its group's widest holds it */
      return td_err_set(err, "crowd: bad agent %zu: lane wider than its group's", i);
    if (layer(s) == 0 && (c->from[i] < 0 || c->from[i] >= c->g->node_count || c->to[i] < 0 ||
                   c->to[i] >= c->g->node_count))
      return td_err_set(err, "crowd: bad agent %zu: segment %d -> %d", i, (int)c->from[i],
                        (int)c->to[i]);
    if (c->inv_with[i] < -1 || c->inv_with[i] >= (int32_t)c->used)
      return td_err_set(err, "crowd: bad agent %zu: metrics state", i);
  }
  if (n != live) return td_err_set(err, "crowd: %zu agents saved as %zu", n, live);
  for (size_t k = 0; k < c->free_len; k++)
    if (c->free_list[k] >= c->used || c->state[c->free_list[k]] != TD_AGENT_FREE)
      return td_err_set(err, "crowd: bad free slot %u", c->free_list[k]);
  if (c->free_len != c->used - live) return td_err_set(err, "crowd: free list does not add up");
  return 0;
}

/* The gates of a save into n (a fresh crowd with its agents read): each on
** a node of the graph, its queue a list of waiting agents at that node whose
** links agree both ways, every waiting agent in one. A failure names what
** is wrong. */
static int load_gates(td_crowd *n, td_blob_reader *r, td_err *err) {
  uint64_t ng = td_blob_get_u64(r);
  if (r->failed || ng * (28 + 4 * GATE_RECENT) > r->len - r->pos) { /* the bytes of each */
    r->failed = true;
    return 0;
  }
  if (ng > (uint64_t)n->g->node_count)
    return td_err_set(err, "crowd: bad gate count %llu", (unsigned long long)ng);
  if (ng > n->gates_cap) {
    gate *p = td_mem_grow(n->gates, &n->gates_cap, ng, sizeof *p);
    if (!p) return td_err_set(err, "crowd: out of memory");
    n->gates = p;
  }
  n->n_gates = ng;
  size_t queued = 0, waiting = 0;
  for (size_t g = 0; g < ng && !r->failed; g++) {
    gate *q = &n->gates[g];
    q->node = td_blob_get_i32(r);
    q->lead = td_blob_get_u32(r);
    q->lead_slot = td_blob_get_f32(r);
    q->lead_group = td_blob_get_i32(r);
    q->head = td_blob_get_i32(r);
    q->tail = td_blob_get_i32(r);
    for (int k = 0; k < GATE_RECENT; k++) q->recent[k] = td_blob_get_u32(r);
    q->next_recent = td_blob_get_i32(r);
    if (r->failed) break;
    if (q->node < 0 || q->node >= n->g->node_count || !isfinite(q->lead_slot) ||
        q->next_recent < 0 || q->next_recent >= GATE_RECENT)
      return td_err_set(err, "crowd: bad gate %zu", g);
    int32_t prev = -1, k = q->head;
    for (size_t steps = 0; k != -1; steps++, prev = k, k = n->wq_next[k]) {
      if (k < 0 || (size_t)k >= n->used || steps >= n->used || n->wq_prev[k] != prev ||
          n->state[k] != TD_AGENT_WAITING || n->from[k] != q->node)
        return td_err_set(err, "crowd: bad gate %zu: its queue is broken", g);
      queued++;
    }
    if (q->tail != prev) return td_err_set(err, "crowd: bad gate %zu: its queue is broken", g);
  }
  for (size_t i = 0; i < n->used; i++) waiting += n->state[i] == TD_AGENT_WAITING;
  if (!r->failed && queued != waiting)
    return td_err_set(err, "crowd: %zu agents wait, %zu of them at a gate", waiting, queued);
  return 0;
}

int td_crowd_load(td_crowd *c, td_blob_reader *r, td_err *err) {
  if (td_blob_get_u32(r) != SAVE_MAGIC || r->failed)
    return td_err_set(err, "crowd: not a crowd save at byte %zu", r->pos);
  uint32_t version = td_blob_get_u32(r);
  if (version < SAVE_OLDEST || version > SAVE_VERSION)
    return td_err_set(err, "crowd: unknown version %u", (unsigned)version);
  uint64_t tick = td_blob_get_u64(r), used = td_blob_get_u64(r), live = td_blob_get_u64(r);
  if (r->failed) return td_err_set(err, "crowd: truncated at byte %zu", r->len);
  if (used > TD_CROWD_MAX_AGENTS || live > used)
    return td_err_set(err, "crowd: bad agent count %llu (%llu alive)", (unsigned long long)used,
                      (unsigned long long)live);
  if (used * 27 > r->len - r->pos) /* every agent takes more than 27 bytes */
    return td_err_set(err, "crowd: truncated at byte %zu (%llu agents saved)", r->len,
                      (unsigned long long)used);
  /* a fresh crowd to load into: the old one stays as it was on failure */
  td_crowd *n = td_crowd_create(c->route, &c->p, err);
  if (!n) return -1;
  if (used + 1 > n->cap && td_crowd_grow_agents(n, used + 1) != 0) {
    td_crowd_destroy(n);
    return td_err_set(err, "crowd: out of memory");
  }
  n->tick = tick;
  n->used = used;
  n->live = live;
  const double gbox[4] = {n->bx0, n->by0, n->bx1, n->by1}; /* the graph's, from create */
  n->bx0 = td_blob_get_f64(r);
  n->by0 = td_blob_get_f64(r);
  n->bx1 = td_blob_get_f64(r);
  n->by1 = td_blob_get_f64(r);
  n->max_radius = td_blob_get_f32(r);
  n->max_speed_all = td_blob_get_f32(r);
  for (size_t k = 0; k < sizeof saved / sizeof saved[0]; k++) {
    void *p = col_ptr(n, &saved[k]);
    if (saved[k].since > version) { /* not in this save: zeros */
      memset(p, 0, used * (saved[k].kind == 'b' ? 1 : saved[k].kind == 'q' ? 8 : 4));
      continue;
    }
    for (size_t i = 0; i < used; i++) switch (saved[k].kind) {
      case 'f': ((float *)p)[i] = td_blob_get_f32(r); break;
      case 'i': ((int32_t *)p)[i] = td_blob_get_i32(r); break;
      case 'u': ((uint32_t *)p)[i] = td_blob_get_u32(r); break;
      case 'b': ((uint8_t *)p)[i] = td_blob_get_u8(r); break;
      default: ((uint64_t *)p)[i] = td_blob_get_u64(r); break;
      }
  }
  if (version < 3) /* no flyer has come near its goal yet */
    for (size_t i = 0; i < used; i++) n->best[i] = INFINITY;
  uint64_t free_len = td_blob_get_u64(r);
  if (!r->failed && free_len <= used) {
    n->free_len = free_len;
    for (size_t k = 0; k < free_len; k++) n->free_list[k] = td_blob_get_u32(r);
  } else {
    r->failed = true;
  }
  uint64_t g_cap = td_blob_get_u64(r);
  if (!r->failed && g_cap > 0 && (g_cap > ((uint64_t)1 << 31) || g_cap * 16 > r->len - r->pos))
    r->failed = true;
  if (!r->failed && g_cap > 0 && td_crowd_ensure_group(n, (int32_t)(g_cap - 1)) != 0) {
    td_crowd_destroy(n);
    return td_err_set(err, "crowd: out of memory");
  }
  for (size_t g = 0; !r->failed && g < g_cap; g++) {
    n->g_sum[g] = td_blob_get_f64(r);
    n->g_n[g] = td_blob_get_i32(r);
    n->g_wide[g] = td_blob_get_f32(r);
    if (!in_range(n->g_wide[g], 0.0f, LOAD_MAX_COORD)) r->failed = true;
  }
  uint64_t obs_n = td_blob_get_u64(r);
  if (!r->failed && obs_n > 0) {
    if (obs_n > (r->len - r->pos) / 16) {
      r->failed = true;
    } else {
      float *o = td_mem_alloc(obs_n * 4 * sizeof *o);
      if (!o) {
        td_crowd_destroy(n);
        return td_err_set(err, "crowd: out of memory");
      }
      for (size_t k = 0; k < 4 * obs_n; k++) o[k] = td_blob_get_f32(r);
      n->obs = o;
      n->obs_n = obs_n;
    }
  }
  n->metrics_on = td_blob_get_u8(r) != 0;
  n->m.min_gap = td_blob_get_f64(r);
  n->m.lane_error = td_blob_get_f64(r);
  n->m.lane_swaps = (int64_t)td_blob_get_u64(r);
  n->m.group_spread = td_blob_get_f64(r);
  n->m.leaks = (int64_t)td_blob_get_u64(r);
  n->m.samples = (int64_t)td_blob_get_u64(r);
  n->m.lane_sq_sum = td_blob_get_f64(r);
  n->m.jitter = (int64_t)td_blob_get_u64(r);
  n->m.orbits = (int64_t)td_blob_get_u64(r);
  n->m.off_road = (int64_t)td_blob_get_u64(r);
  n->m.off_road_depth = td_blob_get_f64(r);
  if (load_gates(n, r, err) != 0) {
    td_crowd_destroy(n);
    return -1;
  }
  if (r->failed) {
    td_crowd_destroy(n);
    return td_err_set(err, "crowd: truncated at byte %zu", r->len);
  }
  if (check_loaded(n, live, gbox, err) != 0) {
    td_crowd_destroy(n);
    return -1;
  }
  for (size_t i = 0; i < used; i++) {
    n->ktab[i] = KC_NONE;
    n->lane_max[i] = INFINITY; /* take_segment fits the walkers' again */
  }
  n->walk = c->walk;
  n->walk_version = c->walk ? td_walk_version(c->walk) : 0;
  td_crowd_find_corners(n);
  n->cell = 0.0f; /* the grid is laid out again from the same inputs */
  /* swap the contents: the caller's pointer stays valid */
  td_crowd tmp = *c;
  *c = *n;
  *n = tmp;
  td_crowd_destroy(n);
  return 0;
}
