/*
** crowd.c: lanes, flocking and flyers (see crowd.h for the model).
**
** Design note.
** A tick without neighbours (separation and metrics off) is one pass over
** the agents in slot order: free the slots of agents that finished last
** tick, steer (pure pursuit on the lane, cohesion, turn and acceleration
** limits), move, take next[] at waypoints, list the leaks. Four walkers in
** a row are steered at once (steer_walk4), then take their waypoints.
**
** A tick with neighbours:
**   1. in slot order: free the finished slots;
**   2. if the neighbour lists do not hold any more (some agent moved half
**      their skin since they were made, an agent came, the route changed):
**      sort the agents into a grid of cells and make them again (Verlet
**      lists: each agent's list holds every agent its tests can reach
**      before some agent has moved half the skin, see make_lists);
**   3. in slot order, the scans: each agent scans its list (the wave-mate
**      ahead to follow, slower agents to pass, the soft push, the pairs
**      close enough to overlap after the move), four walkers at a time in
**      the lanes of a vector where SIMD allows (see scan_four), into nb_res;
**      then, in slot order, each agent steers with what its scan found and
**      moves, four walkers at a time where SIMD allows (steer_walk4).
**      The scans read the others as they were at the start of the tick:
**      the positions and velocities are double-buffered (the steering
**      writes the next tick's, swapped after);
**   4. the overlapping pairs pushed apart (Jacobi: corrections from the
**      positions before each iteration, until nothing overlaps), over the
**      close pairs the scan listed;
**   5. in slot order: waypoints and leaks, for the agents the steering
**      left at a segment's end or the projection moved; then the metrics.
** Without memory for the lists, the scan looks in the grid (sorted every
** tick), at the cells under a box that holds everything it tests: the same
** agents pass the same tests.
**
** Which agents interact depends on the agents only: not on the grid's
** layout, not on when the lists were made, not on the order of visits.
** Every test is exact (the grid, the lists and the four-at-a-time loose
** tests only choose what it looks at); every pass writes only its own
** agent's state and reads the others from the start of the tick (or from
** the last tick: the formation's group means); and what sums over
** neighbours does not depend on their order: the push and the projection's
** corrections are summed in fixed point, the follow cap and the pass shifts
** are maxima and minima. So the result depends only on the inputs: same
** binary and inputs, same bits, with or without memory, with or without
** SIMD.
**
** Corner geometry depends only on the segment (a, b) and the route: it is
** computed once per segment into a table, which a route update empties.
*/
#include "crowd/crowd.h"

#include "nav/blob.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* With SSE2 (every x86-64 has it) the loose tests of the neighbour scans
** and of the list build run on four candidates at once, the lists of four
** walkers are made at once (list_four: one candidate, four regions), and
** walkers are scanned (scan_four) and steered (steer_walk4) four at a time;
** elsewhere one at a time. The loose tests only choose what the exact ones
** look at; the rest are the scalar code's IEEE operations in the same
** order on four lanes. So both give the same bits (-DTD_CROWD_NO_SIMD
** builds the other way, to check that). */
#if defined(__SSE2__) && defined(__GNUC__) && !defined(TD_CROWD_NO_SIMD)
#include <emmintrin.h>
#define SIMD4 1
#else
#define SIMD4 0
#endif

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
#define PROJECT_ITERATIONS 64 /* at most; they stop when nothing overlaps */
#define KEY_BITS 24        /* two digits: a grid of at most 16M cells */
/* Neighbour lists (see make_lists): their skin, the margin beyond the widest
** test, in radii of the largest agent (it sets how often they are made and
** how long they are, never a result: -DSKIN_RADII=... to measure); and how
** many directions of travel a list covers before it takes a disc instead. */
#ifndef SKIN_RADII
#define SKIN_RADII 1.8f
#endif
#define MAX_DIRS 3
/* The lists of four consecutive slots 4m .. 4m + 3 are interleaved: entry
** k of slot 4m + l at nb[base + 4 k + l] (see make_lists). */
#define LIST_LANES 4
_Static_assert(LIST_LANES == 4, "scan_four and list_four take four lists in the lanes of a vector");
#define LIST_PAD ((size_t)(4 * LIST_LANES)) /* readable entries after the last list */
/* A grid cell's width, in `reach`es (see size_grid): wider cells make the
** table of cells that the sort clears and sums smaller (the list build
** then tests more candidates from fewer rows: about even). Only how many
** agents are looked at depends on it. */
#ifndef CELL_REACHES
#define CELL_REACHES 2.0f
#endif
/* The windows of following and passing (see walk_pair), in reaches (two
** agents' radii): a mate is followed up to FOLLOW_AHEAD ahead, a slower
** agent passed from PASS_AHEAD ahead (the shift fading in over the first
** PASS_FADE) until it is a reach behind. FOLLOW_AHEAD <= PASS_AHEAD. */
#define FOLLOW_AHEAD 3.0f
#define PASS_AHEAD 3.0f
#define PASS_FADE 1.0f
#define SPARE 8            /* elements after a column's last (see column_layout) */
/* Sums of pair forces are taken in fixed point, so that their order does
** not matter: a push (at most 1 per pair) in units of 2^-40. */
#define PUSH_ONE 0x1p40f
#define FIXED_MAX 0x1p41f  /* a term's bound: 2^20 agents never overflow a sum */

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

/* What an agent's scan of its neighbours found (by slot). */
typedef struct nbres {
  float follow;           /* speed cap behind a wave-mate ahead (INFINITY: none) */
  float shift;            /* lane shift to pass a slower agent ahead */
  float px, py;           /* soft separation push */
} nbres;

/* The cells of a query: columns x0 .. x1 of rows y0 .. y1, inclusive. */
typedef struct cellbox {
  int32_t x0, x1, y0, y1;
} cellbox;

/* The flyers' fan of rays (seed 003): a centre ray, then +-20, +-40 and
** +-60 degrees; cosines and sines are taken once, at creation. */
#define FAN_RAYS 7
static const float ray_angles[FAN_RAYS] = {0.0f, 0.349f, -0.349f, 0.698f, -0.698f, 1.047f, -1.047f};


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
  float *dirx, *diry;      /* a walker's direction of travel (its segment's) */
  int32_t *group, *from, *to, *inv_with;
  uint8_t *state;
  uint8_t *hold;           /* a stunned flyer: hovers (walkers use STUNNED) */
  uint32_t *gen;
  uint32_t *ktab;          /* index of the agent's corner in kc (KC_NONE: kc_spare) */
  uint64_t *spawn_tick;
  uint32_t *free_list;
  size_t free_len;
  float max_radius, max_speed_all;

  /* The grid: cells over the graph's bounding box (plus a border); agents
  ** outside it fall into the border cells. An agent's key is its cell, row
  ** * gw + column; the agents sorted by (key, slot) ("cell order") are
  ** order[0 .. n_grid), and the columns prefixed s_ are indexed the same
  ** way, not by slot. Queries look at the cells under a box that holds
  ** everything they test, so the layout changes how many agents are looked
  ** at, never which ones interact. */
  double bx0, by0, bx1, by1; /* the graph's bounding box */
  float gx0, gy0, cell, inv_cell;
  float reach;             /* the widest symmetric interaction (metrics' min_gap) */
  float ray_cos[FAN_RAYS], ray_sin[FAN_RAYS];
  int32_t gw, gh;
  size_t n_grid;
  uint64_t grid_tick;      /* the tick whose start it was sorted at (UINT64_MAX: none) */
  int32_t *order;          /* cell order -> slot */
  uint32_t *s_key;         /* cell order -> key */
  float *s_x, *s_y;        /* cell order -> position when sorted */
  uint32_t *rk_key;        /* radix sort scratch */
  int32_t *rk_slot;
  int32_t *cell_of;        /* slot -> key (-1: not in the grid) */
  bool dense;              /* a table of every cell (else binary searches) */
  int32_t *cell_tab;       /* dense: cell q holds order[tab[q] .. tab[q + 1]) */
  size_t tab_slots;
  int32_t hist[2][RADIX];  /* sparse: counts of each digit of the keys */

  /* Neighbour lists (Verlet lists, see make_lists): agent i's are
  ** nb[nb_beg[i] + LIST_LANES k] for k < nb_cnt[i], every agent that could
  ** pass one of its tests while no agent has moved more than half the skin
  ** from where it stood then (x0, y0). */
  float *x0, *y0;
  uint8_t *wp;             /* the waypoint pass visits it (see td_crowd_step); else 0 */
  int32_t *nb_beg, *nb_cnt;
  int32_t *nb;
  size_t nb_cap, nb_len;    /* nb_len: entries in all the lists */
  bool nb_ok;              /* the lists are made and every tick since kept count */
  bool nb_stale;           /* an agent came or the route changed since */
  float skin;
  float disp;              /* bound on any agent's distance from (x0, y0) */
  uint64_t nb_made;        /* how many times they were made (statistics) */

  float *xn, *yn, *vxn, *vyn; /* the steering pass with neighbours writes here (see moves) */
  nbres *nb_res;           /* what each agent's scan found, for the steering pass */
  float *s_cxy;            /* projection: corrections, by visit */
  int32_t *pl_end;         /* close pairs of active agent a: pl[pl_end[a-1] .. pl_end[a]) */
  int32_t *active;         /* agents (slots) with a close pair, in slot order */
  size_t n_active;
  int32_t *pl;             /* slots */
  size_t pl_len, pl_cap;
  bool pl_ok;              /* every close pair is listed this tick */
  float pl_reach2;         /* pairs closer than this (squared) are close */
  float pl_slack;          /* listed reach minus the largest overlap distance */
  float moved;             /* largest move of this tick (|dx| + |dy|) */

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

/* A term of a fixed-point sum: v truncated, within +-FIXED_MAX (NAN: 0). A
** sane crowd's terms are within +-2^40; a crowd loaded from a crafted save
** (agents 1e30 apart) stays defined. */
static inline int64_t fixed(float v) {
  return v > -FIXED_MAX && v < FIXED_MAX ? (int64_t)v
         : v >= FIXED_MAX                ? (int64_t)FIXED_MAX
         : v <= -FIXED_MAX               ? -(int64_t)FIXED_MAX
                                         : 0;
}

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

#define MAX_COLUMNS 64

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
    {(void **)&c->s_x, sizeof(float)},       {(void **)&c->s_y, sizeof(float)},
    {(void **)&c->xn, sizeof(float)},        {(void **)&c->yn, sizeof(float)},
    {(void **)&c->vxn, sizeof(float)},       {(void **)&c->vyn, sizeof(float)},
    {(void **)&c->nb_res, sizeof(nbres)},
    {(void **)&c->s_cxy, 2 * sizeof(float)},
    {(void **)&c->dirx, sizeof(float)},      {(void **)&c->diry, sizeof(float)},
    {(void **)&c->x0, sizeof(float)},        {(void **)&c->y0, sizeof(float)},
    {(void **)&c->wp, sizeof(uint8_t)},
    {(void **)&c->nb_beg, sizeof(int32_t)},  {(void **)&c->nb_cnt, sizeof(int32_t)},
    {(void **)&c->pl_end, sizeof(int32_t)},  {(void **)&c->active, sizeof(int32_t)},
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
** pass ran five times slower. Each column has SPARE elements after the
** last (zeros or stale values): the neighbour scans read four at a time. */
static size_t column_layout(const column *cols, size_t n, size_t ncap, size_t *offs) {
  size_t pos = 0;
  for (size_t k = 0; k < n; k++) {
    pos = (pos + 4095) / 4096 * 4096 + (192 * k) % 4096;
    offs[k] = pos;
    pos += (ncap + SPARE) * cols[k].elem;
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
  for (int a = 0; a < FAN_RAYS; a++) {
    c->ray_cos[a] = cosf(ray_angles[a]);
    c->ray_sin[a] = sinf(ray_angles[a]);
  }
  c->m.min_gap = (double)INFINITY;
  /* the grid covers the graph with a border (see size_grid) */
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
  c->grid_tick = UINT64_MAX;
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
  td_mem_free(c->nb, c->nb_cap * sizeof *c->nb);
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
    /* one slot to spare (and the columns' SPARE elements after it) */
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
    c->dirx[i] = 1.0f;
    c->diry[i] = 0.0f;
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
    c->dirx[i] = dx;
    c->diry[i] = dy;
    if (c->state[i] == TD_AGENT_WALK) enter_segment(c, i, take_segment(c, i), 0.0f);
  }
  /* The grid covers the graph's box and the agents: a formation spawned
  ** behind its spawn point can reach far outside the map, and agents
  ** crowded into the border cells would be compared with each other. */
  double ax = (double)c->x[i], ay = (double)c->y[i], pad = 4.0 * (double)d->radius;
  if (ax - pad < c->bx0 || ax + pad > c->bx1 || ay - pad < c->by0 || ay + pad > c->by1) {
    c->bx0 = ax - pad < c->bx0 ? ax - pad : c->bx0;
    c->bx1 = ax + pad > c->bx1 ? ax + pad : c->bx1;
    c->by0 = ay - pad < c->by0 ? ay - pad : c->by0;
    c->by1 = ay + pad > c->by1 ? ay + pad : c->by1;
    c->cell = 0.0f; /* size_grid() lays the grid out again at the next step */
  }
  c->live++;
  c->nb_stale = true; /* the neighbour lists are made again at the next step */
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
  const corner *k = corner_at(c, i);
  c->dirx[i] = k->dx;
  c->diry[i] = k->dy;
  return k;
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
  c->nb_stale = true; /* next[] moved: the lists' directions of travel too */
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

/* Lays the grid out for the widest symmetric interaction of a tick (two
** agents' reach plus what both can move: `reach`; cells CELL_REACHES of
** it wide) over the graph's box and a border; coarser when there would be
** more than 2^KEY_BITS cells (a huge map). Queries cover any box (cell_box), so the layout
** changes which agents are looked at, never which interact. */
static void size_grid(td_crowd *c) {
  float reach = 2.0f * c->max_radius * 1.5f + 2.0f * c->max_speed_all * c->dt + c->p.margin;
  if (!(reach > 0.0f)) reach = 1.0f;
  if (reach == c->reach && c->cell > 0.0f) return;
  c->reach = reach;
  /* a border for lanes, miters and detours just outside the graph; agents
  ** beyond it share the edge cells */
  double border = 0.02 * (c->bx1 - c->bx0 + c->by1 - c->by0) + 8.0;
  c->gx0 = (float)(c->bx0 - border);
  c->gy0 = (float)(c->by0 - border);
  float w = (float)(c->bx1 - c->bx0 + 2 * border), h = (float)(c->by1 - c->by0 + 2 * border);
  float cell = reach * CELL_REACHES;
  for (;;) {
    float fw = w / cell, fh = h / cell;
    if (fw < 4194304.0f && fh < 4194304.0f &&
        ((double)fw + 1.0) * ((double)fh + 1.0) <= (double)(1u << KEY_BITS)) {
      c->gw = (int32_t)fw + 1;
      c->gh = (int32_t)fh + 1;
      break;
    }
    cell *= 1.5f;
  }
  c->cell = cell;
  c->inv_cell = 1.0f / cell;
}

/* The column and row of the cell holding (x, y), clamped to the grid
** (below 0, truncation and floor both give 0): monotone in x and y. */
static inline int32_t cell_col(const td_crowd *c, float x) {
  float f = (x - c->gx0) * c->inv_cell;
  return f >= 0.0f ? (f < (float)c->gw ? (int32_t)f : c->gw - 1) : 0;
}

static inline int32_t cell_row(const td_crowd *c, float y) {
  float f = (y - c->gy0) * c->inv_cell;
  return f >= 0.0f ? (f < (float)c->gh ? (int32_t)f : c->gh - 1) : 0;
}

static inline uint32_t cell_key(const td_crowd *c, float x, float y) {
  return (uint32_t)cell_row(c, y) * (uint32_t)c->gw + (uint32_t)cell_col(c, x);
}

/* The cells under [x0, x1] x [y0, y1]: an agent inside the box is in one. */
static inline cellbox cell_box(const td_crowd *c, float x0, float y0, float x1, float y1) {
  return (cellbox){cell_col(c, x0), cell_col(c, x1), cell_row(c, y0), cell_row(c, y1)};
}

/* The first position of the cell order whose key is at least `key`. */
static inline int32_t key_bound(const td_crowd *c, uint32_t key) {
  if (c->dense) return c->cell_tab[key];
  int32_t lo = 0, hi = (int32_t)c->n_grid;
  while (lo < hi) {
    int32_t mid = lo + (hi - lo) / 2;
    if (c->s_key[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* The agents of row `row` of box b: order[*lo .. *hi). */
static inline void row_run(const td_crowd *c, const cellbox *b, int32_t row, int32_t *lo,
                           int32_t *hi) {
  uint32_t base = (uint32_t)row * (uint32_t)c->gw;
  *lo = key_bound(c, base + (uint32_t)b->x0);
  *hi = key_bound(c, base + (uint32_t)b->x1 + 1);
}

/* Dense or sparse. A table of every cell makes the sort one pass and a
** row of a query two loads, but costs a pass over the cells: worth it while
** there are not many more cells than agents. Without the memory for it,
** binary searches of the keys work as well. Both find the same agents in
** the same order, so the choice changes no result. */
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

/* Sorts the agents that are not FREE by cell, as they stand now: the cell
** order by (key, slot), a stable counting sort over the table of cells
** (dense) or a radix sort of one or two digits of the keys (sparse), and
** the positions copied into that order. */
static void grid_sort(td_crowd *c) {
  choose_sort(c);
  size_t n = 0, cells = (size_t)c->gw * (size_t)c->gh;
  int32_t *tab = c->cell_tab;
  if (c->dense) memset(tab, 0, (cells + 2) * sizeof *tab);
  else memset(c->hist, 0, sizeof c->hist);
  for (size_t i = 0; i < c->used; i++) {
    if (c->state[i] == TD_AGENT_FREE) {
      c->cell_of[i] = -1;
      continue;
    }
    uint32_t key = cell_key(c, c->x[i], c->y[i]);
    c->cell_of[i] = (int32_t)key;
    if (c->dense) {
      tab[key + 2]++;
    } else {
      c->hist[0][key & (RADIX - 1)]++;
      c->hist[1][key >> RADIX_BITS]++; /* < RADIX: keys have at most KEY_BITS */
    }
  }
  if (c->dense) {
    /* tab[q + 2] holds cell q's count: the running sum makes tab[q + 1]
    ** the start of cell q, which the fill advances to its end, the start
    ** of q + 1: then tab[q] is the start of q for every q <= cells */
    for (size_t q = 2; q <= cells + 1; q++) tab[q] += tab[q - 1];
    for (size_t i = 0; i < c->used; i++) {
      if (c->cell_of[i] < 0) continue;
      uint32_t key = (uint32_t)c->cell_of[i];
      int32_t pos = tab[key + 1]++;
      c->s_key[pos] = key;
      c->order[pos] = (int32_t)i;
    }
    n = (size_t)tab[cells];
  } else {
    int passes = cells > RADIX ? 2 : 1;
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
    for (size_t i = 0; i < c->used; i++) {
      if (c->cell_of[i] < 0) continue;
      uint32_t key = (uint32_t)c->cell_of[i];
      int32_t pos = c->hist[0][key & (RADIX - 1)]++;
      key1[pos] = key;
      slot1[pos] = (int32_t)i;
    }
    if (passes == 2)
      for (size_t q = 0; q < n; q++) {
        uint32_t key = c->rk_key[q];
        int32_t pos = c->hist[1][key >> RADIX_BITS]++;
        c->s_key[pos] = key;
        c->order[pos] = c->rk_slot[q];
      }
  }
  c->n_grid = n;
  for (size_t k = 0; k < n; k++) {
    size_t i = (size_t)c->order[k];
    c->s_x[k] = c->x[i];
    c->s_y[k] = c->y[i];
  }
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

_Static_assert(TD_AGENT_REMOVED == TD_AGENT_LEAKED + 1 && TD_AGENT_REMOVED < 128,
               "begin_tick finds the states at least TD_AGENT_LEAKED eight at a time");

/* Pass 1 (slot order), with `frees`: frees the slots of agents that
** finished last tick (without, the steering pass does). Then the groups'
** means of the last tick; the sums start again. */
static void begin_tick(td_crowd *c, bool frees) {
  c->leak_len = 0;
  if (frees)
    for (size_t i = 0; i < c->used; i += 8) { /* eight states at a time (SPARE after the last) */
      uint64_t st;
      memcpy(&st, c->state + i, sizeof st);
      /* a byte's high bit: the state is at least LEAKED (states are below 128) */
      if (!((st + 0x0101010101010101u * (128 - TD_AGENT_LEAKED)) & 0x8080808080808080u)) continue;
      for (size_t q = i; q < i + 8 && q < c->used; q++) free_finished(c, q);
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
/* Obstacle rc (x, y, w, h) grown by r on every side: x0 y0 x1 y1. */
static inline void grown(const float *rc, float r, float b[4]) {
  b[0] = rc[0] - r;
  b[1] = rc[1] - r;
  b[2] = rc[0] + rc[2] + r;
  b[3] = rc[1] + rc[3] + r;
}

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
static void fly_desire(const td_crowd *c, size_t i, float *wx, float *wy, float *gd) {
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

/* ---- neighbours ---------------------------------------------------------- */

/* The loose bounds of the tests of a tick: every exact test below passes
** them (two agents' reach is at most 2 max_radius). */
typedef struct bounds {
  float side, back, ahead; /* a walker's window: |side| < side, back < ahead <= ahead */
  float sep2;              /* the soft push: d2 <= sep2 (-1: no separation) */
  float pl2;               /* close pairs: d2 < pl2 (0: none) */
#if SIMD4
  __m128 v_side, v_back, v_ahead, v_sep2, v_pl2, v_noside; /* the same, four times; -1 */
#endif
} bounds;

static inline bounds bounds_of(const td_crowd *c) {
  float rr = 2.0f * c->max_radius, want = rr + c->p.margin + 0.2f * c->max_radius;
  bounds b = {.side = 1.31f * rr, .back = -1.01f * rr, .ahead = 1.01f * PASS_AHEAD * rr,
              .sep2 = c->p.separation ? want * want * 1.0001f : -1.0f, .pl2 = c->pl_reach2};
#if SIMD4
  b.v_side = _mm_set1_ps(b.side);
  b.v_back = _mm_set1_ps(b.back);
  b.v_ahead = _mm_set1_ps(b.ahead);
  b.v_sep2 = _mm_set1_ps(b.sep2);
  b.v_pl2 = _mm_set1_ps(b.pl2);
  b.v_noside = _mm_set1_ps(-1.0f);
#endif
  return b;
}

/* The shape of the regions of a tick, the same for every agent: a disc
** (d2 < rc2; none when rc2 <= 0) and a window along a direction (|ahead -
** mid| <= half, |side| < side); the half-widths of their boxes (with a
** margin for rounding); a disc that holds the window in every direction;
** and, with a skin, how far an agent gets before the lists are made again. */
typedef struct shape {
  float rc2, rcb;
  float mid, half, side, hb, sb;
  float all2, allb;
  float lim;
} shape;

/* Everything the tests of a tick can pass (see scan_pair), grown by `skin`
** on every side. */
static shape shape_of(const bounds *b, float skin) {
  shape h;
  float near2 = b->pl2 > b->sep2 ? b->pl2 : b->sep2;
  float rc = near2 > 0.0f ? sqrtf(near2) * 1.0001f + 1e-5f + skin : 0.0f;
  h.rc2 = near2 > 0.0f ? rc * rc : -1.0f;
  h.rcb = rc * 1.001f + 1e-4f;
  h.mid = 0.5f * (b->ahead + b->back);
  h.half = (0.5f * (b->ahead - b->back) + skin) * 1.0001f + 1e-5f;
  h.side = (b->side + skin) * 1.0001f + 1e-5f;
  h.hb = h.half * 1.001f + 1e-4f;
  h.sb = h.side * 1.001f + 1e-4f;
  float far = b->ahead > -b->back ? b->ahead : -b->back;
  float all = len2(far, b->side) * 1.0001f + 1e-5f + skin;
  all = all > rc ? all : rc;
  h.all2 = all * all;
  h.allb = all * 1.001f + 1e-4f;
  h.lim = 0.5f * skin * 1.01f + 1e-3f;
  return h;
}

/* The region of an agent at (x, y): the shape's disc (or the larger one)
** and its window along nd directions. */
typedef struct region {
  float x, y, rc2, rcb;
  int nd;
  float dx[MAX_DIRS], dy[MAX_DIRS];
} region;

#if !SIMD4 /* (with SIMD4, list_run tests four at a time) */
static inline bool region_has(const shape *h, const region *g, float rx, float ry) {
  bool in = rx * rx + ry * ry < g->rc2;
  for (int d = 0; d < g->nd; d++) {
    float a = rx * g->dx[d] + ry * g->dy[d] - h->mid, s = ry * g->dx[d] - rx * g->dy[d];
    in |= (fabsf(a) <= h->half) & (fabsf(s) < h->side);
  }
  return in;
}
#endif

/* The box over a region (x0, y0, x1, y1 in e): the disc's box and each
** window's. */
static HOT_INLINE void region_extent(const shape *h, const region *g, float e[4]) {
  float r = g->rc2 > 0.0f ? g->rcb : 0.0f;
  float x0 = g->x - r, x1 = g->x + r, y0 = g->y - r, y1 = g->y + r;
  for (int d = 0; d < g->nd; d++) {
    float ax = fabsf(g->dx[d]), ay = fabsf(g->dy[d]);
    float cx = g->x + g->dx[d] * h->mid, cy = g->y + g->dy[d] * h->mid;
    float ex = ax * h->hb + ay * h->sb, ey = ay * h->hb + ax * h->sb;
    x0 = cx - ex < x0 ? cx - ex : x0;
    x1 = cx + ex > x1 ? cx + ex : x1;
    y0 = cy - ey < y0 ? cy - ey : y0;
    y1 = cy + ey > y1 ? cy + ey : y1;
  }
  e[0] = x0;
  e[1] = y0;
  e[2] = x1;
  e[3] = y1;
}

/* The cells under a region. */
static HOT_INLINE cellbox region_box(const td_crowd *c, const shape *h, const region *g) {
  float e[4];
  region_extent(h, g, e);
  return cell_box(c, e[0], e[1], e[2], e[3]);
}

/* Agent i's region. With `ahead_too` (lists), the window covers every
** direction of travel the agent can take before it has moved h->lim: its
** segment's, and the next ones' while the bisector where it would take
** them (see waypoint_agent) is that near, for any agent on the ground
** (stunned and stranded ones may walk on); beyond MAX_DIRS, a disc holds
** them all. Without, a walker's window along its segment. */
static HOT_INLINE void agent_region(td_crowd *c, size_t i, const shape *h, bool ahead_too,
                                    region *g) {
  g->x = c->x[i];
  g->y = c->y[i];
  g->rc2 = h->rc2;
  g->rcb = h->rcb;
  g->nd = 0;
  for (int d = 0; d < MAX_DIRS; d++) g->dx[d] = g->dy[d] = 0.0f;
  uint8_t st = c->state[i];
  if (st != TD_AGENT_WALK && (!ahead_too || layer(st) != 0)) return;
  g->dx[0] = c->dirx[i];
  g->dy[0] = c->diry[i];
  g->nd = 1;
  if (!ahead_too) return;
  const corner *k = corner_at(c, i);
  if (k->last || (g->x - k->bx) * k->tx + (g->y - k->by) * k->ty < -h->lim) return;
  corner n = *k;
  for (;;) {
    if (g->nd == MAX_DIRS) {
      g->rc2 = h->all2;
      g->rcb = h->allb;
      g->nd = 0;
      return;
    }
    g->dx[g->nd] = n.d2x;
    g->dy[g->nd] = n.d2y;
    g->nd++;
    int32_t b2 = n.b;
    corner_fill(c, b2, c->next[b2], &n);
    if (n.last || (g->x - n.bx) * n.tx + (g->y - n.by) * n.ty < -h->lim) return;
  }
}

#if SIMD4
/* The lanes set in a mask of four, in order (then anything), and how many:
** a compaction without a branch. */
static const int8_t mask_lanes[16][4] = {
  {0, 0, 0, 0}, {0, 0, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}, {2, 0, 0, 0}, {0, 2, 0, 0},
  {1, 2, 0, 0}, {0, 1, 2, 0}, {3, 0, 0, 0}, {0, 3, 0, 0}, {1, 3, 0, 0}, {0, 1, 3, 0},
  {2, 3, 0, 0}, {0, 2, 3, 0}, {1, 2, 3, 0}, {0, 1, 2, 3}};
static const int8_t mask_count[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};

static inline __m128 abs4(__m128 v) {
  return _mm_and_ps(v, _mm_castsi128_ps(_mm_set1_epi32(0x7FFFFFFF)));
}
#endif

/* A region's tests, set up once per agent for list_run (with SIMD4, each
** number four times). */
typedef struct region_test {
#if SIMD4
  __m128 gx, gy, rc2, mid, half, side;
  __m128 dx[MAX_DIRS], dy[MAX_DIRS];
  __m128i self;
#else
  int unused;
#endif
} region_test;

static HOT_INLINE void region_test_of(const shape *h, const region *g, int32_t i,
                                      region_test *rt) {
#if SIMD4
  rt->gx = _mm_set1_ps(g->x);
  rt->gy = _mm_set1_ps(g->y);
  rt->rc2 = _mm_set1_ps(g->rc2);
  rt->mid = _mm_set1_ps(h->mid);
  rt->half = _mm_set1_ps(h->half);
  rt->side = _mm_set1_ps(h->side);
  for (int d = 0; d < g->nd; d++) {
    rt->dx[d] = _mm_set1_ps(g->dx[d]);
    rt->dy[d] = _mm_set1_ps(g->dy[d]);
  }
  rt->self = _mm_set1_epi32(i);
#else
  (void)h;
  (void)g;
  (void)i;
  rt->unused = 0;
#endif
}

/* Appends to nb (from np) the agents of the cell order [lo, hi) in region g
** (its tests rt), but agent i; returns the new end. nb has room for hi - lo
** + 4 more. */
static HOT_INLINE size_t list_run(const td_crowd *c, const shape *h, const region *g,
                                  const region_test *rt, int32_t i, int32_t lo, int32_t hi,
                                  int32_t *nb, size_t np) {
  const float *sx = c->s_x, *sy = c->s_y;
  const int32_t *order = c->order;
#if SIMD4
  /* four at a time: the columns have SPARE elements after the last */
  (void)h;
  (void)i;
  const int nd = g->nd;
  for (int32_t kk = lo; kk < hi; kk += 4) {
    __m128 rx = _mm_sub_ps(_mm_loadu_ps(sx + kk), rt->gx);
    __m128 ry = _mm_sub_ps(_mm_loadu_ps(sy + kk), rt->gy);
    __m128 in = _mm_cmplt_ps(_mm_add_ps(_mm_mul_ps(rx, rx), _mm_mul_ps(ry, ry)), rt->rc2);
    for (int d = 0; d < nd; d++) { /* most agents: one */
      __m128 a = _mm_sub_ps(_mm_add_ps(_mm_mul_ps(rx, rt->dx[d]), _mm_mul_ps(ry, rt->dy[d])),
                            rt->mid);
      __m128 s = _mm_sub_ps(_mm_mul_ps(ry, rt->dx[d]), _mm_mul_ps(rx, rt->dy[d]));
      in = _mm_or_ps(in, _mm_and_ps(_mm_cmple_ps(abs4(a), rt->half),
                                    _mm_cmplt_ps(abs4(s), rt->side)));
    }
    __m128i j4 = _mm_loadu_si128((const __m128i *)(const void *)(order + kk));
    unsigned m = (unsigned)_mm_movemask_ps(in) &
                 ~(unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(j4, rt->self)));
    int32_t left = hi - kk;
    m &= left >= 4 ? 15u : (1u << left) - 1u;
    const int8_t *ln = mask_lanes[m];
    nb[np] = order[kk + ln[0]];
    nb[np + 1] = order[kk + ln[1]];
    nb[np + 2] = order[kk + ln[2]];
    nb[np + 3] = order[kk + ln[3]];
    np += (size_t)mask_count[m];
  }
#else
  (void)rt;
  for (int32_t kk = lo; kk < hi; kk++) {
    int32_t j = order[kk];
    nb[np] = j;
    np += region_has(h, g, sx[kk] - g->x, sy[kk] - g->y) & (j != i);
  }
#endif
  return np;
}

/* Room in nb for `more` entries after np; -1 out of memory. */
static inline int nb_room(td_crowd *c, size_t np, size_t more) {
  size_t need = np + more;
  if (need > INT32_MAX) return -1;
  if (need > c->nb_cap) {
    int32_t *p = td_mem_grow(c->nb, &c->nb_cap, need, sizeof *p);
    if (!p) return -1;
    c->nb = p;
  }
  return 0;
}

/* Closes the interleaved lists of slots i .. i + n - 1 (i a multiple of
** LIST_LANES, n at most that), written from np with cnt[l] entries each:
** 0 (a slot that exists) past each list's end up to the longest, and
** their starts and counts. Returns the new end. */
static size_t close_four(td_crowd *c, size_t i, size_t n, size_t np, const size_t cnt[]) {
  size_t most = 0;
  for (size_t l = 0; l < n; l++) most = cnt[l] > most ? cnt[l] : most;
  for (size_t l = 0; l < LIST_LANES; l++)
    for (size_t k = l < n ? cnt[l] : 0; k < most; k++) c->nb[np + LIST_LANES * k + l] = 0;
  for (size_t l = 0; l < n; l++) {
    c->nb_beg[i + l] = (int32_t)(np + l);
    c->nb_cnt[i + l] = (int32_t)cnt[l];
  }
  return np + LIST_LANES * most;
}

/* The lists of slots i .. i + n - 1 (as for close_four), lane[l][0 ..
** cnt[l]), written to nb from np interleaved: entry k of slot i + l at np +
** LIST_LANES k + l. nb has room for LIST_LANES times the longest list, and
** lane[] lies after that. Returns the new end. */
static size_t interleave(td_crowd *c, size_t i, size_t n, size_t np, const int32_t *const lane[],
                         const size_t cnt[]) {
  for (size_t l = 0; l < n; l++)
    for (size_t k = 0; k < cnt[l]; k++) c->nb[np + LIST_LANES * k + l] = lane[l][k];
  return close_four(c, i, n, np, cnt);
}

/* Agent i's list, its region g: appended to nb from *np. Returns 0, or -1
** out of memory. */
static HOT_INLINE int list_agent(td_crowd *c, const shape *h, size_t i, const region *g,
                                 size_t *np) {
  cellbox box = region_box(c, h, g);
  region_test rt;
  region_test_of(h, g, (int32_t)i, &rt);
  for (int32_t row = box.y0; row <= box.y1; row++) {
    int32_t lo, hi;
    row_run(c, &box, row, &lo, &hi);
    if (nb_room(c, *np, (size_t)(hi - lo) + 4) != 0) return -1;
    *np = list_run(c, h, g, &rt, (int32_t)i, lo, hi, c->nb, *np);
  }
  return 0;
}

#if SIMD4
#define FOUR_ROWS 16 /* the rows of a box that list_four takes at most */

/* The lists of agents i .. i + 3, walkers whose regions g[] are a window
** along one direction and the tick's disc (the common case), made at once:
** each agent of the grid under the four boxes is tested against the four
** regions in the lanes of a vector (the same operations as list_run's on
** each lane), and appended to the lists of those whose region holds it.
** The boxes of agents in a row of a wave nearly coincide: the row runs are
** found once for four agents, and the loops run a quarter as often.
**
** Each list starts with the agents in its window without the skin (shape
** h0), then the rest. The ones in the window now are the ones likely to be
** there in the next few ticks, when scan_four does the follow test for
** every lane of a step in which any lane's candidate is in its window: so
** the four lists' window agents mostly meet in the first steps. In cell
** order they met in different steps, and there were about 2.5 such steps
** for four agents instead of about 1.
**
** Returns 1 when made, 0 when the boxes span too many rows (then nothing
** is written), -1 out of memory. */
static HOT_INLINE int list_four(td_crowd *c, const shape *h, const shape *h0, size_t i,
                                const region g[4], size_t *np) {
  /* the union of the four boxes, then its cells (cell_col and cell_row are
  ** monotone: the cells of the union are the union of the cells) */
  float e[4];
  region_extent(h, &g[0], e);
  for (int l = 1; l < 4; l++) {
    float b[4];
    region_extent(h, &g[l], b);
    e[0] = b[0] < e[0] ? b[0] : e[0];
    e[1] = b[1] < e[1] ? b[1] : e[1];
    e[2] = b[2] > e[2] ? b[2] : e[2];
    e[3] = b[3] > e[3] ? b[3] : e[3];
  }
  cellbox u = cell_box(c, e[0], e[1], e[2], e[3]);
  if (u.y1 - u.y0 >= FOUR_ROWS) return 0;
  int32_t lo[FOUR_ROWS], hi[FOUR_ROWS];
  int nr = u.y1 - u.y0 + 1;
  size_t total = 0;
  for (int r = 0; r < nr; r++) {
    row_run(c, &u, u.y0 + r, &lo[r], &hi[r]);
    total += (size_t)(hi[r] - lo[r]);
  }
  /* interleaved as they are found: lane l's window agents at np + 4 k + l,
  ** the others to rest[] (lane l's from l total), moved after them below */
  if (nb_room(c, *np, 8 * total + 8) != 0) return -1;
  int32_t *out = c->nb + *np, *rest = out + 4 * total + 4;
  const float *sx = c->s_x, *sy = c->s_y;
  const int32_t *order = c->order;
  const __m128 gx = _mm_setr_ps(g[0].x, g[1].x, g[2].x, g[3].x);
  const __m128 gy = _mm_setr_ps(g[0].y, g[1].y, g[2].y, g[3].y);
  const __m128 dx = _mm_setr_ps(g[0].dx[0], g[1].dx[0], g[2].dx[0], g[3].dx[0]);
  const __m128 dy = _mm_setr_ps(g[0].dy[0], g[1].dy[0], g[2].dy[0], g[3].dy[0]);
  const __m128 rc2 = _mm_set1_ps(h->rc2), mid = _mm_set1_ps(h->mid);
  const __m128 half = _mm_set1_ps(h->half), side = _mm_set1_ps(h->side);
  const __m128 half0 = _mm_set1_ps(h0->half), side0 = _mm_set1_ps(h0->side);
  const __m128i self = _mm_setr_epi32((int32_t)i, (int32_t)i + 1, (int32_t)i + 2, (int32_t)i + 3);
  size_t n0 = 0, n1 = 0, n2 = 0, n3 = 0, r0 = 0, r1 = total, r2 = 2 * total, r3 = 3 * total;
  for (int r = 0; r < nr; r++)
    for (int32_t k = lo[r]; k < hi[r]; k++) {
      __m128 rx = _mm_sub_ps(_mm_set1_ps(sx[k]), gx);
      __m128 ry = _mm_sub_ps(_mm_set1_ps(sy[k]), gy);
      __m128 in = _mm_cmplt_ps(_mm_add_ps(_mm_mul_ps(rx, rx), _mm_mul_ps(ry, ry)), rc2);
      __m128 a = _mm_sub_ps(_mm_add_ps(_mm_mul_ps(rx, dx), _mm_mul_ps(ry, dy)), mid);
      __m128 s = _mm_sub_ps(_mm_mul_ps(ry, dx), _mm_mul_ps(rx, dy));
      in = _mm_or_ps(in, _mm_and_ps(_mm_cmple_ps(abs4(a), half), _mm_cmplt_ps(abs4(s), side)));
      __m128 core = _mm_and_ps(_mm_cmple_ps(abs4(a), half0), _mm_cmplt_ps(abs4(s), side0));
      int32_t j = order[k];
      unsigned m = (unsigned)_mm_movemask_ps(in) &
                   ~(unsigned)_mm_movemask_ps(
                       _mm_castsi128_ps(_mm_cmpeq_epi32(_mm_set1_epi32(j), self)));
      unsigned mc = m & (unsigned)_mm_movemask_ps(core), mr = m & ~mc;
      out[4 * n0] = j; /* (written before the test: no branch) */
      out[4 * n1 + 1] = j;
      out[4 * n2 + 2] = j;
      out[4 * n3 + 3] = j;
      rest[r0] = j;
      rest[r1] = j;
      rest[r2] = j;
      rest[r3] = j;
      n0 += mc & 1u;
      n1 += (mc >> 1) & 1u;
      n2 += (mc >> 2) & 1u;
      n3 += mc >> 3;
      r0 += mr & 1u;
      r1 += (mr >> 1) & 1u;
      r2 += (mr >> 2) & 1u;
      r3 += mr >> 3;
    }
  /* the rest after the window's agents */
  const size_t nw[4] = {n0, n1, n2, n3}, nr4[4] = {r0, r1 - total, r2 - 2 * total, r3 - 3 * total};
  for (size_t l = 0; l < 4; l++)
    for (size_t q = 0; q < nr4[l]; q++) out[4 * (nw[l] + q) + l] = rest[l * total + q];
  const size_t cnt[4] = {n0 + nr4[0], n1 + nr4[1], n2 + nr4[2], n3 + nr4[3]};
  *np = close_four(c, i, 4, *np, cnt);
  return 1;
}
#endif

/* Makes the neighbour lists (Verlet lists): for each agent, every agent in
** its region grown by the skin (agent_region), from the grid as sorted
** now. While no agent has moved more than half the skin since, the region
** holds every agent that can pass one of its tests: the lists replace the
** grid, and the grid is sorted only when they are made again. The lists
** hold slots, in an order that changes no result (sums over them do not
** depend on it), only speed (see list_four); the lists of four
** consecutive slots are interleaved (LIST_LANES), so that scan_four reads
** one entry of each with one load, and 16 readable slots follow the last.
** Four agents in a row whose regions have one direction are listed at once
** where SIMD allows (list_four). Returns 0, or -1 out of memory (no lists: the scan uses the
** grid). */
static int make_lists(td_crowd *c) {
  size_t np = 0;
  bounds b = bounds_of(c);
  shape h = shape_of(&b, c->skin);
#if SIMD4
  shape h0 = shape_of(&b, 0.0f); /* without the skin (see list_four) */
#endif
  c->nb_ok = false;
  for (size_t i = 0; i < c->used;) {
    region g[4];
    size_t n = c->used - i < 4 ? c->used - i : 4;
    bool four = SIMD4 && n == 4;
    for (size_t l = 0; l < n; l++) {
      size_t q = i + l;
      c->nb_beg[q] = (int32_t)np;
      c->nb_cnt[q] = 0;
      if (c->state[q] == TD_AGENT_FREE) {
        g[l].nd = -1;
        four = false;
        continue;
      }
      c->x0[q] = c->x[q];
      c->y0[q] = c->y[q];
      agent_region(c, q, &h, true, &g[l]);
      four &= g[l].nd == 1 && g[l].rc2 == h.rc2;
    }
#if SIMD4
    if (four) {
      int got = list_four(c, &h, &h0, i, g, &np);
      if (got < 0) return -1;
      if (got > 0) {
        i += 4;
        continue;
      }
    }
#endif
    /* one at a time, one after the other; then moved up past the room
    ** of their interleaving (at most four times the longest: the sum) */
    size_t at = np, cnt[4] = {0, 0, 0, 0}, most = 0;
    for (size_t l = 0; l < n; l++) {
      size_t q = i + l, from = at;
      if (g[l].nd >= 0 && list_agent(c, &h, q, &g[l], &at) != 0) return -1;
      cnt[l] = at - from;
      most = cnt[l] > most ? cnt[l] : most;
    }
    size_t sum = at - np;
    const int32_t *lane[4] = {NULL, NULL, NULL, NULL};
    if (sum > 0) { /* (else nb may not exist yet) */
      if (nb_room(c, np, LIST_LANES * most + sum) != 0) return -1;
      int32_t *moved = c->nb + np + LIST_LANES * most;
      memmove(moved, c->nb + np, sum * sizeof *moved);
      for (size_t l = 0, off = 0; l < 4; off += cnt[l++]) lane[l] = moved + off;
    }
    np = interleave(c, i, n, np, lane, cnt);
    i += n;
  }
  /* scan_list reads four entries of a list at a time */
  if (nb_room(c, np, LIST_PAD) != 0) return -1;
  memset(c->nb + np, 0, LIST_PAD * sizeof *c->nb); /* slot 0 exists: there are agents */
  c->nb_len = np;
  c->nb_ok = true;
  c->nb_stale = false;
  c->disp = 0.0f;
  c->nb_made++;
  return 0;
}

/* Where a walker is on the route, as it stands (the start of the tick): the
** route from its segment's end to a goal, and what it has left of its
** segment (projected on it). Ordered by the first, then the second, then
** the slot (further), it is a strict total order of the walkers: agents on
** a later segment come first, agents on one segment in the order they
** walk it. */
typedef struct route_pos {
  float left, rest;
} route_pos;

static route_pos route_of(const corner *k, float x, float y) {
  return (route_pos){k->left, k->len - ((x - k->ax) * k->dx + (y - k->ay) * k->dy)};
}

/* Without the corner table (out of memory), the corner is computed. */
static route_pos route_uncached(const td_crowd *c, size_t i) {
  corner k;
  corner_fill(c, c->from[i], c->to[i], &k);
  return route_of(&k, c->x[i], c->y[i]);
}

static inline route_pos route_at(const td_crowd *c, size_t i) {
  uint32_t q = c->ktab[i];
  return q != KC_NONE ? route_of(&c->kc[q], c->x[i], c->y[i]) : route_uncached(c, i);
}

/* Whether walker j (at pj) is further along the route than walker i. */
static inline bool further(route_pos pj, int32_t j, route_pos pi, int32_t i) {
  return pj.left < pi.left ||
         (pj.left == pi.left && (pj.rest < pi.rest || (pj.rest == pi.rest && j < i)));
}

/* An agent's scan of its neighbours, in locals. */
typedef struct scan {
  float xi, yi, ri, dx, dy, ms9, margin;
  int32_t group, from, to, self;
  route_pos at;           /* where a walker is on the route, once at_known */
  bool at_known;
  int layer;
  bool walk;
  float pl2;              /* close pairs: d2 < pl2 go to pl (0: none listed) */
  int32_t *pl;
  size_t np;
  float follow;           /* the speed cap of following */
  float left, right;      /* the largest shifts to the left and to the right that passing asks */
  int64_t px, py;         /* the push, in units of 1 / PUSH_ONE */
} scan;

/* The layer of an agent as the scan sees it: the steering pass that runs
** with it marks flyers that arrive LEAKED, and every agent sees them as
** they were at the start of the tick (no agent was LEAKED then: the slots
** of last tick's were freed). */
static inline int scan_layer(uint8_t s) { return s == TD_AGENT_LEAKED ? 1 : layer(s); }

/* Walker s meets agent j at (ahead, side) in the walker's frame: a
** wave-mate of the same kind ahead in the way is followed (our speed capped
** so the gap does not close), anyone slower by nature (another kind, or a
** stunned one) is passed: our lane shifts aside. Each slower agent asks
** for a shift to one side; the lane takes the largest to the left plus the
** largest to the right (a max, so the order of visits does not matter).
** Taking the one nearest ahead instead made a walker behind two slower
** agents abreast switch between them from tick to tick, and zig-zag. */
static HOT_INLINE void walk_pair(const td_crowd *c, scan *s, int32_t j, float ahead, float side) {
  uint8_t sj = c->state[j];
  if (sj != TD_AGENT_WALK && sj != TD_AGENT_STUNNED) return;
  float reach = s->ri + c->radius[j];
  /* outside the window of passing, which holds the one of following */
  if (ahead <= -reach || ahead > PASS_AHEAD * reach || fabsf(side) >= 1.3f * reach) return;
  float vxj = c->vx[j], vyj = c->vy[j];
  float vj = vxj * s->dx + vyj * s->dy;
  /* A mate is followed when it travels our way, moves away from us, or
  ** walks the segment after ours (it turned the corner ahead of us; passed,
  ** it made its followers zig-zag through every corner), and it is further
  ** along the route than we are (see further). The last makes following an
  ** order: at a sharp corner, two agents each ahead of the other in its own
  ** direction of travel followed each other and both stopped for good. One
  ** meeting us head-on or across a junction is passed instead. */
  bool mate = c->group[j] == s->group && sj == TD_AGENT_WALK && c->max_speed[j] >= s->ms9;
  if (mate && (c->from[j] != s->from || c->to[j] != s->to)) {
    /* on another segment: also further along the route (on ours, the
    ** follow window's ahead > 0 orders them: it is antisymmetric) */
    mate = (c->dirx[j] * s->dx + c->diry[j] * s->dy > 0.5f ||
            vj * ahead + (vxj * -s->dy + vyj * s->dx) * side > 0.0f ||
            (c->from[j] == s->to && c->to[j] != s->from));
    if (mate && !s->at_known) {
      s->at = route_at(c, (size_t)s->self);
      s->at_known = true;
    }
    mate = mate && further(route_at(c, (size_t)j), j, s->at, s->self);
  }
  if (mate) {
    if (ahead <= 0.0f || ahead > FOLLOW_AHEAD * reach || fabsf(side) >= reach) return;
    /* close at most to 1.25 reach, at the speed that gets there in 1/4 s */
    float cap = vj + (ahead - 1.25f * reach) * 4.0f;
    if (cap < s->follow) s->follow = cap < 0.0f ? 0.0f : cap;
    return;
  }
  /* pass: from PASS_AHEAD reach before until it is a reach behind us; the
  ** shift fades in over the first PASS_FADE and out over the last half, and
  ** goes to 0 at the sides of the window (|side| = 1.3 reach): a neighbour
  ** that enters or leaves the window moves our lane smoothly, with no step
  ** that the steering would chase back and forth */
  if (vj > s->ms9) return; /* not slower: no need to pass */
  float fade = ahead > (PASS_AHEAD - PASS_FADE) * reach
                   ? (PASS_AHEAD * reach - ahead) / (PASS_FADE * reach)
               : ahead < -0.5f * reach ? (ahead + reach) / (0.5f * reach)
                                       : 1.0f;
  /* pass on the side we already lean to (ties: the left) */
  float want = fade * (side > 0.0f ? -(1.3f * reach - side) : 1.3f * reach + side);
  if (want > s->left) s->left = want;
  if (want < s->right) s->right = want;
}

/* Agent s meets agent j (not itself): the close pair is listed, a walker
** follows or passes, the soft push. Each exact test first rejects on a
** bound that is looser (bounds_of), which changes no result. pl has room
** for one more (the store comes before the test: no branch). */
static HOT_INLINE void scan_hit(const td_crowd *c, scan *s, const bounds *b, int32_t j, float rx,
                                float ry, float d2, float ahead, float side) {
  s->pl[s->np] = j;
  s->np += d2 < s->pl2;
  if (s->walk && fabsf(side) < b->side && ahead > b->back && ahead <= b->ahead)
    walk_pair(c, s, j, ahead, side);
  if (d2 <= b->sep2) { /* soft separation: keep a margin within the layer */
    if (scan_layer(c->state[j]) != s->layer) return;
    float ux = -rx, uy = -ry, d = len2(ux, uy); /* from the neighbour to us */
    float want = s->ri + c->radius[j] + s->margin + 0.2f * s->ri;
    if (d >= want || d < 1e-6f) return;
    float push = (want - d) / want;
    s->px += fixed(ux / d * push * PUSH_ONE);
    s->py += fixed(uy / d * push * PUSH_ONE);
  }
}

static HOT_INLINE void scan_pair(const td_crowd *c, scan *s, const bounds *b, int32_t j) {
  float rx = c->x[j] - s->xi, ry = c->y[j] - s->yi;
  scan_hit(c, s, b, j, rx, ry, rx * rx + ry * ry, rx * s->dx + ry * s->dy,
           rx * -s->dy + ry * s->dx);
}

/* Agent s meets the agents of its list nb[LIST_LANES k], k < cnt (readable
** up to the next multiple of four). With SIMD4, the loose tests of
** scan_pair run four at a time first, and only the agents that pass one go
** to scan_pair. */
static HOT_INLINE void scan_list(const td_crowd *c, scan *s, const bounds *b, const int32_t *nb,
                                 int32_t cnt) {
#if SIMD4
  const float *x = c->x, *y = c->y;
  const __m128 xi = _mm_set1_ps(s->xi), yi = _mm_set1_ps(s->yi);
  const __m128 dx = _mm_set1_ps(s->dx), dy = _mm_set1_ps(s->dy), ndy = _mm_set1_ps(-s->dy);
  const __m128 side = s->walk ? b->v_side : b->v_noside, back = b->v_back, ahead = b->v_ahead;
  const __m128 sep2 = b->v_sep2, pl2 = s->pl2 > 0.0f ? b->v_pl2 : b->v_noside;
  for (int32_t q = 0; q < cnt; q += 4) {
    const int32_t *e = nb + (ptrdiff_t)q * LIST_LANES;
    int32_t j0 = e[0], j1 = e[LIST_LANES], j2 = e[(ptrdiff_t)2 * LIST_LANES],
            j3 = e[(ptrdiff_t)3 * LIST_LANES];
    __m128 rx = _mm_sub_ps(_mm_setr_ps(x[j0], x[j1], x[j2], x[j3]), xi);
    __m128 ry = _mm_sub_ps(_mm_setr_ps(y[j0], y[j1], y[j2], y[j3]), yi);
    __m128 d2 = _mm_add_ps(_mm_mul_ps(rx, rx), _mm_mul_ps(ry, ry));
    __m128 a = _mm_add_ps(_mm_mul_ps(rx, dx), _mm_mul_ps(ry, dy));
    __m128 sd = _mm_add_ps(_mm_mul_ps(rx, ndy), _mm_mul_ps(ry, dx));
    __m128 win = _mm_and_ps(_mm_cmplt_ps(abs4(sd), side),
                            _mm_and_ps(_mm_cmpgt_ps(a, back), _mm_cmple_ps(a, ahead)));
    __m128 in = _mm_or_ps(win, _mm_or_ps(_mm_cmple_ps(d2, sep2), _mm_cmplt_ps(d2, pl2)));
    unsigned m = (unsigned)_mm_movemask_ps(in);
    int32_t left = cnt - q;
    m &= left >= 4 ? 15u : (1u << left) - 1u;
    if (!m) continue;
    float lx[4], ly[4], ld[4], la[4], ls[4]; /* the same values scan_pair computes */
    _mm_storeu_ps(lx, rx);
    _mm_storeu_ps(ly, ry);
    _mm_storeu_ps(ld, d2);
    _mm_storeu_ps(la, a);
    _mm_storeu_ps(ls, sd);
    do {
      int l = __builtin_ctz(m);
      scan_hit(c, s, b, e[(ptrdiff_t)l * LIST_LANES], lx[l], ly[l], ld[l], la[l], ls[l]);
      m &= m - 1;
    } while (m);
  }
#else
  for (int32_t q = 0; q < cnt; q++) scan_pair(c, s, b, nb[(ptrdiff_t)q * LIST_LANES]);
#endif
}

/* Room in the close-pair list for `more` pairs and the branchless store;
** out of memory, the listing stops for the tick (the projection then looks
** elsewhere: see project). */
static inline void pl_room(td_crowd *c, scan *s, size_t more, int32_t *sink) {
  if (s->pl2 <= 0.0f || s->np + more + 1 <= c->pl_cap) return;
  int32_t *p = td_mem_grow(c->pl, &c->pl_cap, s->np + more + 1, sizeof *p);
  if (p) {
    c->pl = s->pl = p;
    return;
  }
  c->pl_ok = false;
  s->pl2 = 0.0f;
  s->pl = sink;
  s->np = 0;
}

/* The close pairs and the agents that have some, as the steering pass
** finds them (see scan_agent). */
typedef struct pairs {
  size_t np, na;
  int32_t sink[1];        /* where the listing writes when it stopped */
} pairs;

/* Agent i's scan of its neighbours: from its list (`lists`) or from the
** grid (the cells under its region: the same agents pass the tests); it
** reads every other agent as it was at the start of the tick. Its close
** pairs go to pl, and it to `active` if it has some. */
static HOT_INLINE nbres scan_agent(td_crowd *c, size_t i, const bounds *b, const shape *h,
                                   bool lists, pairs *pp) {
  uint8_t st = c->state[i];
  scan s;
  s.xi = c->x[i];
  s.yi = c->y[i];
  s.ri = c->radius[i];
  s.dx = c->dirx[i];
  s.dy = c->diry[i];
  s.ms9 = 0.9f * c->max_speed[i];
  s.margin = c->p.margin;
  s.group = c->group[i];
  s.from = c->from[i];
  s.self = (int32_t)i;
  s.to = c->to[i];
  s.layer = layer(st);
  s.walk = st == TD_AGENT_WALK;
  s.at = (route_pos){0.0f, 0.0f};
  s.at_known = false;
  s.follow = INFINITY;
  s.left = s.right = 0.0f;
  s.px = s.py = 0;
  s.pl2 = c->pl_ok ? b->pl2 : 0.0f;
  s.pl = c->pl_ok && c->pl ? c->pl : pp->sink;
  s.np = c->pl_ok ? pp->np : 0;
  if (lists) { /* pl has room for every list (see td_crowd_step) */
    scan_list(c, &s, b, c->nb + c->nb_beg[i], c->nb_cnt[i]);
  } else if (s.walk || b->sep2 > 0.0f || s.pl2 > 0.0f) {
    region g;
    agent_region(c, i, h, false, &g);
    cellbox box = region_box(c, h, &g);
    for (int32_t row = box.y0; row <= box.y1; row++) {
      int32_t lo, hi;
      row_run(c, &box, row, &lo, &hi);
      pl_room(c, &s, (size_t)(hi - lo), pp->sink);
      for (int32_t kk = lo; kk < hi; kk++) {
        int32_t j = c->order[kk];
        if (j != (int32_t)i) scan_pair(c, &s, b, j);
      }
    }
  }
  if (c->pl_ok && s.np > pp->np) {
    c->active[pp->na] = (int32_t)i;
    c->pl_end[pp->na++] = (int32_t)s.np;
    pp->np = s.np;
  }
  return (nbres){.follow = s.follow, .shift = s.left + s.right, .px = (float)s.px * (1.0f / PUSH_ONE),
                 .py = (float)s.py * (1.0f / PUSH_ONE)};
}

#if SIMD4
/* Four walkers' scans at once, slots i .. i + 3 (i a multiple of
** LIST_LANES) from their interleaved lists: lane l scans agent i + l, one
** candidate of each list a step. This is the common case only:
** candidates outside every test, and wave-mates on the same segment to
** follow. An agent that meets anything else (a close pair, a
** push, an agent to pass, a mate on another segment) is marked, and the
** caller scans it again with scan_agent, in slot order: the others list no
** close pairs, so the pairs keep their order. The vector steps are
** scan_list's and walk_pair's tests, term by term in the same order, so the
** follow caps have the same bits. Returns the mask of the agents marked;
** the others' results go to out[0 .. 4).
**
** One agent at a time, a scan is a chain of dependent loads, tests and
** arithmetic that the steering then waits on; four in the lanes of one
** vector take the time of about one. */
static HOT_INLINE unsigned scan_four(const td_crowd *c, size_t i, const bounds *b, nbres *out) {
  const float *x = c->x, *y = c->y;
  const __m128 xi = _mm_loadu_ps(x + i), yi = _mm_loadu_ps(y + i);
  const __m128 dx = _mm_loadu_ps(c->dirx + i), dy = _mm_loadu_ps(c->diry + i);
  const __m128 zero = _mm_setzero_ps(), ndy = _mm_sub_ps(zero, dy);
  const __m128 ri = _mm_loadu_ps(c->radius + i);
  const __m128 ms9 = _mm_mul_ps(_mm_set1_ps(0.9f), _mm_loadu_ps(c->max_speed + i));
  const __m128i grp = _mm_loadu_si128((const __m128i *)(const void *)(c->group + i));
  const __m128i from = _mm_loadu_si128((const __m128i *)(const void *)(c->from + i));
  const __m128i to = _mm_loadu_si128((const __m128i *)(const void *)(c->to + i));
  const __m128i walk = _mm_set1_epi32(TD_AGENT_WALK), stun = _mm_set1_epi32(TD_AGENT_STUNNED);
  const __m128 pl2 = c->pl_ok ? b->v_pl2 : b->v_noside;
  const __m128 three = _mm_set1_ps(3.0f), side13 = _mm_set1_ps(1.3f);
  const __m128 near = _mm_set1_ps(1.25f), four = _mm_set1_ps(4.0f);
  int32_t cnt[4];
  memcpy(cnt, c->nb_cnt + i, sizeof cnt);
  const __m128i cnt4 = _mm_loadu_si128((const __m128i *)(const void *)cnt);
  int32_t most = cnt[0] > cnt[1] ? cnt[0] : cnt[1], most2 = cnt[2] > cnt[3] ? cnt[2] : cnt[3];
  most = most > most2 ? most : most2;
  const int32_t *nb = c->nb + c->nb_beg[i]; /* the four lists, interleaved */
  __m128 follow = _mm_set1_ps(INFINITY), marked = zero;
  for (int32_t k = 0; k < most; k++, nb += LIST_LANES) {
    /* a lane past its list's end reads slot 0 (it exists) and tests nothing */
    __m128 valid = _mm_castsi128_ps(_mm_cmpgt_epi32(cnt4, _mm_set1_epi32(k)));
    int32_t j0 = nb[0], j1 = nb[1], j2 = nb[2], j3 = nb[3];
    __m128 rx = _mm_sub_ps(_mm_setr_ps(x[j0], x[j1], x[j2], x[j3]), xi);
    __m128 ry = _mm_sub_ps(_mm_setr_ps(y[j0], y[j1], y[j2], y[j3]), yi);
    __m128 d2 = _mm_add_ps(_mm_mul_ps(rx, rx), _mm_mul_ps(ry, ry));
    __m128 a = _mm_add_ps(_mm_mul_ps(rx, dx), _mm_mul_ps(ry, dy));
    __m128 sd = _mm_add_ps(_mm_mul_ps(rx, ndy), _mm_mul_ps(ry, dx)), asd = abs4(sd);
    __m128 win = _mm_and_ps(_mm_and_ps(_mm_cmplt_ps(asd, b->v_side), valid),
                            _mm_and_ps(_mm_cmpgt_ps(a, b->v_back), _mm_cmple_ps(a, b->v_ahead)));
    __m128 close = _mm_or_ps(_mm_cmple_ps(d2, b->v_sep2), _mm_cmplt_ps(d2, pl2));
    marked = _mm_or_ps(marked, _mm_and_ps(close, valid));
    if (!_mm_movemask_ps(win)) continue;
    /* walk_pair, in the lanes of the window */
    __m128i st = _mm_setr_epi32(c->state[j0], c->state[j1], c->state[j2], c->state[j3]);
    __m128 reach = _mm_add_ps(ri, _mm_setr_ps(c->radius[j0], c->radius[j1], c->radius[j2],
                                                c->radius[j3]));
    __m128 stwalk = _mm_castsi128_ps(_mm_cmpeq_epi32(st, walk));
    __m128 onfoot = _mm_or_ps(stwalk, _mm_castsi128_ps(_mm_cmpeq_epi32(st, stun)));
    __m128 far = _mm_mul_ps(three, reach);
    __m128 inpass = _mm_and_ps(_mm_and_ps(_mm_cmpgt_ps(a, _mm_sub_ps(zero, reach)),
                                          _mm_cmple_ps(a, far)),
                               _mm_cmplt_ps(asd, _mm_mul_ps(side13, reach)));
    __m128 w = _mm_and_ps(win, _mm_and_ps(onfoot, inpass));
    __m128 vj = _mm_add_ps(
        _mm_mul_ps(_mm_setr_ps(c->vx[j0], c->vx[j1], c->vx[j2], c->vx[j3]), dx),
        _mm_mul_ps(_mm_setr_ps(c->vy[j0], c->vy[j1], c->vy[j2], c->vy[j3]), dy));
    __m128i gj = _mm_setr_epi32(c->group[j0], c->group[j1], c->group[j2], c->group[j3]);
    __m128 msj = _mm_setr_ps(c->max_speed[j0], c->max_speed[j1], c->max_speed[j2],
                             c->max_speed[j3]);
    __m128 mate = _mm_and_ps(_mm_and_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(gj, grp)), stwalk),
                             _mm_cmpge_ps(msj, ms9));
    __m128i fj = _mm_setr_epi32(c->from[j0], c->from[j1], c->from[j2], c->from[j3]);
    __m128i tj = _mm_setr_epi32(c->to[j0], c->to[j1], c->to[j2], c->to[j3]);
    __m128 same = _mm_castsi128_ps(
        _mm_and_si128(_mm_cmpeq_epi32(fj, from), _mm_cmpeq_epi32(tj, to)));
    /* a mate on another segment, or an agent to pass (not faster): scalar */
    __m128 other = _mm_or_ps(_mm_andnot_ps(same, mate),
                             _mm_andnot_ps(_mm_or_ps(mate, _mm_cmpgt_ps(vj, ms9)), w));
    marked = _mm_or_ps(marked, _mm_and_ps(w, other));
    /* follow: a mate on our segment, in the window of following */
    __m128 fol = _mm_and_ps(_mm_and_ps(w, _mm_and_ps(mate, same)),
                            _mm_and_ps(_mm_and_ps(_mm_cmpgt_ps(a, zero), _mm_cmple_ps(a, far)),
                                       _mm_cmplt_ps(asd, reach)));
    __m128 cap = _mm_add_ps(vj, _mm_mul_ps(_mm_sub_ps(a, _mm_mul_ps(near, reach)), four));
    __m128 take = _mm_and_ps(fol, _mm_cmplt_ps(cap, follow));
    cap = _mm_andnot_ps(_mm_cmplt_ps(cap, zero), cap); /* below 0: 0 */
    follow = _mm_or_ps(_mm_and_ps(take, cap), _mm_andnot_ps(take, follow));
  }
  float f[4];
  _mm_storeu_ps(f, follow);
  for (int l = 0; l < 4; l++) out[l] = (nbres){.follow = f[l], .shift = 0.0f, .px = 0.0f, .py = 0.0f};
  return (unsigned)_mm_movemask_ps(marked);
}
#endif

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

/* Where a pass writes the positions and velocities it computes: the
** columns themselves, or (the pass with neighbours) the next tick's. */
typedef struct moves {
  float *x, *y, *vx, *vy;
} moves;

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
      fly_desire(c, i, &ex, &ey, &gd);
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

/* Whether slots i .. i + 3 (all used) are walkers. */
static inline bool walk4(const td_crowd *c, size_t i) {
  uint32_t s;
  memcpy(&s, c->state + i, sizeof s);
  return s == TD_AGENT_WALK * 0x01010101u;
}

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
** a thin skin), from the positions before the iteration (Jacobi), until
** nothing overlaps (at most PROJECT_ITERATIONS times). Coincident agents
** split along the y axis, the lower slot upwards.
**
** The pairs that can overlap are found, in order of preference: among the
** close pairs the scan listed (pairs closer than pl_reach before the move:
** only the agents that have one are visited), while agents moved (and were
** corrected) by less than pl_slack in all; else among the neighbour lists,
** while they hold (see make_lists); else in the grid, sorted again. The
** corrections are summed in fixed point, so that all three give the same
** result. Returns the largest correction of any agent, in all (|dx| +
** |dy|, summed over the iterations). */
#define BY_PAIRS 0
#define BY_LISTS 1
#define BY_GRID 2

static HOT_INLINE void overlap_pair(const td_crowd *c, size_t i, int li, float xi, float yi,
                                    float ri, int32_t j, float unit, int64_t *cx, int64_t *cy) {
  if (j == (int32_t)i || layer(c->state[j]) != li) return;
  float rx = xi - c->x[j], ry = yi - c->y[j], d = len2(rx, ry);
  /* a skin of 2% of the radii: resolved pairs end slightly apart */
  float want = (ri + c->radius[j]) * 1.02f;
  if (d >= want) return;
  if (d < 1e-6f) { /* coincident: split along y, by slot order */
    *cy += fixed((j > (int32_t)i ? -0.5f : 0.5f) * want * unit);
    return;
  }
  float corr = (want - d) * 0.5f;
  *cx += fixed(rx / d * corr * unit);
  *cy += fixed(ry / d * corr * unit);
}

static float project(td_crowd *c) {
  float shifted = c->moved, total = 0.0f; /* largest |dx| + |dy| since the scan, and of corrections */
  /* fixed point: a power of two that keeps the largest correction (2.04
  ** max_radius) below 2^40 */
  int e;
  frexpf(2.04f * c->max_radius + 1e-30f, &e);
  float unit = ldexpf(1.0f, 40 - e < 100 ? 40 - e : 100), inv = 1.0f / unit;
  float over = 2.04f * c->max_radius * 1.001f + 1e-4f; /* the widest overlap */
  /* how far agents moved since the grid was sorted (at the start of the
  ** tick, when it was) */
  float age = c->grid_tick == c->tick ? c->moved : INFINITY;
  for (int iter = 0; iter < PROJECT_ITERATIONS; iter++) {
    int how = c->pl_ok && 2.0f * shifted * 1.001f + 1e-4f < c->pl_slack ? BY_PAIRS
              : c->nb_ok && 2.0f * (c->disp + shifted) * 1.001f + 1e-4f < c->skin ? BY_LISTS
                                                                                   : BY_GRID;
    if (how == BY_GRID && !(age < c->cell)) { /* the grid is too old (or of another time) */
      grid_sort(c);
      age = 0.0f;
    }
    float reach = over + age * 1.001f; /* the grid holds agents where they were `age` ago */
    size_t visits = how == BY_PAIRS ? c->n_active : c->used;
    for (size_t a = 0; a < visits; a++) {
      size_t i = how == BY_PAIRS ? (size_t)c->active[a] : a;
      int li = layer(c->state[i]);
      int64_t cx = 0, cy = 0;
      float xi = c->x[i], yi = c->y[i], ri = c->radius[i];
      if (li >= 0 && how == BY_PAIRS) {
        for (int32_t q = a > 0 ? c->pl_end[a - 1] : 0; q < c->pl_end[a]; q++)
          overlap_pair(c, i, li, xi, yi, ri, c->pl[q], unit, &cx, &cy);
      } else if (li >= 0 && how == BY_LISTS) {
        const int32_t *nb = c->nb + c->nb_beg[i];
        for (int32_t q = 0; q < c->nb_cnt[i]; q++)
          overlap_pair(c, i, li, xi, yi, ri, nb[(ptrdiff_t)q * LIST_LANES], unit, &cx, &cy);
      } else if (li >= 0) {
        cellbox box = cell_box(c, xi - reach, yi - reach, xi + reach, yi + reach);
        for (int32_t row = box.y0; row <= box.y1; row++) {
          int32_t lo, hi;
          row_run(c, &box, row, &lo, &hi);
          for (int32_t kk = lo; kk < hi; kk++)
            overlap_pair(c, i, li, xi, yi, ri, c->order[kk], unit, &cx, &cy);
        }
      }
      c->s_cxy[2 * a] = (float)cx * inv;
      c->s_cxy[2 * a + 1] = (float)cy * inv;
    }
    float most = 0.0f;
    for (size_t a = 0; a < visits; a++) {
      size_t i = how == BY_PAIRS ? (size_t)c->active[a] : a;
      float ox = c->x[i], oy = c->y[i];
      c->x[i] += c->s_cxy[2 * a];
      c->y[i] += c->s_cxy[2 * a + 1];
      float m = fabsf(c->x[i] - ox) + fabsf(c->y[i] - oy);
      if (m > most) most = m;
      if (m > 0.0f && c->state[i] != TD_AGENT_FREE) c->wp[i] = 1; /* the waypoint pass looks again */
    }
    if (most == 0.0f) break; /* nothing overlaps any more */
    shifted += most;
    total += most;
    age += most;
  }
  return total;
}

/* ---- metrics ------------------------------------------------------------- */

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

static void measure(td_crowd *c) {
  /* min_gap over the pairs of one layer closer than the interaction reach,
  ** in a grid of where the agents are now */
  grid_sort(c);
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
  /* neighbours: separation, or the metrics (following and passing too) */
  bool neighbours = c->p.separation || c->metrics_on;
  begin_tick(c, neighbours);
  if (neighbours) {
    size_grid(c);
    /* close pairs: anything that could overlap after a normal move */
    float overlap = 2.0f * c->max_radius * 1.02f;
    c->pl_slack = 0.5f * c->max_radius + 3.0f * c->max_speed_all * c->dt;
    c->pl_reach2 = c->p.separation ? (overlap + c->pl_slack) * (overlap + c->pl_slack) : 0.0f;
    c->skin = SKIN_RADII * c->max_radius;
    /* the lists hold while no agent moved half the skin since they were made */
    bool lists = c->nb_ok && !c->nb_stale && 2.0f * c->disp * 1.001f + 1e-4f < c->skin;
    if (!lists) {
      grid_sort(c);
      c->grid_tick = c->tick;
      lists = make_lists(c) == 0;
    }
    /* in slot order, where the columns stream: each agent's scan reads
    ** the others as they were at the start of the tick (x, y, vx, vy) and
    ** keeps what it found in nb_res; then the steering writes the next
    ** tick's (xn, ...), swapped after */
    bounds b = bounds_of(c);
    shape h = shape_of(&b, 0.0f); /* the grid's, without lists */
    pairs pp = {.np = 0, .na = 0};
    moves to = {c->xn, c->yn, c->vxn, c->vyn};
    c->pl_ok = c->p.separation;
    if (lists && c->pl_ok && c->nb_len + 1 > c->pl_cap) { /* room for every list's pairs */
      int32_t *p = td_mem_grow(c->pl, &c->pl_cap, c->nb_len + 1, sizeof *p);
      if (p) c->pl = p;
      else c->pl_ok = false; /* the projection looks elsewhere */
    }
    float moved = 0.0f; /* the largest move, |dx| + |dy|, for the projection */
    float far2 = 0.0f;  /* the largest squared distance from where the lists were made */
    /* the scans, then the steering: each agent's a short chain of its own */
    for (size_t i = 0; i < c->used;) {
#if SIMD4
      if (lists && i % LIST_LANES == 0 && i + 4 <= c->used && walk4(c, i)) {
        unsigned again = scan_four(c, i, &b, c->nb_res + i);
        for (; again; again &= again - 1) {
          size_t q = i + (size_t)__builtin_ctz(again);
          c->nb_res[q] = scan_agent(c, q, &b, &h, lists, &pp);
        }
        i += 4;
        continue;
      }
#endif
      if (c->state[i] != TD_AGENT_FREE) c->nb_res[i] = scan_agent(c, i, &b, &h, lists, &pp);
      i++;
    }
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
    c->pl_len = c->pl_ok ? pp.np : 0;
    c->n_active = c->pl_ok ? pp.na : 0;
    c->xn = c->x;
    c->yn = c->y;
    c->vxn = c->vx;
    c->vyn = c->vy;
    c->x = to.x;
    c->y = to.y;
    c->vx = to.vx;
    c->vy = to.vy;
    c->moved = moved;
    float corrected = c->p.separation ? project(c) : 0.0f;
    c->disp = sqrtf(far2) + corrected;
    /* waypoints and leaks, in slot order, of the agents marked: where the
    ** steering left them at a segment's end, or the projection moved
    ** them (no other can be at one); eight marks at a time */
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
  } else { /* no neighbours: one pass */
    c->nb_ok = false; /* agents move untracked */
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
  }
  run_flush(c, &run);
  if (c->metrics_on) measure(c);
  c->tick++;
}

void td_crowd_route_changed(td_crowd *c) {
  const td_graph *g = c->g;
  const td_cost *dist = td_route_dist(c->route);
  check_route(c);
  c->nb_stale = true; /* agents turn back: the lists' directions of travel change */
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

bool td_crowd_grid_info(const td_crowd *c, td_crowd_grid *out) {
  if (!(c->cell > 0.0f)) return false;
  *out = (td_crowd_grid){.x0 = c->gx0, .y0 = c->gy0, .cell = c->cell, .cols = c->gw,
                         .rows = c->gh};
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
  if (!in_range(c->lane[i], -far, far) || !in_range(c->slot[i], -far, far))
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
