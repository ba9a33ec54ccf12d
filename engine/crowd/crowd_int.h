/*
** crowd_int.h: the crowd's insides, private to engine/crowd (nothing else
** includes it; crowd.h is the interface).
**
** It holds `struct td_crowd`, the types and the small inline helpers that
** more than one file of the crowd needs, and the functions the files call
** in each other. The crowd is split by concern, each file opening with its
** contract:
**   crowd.c          agent storage (the columns), handles, adding agents,
**                    effects, and the tick: td_crowd_step runs the passes
**                    below in order (its design note describes them);
**   crowd_lane.c     lanes and corners (the corner table), steering along
**                    the route, waypoints and leaks, route changes;
**   crowd_nb.c       neighbours: the grid, the neighbour lists, the scans;
**   crowd_project.c  the overlap projection;
**   crowd_road.c     the walkable area: lanes fitted to the room, the
**                    boundary constraint, off_road;
**   crowd_gate.c     waves entering through their spawn's gate;
**   crowd_fly.c      flyers: the fan of rays, obstacles;
**   crowd_stall.c    jams and traps: a walker stopped for long, or a flyer
**                    that comes no closer, passes through for a while;
**   crowd_metrics.c  the behaviour metrics;
**   crowd_save.c     save, load and the checksum.
**
** Speed: a per-agent step of a hot loop is inlined into the loop (see
** HOT_INLINE), and calls between files are not (no link-time
** optimisation), so no per-agent call crosses a file: each hot loop lives
** whole in the file of its concern, as a pass that td_crowd_step calls once
** a tick, and what several files need per agent is `static inline` here.
** Internal functions shared between files are named td_crowd_<what> (the
** passes td_crowd_<verb>_pass); file-local helpers are static, unprefixed.
**
** Memory and determinism: as crowd.h says. Every pass visits agents in slot
** order and writes only the visited agent's own state (see crowd.c).
*/
#ifndef TD_CROWD_INT_H
#define TD_CROWD_INT_H

#include "crowd/crowd.h"
#include "nav/fan.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
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
/* The lists of four consecutive slots 4m .. 4m + 3 are interleaved: entry
** k of slot 4m + l at nb[base + 4 k + l] (see make_lists). */
#define LIST_LANES 4
_Static_assert(LIST_LANES == 4, "scan_four and list_four take four lists in the lanes of a vector");
#define SPARE 8            /* elements after a column's last (see column_layout) */
/* Sums of pair forces are taken in fixed point, so that their order does
** not matter (see fixed): a push in units of 2^-40 (PUSH_ONE, crowd_nb.c),
** a correction of the projection in units of its own (crowd_project.c). */
#define FIXED_MAX 0x1p41f  /* a term's bound: 2^20 agents never overflow a sum */

#define KC_NONE UINT32_MAX /* an agent's corner is not in the table */

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
  /* the walkable area (crowd_road.c) */
  float hw;               /* free half width, this segment and the next (INFINITY: open) */
  float ehw;              /* a road's half width along this edge */
  bool quick;             /* a road with no block near this edge: the quick inside test holds */
} corner;

typedef struct metric_key metric_key;
typedef struct metric_pt metric_pt;

/* A spawn node's gate (crowd_gate.c): its lead and its queue, a list of
** waiting agents through the columns wq_next and wq_prev. */
#define GATE_RECENT 8      /* the last agents to enter at a gate, kept to test the way is clear */
typedef struct gate {
  int32_t node;
  td_agent lead;          /* the first of the row that entered last (TD_AGENT_NONE: none) */
  float lead_slot;        /* its row's slot */
  int32_t lead_group;
  int32_t head, tail;     /* the queue's first and last slots (-1: empty) */
  td_agent recent[GATE_RECENT]; /* ring: the last agents that entered (TD_AGENT_NONE: none) */
  int32_t next_recent;    /* where the ring writes next */
} gate;

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


struct td_crowd {
  const td_route *route;
  const td_graph *g;
  const int32_t *next;     /* td_route_next(route), fetched per call */
  const td_cost *dist;     /* td_route_dist(route), likewise */
  td_crowd_params p;
  float dt;

  /* agents, structure of arrays (columns in one block, see
  ** td_crowd_grow_agents); `used` slots have ever been taken */
  void *block;
  size_t block_size;
  size_t cap, used, live;
  float *x, *y, *vx, *vy;
  float *speed;            /* |(vx, vy)| as steering set it (saves a square root) */
  float *radius, *max_speed, *dv, *lane, *slot, *travelled, *prog;
  /* lanes and the walkable area (crowd_road.c): lane0 is the lane the agent
  ** was given, lane the one it walks (lane0 fitted to the room on its
  ** segment, against its group's widest, g_wide), lane_max the room for its
  ** centre line there (INFINITY: open ground) */
  float *lane0, *lane_max;
  /* jams and traps (crowd_stall.c): ticks in a row a walker was stopped
  ** while trying to move (a flyer: ticks since it last came a radius
  ** closer to its goal), ticks left of passing through the others and the
  ** obstacles (0: solid), and a flyer's closest distance to its goal since
  ** it was last reset (INFINITY: none yet) */
  int32_t *stall, *ghost;
  float *best;
  /* a waiting agent's place in its gate's queue (-1: none) and whether it
  ** enters as a flyer (crowd_gate.c) */
  int32_t *wq_next, *wq_prev;
  uint8_t *w_fly;
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
  td_fan fan;              /* the flyers' fan of rays (nav/fan.h), taken at creation */
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
  float *g_wide;           /* the widest |lane0| of the group's agents so far */
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

  /* the walkable area (borrowed; NULL: open ground) and its version when
  ** the corners were made */
  struct td_walk *walk;
  uint64_t walk_version;

  /* gates: the spawn nodes agents entered at (GATES_FIRST made with the
  ** crowd, so that a step or an add needs no memory for them) */
  gate *gates;
  size_t n_gates, gates_cap;

  bool metrics_on;
  td_crowd_metrics m;
  struct metric_key *sort_keys; /* metrics scratch (crowd_metrics.c) */
  size_t sort_cap;
  struct metric_pt *pts;
  size_t pts_cap;

  uint64_t tick;
};

/* Where a pass writes the positions and velocities it computes: the
** columns themselves, or (the pass with neighbours) the next tick's. */
typedef struct moves {
  float *x, *y, *vx, *vy;
} moves;

/* ---- what one file of the crowd calls in another ------------------------ */

/* crowd.c: storage. Each returns 0, or -1 out of memory (nothing changed). */
int td_crowd_grow_agents(td_crowd *c, size_t ncap);    /* every column to ncap agents */
int td_crowd_ensure_group(td_crowd *c, int32_t group); /* the group table holds `group` */

/* crowd.c: where an agent stands when it comes or enters (at node `at`,
** in its lane, its slot behind unless at_gate), and its state. */
void td_crowd_place(td_crowd *c, size_t i, int32_t at, bool flying, bool at_gate);

/* crowd_lane.c: segments and corners, and the steering passes. */
void td_crowd_corners_reset(td_crowd *c); /* the table emptied, every agent's found again */
float td_crowd_seg_dir(const td_crowd *c, int32_t a, int32_t b, float *dx, float *dy);
void td_crowd_corner_fill(const td_crowd *c, int32_t a, int32_t b, corner *k);
const corner *td_crowd_take_segment(td_crowd *c, size_t i);
void td_crowd_find_corners(td_crowd *c);
void td_crowd_check_route(td_crowd *c);
void td_crowd_steer_pass(td_crowd *c, moves to, float *moved, float *far2); /* 3, steering */
void td_crowd_waypoint_pass(td_crowd *c);                                  /* 5 */
void td_crowd_walk_pass(td_crowd *c); /* the whole tick without neighbours */

/* crowd_nb.c: the grid, the neighbour lists, the scans. */
void td_crowd_grid_sort(td_crowd *c);
bool td_crowd_lists_pass(td_crowd *c);            /* 2; whether the lists hold */
void td_crowd_scan_pass(td_crowd *c, bool lists); /* 3, scans */

/* crowd_project.c: the overlap projection. */
float td_crowd_project_pass(td_crowd *c); /* 4; the largest correction */

/* crowd_fly.c: flyers. */
void td_crowd_fly_init(td_crowd *c);
void td_crowd_fly_desire(const td_crowd *c, size_t i, float *wx, float *wy, float *gd);

/* crowd_road.c: the walkable area. */
void td_crowd_road_corner(const td_crowd *c, corner *k);      /* a corner's room */
void td_crowd_road_fit(td_crowd *c, size_t i, const corner *k); /* lane, lane_max on k */
float td_crowd_road_keep(td_crowd *c, bool mark);  /* the boundary constraint; largest move */
bool td_crowd_road_hold(td_crowd *c, size_t i);    /* one agent back inside; whether it moved */
void td_crowd_road_measure(td_crowd *c);           /* off_road */

/* crowd_gate.c: the gates. */
#define GATES_FIRST 8
bool td_crowd_gate_add(td_crowd *c, size_t i, int32_t at, bool flying); /* false: not gated */
void td_crowd_gate_pass(td_crowd *c);    /* who may enter now enters */
void td_crowd_gate_leave(td_crowd *c, size_t i); /* a waiting agent leaves its queue */

/* crowd_metrics.c: the behaviour metrics, at the end of a tick. */
void td_crowd_measure(td_crowd *c);
void td_crowd_metrics_free(td_crowd *c);

/* The passes are numbered as in crowd.c's design note; pass 1 is crowd.c's
** begin_tick. */

/* ---- small helpers ------------------------------------------------------- */

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

/* Flyer i's nearest goal: its position in (gx, gy) and the distance (its
** own position and INFINITY when the route has no goal). */
static inline float fly_goal(const td_crowd *c, size_t i, float *gx, float *gy) {
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

/* Counts every update of the route (a full recompute or an incremental
** one, applied or rolled back). */
static inline uint64_t route_version(const td_route *r) {
  const td_route_stats *st = td_route_get_stats(r);
  return st->full_count + st->incremental_count;
}

/* The handle of the agent in slot i. */
static inline td_agent make_handle(const td_crowd *c, size_t i) {
  return ((c->gen[i] & (0xFFFFFFFFu >> HANDLE_BITS)) << HANDLE_BITS) | (uint32_t)(i + 1);
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

/* Agent i's corner (its segment from[i] -> to[i]). The pointer is valid
** until the next td_crowd_take_segment. */
static inline const corner *corner_at(td_crowd *c, size_t i) {
  uint32_t q = c->ktab[i];
  if (q != KC_NONE) return &c->kc[q];
  td_crowd_corner_fill(c, c->from[i], c->to[i], &c->kc_spare);
  return &c->kc_spare;
}

/* ---- grid queries (the grid itself: crowd_nb.c) -------------------------- */

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

#if SIMD4
static inline __m128 abs4(__m128 v) {
  return _mm_and_ps(v, _mm_castsi128_ps(_mm_set1_epi32(0x7FFFFFFF)));
}

/* Whether slots i .. i + 3 (all used) are walkers. */
static inline bool walk4(const td_crowd *c, size_t i) {
  uint32_t s;
  memcpy(&s, c->state + i, sizeof s);
  return s == TD_AGENT_WALK * 0x01010101u;
}

/* Whether one of agents i .. i + 3 is a ghost (crowd_stall.c): scan_four
** does not know them. */
static inline bool ghost4(const td_crowd *c, size_t i) {
  return (c->ghost[i] | c->ghost[i + 1] | c->ghost[i + 2] | c->ghost[i + 3]) != 0;
}
#endif

/* Whether agents i and j pass through each other (crowd_stall.c): either
** is a ghost. */
static inline bool ghost_pair(const td_crowd *c, size_t i, size_t j) {
  return (c->ghost[i] | c->ghost[j]) != 0;
}

/* crowd_stall.c: the jam pass (after the waypoints); and a bound on the
** stall counter (it stays below) and how long a ghost lasts, in ticks. */
void td_crowd_stall_pass(td_crowd *c);
void td_crowd_stall_ticks(const td_crowd *c, int32_t *stall, int32_t *ghost);

#endif /* TD_CROWD_INT_H */
