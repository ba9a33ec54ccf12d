/*
** crowd.c: lanes, flocking and flyers (see crowd.h for the model).
**
** Design note.
** A tick without neighbours (separation and metrics off) is one pass over
** the agents in slot order: free the slots of agents that finished last
** tick, steer (pure pursuit on the lane, cohesion, turn and acceleration
** limits), move, take next[] at waypoints, list the leaks.
**
** A tick with neighbours:
**   1. in slot order: free the finished slots; each agent's cell key in a
**      grid of cells as wide as the largest interaction (counted);
**   2. a stable sort of the agents by cell (slot order within a cell), and
**      a copy into that "cell order" of what a neighbour query reads
**      (position, velocity, radius, speed, group, state, direction): the
**      3x3 cells around an agent are then three runs of the copy;
**   3. in cell order: each agent scans its runs for the wave-mate ahead to
**      follow, a slower agent to pass, the soft push of close ones, and the
**      pairs close enough to overlap after the move;
**   4. in slot order: steer with what the scan found, and move;
**   5. the overlapping pairs pushed apart (Jacobi: corrections from the
**      positions before each of four iterations), over the scan's list;
**   6. in slot order: waypoints and leaks; then the metrics, if enabled.
** Passes over many columns run in slot order, where the columns stream;
** only the scan, which reads neighbours, runs in cell order, on the copy.
**
** Every pass writes only its own agent's state (or per-agent accumulators)
** and reads others from a copy made before it (the copy of step 2; the
** formation's group means, which are the last tick's), so the order of
** visits never changes the result. The result depends only on the inputs:
** same binary and inputs, same bits.
**
** Corner geometry depends only on the segment (a, b) and the route: it is
** computed once per segment into a table, which a route update empties.
*/
#include "crowd/crowd.h"

#include "nav/blob.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PI_F 3.14159265358979f
#define HANDLE_BITS 20
#define HANDLE_MASK ((1u << HANDLE_BITS) - 1)
#define RADIX_BITS 12      /* digit of the radix sort of cell keys */
#define RADIX (1 << RADIX_BITS)
/* A waypoint turns (for lane_error's straight parts) when its miter scale
** 1/cos(theta/2) is above this: theta above about 5 degrees. */
#define STRAIGHT_SCALE 1.001f
/* jitter: a zig-zag, three sharp turns (faster than JITTER_RATE, rad/s)
** alternating left and right, each within JITTER_TIME seconds of the last
** (one turn back after a corner is a correction, not a jitter) */
#define JITTER_RATE 1.047f
#define JITTER_TIME 0.1f
#define PROJECT_ITERATIONS 8 /* at most; they stop when nothing overlaps */
#define KEY_BITS 24        /* two digits: a grid of at most 16M cells */

/* The per-agent steps of the hot loops are inlined into them, so that the
** loop keeps an agent's values in registers from one step to the next
** (called, they pass them through memory, and the compiler declines to
** inline functions this size on its own). */
#if defined(__GNUC__)
#define HOT_INLINE __attribute__((always_inline)) inline
#else
#define HOT_INLINE inline
#endif

/* The lane geometry at the waypoint an agent heads to. */
typedef struct corner {
  int32_t a, b;           /* segment a -> b */
  bool last;              /* b is a goal or has no next */
  float left;             /* route distance from b to a goal, map units (0: none) */
  float ax, ay, bx, by;   /* segment from a to b */
  float dx, dy, len;      /* its direction and length */
  float nx, ny;           /* left normal */
  float d2x, d2y;         /* direction after b (= d when b ends the route) */
  float mx, my;           /* miter direction at b (unit) */
  float scale;            /* 1/cos(theta/2), clamped */
  float tx, ty;           /* crossing direction at b: mean of d and d2 */
  /* a lane's miter point is b + mo * lane; it projects to ml + md * lane
  ** on the segment (ml: b's projection, = len) */
  float mox, moy, ml, md;
} corner;

/* What a neighbour query reads of an agent, in cell order. */
typedef struct nbinfo {
  float vx, vy, r, ms;    /* velocity, radius, max speed */
  float dx, dy;           /* a walker's direction of travel (its segment's) */
  int32_t group;
  uint8_t state;
  int8_t layer;           /* layer(state), -1 after leaking this tick */
} nbinfo;

/* What an agent's scan of its neighbours found, in cell order. */
typedef struct nbres {
  float follow;           /* speed cap behind a wave-mate ahead (INFINITY: none) */
  float shift;            /* lane shift to pass a slower agent ahead */
  float px, py;           /* soft separation push */
} nbres;

/* The ends of the runs of a visit in cell order without a table of cells
** (see cell_runs). */
typedef struct sweep {
  int32_t lo[3], hi[3];
} sweep;

/* The flyers' fan of rays (seed 003): a centre ray, then +-20, +-40 and
** +-60 degrees; cosines and sines are taken once, at creation. */
#define RAYS 7
static const float ray_angles[RAYS] = {0.0f, 0.349f, -0.349f, 0.698f, -0.698f, 1.047f, -1.047f};

struct td_crowd {
  const td_route *route;
  const td_graph *g;
  const int32_t *next;     /* td_route_next(route), fetched per call */
  const td_cost *dist;     /* td_route_dist(route), likewise */
  td_crowd_params p;
  float dt;

  /* agents, structure of arrays (columns in one block, see grow_agents);
  ** `used` slots have ever been taken */
  void *block;
  size_t block_size;
  size_t cap, used, live;
  float *x, *y, *vx, *vy;
  float *speed;            /* |(vx, vy)| as steering set it (saves a square root) */
  float *radius, *max_speed, *dv, *lane, *slot, *travelled, *prog;
  float *base_speed;       /* max speed before effects (max_speed = base x scale) */
  float *turn_at;          /* travelled when it last passed a turning waypoint */
  /* metrics: the velocity of the last tick, the tick (+1, signed by its
  ** direction) of the last sharp turn, and the turn summed since the last
  ** waypoint or change of direction */
  float *m_vx, *m_vy, *m_turn;
  int32_t *m_sharp;
  uint8_t *m_flips;        /* sharp turns in a row, each reversing the last */
  float *look;             /* pursuit distance: lookahead x speed, at least a diameter */
  float *turn_cos, *turn_sin; /* of the largest turn in one tick */
  float *prog_a, *prog_b;  /* progress on the segment: prog_a - prog_b t, see enter_segment */
  float *coh;              /* cohesion gain / max speed */
  int32_t *group, *from, *to, *inv_with, *cell_of;
  uint8_t *state;
  uint8_t *hold;           /* a stunned flyer: hovers (walkers use STUNNED) */
  uint32_t *gen;
  uint32_t *ktab;          /* index of the agent's corner in kc (KC_NONE: kc_spare) */
  uint64_t *spawn_tick;
  uint32_t *free_list;
  size_t free_len;
  float max_radius, max_speed_all;

  /* spatial hash: a grid over the graph's bounding box (plus a border);
  ** agents outside it fall into the border cells. An agent's key is its
  ** cell (row << xbits | column); the agents sorted by key ("cell order")
  ** are order[0 .. n); the columns below prefixed s_ are indexed the same
  ** way, not by slot. */
  double bx0, by0, bx1, by1; /* the graph's bounding box */
  float gx0, gy0, cell, inv_cell;
  float ray_cos[RAYS], ray_sin[RAYS];
  int32_t gw, gh, xbits, ybits;
  int32_t *order;          /* cell order -> slot */
  uint32_t *s_key;         /* cell order -> key */
  uint32_t *rk_key;        /* radix sort scratch */
  int32_t *rk_slot;
  bool dense;              /* this tick sorts with a table of every cell */
  int32_t *cell_tab;       /* dense: cell gy * gw + gx holds order[tab[c] .. tab[c + 1]) */
  size_t tab_slots;
  int32_t hist[2][RADIX];  /* sparse: counts of each digit of the keys */
  int32_t *sorted_of;      /* slot -> cell order */
  float *s_xy;             /* positions at the start of the tick */
  nbinfo *s_info;
  nbres *s_res;
  float *s_cxy;            /* projection: corrections */
  sweep sweep;             /* the steering pass's neighbour runs */
  int32_t *s_pl_end;       /* close pairs of agent k: pl[s_pl_end[k-1] .. s_pl_end[k]) */
  int32_t *active;         /* agents (cell order) with a close pair */
  size_t n_active;
  int32_t *pl;
  size_t pl_len, pl_cap;
  bool pl_ok;              /* every close pair is listed this tick */
  float pl_reach2;         /* pairs closer than this (squared) are listed */
  float pl_slack;          /* listed reach minus the largest overlap distance */
  float moved;             /* largest move of this tick (|dx| + |dy|) */
  size_t leaked_flyers;    /* flyers that reached a goal in the steering pass */

  /* groups: formation progress. Steering computes each walker's progress
  ** (prog) and sums it per group; cohesion compares the agent's progress
  ** with its group's mean, both from the tick before (a consistent
  ** snapshot, one tick late: the formation needs no pass of its own). */
  double *g_sum;           /* this tick's sums, for the next */
  int32_t *g_n;
  float *g_mean;           /* the last tick's mean progress */
  uint8_t *g_use;          /* the last tick's group had two walkers or more */
  size_t g_cap;

  /* the corners of the segments agents are on, each computed once per
  ** route: kc[0 .. kc_len), found by (a, b) through kc_map (open
  ** addressing, index + 1, 0: empty); ktab[i] is agent i's. A route update
  ** (the route's update count moves) empties the table. */
  corner *kc;
  size_t kc_len, kc_cap;
  uint32_t *kc_map;
  uint32_t kc_map_mask;
  uint64_t route_version;
  corner kc_spare;         /* out of memory for the table: computed each time */

  td_agent *leaks;
  size_t leak_len, leak_cap;

  float *obs;              /* obstacles: obs_n x {x, y, w, h} */
  size_t obs_n;

  bool metrics_on;
  td_crowd_metrics m;
  int64_t *sort_keys;      /* metrics scratch */
  size_t sort_cap;

  uint64_t tick;
};

/* ---- small vector helpers ------------------------------------------------ */

static inline float len2(float x, float y) { return sqrtf(x * x + y * y); }

static inline void node_pos(const td_crowd *c, int32_t n, float *x, float *y) {
  *x = (float)c->g->x[n];
  *y = (float)c->g->y[n];
}

/* Unit direction from node a to node b, and the length; (1, 0) when the
** nodes coincide. */
static float seg_dir(const td_crowd *c, int32_t a, int32_t b, float *dx, float *dy) {
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

/* ---- creation and storage ------------------------------------------------ */

#define KC_NONE UINT32_MAX /* an agent's corner is not in the table */

/* Counts every update of the route (a full recompute or an incremental
** one, applied or rolled back). */
static uint64_t route_version(const td_route *r) {
  const td_route_stats *st = td_route_get_stats(r);
  return st->full_count + st->incremental_count;
}

td_crowd_params td_crowd_default_params(double dt) {
  td_crowd_params p = {.dt = dt, .separation = true, .lookahead = 0.25f,
                       .miter_limit = 3.0f, .margin = 0.0f, .cohesion = 0.5f};
  return p;
}

typedef struct column {
  void **ptr;
  size_t elem;
} column;

#define MAX_COLUMNS 48

/* The per-agent arrays, in one table so that they grow together. */
static size_t columns(td_crowd *c, column *out) {
  column cols[] = {
    {(void **)&c->x, sizeof(float)},         {(void **)&c->y, sizeof(float)},
    {(void **)&c->vx, sizeof(float)},        {(void **)&c->vy, sizeof(float)},
    {(void **)&c->speed, sizeof(float)},
    {(void **)&c->radius, sizeof(float)},    {(void **)&c->max_speed, sizeof(float)},
    {(void **)&c->dv, sizeof(float)},
    {(void **)&c->lane, sizeof(float)},      {(void **)&c->slot, sizeof(float)},
    {(void **)&c->travelled, sizeof(float)}, {(void **)&c->prog, sizeof(float)},
    {(void **)&c->prog_a, sizeof(float)},    {(void **)&c->prog_b, sizeof(float)},
    {(void **)&c->look, sizeof(float)},
    {(void **)&c->coh, sizeof(float)},
    {(void **)&c->group, sizeof(int32_t)},   {(void **)&c->from, sizeof(int32_t)},
    {(void **)&c->to, sizeof(int32_t)},      {(void **)&c->inv_with, sizeof(int32_t)},
    {(void **)&c->cell_of, sizeof(int32_t)}, {(void **)&c->state, sizeof(uint8_t)},
    {(void **)&c->gen, sizeof(uint32_t)},    {(void **)&c->ktab, sizeof(uint32_t)},
    {(void **)&c->spawn_tick, sizeof(uint64_t)},
    {(void **)&c->free_list, sizeof(uint32_t)}, {(void **)&c->order, sizeof(int32_t)},
    {(void **)&c->s_key, sizeof(uint32_t)},  {(void **)&c->rk_key, sizeof(uint32_t)},
    {(void **)&c->rk_slot, sizeof(int32_t)},
    {(void **)&c->s_xy, 2 * sizeof(float)},  {(void **)&c->s_info, sizeof(nbinfo)},
    {(void **)&c->s_res, sizeof(nbres)},     {(void **)&c->s_cxy, 2 * sizeof(float)},
    {(void **)&c->sorted_of, sizeof(int32_t)},
    {(void **)&c->s_pl_end, sizeof(int32_t)}, {(void **)&c->active, sizeof(int32_t)},
    {(void **)&c->turn_cos, sizeof(float)},  {(void **)&c->turn_sin, sizeof(float)},
    {(void **)&c->base_speed, sizeof(float)}, {(void **)&c->hold, sizeof(uint8_t)},
    {(void **)&c->turn_at, sizeof(float)},   {(void **)&c->m_vx, sizeof(float)},
    {(void **)&c->m_vy, sizeof(float)},      {(void **)&c->m_turn, sizeof(float)},
    {(void **)&c->m_sharp, sizeof(int32_t)}, {(void **)&c->m_flips, sizeof(uint8_t)},
  };
  _Static_assert(sizeof cols / sizeof cols[0] <= MAX_COLUMNS, "raise MAX_COLUMNS");
  size_t n = sizeof cols / sizeof cols[0];
  if (out) memcpy(out, cols, sizeof cols);
  return n;
}

/* Where each column starts in a block of ncap agents, and the block's size.
**
** The columns share one block, and column k starts 192 k bytes (mod 4096)
** after a page boundary. Separately allocated, large arrays all start at
** the same offset in a page (or a 2 MiB huge page); element i of every
** column then maps to the same L1 and L2 cache sets, and a pass that reads
** twenty columns evicts its own lines: on this project's machine such a
** pass ran five times slower. */
static size_t column_layout(const column *cols, size_t n, size_t ncap, size_t *offs) {
  size_t pos = 0;
  for (size_t k = 0; k < n; k++) {
    pos = (pos + 4095) / 4096 * 4096 + (192 * k) % 4096;
    offs[k] = pos;
    pos += ncap * cols[k].elem;
  }
  return pos;
}

/* Grows every per-agent array to ncap: a new block first, so that a
** failure leaves the old one (and its capacity) as it was. */
static int grow_agents(td_crowd *c, size_t ncap) {
  column cols[MAX_COLUMNS];
  size_t offs[MAX_COLUMNS];
  size_t n = columns(c, cols);
  size_t size = column_layout(cols, n, ncap, offs);
  unsigned char *blk = td_mem_calloc(1, size);
  if (!blk) return -1;
  for (size_t k = 0; k < n; k++) {
    if (c->cap) memcpy(blk + offs[k], *cols[k].ptr, c->cap * cols[k].elem);
    *cols[k].ptr = blk + offs[k];
  }
  td_mem_free(c->block, c->block_size);
  c->block = blk;
  c->block_size = size;
  c->cap = ncap;
  return 0;
}

td_crowd *td_crowd_create(const td_route *route, const td_crowd_params *params,
                          td_err *err) {
  if (!(params->dt > 0.0) || !(params->dt < 10.0)) {
    td_err_set(err, "crowd: dt must be a positive number of seconds");
    return NULL;
  }
  td_crowd *c = td_mem_calloc(1, sizeof *c);
  if (!c) {
    td_err_set(err, "crowd: out of memory");
    return NULL;
  }
  c->route = route;
  c->g = td_route_graph(route);
  c->next = td_route_next(route);
  c->dist = td_route_dist(route);
  c->p = *params;
  if (!(c->p.lookahead > 0.0f)) c->p.lookahead = 0.25f;
  if (!(c->p.miter_limit >= 1.0f)) c->p.miter_limit = 3.0f;
  if (!(c->p.cohesion >= 0.0f)) c->p.cohesion = 0.0f;
  if (!(c->p.margin >= 0.0f)) c->p.margin = 0.0f;
  c->dt = (float)params->dt;
  for (int a = 0; a < RAYS; a++) {
    c->ray_cos[a] = cosf(ray_angles[a]);
    c->ray_sin[a] = sinf(ray_angles[a]);
  }
  c->m.min_gap = INFINITY;
  /* the hash covers the graph with a border (see size_grid) */
  double x0 = 0, y0 = 0, x1 = 1, y1 = 1;
  for (int32_t v = 0; v < c->g->node_count; v++) {
    if (v == 0 || c->g->x[v] < x0) x0 = c->g->x[v];
    if (v == 0 || c->g->y[v] < y0) y0 = c->g->y[v];
    if (v == 0 || c->g->x[v] > x1) x1 = c->g->x[v];
    if (v == 0 || c->g->y[v] > y1) y1 = c->g->y[v];
  }
  c->bx0 = x0;
  c->by0 = y0;
  c->bx1 = x1;
  c->by1 = y1;
  c->cell = 0.0f; /* sized by size_grid() */
  c->route_version = route_version(route);
  if (grow_agents(c, 64) != 0) {
    td_crowd_destroy(c);
    td_err_set(err, "crowd: out of memory");
    return NULL;
  }
  return c;
}

void td_crowd_destroy(td_crowd *c) {
  if (!c) return;
  td_mem_free(c->block, c->block_size);
  td_mem_free(c->pl, c->pl_cap * sizeof *c->pl);
  td_mem_free(c->cell_tab, c->tab_slots * sizeof *c->cell_tab);
  td_mem_free(c->g_sum, c->g_cap * sizeof *c->g_sum);
  td_mem_free(c->g_n, c->g_cap * sizeof *c->g_n);
  td_mem_free(c->g_mean, c->g_cap * sizeof *c->g_mean);
  td_mem_free(c->g_use, c->g_cap * sizeof *c->g_use);
  td_mem_free(c->kc, c->kc_cap * sizeof *c->kc);
  td_mem_free(c->kc_map, c->kc_map ? (c->kc_map_mask + 1) * sizeof *c->kc_map : 0);
  td_mem_free(c->leaks, c->leak_cap * sizeof *c->leaks);
  td_mem_free(c->obs, c->obs_n * 4 * sizeof *c->obs);
  td_mem_free(c->sort_keys, c->sort_cap * sizeof *c->sort_keys);
  td_mem_free(c, sizeof *c);
}

static const corner *take_segment(td_crowd *c, size_t i);
static inline void enter_segment(td_crowd *c, size_t i, const corner *k, float t0);
static void check_route(td_crowd *c);
static inline int layer(uint8_t s);

/* ---- handles ------------------------------------------------------------- */

static inline td_agent make_handle(const td_crowd *c, size_t i) {
  return ((c->gen[i] & (0xFFFFFFFFu >> HANDLE_BITS)) << HANDLE_BITS) | (uint32_t)(i + 1);
}

/* Slot of a live handle, or -1. Index i is stored as i + 1 so that 0 is
** never a valid handle. */
static int64_t slot_of(const td_crowd *c, td_agent a) {
  uint32_t i1 = a & HANDLE_MASK;
  if (i1 == 0 || i1 > c->used) return -1;
  size_t i = i1 - 1;
  if (c->state[i] == TD_AGENT_FREE || make_handle(c, i) != a) return -1;
  return (int64_t)i;
}

int64_t td_crowd_slot(const td_crowd *c, td_agent a) { return slot_of(c, a); }

bool td_crowd_alive(const td_crowd *c, td_agent a) {
  int64_t i = slot_of(c, a);
  return i >= 0 && c->state[i] != TD_AGENT_LEAKED && c->state[i] != TD_AGENT_REMOVED;
}

void td_crowd_remove(td_crowd *c, td_agent a) {
  int64_t i = slot_of(c, a);
  if (i >= 0 && c->state[i] != TD_AGENT_LEAKED) {
    c->state[i] = TD_AGENT_REMOVED;
  }
}

/* ---- adding agents ------------------------------------------------------- */

static int ensure_group(td_crowd *c, int32_t group) {
  if ((size_t)group < c->g_cap) return 0;
  size_t ncap = c->g_cap ? c->g_cap : 8;
  while (ncap <= (size_t)group) ncap *= 2;
  double *s = td_mem_calloc(ncap, sizeof *s);
  int32_t *n = td_mem_calloc(ncap, sizeof *n);
  float *m = td_mem_calloc(ncap, sizeof *m);
  uint8_t *u = td_mem_calloc(ncap, sizeof *u);
  if (!s || !n || !m || !u) {
    td_mem_free(s, ncap * sizeof *s);
    td_mem_free(n, ncap * sizeof *n);
    td_mem_free(m, ncap * sizeof *m);
    td_mem_free(u, ncap * sizeof *u);
    return -1;
  }
  /* the sums carried to the next tick move along */
  if (c->g_cap) {
    memcpy(s, c->g_sum, c->g_cap * sizeof *s);
    memcpy(n, c->g_n, c->g_cap * sizeof *n);
  }
  td_mem_free(c->g_sum, c->g_cap * sizeof *c->g_sum);
  td_mem_free(c->g_n, c->g_cap * sizeof *c->g_n);
  td_mem_free(c->g_mean, c->g_cap * sizeof *c->g_mean);
  td_mem_free(c->g_use, c->g_cap * sizeof *c->g_use);
  c->g_sum = s;
  c->g_n = n;
  c->g_mean = m;
  c->g_use = u;
  c->g_cap = ncap;
  return 0;
}

td_agent td_crowd_add(td_crowd *c, const td_agent_desc *d, int32_t at, td_err *err) {
  if (!(d->radius > 0.0f) || !(d->max_speed > 0.0f) || d->group < 0 ||
      !isfinite(d->lane) || !isfinite(d->slot)) {
    td_err_set(err, "crowd: an agent needs a positive radius and speed, a group >= 0 and "
                    "finite lane and slot");
    return TD_AGENT_NONE;
  }
  if (at < 0 || at >= c->g->node_count) {
    td_err_set(err, "crowd: agent start node %d does not exist", at);
    return TD_AGENT_NONE;
  }
  if (ensure_group(c, d->group) != 0) {
    td_err_set(err, "crowd: out of memory");
    return TD_AGENT_NONE;
  }
  size_t i;
  if (c->free_len > 0) {
    i = c->free_list[--c->free_len];
  } else {
    if (c->used == TD_CROWD_MAX_AGENTS) {
      td_err_set(err, "crowd: more than %u agents", TD_CROWD_MAX_AGENTS);
      return TD_AGENT_NONE;
    }
    /* one slot to spare: the cell order ends with a sentinel */
    if (c->used + 1 == c->cap && grow_agents(c, 2 * c->cap) != 0) {
      td_err_set(err, "crowd: out of memory");
      return TD_AGENT_NONE;
    }
    i = c->used++;
  }
  c->radius[i] = d->radius;
  c->max_speed[i] = c->base_speed[i] = d->max_speed;
  c->hold[i] = 0;
  c->dv[i] = (d->accel > 0.0f ? d->accel : 4.0f * d->max_speed) * c->dt; /* per tick */
  c->look[i] = c->p.lookahead * d->max_speed;
  if (c->look[i] < 2.0f * d->radius) c->look[i] = 2.0f * d->radius;
  float turn = (d->turn_rate > 0.0f ? d->turn_rate : 4.0f * PI_F) * c->dt; /* in a tick */
  c->turn_cos[i] = turn < PI_F ? cosf(turn) : -2.0f; /* -2: no limit (see limit()) */
  c->turn_sin[i] = turn < PI_F ? sinf(turn) : 0.0f;
  c->prog[i] = NAN; /* none yet: no cohesion in its first tick */
  c->coh[i] = c->p.cohesion / d->max_speed;
  c->lane[i] = d->lane;
  c->slot[i] = d->slot;
  c->group[i] = d->group;
  c->travelled[i] = c->turn_at[i] = 0.0f;
  c->m_vx[i] = c->m_vy[i] = c->m_turn[i] = 0.0f;
  c->m_sharp[i] = 0;
  c->m_flips[i] = 0;
  c->prog_a[i] = c->prog_b[i] = 0.0f;
  c->inv_with[i] = -1;
  c->spawn_tick[i] = c->tick;
  c->vx[i] = c->vy[i] = c->speed[i] = 0.0f;
  if (d->radius > c->max_radius) c->max_radius = d->radius;
  if (d->max_speed > c->max_speed_all) c->max_speed_all = d->max_speed;
  check_route(c);
  const int32_t *next = c->next;
  float px, py;
  node_pos(c, at, &px, &py);
  c->from[i] = at;
  c->to[i] = next[at];
  if (d->flying) {
    c->state[i] = TD_AGENT_FLY;
    c->x[i] = px + d->slot;
    c->y[i] = py + d->lane;
  } else {
    float dx = 1.0f, dy = 0.0f;
    if (next[at] != TD_NONE) seg_dir(c, at, next[at], &dx, &dy);
    /* the lane is to the left of travel: normal (-dy, dx) */
    c->x[i] = px - dy * d->lane + dx * d->slot;
    c->y[i] = py + dx * d->lane + dy * d->slot;
    c->state[i] = next[at] != TD_NONE ? TD_AGENT_WALK
                  : td_route_is_goal(c->route, at) ? TD_AGENT_LEAKED
                                                   : TD_AGENT_STRANDED;
    if (c->to[i] == TD_NONE) c->to[i] = at;
    c->ktab[i] = KC_NONE;
    if (c->state[i] == TD_AGENT_WALK) enter_segment(c, i, take_segment(c, i), 0.0f);
  }
  /* The hash covers the graph's box and the agents: a formation spawned
  ** behind its spawn point can reach far outside the map, and agents
  ** crowded into the border cells would be compared with each other. */
  double ax = c->x[i], ay = c->y[i], pad = 4.0 * (double)d->radius;
  if (ax - pad < c->bx0 || ax + pad > c->bx1 || ay - pad < c->by0 || ay + pad > c->by1) {
    c->bx0 = ax - pad < c->bx0 ? ax - pad : c->bx0;
    c->bx1 = ax + pad > c->bx1 ? ax + pad : c->bx1;
    c->by0 = ay - pad < c->by0 ? ay - pad : c->by0;
    c->by1 = ay + pad > c->by1 ? ay + pad : c->by1;
    c->cell = 0.0f; /* size_grid() lays the grid out again at the next step */
  }
  c->live++;
  return make_handle(c, i);
}

void td_formation_place(const td_formation *f, int32_t k, float *lane, float *slot) {
  int32_t per = f->per_row > 0 ? f->per_row : 1;
  int32_t row = k / per, col = k % per;
  int32_t in_row = f->count - row * per < per ? f->count - row * per : per;
  *lane = in_row > 1 ? -f->width / 2 + f->width * (float)col / (float)(in_row - 1) : 0.0f;
  *slot = -f->spacing * (float)row;
}

int32_t td_crowd_spawn(td_crowd *c, const td_agent_desc *desc, int32_t at,
                       const td_formation *f, td_agent *out, td_err *err) {
  for (int32_t k = 0; k < f->count; k++) {
    td_agent_desc d = *desc;
    td_formation_place(f, k, &d.lane, &d.slot);
    d.lane += desc->lane;
    d.slot += desc->slot;
    td_agent a = td_crowd_add(c, &d, at, err);
    if (a == TD_AGENT_NONE) return k;
    if (out) out[k] = a;
  }
  return f->count;
}

int td_crowd_set_obstacles(td_crowd *c, const float *rects, size_t n, td_err *err) {
  float *o = n ? td_mem_alloc(n * 4 * sizeof *o) : NULL;
  if (n && !o) return td_err_set(err, "crowd: out of memory");
  if (n) memcpy(o, rects, n * 4 * sizeof *o);
  td_mem_free(c->obs, c->obs_n * 4 * sizeof *c->obs);
  c->obs = o;
  c->obs_n = n;
  return 0;
}

/* ---- the corner geometry of a lane --------------------------------------- */

static void corner_fill(const td_crowd *c, int32_t a, int32_t b, corner *k) {
  int32_t n2 = c->next[b];
  td_cost d = td_route_dist(c->route)[b];
  k->a = a;
  k->b = b;
  k->left = d == TD_COST_INF ? 0.0f : (float)td_graph_cost_to_units(d);
  node_pos(c, a, &k->ax, &k->ay);
  node_pos(c, b, &k->bx, &k->by);
  k->len = seg_dir(c, a, b, &k->dx, &k->dy);
  k->nx = -k->dy;
  k->ny = k->dx;
  k->last = n2 == TD_NONE;
  k->d2x = k->dx;
  k->d2y = k->dy;
  if (!k->last) seg_dir(c, b, n2, &k->d2x, &k->d2y);
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
  corner_fill(c, a, b, &c->kc[q]);
  c->kc_map[free_at] = q + 1;
  return q;
}

/* Agent i's corner (its segment from[i] -> to[i]). The pointer is valid
** until the next take_segment. */
static inline const corner *corner_at(td_crowd *c, size_t i) {
  uint32_t q = c->ktab[i];
  if (q != KC_NONE) return &c->kc[q];
  corner_fill(c, c->from[i], c->to[i], &c->kc_spare);
  return &c->kc_spare;
}

/* Agent i took a new segment (from[i] -> to[i]): finds its corner. */
static const corner *take_segment(td_crowd *c, size_t i) {
  c->ktab[i] = corner_id(c, c->from[i], c->to[i]);
  return corner_at(c, i);
}

/* Finds the corner of every agent on the ground (on a segment). */
static void find_corners(td_crowd *c) {
  for (size_t i = 0; i < c->used; i++)
    if (layer(c->state[i]) == 0) take_segment(c, i);
}

/* After a route update the corners are stale (next[] and dist[] moved):
** empties the table and finds every agent's again. */
static void check_route(td_crowd *c) {
  c->next = td_route_next(c->route);
  c->dist = td_route_dist(c->route);
  uint64_t v = route_version(c->route);
  if (v == c->route_version) return;
  c->route_version = v;
  c->kc_len = 0;
  if (c->kc_map) memset(c->kc_map, 0, ((size_t)c->kc_map_mask + 1) * sizeof *c->kc_map);
  find_corners(c);
}

/* ---- passes -------------------------------------------------------------- */

/* Agents meet only within a layer: the ground (walkers, stunned, stranded)
** or the air (flyers pass over walkers). -1: not in the world. */
static inline int layer(uint8_t s) {
  switch (s) {
  case TD_AGENT_WALK:
  case TD_AGENT_STUNNED:
  case TD_AGENT_STRANDED:
    return 0;
  case TD_AGENT_FLY:
    return 1;
  default:
    return -1;
  }
}

/* Where the lane of agent i meets the bisector at the end of its segment,
** as a projection on the segment (0 at from, len at to for lane 0). */
static inline float lane_end(const corner *k, float lane) { return k->ml + k->md * lane; }

/* Route distance left for a walker at t on its segment (k), plus its slot:
** equal for every agent of a group that keeps its formation. The agent's
** progress on its own lane segment (from where it entered it to the lane's
** miter point at the end) is mapped onto the centre line, so that an outer
** lane, which is longer round a corner, is not taken to lag: the formation
** wheels like a block. */
static inline float progress(const td_crowd *c, size_t i, const corner *k, float t) {
  return k->left + c->prog_a[i] - c->prog_b[i] * t;
}

/* Agent i takes its segment (corner k) at projection t0. Its fraction done
** of the segment, f = (t - t0) / span, is mapped onto the centre line:
** progress = left + (1 - f) len + slot = left + prog_a - prog_b t. */
static inline void enter_segment(td_crowd *c, size_t i, const corner *k, float t0) {
  float span = lane_end(k, c->lane[i]) - t0; /* to its lane's miter point */
  if (span > 1e-3f) {
    c->prog_b[i] = k->len / span;
    c->prog_a[i] = c->slot[i] + k->len + c->prog_b[i] * t0;
  } else { /* no length left: done */
    c->prog_b[i] = 0.0f;
    c->prog_a[i] = c->slot[i];
  }
}

static inline int32_t bits_for(int32_t v) { /* bits to write 0 .. v, at least 1 */
  int32_t b = 1;
  while (b < 31 && (1 << b) <= v) b++;
  return b;
}

/* Sizes the grid for the widest interaction of a tick: two agents' reach
** plus what both can move; coarser when the keys would need more than
** KEY_BITS (a huge map). */
static void size_grid(td_crowd *c) {
  float reach = 2.0f * c->max_radius * 1.5f + 2.0f * c->max_speed_all * c->dt + c->p.margin;
  if (!(reach > 0.0f)) reach = 1.0f;
  if (reach == c->cell) return;
  /* a border for lanes, miters and detours just outside the graph; agents
  ** beyond it share the edge cells */
  double border = 0.02 * (c->bx1 - c->bx0 + c->by1 - c->by0) + 8.0;
  c->gx0 = (float)(c->bx0 - border);
  c->gy0 = (float)(c->by0 - border);
  float w = (float)(c->bx1 - c->bx0 + 2 * border), h = (float)(c->by1 - c->by0 + 2 * border);
  for (;;) {
    float fw = w / reach, fh = h / reach;
    if (fw < 4194304.0f && fh < 4194304.0f) {
      c->gw = (int32_t)fw + 1;
      c->gh = (int32_t)fh + 1;
      c->xbits = bits_for(c->gw - 1);
      c->ybits = bits_for(c->gh - 1);
      if (c->xbits + c->ybits <= KEY_BITS) break;
    }
    reach *= 1.5f;
  }
  c->cell = reach;
  c->inv_cell = 1.0f / reach;
}

/* The key of the cell holding (x, y); outside the grid, the nearest cell. */
static inline uint32_t cell_key(const td_crowd *c, float x, float y) {
  float fx = floorf((x - c->gx0) * c->inv_cell), fy = floorf((y - c->gy0) * c->inv_cell);
  int32_t gx = fx >= 0.0f ? (fx < (float)c->gw ? (int32_t)fx : c->gw - 1) : 0;
  int32_t gy = fy >= 0.0f ? (fy < (float)c->gh ? (int32_t)fy : c->gh - 1) : 0;
  return (uint32_t)gy << c->xbits | (uint32_t)gx;
}

/* A key's entry in the table of cells (dense), row-major like the keys. */
static inline size_t key_cell(const td_crowd *c, uint32_t key) {
  return (size_t)(key >> c->xbits) * (size_t)c->gw + (key & ((1u << c->xbits) - 1));
}

/* Puts agent i in its cell: its key, counted for sort_cells. */
static inline void hash_agent(td_crowd *c, size_t i) {
  uint32_t key = cell_key(c, c->x[i], c->y[i]);
  c->cell_of[i] = (int32_t)key;
  if (c->dense) {
    c->cell_tab[key_cell(c, key) + 2]++;
  } else {
    c->hist[0][key & (RADIX - 1)]++;
    c->hist[1][key >> RADIX_BITS]++; /* < RADIX: keys have at most KEY_BITS */
  }
}

/* Dense or sparse, for this tick. A table of every cell makes the sort one
** pass and a neighbour query six loads, but costs a pass over the cells:
** worth it while there are not many more cells than agents. Without the
** memory for it, the sparse way (no table) works as well. Both give the
** same cell order, so the choice changes no result. */
static void choose_sort(td_crowd *c) {
  size_t cells = (size_t)c->gw * (size_t)c->gh, slots = cells + 2;
  c->dense = cells <= 8 * c->live + 4096;
  if (c->dense && c->tab_slots < slots) {
    int32_t *t = td_mem_alloc(slots * sizeof *t);
    if (t) {
      td_mem_free(c->cell_tab, c->tab_slots * sizeof *c->cell_tab);
      c->cell_tab = t;
      c->tab_slots = slots;
    } else {
      c->dense = false;
    }
  }
}

/* Clears the counts before hash_agent. */
static void clear_counts(td_crowd *c) {
  if (c->dense)
    memset(c->cell_tab, 0, ((size_t)c->gw * (size_t)c->gh + 2) * sizeof *c->cell_tab);
  else
    memset(c->hist, 0, sizeof c->hist);
}

/* Frees slot i if its agent leaked or was removed last tick; its state. */
static inline uint8_t free_finished(td_crowd *c, size_t i) {
  uint8_t s = c->state[i];
  if (s == TD_AGENT_LEAKED || s == TD_AGENT_REMOVED) {
    c->state[i] = s = TD_AGENT_FREE;
    c->gen[i]++;
    c->free_list[c->free_len++] = (uint32_t)i;
    c->live--;
  }
  return s;
}

/* Pass 1 (slot order), with `hash`: frees the slots of agents that finished
** last tick (without, the steering pass does) and puts every agent in its
** cell. Then the groups' means of the last tick; the sums start again. */
static void begin_tick(td_crowd *c, bool hash) {
  c->leak_len = 0;
  if (hash) {
    clear_counts(c);
    for (size_t i = 0; i < c->used; i++) {
      if (free_finished(c, i) == TD_AGENT_FREE) c->cell_of[i] = -1;
      else hash_agent(c, i);
    }
  }
  for (size_t g = 0; g < c->g_cap; g++) {
    c->g_use[g] = c->g_n[g] > 1;
    c->g_mean[g] = c->g_n[g] > 1 ? (float)(c->g_sum[g] / c->g_n[g]) : 0.0f;
    c->g_sum[g] = 0.0;
    c->g_n[g] = 0;
  }
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

/* Pass 2: a stable sort of the hashed agents by key (slot order within a
** cell), from the counts hash_agent made: dense, a counting sort over the
** table of cells; sparse, a radix sort of one or two digits. With
** `snapshot`, copies what neighbour queries read into cell order. Returns
** the number of agents hashed. */
static size_t sort_cells(td_crowd *c, bool snapshot) {
  int passes = c->dense ? 0 : c->xbits + c->ybits > RADIX_BITS ? 2 : 1;
  size_t n = 0;
  if (c->dense) {
    /* tab[c + 2] holds cell c's count: the running sum makes tab[c + 1]
    ** the start of cell c, which the fill advances to its end, = start of
    ** c + 1 */
    int32_t *tab = c->cell_tab;
    size_t cells = (size_t)c->gw * (size_t)c->gh;
    for (size_t q = 2; q <= cells + 1; q++) tab[q] += tab[q - 1];
    for (size_t i = 0; i < c->used; i++) {
      if (c->cell_of[i] < 0) continue;
      uint32_t key = (uint32_t)c->cell_of[i];
      int32_t pos = tab[key_cell(c, key) + 1]++;
      c->s_key[pos] = key;
      c->order[pos] = (int32_t)i;
      c->sorted_of[i] = pos;
    }
    n = (size_t)tab[cells];
  }
  for (int p = 0; p < passes; p++) { /* counts -> first position of each digit */
    int32_t sum = 0;
    for (int d = 0; d < RADIX; d++) {
      int32_t t = c->hist[p][d];
      c->hist[p][d] = sum;
      sum += t;
    }
    n = (size_t)sum;
  }
  /* by the low digit, from slot order; then (if any) by the high digit */
  uint32_t *key1 = passes == 1 ? c->s_key : c->rk_key;
  int32_t *slot1 = passes == 1 ? c->order : c->rk_slot;
  for (size_t i = 0; i < c->used && passes > 0; i++) {
    if (c->cell_of[i] < 0) continue;
    uint32_t key = (uint32_t)c->cell_of[i];
    int32_t pos = c->hist[0][key & (RADIX - 1)]++;
    key1[pos] = key;
    slot1[pos] = (int32_t)i;
    c->sorted_of[i] = pos;
  }
  if (passes == 2)
    for (size_t q = 0; q < n; q++) {
      uint32_t key = c->rk_key[q];
      int32_t pos = c->hist[1][key >> RADIX_BITS]++;
      c->s_key[pos] = key;
      c->order[pos] = c->rk_slot[q];
      c->sorted_of[c->rk_slot[q]] = pos;
    }
  c->s_key[n] = UINT32_MAX; /* the sweep's sentinel: keys have at most KEY_BITS */
  if (!snapshot) return n;
  /* in slot order: reads stream, the writes scatter (cheaper than the other
  ** way round) */
  for (size_t i = 0; i < c->used; i++) {
    if (c->cell_of[i] < 0) continue;
    size_t k = (size_t)c->sorted_of[i];
    uint8_t s = c->state[i];
    float dx = 0.0f, dy = 0.0f;
    if (s == TD_AGENT_WALK) {
      const corner *kw = corner_at(c, i);
      dx = kw->dx;
      dy = kw->dy;
    }
    c->s_xy[2 * k] = c->x[i];
    c->s_xy[2 * k + 1] = c->y[i];
    c->s_info[k] = (nbinfo){.vx = c->vx[i], .vy = c->vy[i], .r = c->radius[i],
                            .ms = c->max_speed[i], .dx = dx, .dy = dy, .group = c->group[i],
                            .state = s, .layer = (int8_t)layer(s)};
  }
  return n;
}

/* The first position at or after p whose key is at least a; the keys end
** with a sentinel above every key. Ends move by a cell or two from one
** agent to the next: two steps without a branch, then (rarely) a loop; a
** loop alone would mispredict its exit six times an agent. */
static inline int32_t skip_below(const uint32_t *keys, int32_t p, uint32_t a) {
  p += keys[p] < a;
  p += keys[p] < a;
  while (keys[p] < a) p++;
  return p;
}

/* The agents in the 3x3 cells around `key` (the key of the k-th agent of a
** visit in cell order), as up to three runs of the cell order [lo, hi), one
** per row of cells. Dense, from the table of cells. Sparse, by a sweep: as
** the visit goes on the keys grow, and so do the ends of each run, which
** only move forward (w keeps them). */
static inline int cell_runs(const td_crowd *c, sweep *w, uint32_t key, int32_t lo[3],
                             int32_t hi[3]) {
  int32_t gx = (int32_t)(key & ((1u << c->xbits) - 1)), gy = (int32_t)(key >> c->xbits);
  uint32_t x0 = (uint32_t)(gx > 0 ? gx - 1 : 0), x1 = (uint32_t)(gx + 1 < c->gw ? gx + 1 : gx);
  const uint32_t *keys = c->s_key;
  int runs = 0;
  for (int d = 0; d < 3; d++) {
    int32_t r = gy - 1 + d;
    if (r < 0 || r >= c->gh) continue;
    if (c->dense) {
      size_t row = (size_t)r * (size_t)c->gw;
      lo[runs] = c->cell_tab[row + x0];
      hi[runs] = c->cell_tab[row + x1 + 1];
      runs++;
      continue;
    }
    uint32_t a = (uint32_t)r << c->xbits | x0, b = (uint32_t)r << c->xbits | x1;
    int32_t p = skip_below(keys, w->lo[d], a);
    int32_t q = skip_below(keys, w->hi[d] > p ? w->hi[d] : p, b + 1);
    w->lo[d] = lo[runs] = p;
    w->hi[d] = hi[runs] = q;
    runs++;
  }
  return runs;
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

/* Distance along a ray (ox, oy) + t (dx, dy) to a rectangle grown by r, or
** INFINITY. */
static float ray_rect(float ox, float oy, float dx, float dy, const float *rc, float r) {
  float x0 = rc[0] - r, y0 = rc[1] - r, x1 = rc[0] + rc[2] + r, y1 = rc[1] + rc[3] + r;
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

/* Desired velocity of a flyer: towards the nearest goal, bent by a fan of
** rays (seed 003): rays at +-20, +-40, +-60 degrees and a centre ray, cast
** from one radius behind the agent; a hit at fraction f of the ray's length
** weighs (1 - f), more for rays nearer the centre. */
static void fly_desire(const td_crowd *c, size_t i, float *wx, float *wy, float *gd) {
  const int32_t *goals;
  size_t ng = td_route_goals(c->route, &goals);
  float gx = c->x[i], gy = c->y[i];
  float best = INFINITY;
  for (size_t k = 0; k < ng; k++) {
    float x, y;
    node_pos(c, goals[k], &x, &y);
    float d = len2(x - c->x[i], y - c->y[i]);
    if (d < best) {
      best = d;
      gx = x;
      gy = y;
    }
  }
  *gd = best;
  float speed = c->max_speed[i];
  float tx = gx - c->x[i], ty = gy - c->y[i], tl = len2(tx, ty);
  if (tl < 1e-6f) {
    *wx = *wy = 0.0f;
    return;
  }
  tx /= tl;
  ty /= tl;
  float hx = c->vx[i], hy = c->vy[i], hl = len2(hx, hy);
  if (hl < 1e-3f) {
    hx = tx;
    hy = ty;
  } else {
    hx /= hl;
    hy /= hl;
  }
  if (c->obs_n == 0) {
    *wx = tx * speed;
    *wy = ty * speed;
    return;
  }

  float len = speed * 1.0f + 3.0f * c->radius[i];
  float ox = c->x[i] - hx * c->radius[i], oy = c->y[i] - hy * c->radius[i];
  float left = 0.0f, right = 0.0f, centre = 0.0f;
  for (int a = 0; a < RAYS; a++) {
    float cs = c->ray_cos[a], sn = c->ray_sin[a];
    float dx = hx * cs - hy * sn, dy = hx * sn + hy * cs;
    float hit = INFINITY;
    for (size_t o = 0; o < c->obs_n; o++) {
      float h = ray_rect(ox, oy, dx, dy, c->obs + 4 * o, c->radius[i]);
      if (h < hit) hit = h;
    }
    if (!(hit < len)) continue;
    float w = (1.0f - hit / len) * (1.2f - fabsf(ray_angles[a]));
    if (a == 0) centre = w;
    else if (ray_angles[a] > 0.0f) left += w;  /* counter-clockwise side */
    else right += w;
  }
  /* turn away from the heavier side; a centre hit picks the freer side */
  float turn = right - left;
  if (centre > 0.0f) turn += (left > right ? -1.0f : 1.0f) * centre;
  float nx = -hy, ny = hx;
  float dx = tx + nx * turn * 2.0f, dy = ty + ny * turn * 2.0f;
  if (left + right + centre > 0.0f) { /* obstacles ahead: trust the fan */
    dx = hx + nx * turn * 2.0f;
    dy = hy + ny * turn * 2.0f;
  }
  float dl = len2(dx, dy);
  *wx = dl > 1e-6f ? dx / dl * speed : 0.0f;
  *wy = dl > 1e-6f ? dy / dl * speed : 0.0f;
}

/* Walker k (cell order) meets agent kk at (ahead, side) in the walker's
** frame: a wave-mate of the same kind ahead in the way is followed (our
** speed capped so the gap does not close), anyone slower by nature (another
** kind, or a stunned one) is passed: our lane shifts aside (`best`: the
** nearest such agent so far). */
static inline void walk_pair(const nbinfo *me, const nbinfo *nj, float ahead, float side,
                             float *best, nbres *res) {
  if (nj->state != TD_AGENT_WALK && nj->state != TD_AGENT_STUNNED) return;
  float reach = me->r + nj->r;
  float vj = nj->vx * me->dx + nj->vy * me->dy;
  /* A mate is followed when it travels our way or moves away from us (it
  ** may just have turned a corner). One meeting us head-on or across a
  ** junction is passed instead: two agents following each other would
  ** both stop for good. */
  float away = vj * ahead + (nj->vx * -me->dy + nj->vy * me->dx) * side;
  bool mate = nj->group == me->group && nj->state == TD_AGENT_WALK && nj->ms >= 0.9f * me->ms &&
              (nj->dx * me->dx + nj->dy * me->dy > 0.5f || away > 0.0f);
  if (mate) {
    if (ahead <= 0.0f || ahead > 3.0f * reach || fabsf(side) >= reach) return;
    /* close at most to 1.25 reach, at the speed that gets there in 1/4 s */
    float cap = vj + (ahead - 1.25f * reach) * 4.0f;
    if (cap < res->follow) res->follow = cap < 0.0f ? 0.0f : cap;
    return;
  }
  /* pass: from 4 reach before until it is a reach behind us; the shift
  ** fades in over the first reach and out over the last half, and goes
  ** to 0 at the sides of the window (|side| = 1.3 reach): a neighbour
  ** that enters or leaves the window moves our lane smoothly, with no
  ** step that the steering would chase back and forth */
  if (ahead <= -reach || ahead > 4.0f * reach || fabsf(side) >= 1.3f * reach) return;
  if (vj > 0.9f * me->ms) return; /* not slower: no need to pass */
  if (fabsf(ahead) < *best) {
    *best = fabsf(ahead);
    float fade = ahead > 3.0f * reach    ? (4.0f * reach - ahead) / reach
                 : ahead < -0.5f * reach ? (ahead + reach) / (0.5f * reach)
                                         : 1.0f;
    /* pass on the side we already lean to (ties: the left) */
    res->shift = fade * (side > 0.0f ? -(1.3f * reach - side) : 1.3f * reach + side);
  }
}

/* Scans the 3x3 cells around agent k (cell order): a walker's follow and
** pass, the soft push (with separation), and the list of pairs close
** enough to overlap after the move, into s_res[k]. Reads only the
** cell-order copy. Each test below first rejects on a bound that is looser
** than the exact test, which then runs unchanged: the cheap rejections
** change no result. Everything the loop uses is in locals: stores through
** c would make the compiler reload it for every candidate. */
static void scan_neighbours(td_crowd *c, int32_t k) {
  const nbinfo *info = c->s_info, *me = &info[k];
  const float *xy = c->s_xy;
  nbinfo self = *me;
  nbres res = {.follow = INFINITY, .shift = 0.0f, .px = 0.0f, .py = 0.0f};
  float best = INFINITY;
  float xi = xy[2 * (size_t)k], yi = xy[2 * (size_t)k + 1], ri = self.r, dx = self.dx, dy = self.dy;
  float margin = c->p.margin;
  bool walk = self.state == TD_AGENT_WALK;
  /* walk: every test needs |side| < 1.3 reach and -reach < ahead <= 4 reach,
  ** with reach <= ri + max_radius; sep: d < want <= want_max */
  float rr = ri + c->max_radius;
  float side_max = 1.31f * rr, back_max = -1.01f * rr, ahead_max = 4.04f * rr;
  float want_max = rr + margin + 0.2f * ri;
  float sep2 = c->p.separation ? want_max * want_max * 1.0001f : -1.0f;
  float pl2 = c->pl_reach2;
  int32_t lo[3], hi[3];
  int runs = cell_runs(c, &c->sweep, c->s_key[k], lo, hi);
  if (pl2 > 0.0f) { /* room for every candidate in the close-pair list */
    size_t most = 0;
    for (int r = 0; r < runs; r++) most += (size_t)(hi[r] - lo[r]);
    if (c->pl_len + most > c->pl_cap) {
      int32_t *p = td_mem_grow(c->pl, &c->pl_cap, c->pl_len + most, sizeof *p);
      if (p) {
        c->pl = p;
      } else { /* out of memory: the projection scans the cells instead */
        c->pl_ok = false;
        c->pl_reach2 = pl2 = 0.0f;
      }
    }
  }
  int32_t *pl = c->pl;
  size_t np = c->pl_len;
  for (int r = 0; r < runs; r++)
    for (int32_t kk = lo[r]; kk < hi[r]; kk++) {
      if (kk == k) continue;
      float rx = xy[2 * (size_t)kk] - xi, ry = xy[2 * (size_t)kk + 1] - yi;
      float d2 = rx * rx + ry * ry;
      if (d2 < pl2) pl[np++] = kk;
      if (walk) {
        float ahead = rx * dx + ry * dy, side = rx * -dy + ry * dx;
        if (fabsf(side) < side_max && ahead > back_max && ahead <= ahead_max)
          walk_pair(&self, &info[kk], ahead, side, &best, &res);
      }
      if (d2 <= sep2) { /* soft separation: keep a margin within the layer */
        const nbinfo *nj = &info[kk];
        if (nj->layer != self.layer) continue;
        float sx = -rx, sy = -ry, d = len2(sx, sy); /* from the neighbour to us */
        float want = ri + nj->r + margin + 0.2f * ri;
        if (d >= want || d < 1e-6f) continue;
        float push = (want - d) / want;
        res.px += sx / d * push;
        res.py += sy / d * push;
      }
    }
  c->pl_len = np;
  c->s_res[k] = res;
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

/* Steers agent i and moves it; res: what its neighbours asked of it (NULL
** when the tick has no hash). Returns a walker's progress (NAN for other
** agents), and its corner in *kout (else NULL). */
static HOT_INLINE float steer_agent(td_crowd *c, size_t i, const nbres *res, const corner **kout) {
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
      fly_desire(c, i, &ex, &ey, &gd);
      if (gd <= 2.0f * c->radius[i] && !c->hold[i]) {
        c->state[i] = TD_AGENT_LEAKED;
        c->leaked_flyers++;
        return prog;
      }
      el = ws = c->hold[i] ? 0.0f : len2(ex, ey);
    } else if (s != TD_AGENT_STUNNED && s != TD_AGENT_STRANDED) {
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
  c->vx[i] = nvx;
  c->vy[i] = nvy;
  c->speed[i] = speed;
  c->x[i] += nvx * dt;
  c->y[i] += nvy * dt;
  c->travelled[i] += speed * dt;
  return prog;
}

/* Takes next[] at waypoints; a goal is a leak; a node without a route makes
** the agent wait there. k: the corner of the agent's segment if known. */
static HOT_INLINE void waypoint_agent(td_crowd *c, size_t i, const corner *k) {
  const int32_t *next = c->next;
  /* a stranded agent waits for td_crowd_route_changed, which knows
  ** whether its segment is open: it may stand on a blocked one */
  if (c->state[i] != TD_AGENT_WALK) return;
  if (!k) k = corner_at(c, i);
  for (int hops = 0; hops < 4; hops++) { /* short segments: several per tick */
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
    k = take_segment(c, i);
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

/* Pushes overlapping agents of a layer apart by half the overlap each (plus
** a thin skin), from the positions before the iteration (Jacobi), four
** times.
** Coincident agents split along the y axis, the lower slot upwards. Works
** in cell order on the moved positions, then writes them back.
**
** The steering scan listed every pair closer than pl_reach before the move,
** and the agents that have one (`active`); the others get no correction.
** A pair left out can only overlap after agents moved (and were corrected)
** by more than pl_slack in all; `moved` and the corrections so far bound
** that, and when they do not, the iteration scans the cells of every agent
** instead. Both ways visit the overlapping pairs in the same order. */
static void project(td_crowd *c, size_t n) {
  float shifted = c->moved; /* largest |dx| + |dy| since the lists were made */
  for (int iter = 0; iter < PROJECT_ITERATIONS; iter++) {
    bool lists = c->pl_ok && 2.0f * shifted * 1.001f + 1e-4f < c->pl_slack;
    size_t visits = lists ? c->n_active : n;
    sweep sw = {{0}, {0}};
    for (size_t a = 0; a < visits; a++) {
      size_t k = lists ? (size_t)c->active[a] : a;
      float cx = 0.0f, cy = 0.0f;
      /* a small signed number (-1: leaked this tick), not a character */
      int li = c->s_info[k].layer; /* NOLINT(bugprone-signed-char-misuse) */
      size_t i = (size_t)c->order[k];
      float xi = c->x[i], yi = c->y[i], ri = c->s_info[k].r;
      int32_t lo[3], hi[3];
      int runs = 0;
      if (li >= 0 && lists) {
        lo[0] = k > 0 ? c->s_pl_end[k - 1] : 0;
        hi[0] = c->s_pl_end[k];
        runs = 1;
      } else if (li >= 0) {
        runs = cell_runs(c, &sw, c->s_key[k], lo, hi);
      }
      for (int r = 0; r < runs; r++)
        for (int32_t q = lo[r]; q < hi[r]; q++) {
          int32_t kk = lists ? c->pl[q] : q;
          if (kk == (int32_t)k || c->s_info[kk].layer != li) continue;
          size_t j = (size_t)c->order[kk];
          float rx = xi - c->x[j], ry = yi - c->y[j], d = len2(rx, ry);
          /* a skin of 2% of the radii: resolved pairs end slightly apart */
          float want = (ri + c->s_info[kk].r) * 1.02f;
          if (d >= want) continue;
          if (d < 1e-6f) { /* coincident: split along y, by slot order */
            cy += (j > i ? -0.5f : 0.5f) * want;
            continue;
          }
          float corr = (want - d) * 0.5f;
          cx += rx / d * corr;
          cy += ry / d * corr;
        }
      c->s_cxy[2 * k] = cx;
      c->s_cxy[2 * k + 1] = cy;
    }
    float most = 0.0f;
    for (size_t a = 0; a < visits; a++) {
      size_t k = lists ? (size_t)c->active[a] : a, i = (size_t)c->order[k];
      float ox = c->x[i], oy = c->y[i];
      c->x[i] += c->s_cxy[2 * k];
      c->y[i] += c->s_cxy[2 * k + 1];
      float m = fabsf(c->x[i] - ox) + fabsf(c->y[i] - oy);
      if (m > most) most = m;
    }
    if (most == 0.0f) break; /* nothing overlaps any more */
    shifted += most;
  }
}

/* ---- metrics ------------------------------------------------------------- */

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* Puts the agents in their cells again (they moved), without the copies. */
static size_t rehash_positions(td_crowd *c) {
  clear_counts(c);
  for (size_t i = 0; i < c->used; i++) {
    c->cell_of[i] = -1;
    if (c->state[i] != TD_AGENT_FREE) hash_agent(c, i);
  }
  return sort_cells(c, false);
}

static void measure(td_crowd *c, size_t hashed) {
  /* min_gap over neighbour pairs of one layer */
  sweep sw = {{0}, {0}};
  for (size_t k = 0; k < hashed; k++) {
    size_t i = (size_t)c->order[k];
    int li = layer(c->state[i]);
    if (li < 0) continue;
    int32_t lo[3], hi[3];
    int runs = cell_runs(c, &sw, c->s_key[k], lo, hi);
    for (int r = 0; r < runs; r++)
      for (int32_t kk = lo[r]; kk < hi[r]; kk++) {
        size_t j = (size_t)c->order[kk];
        if (j <= i || layer(c->state[j]) != li) continue;
        double gap = (double)len2(c->x[i] - c->x[j], c->y[i] - c->y[j]) -
                     (double)c->radius[i] - (double)c->radius[j];
        if (gap < c->m.min_gap) c->m.min_gap = gap;
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
  if (c->sort_cap < c->used) {
    int64_t *p = td_mem_grow(c->sort_keys, &c->sort_cap, c->used, sizeof *p);
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
    /* key: group, segment, lane order, slot */
    c->sort_keys[n++] = ((int64_t)c->group[i] << 40) | ((int64_t)(c->from[i] & 0xFFFFF) << 20) |
                        (int64_t)i;
  }
  c->m.lane_error = c->m.samples ? sqrt(c->m.lane_sq_sum / (double)c->m.samples) : 0.0;
  /* swaps: neighbours in lane order on one segment whose lateral order is
  ** inverted; counted when the inversion begins */
  if (n > 1) qsort(c->sort_keys, n, sizeof *c->sort_keys, cmp_i64); /* n may be 0 (NULL) */
  for (size_t a = 0; a < n;) {
    size_t b = a;
    int64_t seg = c->sort_keys[a] >> 20;
    while (b < n && (c->sort_keys[b] >> 20) == seg) b++;
    /* within [a, b): same group and same from; order by lane (insertion) */
    for (size_t u = a + 1; u < b; u++) {
      int64_t key = c->sort_keys[u];
      size_t v = u;
      while (v > a && c->lane[c->sort_keys[v - 1] & 0xFFFFF] > c->lane[key & 0xFFFFF]) {
        c->sort_keys[v] = c->sort_keys[v - 1];
        v--;
      }
      c->sort_keys[v] = key;
    }
    for (size_t u = a; u < b; u++) {
      size_t i = (size_t)(c->sort_keys[u] & 0xFFFFF);
      int32_t with = -1;
      if (u + 1 < b) {
        size_t j = (size_t)(c->sort_keys[u + 1] & 0xFFFFF);
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
  /* group spread: largest pairwise distance (exact up to 512 members) */
  for (size_t a = 0; a < n;) {
    int32_t grp = (int32_t)(c->sort_keys[a] >> 40);
    size_t b = a;
    while (b < n && (int32_t)(c->sort_keys[b] >> 40) == grp) b++;
    if (b - a <= 512) {
      for (size_t u = a; u < b; u++)
        for (size_t v = u + 1; v < b; v++) {
          size_t i = (size_t)(c->sort_keys[u] & 0xFFFFF), j = (size_t)(c->sort_keys[v] & 0xFFFFF);
          double d = (double)len2(c->x[i] - c->x[j], c->y[i] - c->y[j]);
          if (d > c->m.group_spread) c->m.group_spread = d;
        }
    }
    a = b;
  }
}

/* ---- the tick ------------------------------------------------------------ */

void td_crowd_step(td_crowd *c) {
  check_route(c);
  group_run run = {.g = -1, .n = 0, .sum = 0.0};
  bool hashed = c->p.separation || c->metrics_on;
  if (hashed) {
    size_grid(c);
    choose_sort(c);
  }
  begin_tick(c, hashed);
  if (hashed) {
    size_t n = sort_cells(c, true);
    c->sweep = (sweep){{0}, {0}};
    /* close pairs: anything that could overlap after a normal move */
    float overlap = 2.0f * c->max_radius * 1.02f;
    c->pl_slack = 0.5f * c->max_radius + 3.0f * c->max_speed_all * c->dt;
    c->pl_reach2 = c->p.separation ? (overlap + c->pl_slack) * (overlap + c->pl_slack) : 0.0f;
    c->pl_ok = c->p.separation;
    c->pl_len = 0;
    c->n_active = 0;
    c->leaked_flyers = 0;
    for (size_t k = 0; k < n; k++) { /* in cell order */
      size_t before = c->pl_len;
      scan_neighbours(c, (int32_t)k);
      if (c->pl_len > before) c->active[c->n_active++] = (int32_t)k;
      c->s_pl_end[k] = (int32_t)c->pl_len;
    }
    float moved = 0.0f; /* the largest move, |dx| + |dy|, for the projection */
    for (size_t i = 0; i < c->used; i++) { /* in slot order: the columns stream */
      if (c->state[i] == TD_AGENT_FREE) continue;
      float ox = c->x[i], oy = c->y[i];
      const corner *k;
      float prog = steer_agent(c, i, &c->s_res[c->sorted_of[i]], &k);
      if (!isnan(prog)) run_add(c, &run, c->group[i], prog);
      float m = fabsf(c->x[i] - ox) + fabsf(c->y[i] - oy);
      if (m > moved) moved = m;
    }
    c->moved = moved;
    if (c->leaked_flyers > 0) /* they left the world: no projection */
      for (size_t k = 0; k < n; k++)
        if (c->state[c->order[k]] == TD_AGENT_LEAKED) c->s_info[k].layer = -1;
    if (c->p.separation) project(c, n);
    for (size_t i = 0; i < c->used; i++) {
      if (c->state[i] == TD_AGENT_FREE) continue;
      waypoint_agent(c, i, NULL);
      if (c->state[i] == TD_AGENT_LEAKED) note_leak(c, i);
    }
  } else { /* no neighbours: one pass */
    for (size_t i = 0; i < c->used; i++) {
      if (free_finished(c, i) == TD_AGENT_FREE) continue;
      const corner *k;
      float prog = steer_agent(c, i, NULL, &k);
      if (!isnan(prog)) run_add(c, &run, c->group[i], prog);
      waypoint_agent(c, i, k);
      if (c->state[i] == TD_AGENT_LEAKED) note_leak(c, i);
    }
  }
  run_flush(c, &run);
  if (c->metrics_on) measure(c, rehash_positions(c));
  c->tick++;
}

void td_crowd_route_changed(td_crowd *c) {
  const td_graph *g = c->g;
  const td_cost *dist = td_route_dist(c->route);
  check_route(c);
  for (size_t i = 0; i < c->used; i++) {
    if (c->state[i] != TD_AGENT_WALK && c->state[i] != TD_AGENT_STRANDED) continue;
    int32_t a = c->from[i], b = c->to[i];
    int32_t e = a != b ? td_graph_find_edge(g, a, b) : TD_NONE;
    bool seg_open = e == TD_NONE ? a == b : td_graph_edge_open(g, e);
    bool ahead_ok = seg_open && !g->node_blocked[b] && dist[b] != TD_COST_INF;
    bool back_ok = a != b && !g->node_blocked[a] && dist[a] != TD_COST_INF;
    /* the cheaper way out of the segment: on through b, or back through a
    ** (a blocked segment can still be walked back: the tower is ahead) */
    float ax, ay, bx, by;
    node_pos(c, a, &ax, &ay);
    node_pos(c, b, &bx, &by);
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
      c->lane[i] = -c->lane[i]; /* keep its side of the road */
      c->state[i] = TD_AGENT_WALK;
      const corner *k = take_segment(c, i);
      enter_segment(c, i, k, (c->x[i] - k->ax) * k->dx + (c->y[i] - k->ay) * k->dy);
    } else {
      c->state[i] = TD_AGENT_STRANDED;
    }
  }
}

/* ---- access -------------------------------------------------------------- */

size_t td_crowd_leaks(const td_crowd *c, const td_agent **agents) {
  if (agents) *agents = c->leaks;
  return c->leak_len;
}

uint64_t td_crowd_tick(const td_crowd *c) { return c->tick; }

void td_crowd_enable_metrics(td_crowd *c, bool on) { c->metrics_on = on; }

const td_crowd_metrics *td_crowd_get_metrics(const td_crowd *c) { return &c->m; }

size_t td_crowd_capacity(const td_crowd *c) { return c->used; }

size_t td_crowd_count(const td_crowd *c) { return c->live; }

bool td_crowd_view(const td_crowd *c, size_t i, td_agent_view *out) {
  if (i >= c->used || c->state[i] == TD_AGENT_FREE) return false;
  *out = (td_agent_view){.state = (td_agent_state)c->state[i], .x = c->x[i], .y = c->y[i],
                         .vx = c->vx[i], .vy = c->vy[i], .radius = c->radius[i],
                         .lane = c->lane[i], .group = c->group[i], .from = c->from[i],
                         .to = c->to[i], .spawn_tick = c->spawn_tick[i],
                         .travelled = c->travelled[i]};
  return true;
}

td_agent td_crowd_handle(const td_crowd *c, size_t i) {
  return i < c->used && c->state[i] != TD_AGENT_FREE ? make_handle(c, i) : TD_AGENT_NONE;
}

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
  }
  return h;
}

/* ---- effects ------------------------------------------------------------- */

void td_crowd_set_stunned(td_crowd *c, td_agent a, bool stunned) {
  int64_t i = slot_of(c, a);
  if (i < 0) return;
  uint8_t s = c->state[i];
  if (s == TD_AGENT_FLY) c->hold[i] = stunned;
  else if (stunned && s == TD_AGENT_WALK) c->state[i] = TD_AGENT_STUNNED;
  else if (!stunned && s == TD_AGENT_STUNNED) c->state[i] = TD_AGENT_WALK;
}

void td_crowd_set_speed_scale(td_crowd *c, td_agent a, float scale) {
  int64_t i = slot_of(c, a);
  if (i < 0 || !(scale > 0.0f)) return;
  if (scale > 1.0f) scale = 1.0f;
  c->max_speed[i] = c->base_speed[i] * scale;
}

/* ---- save and load ------------------------------------------------------- */

/* The per-agent state a save holds, in this order: everything a step reads
** from the last one. The rest is derived (corners, cells) or scratch. */
#define SAVE_MAGIC 0x44575243u /* "CRWD" */
#define SAVE_VERSION 1u

typedef struct saved_column {
  size_t off;             /* of the pointer in td_crowd */
  uint8_t kind;           /* 'f': float, 'i': int32, 'u': uint32, 'b': byte, 'q': uint64 */
} saved_column;

#define COL(field, kind) {offsetof(td_crowd, field), kind}
static const saved_column saved[] = {
  COL(x, 'f'),         COL(y, 'f'),          COL(vx, 'f'),        COL(vy, 'f'),
  COL(speed, 'f'),     COL(radius, 'f'),     COL(max_speed, 'f'), COL(base_speed, 'f'),
  COL(dv, 'f'),        COL(lane, 'f'),       COL(slot, 'f'),      COL(travelled, 'f'),
  COL(prog, 'f'),      COL(prog_a, 'f'),     COL(prog_b, 'f'),    COL(look, 'f'),
  COL(coh, 'f'),       COL(turn_cos, 'f'),   COL(turn_sin, 'f'),  COL(group, 'i'),
  COL(from, 'i'),      COL(to, 'i'),         COL(inv_with, 'i'),  COL(state, 'b'),
  COL(hold, 'b'),      COL(gen, 'u'),        COL(spawn_tick, 'q'),  COL(turn_at, 'f'),
  COL(m_vx, 'f'),      COL(m_vy, 'f'),       COL(m_turn, 'f'),    COL(m_sharp, 'i'),
  COL(m_flips, 'b'),
};
#undef COL

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
}

/* Most a loaded crowd may hold: sizes and speeds in map units (a tile is
** tens of units). Beyond these, or with a box that is not the graph's
** widened a bounded amount (agents added off the graph widen it), a step
** would overflow its grid or take minutes (found by fuzzing saves). */
#define LOAD_MAX_SIZE 1e5f
#define LOAD_MAX_SPEED 1e5f

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
    if (c->group[i] < 0 || (size_t)c->group[i] >= c->g_cap)
      return td_err_set(err, "crowd: bad agent %zu: group %d", i, (int)c->group[i]);
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

int td_crowd_load(td_crowd *c, td_blob_reader *r, td_err *err) {
  if (td_blob_get_u32(r) != SAVE_MAGIC || r->failed)
    return td_err_set(err, "crowd: not a crowd save at byte %zu", r->pos);
  if (td_blob_get_u32(r) != SAVE_VERSION) return td_err_set(err, "crowd: unknown version");
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
  if (used + 1 > n->cap && grow_agents(n, used + 1) != 0) {
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
    for (size_t i = 0; i < used; i++) switch (saved[k].kind) {
      case 'f': ((float *)p)[i] = td_blob_get_f32(r); break;
      case 'i': ((int32_t *)p)[i] = td_blob_get_i32(r); break;
      case 'u': ((uint32_t *)p)[i] = td_blob_get_u32(r); break;
      case 'b': ((uint8_t *)p)[i] = td_blob_get_u8(r); break;
      default: ((uint64_t *)p)[i] = td_blob_get_u64(r); break;
      }
  }
  uint64_t free_len = td_blob_get_u64(r);
  if (!r->failed && free_len <= used) {
    n->free_len = free_len;
    for (size_t k = 0; k < free_len; k++) n->free_list[k] = td_blob_get_u32(r);
  } else {
    r->failed = true;
  }
  uint64_t g_cap = td_blob_get_u64(r);
  if (!r->failed && g_cap > 0 && (g_cap > ((uint64_t)1 << 31) || g_cap * 12 > r->len - r->pos))
    r->failed = true;
  if (!r->failed && g_cap > 0 && ensure_group(n, (int32_t)(g_cap - 1)) != 0) {
    td_crowd_destroy(n);
    return td_err_set(err, "crowd: out of memory");
  }
  for (size_t g = 0; !r->failed && g < g_cap; g++) {
    n->g_sum[g] = td_blob_get_f64(r);
    n->g_n[g] = td_blob_get_i32(r);
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
  if (r->failed) {
    td_crowd_destroy(n);
    return td_err_set(err, "crowd: truncated at byte %zu", r->len);
  }
  if (check_loaded(n, live, gbox, err) != 0) {
    td_crowd_destroy(n);
    return -1;
  }
  for (size_t i = 0; i < used; i++) n->ktab[i] = KC_NONE;
  find_corners(n);
  n->cell = 0.0f; /* the grid is laid out again from the same inputs */
  /* swap the contents: the caller's pointer stays valid */
  td_crowd tmp = *c;
  *c = *n;
  *n = tmp;
  td_crowd_destroy(n);
  return 0;
}
