/*
** crowd.c: agent storage and the tick (see crowd.h for the model, and
** crowd_int.h for the files of the crowd and what each holds).
**
** The agents are columns (structure of arrays) in one block that this
** file grows and frees; it also owns the group table. td_crowd_step runs
** the passes of the other files, each once a tick, in the order below.
**
** Design note.
** A tick without neighbours (separation and metrics off) is one pass over
** the agents in slot order: free the slots of agents that finished last
** tick, steer (pure pursuit on the lane, cohesion, turn and acceleration
** limits), move, take next[] at waypoints, list the leaks. Four walkers in
** a row are steered at once (steer_walk4), then take their waypoints
** (td_crowd_walk_pass, crowd_lane.c).
**
** A tick with neighbours (each pass is a function of the file of its
** concern, called once a tick; see crowd_int.h):
**   1. in slot order: free the finished slots (begin_tick);
**   2. if the neighbour lists do not hold any more (some agent moved half
**      their skin since they were made, an agent came, the route changed):
**      sort the agents into a grid of cells and make them again (Verlet
**      lists: each agent's list holds every agent its tests can reach
**      before some agent has moved half the skin, see make_lists;
**      td_crowd_lists_pass, crowd_nb.c);
**   3. in slot order, the scans: each agent scans its list (the wave-mate
**      ahead to follow, slower agents to pass, the soft push, the pairs
**      close enough to overlap after the move), four walkers at a time in
**      the lanes of a vector where SIMD allows (see scan_four), into nb_res
**      (td_crowd_scan_pass, crowd_nb.c); then, in slot order, each agent
**      steers with what its scan found and moves, four walkers at a time
**      where SIMD allows (steer_walk4; td_crowd_steer_pass, crowd_lane.c).
**      The scans read the others as they were at the start of the tick:
**      the positions and velocities are double-buffered (the steering
**      writes the next tick's, swapped after);
**   4. the overlapping pairs pushed apart (Jacobi: corrections from the
**      positions before each iteration, until nothing overlaps), over the
**      close pairs the scan listed (td_crowd_project_pass,
**      crowd_project.c);
**   5. in slot order: waypoints and leaks, for the agents the steering
**      left at a segment's end or the projection moved
**      (td_crowd_waypoint_pass, crowd_lane.c); then, with separation, the
**      jams: a walker stopped for long, or a flyer that comes no closer to
**      its goal, passes through the others for a while
**      (td_crowd_stall_pass, crowd_stall.c); then the metrics
**      (crowd_metrics.c).
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
*/
#include "crowd/crowd_int.h"

#include <math.h>
#include <string.h>

td_crowd_params td_crowd_default_params(double dt) {
  td_crowd_params p = {.dt = dt, .separation = true, .lookahead = 0.25f,
                       .miter_limit = 3.0f, .margin = 0.0f, .cohesion = 0.5f, .gate = true};
  return p;
}

typedef struct column {
  void **ptr;
  size_t elem;
} column;

#define MAX_COLUMNS 72

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
    {(void **)&c->lane0, sizeof(float)},     {(void **)&c->lane_max, sizeof(float)},
    {(void **)&c->wq_next, sizeof(int32_t)}, {(void **)&c->wq_prev, sizeof(int32_t)},
    {(void **)&c->w_fly, sizeof(uint8_t)},
    {(void **)&c->stall, sizeof(int32_t)},   {(void **)&c->ghost, sizeof(int32_t)},
    {(void **)&c->best, sizeof(float)},
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
int td_crowd_grow_agents(td_crowd *c, size_t ncap) {
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
  td_crowd_fly_init(c);
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
  c->gates = td_mem_alloc(GATES_FIRST * sizeof *c->gates);
  c->gates_cap = c->gates ? GATES_FIRST : 0;
  if (!c->gates || td_crowd_grow_agents(c, 64) != 0) {
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
  td_mem_free(c->g_wide, c->g_cap * sizeof *c->g_wide);
  td_mem_free(c->gates, c->gates_cap * sizeof *c->gates);
  td_mem_free(c->kc, c->kc_cap * sizeof *c->kc);
  td_mem_free(c->kc_map, c->kc_map ? (c->kc_map_mask + 1) * sizeof *c->kc_map : 0);
  td_mem_free(c->leaks, c->leak_cap * sizeof *c->leaks);
  td_mem_free(c->obs, c->obs_n * 4 * sizeof *c->obs);
  td_crowd_metrics_free(c);
  td_mem_free(c, sizeof *c);
}

/* ---- handles ------------------------------------------------------------- */

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
    if (c->state[i] == TD_AGENT_WAITING) td_crowd_gate_leave(c, (size_t)i);
    c->state[i] = TD_AGENT_REMOVED;
  }
}

/* ---- adding agents ------------------------------------------------------- */

int td_crowd_ensure_group(td_crowd *c, int32_t group) {
  if ((size_t)group < c->g_cap) return 0;
  size_t ncap = c->g_cap ? c->g_cap : 8;
  while (ncap <= (size_t)group) ncap *= 2;
  double *s = td_mem_calloc(ncap, sizeof *s);
  int32_t *n = td_mem_calloc(ncap, sizeof *n);
  float *m = td_mem_calloc(ncap, sizeof *m);
  uint8_t *u = td_mem_calloc(ncap, sizeof *u);
  float *wd = td_mem_calloc(ncap, sizeof *wd);
  if (!s || !n || !m || !u || !wd) {
    td_mem_free(s, ncap * sizeof *s);
    td_mem_free(n, ncap * sizeof *n);
    td_mem_free(m, ncap * sizeof *m);
    td_mem_free(u, ncap * sizeof *u);
    td_mem_free(wd, ncap * sizeof *wd);
    return -1;
  }
  /* the sums carried to the next tick move along, and the widths */
  if (c->g_cap) {
    memcpy(s, c->g_sum, c->g_cap * sizeof *s);
    memcpy(n, c->g_n, c->g_cap * sizeof *n);
    memcpy(wd, c->g_wide, c->g_cap * sizeof *wd);
  }
  td_mem_free(c->g_wide, c->g_cap * sizeof *c->g_wide);
  c->g_wide = wd;
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

/* Where agent i stands at node `at`, and its state: a flyer (FLY) at the
** node plus (slot, lane); a walker in its lane to the left of the first
** segment and its slot along it, its state set by the route there
** (walking, leaked on a goal, stranded). At a gate (at_gate), the slot is
** left out: the agent is at the spawn itself. */
void td_crowd_place(td_crowd *c, size_t i, int32_t at, bool flying, bool at_gate) {
  const int32_t *next = c->next;
  float px, py, slot = at_gate ? 0.0f : c->slot[i], lane = c->lane0[i];
  node_pos(c, at, &px, &py);
  c->from[i] = at;
  c->to[i] = next[at];
  if (flying) {
    c->state[i] = TD_AGENT_FLY;
    c->dirx[i] = 1.0f;
    c->diry[i] = 0.0f;
    c->x[i] = px + slot;
    c->y[i] = py + lane;
  } else {
    float dx = 1.0f, dy = 0.0f;
    if (next[at] != TD_NONE) td_crowd_seg_dir(c, at, next[at], &dx, &dy);
    if (c->to[i] == TD_NONE) c->to[i] = at;
    c->ktab[i] = KC_NONE;
    c->dirx[i] = dx;
    c->diry[i] = dy;
    c->state[i] = next[at] != TD_NONE ? TD_AGENT_WALK
                  : td_route_is_goal(c->route, at) ? TD_AGENT_LEAKED
                                                   : TD_AGENT_STRANDED;
    if (c->state[i] == TD_AGENT_WALK) {
      const corner *k = td_crowd_take_segment(c, i); /* fits the lane to the room */
      lane = c->lane[i];
      enter_segment(c, i, k, 0.0f);
    }
    /* the lane is to the left of travel: normal (-dy, dx) */
    c->x[i] = px - dy * lane + dx * slot;
    c->y[i] = py + dx * lane + dy * slot;
  }
  /* The grid covers the graph's box and the agents: a formation spawned
  ** behind its spawn point can reach far outside the map, and agents
  ** crowded into the border cells would be compared with each other. */
  double ax = (double)c->x[i], ay = (double)c->y[i], pad = 4.0 * (double)c->radius[i];
  if (ax - pad < c->bx0 || ax + pad > c->bx1 || ay - pad < c->by0 || ay + pad > c->by1) {
    c->bx0 = ax - pad < c->bx0 ? ax - pad : c->bx0;
    c->bx1 = ax + pad > c->bx1 ? ax + pad : c->bx1;
    c->by0 = ay - pad < c->by0 ? ay - pad : c->by0;
    c->by1 = ay + pad > c->by1 ? ay + pad : c->by1;
    c->cell = 0.0f; /* size_grid() lays the grid out again at the next step */
  }
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
  if (td_crowd_ensure_group(c, d->group) != 0) {
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
    if (c->used + 1 == c->cap && td_crowd_grow_agents(c, 2 * c->cap) != 0) {
      td_err_set(err, "crowd: out of memory");
      return TD_AGENT_NONE;
    }
    i = c->used++;
  }
  c->radius[i] = d->radius;
  c->max_speed[i] = c->base_speed[i] = d->max_speed;
  c->hold[i] = 0;
  c->stall[i] = c->ghost[i] = 0;
  c->best[i] = INFINITY;
  c->dv[i] = (d->accel > 0.0f ? d->accel : 4.0f * d->max_speed) * c->dt; /* per tick */
  c->look[i] = c->p.lookahead * d->max_speed;
  if (c->look[i] < 2.0f * d->radius) c->look[i] = 2.0f * d->radius;
  float turn = (d->turn_rate > 0.0f ? d->turn_rate : 4.0f * PI_F) * c->dt; /* in a tick */
  c->turn_cos[i] = turn < PI_F ? cosf(turn) : -2.0f; /* -2: no limit (see limit()) */
  c->turn_sin[i] = turn < PI_F ? sinf(turn) : 0.0f;
  c->prog[i] = NAN; /* none yet: no cohesion in its first tick */
  c->coh[i] = c->p.cohesion / d->max_speed;
  c->lane[i] = c->lane0[i] = d->lane;
  c->slot[i] = d->slot;
  c->group[i] = d->group;
  float wide = fabsf(d->lane);
  if (wide > c->g_wide[d->group]) c->g_wide[d->group] = wide;
  c->lane_max[i] = INFINITY;
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
  td_crowd_check_route(c);
  /* through the gate: it enters now if its place is free, else waits */
  bool goes = d->flying || c->next[at] != TD_NONE;
  if (!(c->p.gate && goes && td_crowd_gate_add(c, i, at, d->flying)))
    td_crowd_place(c, i, at, d->flying, false);
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

/* ---- the tick ------------------------------------------------------------ */

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

void td_crowd_step(td_crowd *c) {
  td_crowd_check_route(c);
  /* neighbours: separation, or the metrics (following and passing too) */
  bool neighbours = c->p.separation || c->metrics_on;
  begin_tick(c, neighbours);
  td_crowd_gate_pass(c); /* who may enter at the spawns enters */
  if (neighbours) {
    bool lists = td_crowd_lists_pass(c);
    /* in slot order, where the columns stream: each agent's scan reads
    ** the others as they were at the start of the tick (x, y, vx, vy) and
    ** keeps what it found in nb_res; then the steering writes the next
    ** tick's (xn, ...), swapped after */
    td_crowd_scan_pass(c, lists);
    moves to = {c->xn, c->yn, c->vxn, c->vyn};
    float moved, far2; /* the largest move (|dx| + |dy|); squared distance from x0, y0 */
    td_crowd_steer_pass(c, to, &moved, &far2);
    c->xn = c->x;
    c->yn = c->y;
    c->vxn = c->vx;
    c->vyn = c->vy;
    c->x = to.x;
    c->y = to.y;
    c->vx = to.vx;
    c->vy = to.vy;
    c->moved = moved;
    float corrected = c->p.separation ? td_crowd_project_pass(c) : 0.0f;
    /* back inside the walkable area; who came back onto another is pushed
    ** apart again (the projection keeps to the area itself) */
    float kept = td_crowd_road_keep(c, true);
    corrected += kept;
    if (kept > 0.0f && c->p.separation) {
      c->moved += kept;
      corrected += td_crowd_project_pass(c);
    }
    c->disp = sqrtf(far2) + corrected;
    td_crowd_waypoint_pass(c);
    if (c->p.separation) td_crowd_stall_pass(c);
  } else { /* no neighbours: one pass */
    c->nb_ok = false; /* agents move untracked */
    td_crowd_walk_pass(c);
    td_crowd_road_keep(c, false);
  }
  if (c->metrics_on) td_crowd_measure(c);
  c->tick++;
}

/* ---- access -------------------------------------------------------------- */

size_t td_crowd_leaks(const td_crowd *c, const td_agent **agents) {
  if (agents) *agents = c->leaks;
  return c->leak_len;
}

uint64_t td_crowd_tick(const td_crowd *c) { return c->tick; }

size_t td_crowd_capacity(const td_crowd *c) { return c->used; }

size_t td_crowd_count(const td_crowd *c) { return c->live; }

bool td_crowd_view(const td_crowd *c, size_t i, td_agent_view *out) {
  if (i >= c->used || c->state[i] == TD_AGENT_FREE) return false;
  *out = (td_agent_view){.state = (td_agent_state)c->state[i], .x = c->x[i], .y = c->y[i],
                         .vx = c->vx[i], .vy = c->vy[i], .radius = c->radius[i],
                         .lane = c->lane[i], .group = c->group[i], .from = c->from[i],
                         .to = c->to[i], .spawn_tick = c->spawn_tick[i],
                         .travelled = c->travelled[i], .ghost = c->ghost[i] != 0};
  return true;
}

td_agent td_crowd_handle(const td_crowd *c, size_t i) {
  return i < c->used && c->state[i] != TD_AGENT_FREE ? make_handle(c, i) : TD_AGENT_NONE;
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
