/*
** crowd.c: lanes, flocking and flyers (see crowd.h for the model).
**
** Design note.
** One tick is a fixed sequence of passes over the agents in slot order:
**   1. free the slots of agents that leaked or were removed last tick;
**   2. formation: each group's mean progress (route distance left, less
**      the agent's slot), for cohesion;
**   3. spatial hash: a counting sort of agents into square cells (cell
**      size >= the largest interaction distance), rebuilt every tick;
**   4. steering: each agent's desired velocity (pure pursuit on its lane,
**      side-step around slower agents ahead, cohesion, a soft push from
**      neighbours), limited in turn rate and acceleration, into new_v;
**   5. move, then project overlapping pairs apart (Jacobi: corrections
**      accumulate from the positions before the pass, then apply);
**   6. waypoints: an agent past the bisector of its waypoint takes next[];
**      a goal there is a leak;
**   7. metrics, when enabled.
** Every pass writes only its own agent's slot (or per-agent accumulators),
** so the order of visits never changes the result.
*/
#include "crowd/crowd.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PI_F 3.14159265358979f
#define HANDLE_BITS 20
#define HANDLE_MASK ((1u << HANDLE_BITS) - 1)

struct td_crowd {
  const td_route *route;
  const td_graph *g;
  td_crowd_params p;
  float dt;

  /* agents, structure of arrays; `used` slots have ever been taken */
  size_t cap, used, live;
  float *x, *y, *vx, *vy, *nvx, *nvy, *cx, *cy;
  float *radius, *max_speed, *accel, *turn, *lane, *slot, *travelled, *prog;
  float *enter;            /* projection on the segment when the agent took it */
  int32_t *group, *from, *to, *inv_with, *cell_of;
  uint8_t *state;
  uint32_t *gen;
  uint64_t *spawn_tick;
  uint32_t *free_list;
  size_t free_len;
  float max_radius, max_speed_all;

  /* spatial hash over the graph's bounding box (plus a border); agents
  ** outside it fall into the border cells */
  float gx0, gy0, ext_w, ext_h, cell;
  int32_t gw, gh;
  int32_t *cell_start;     /* cell_slots = gw*gh + 1 entries */
  size_t cell_slots;
  int32_t *cell_items;     /* agents sorted by cell (a per-agent column) */

  /* groups: formation progress */
  double *g_sum;
  int32_t *g_n;
  size_t g_cap;

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

td_crowd_params td_crowd_default_params(double dt) {
  td_crowd_params p = {.dt = dt, .separation = true, .lookahead = 0.25f,
                       .miter_limit = 3.0f, .margin = 0.0f, .cohesion = 0.5f};
  return p;
}

typedef struct column {
  void **ptr;
  size_t elem;
} column;

/* The per-agent arrays, in one table so that they grow together. */
static size_t columns(td_crowd *c, column *out) {
  column cols[] = {
    {(void **)&c->x, sizeof(float)},         {(void **)&c->y, sizeof(float)},
    {(void **)&c->vx, sizeof(float)},        {(void **)&c->vy, sizeof(float)},
    {(void **)&c->nvx, sizeof(float)},       {(void **)&c->nvy, sizeof(float)},
    {(void **)&c->cx, sizeof(float)},        {(void **)&c->cy, sizeof(float)},
    {(void **)&c->radius, sizeof(float)},    {(void **)&c->max_speed, sizeof(float)},
    {(void **)&c->accel, sizeof(float)},     {(void **)&c->turn, sizeof(float)},
    {(void **)&c->lane, sizeof(float)},      {(void **)&c->slot, sizeof(float)},
    {(void **)&c->travelled, sizeof(float)}, {(void **)&c->prog, sizeof(float)},
    {(void **)&c->enter, sizeof(float)},
    {(void **)&c->group, sizeof(int32_t)},   {(void **)&c->from, sizeof(int32_t)},
    {(void **)&c->to, sizeof(int32_t)},      {(void **)&c->inv_with, sizeof(int32_t)},
    {(void **)&c->cell_of, sizeof(int32_t)}, {(void **)&c->state, sizeof(uint8_t)},
    {(void **)&c->gen, sizeof(uint32_t)},    {(void **)&c->spawn_tick, sizeof(uint64_t)},
    {(void **)&c->free_list, sizeof(uint32_t)}, {(void **)&c->cell_items, sizeof(int32_t)},
  };
  size_t n = sizeof cols / sizeof cols[0];
  if (out) memcpy(out, cols, sizeof cols);
  return n;
}

/* Grows every per-agent array to ncap: all new blocks first, so that a
** failure leaves the old ones (and their one capacity) as they were. */
static int grow_agents(td_crowd *c, size_t ncap) {
  column cols[32];
  size_t n = columns(c, cols);
  void *fresh[32] = {0};
  for (size_t i = 0; i < n; i++) {
    fresh[i] = td_mem_calloc(ncap, cols[i].elem);
    if (!fresh[i]) {
      for (size_t j = 0; j < i; j++) td_mem_free(fresh[j], ncap * cols[j].elem);
      return -1;
    }
  }
  for (size_t i = 0; i < n; i++) {
    if (*cols[i].ptr) memcpy(fresh[i], *cols[i].ptr, c->cap * cols[i].elem);
    td_mem_free(*cols[i].ptr, c->cap * cols[i].elem);
    *cols[i].ptr = fresh[i];
  }
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
  c->p = *params;
  if (!(c->p.lookahead > 0.0f)) c->p.lookahead = 0.25f;
  if (!(c->p.miter_limit >= 1.0f)) c->p.miter_limit = 3.0f;
  if (!(c->p.cohesion >= 0.0f)) c->p.cohesion = 0.0f;
  if (!(c->p.margin >= 0.0f)) c->p.margin = 0.0f;
  c->dt = (float)params->dt;
  c->m.min_gap = INFINITY;
  /* the hash covers the graph with a border; cells are sized on first use */
  double x0 = 0, y0 = 0, x1 = 1, y1 = 1;
  for (int32_t v = 0; v < c->g->node_count; v++) {
    if (v == 0 || c->g->x[v] < x0) x0 = c->g->x[v];
    if (v == 0 || c->g->y[v] < y0) y0 = c->g->y[v];
    if (v == 0 || c->g->x[v] > x1) x1 = c->g->x[v];
    if (v == 0 || c->g->y[v] > y1) y1 = c->g->y[v];
  }
  double border = 0.1 * (x1 - x0 + y1 - y0) + 1.0;
  c->gx0 = (float)(x0 - border);
  c->gy0 = (float)(y0 - border);
  c->ext_w = (float)(x1 - x0 + 2 * border);
  c->ext_h = (float)(y1 - y0 + 2 * border);
  c->cell = 0.0f; /* sized by rehash() */
  if (grow_agents(c, 64) != 0) {
    td_crowd_destroy(c);
    td_err_set(err, "crowd: out of memory");
    return NULL;
  }
  return c;
}

void td_crowd_destroy(td_crowd *c) {
  if (!c) return;
  column cols[32];
  size_t n = columns(c, cols);
  for (size_t i = 0; i < n; i++) td_mem_free(*cols[i].ptr, c->cap * cols[i].elem);
  td_mem_free(c->cell_start, c->cell_slots * sizeof *c->cell_start);
  td_mem_free(c->g_sum, c->g_cap * sizeof *c->g_sum);
  td_mem_free(c->g_n, c->g_cap * sizeof *c->g_n);
  td_mem_free(c->leaks, c->leak_cap * sizeof *c->leaks);
  td_mem_free(c->obs, c->obs_n * 4 * sizeof *c->obs);
  td_mem_free(c->sort_keys, c->sort_cap * sizeof *c->sort_keys);
  td_mem_free(c, sizeof *c);
}

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

bool td_crowd_alive(const td_crowd *c, td_agent a) {
  int64_t i = slot_of(c, a);
  return i >= 0 && c->state[i] != TD_AGENT_LEAKED && c->state[i] != TD_AGENT_REMOVED;
}

void td_crowd_remove(td_crowd *c, td_agent a) {
  int64_t i = slot_of(c, a);
  if (i >= 0 && c->state[i] != TD_AGENT_LEAKED) c->state[i] = TD_AGENT_REMOVED;
}

/* ---- adding agents ------------------------------------------------------- */

static int ensure_group(td_crowd *c, int32_t group) {
  if ((size_t)group < c->g_cap) return 0;
  size_t ncap = c->g_cap ? c->g_cap : 8;
  while (ncap <= (size_t)group) ncap *= 2;
  double *s = td_mem_calloc(ncap, sizeof *s);
  int32_t *n = td_mem_calloc(ncap, sizeof *n);
  if (!s || !n) {
    td_mem_free(s, ncap * sizeof *s);
    td_mem_free(n, ncap * sizeof *n);
    return -1;
  }
  td_mem_free(c->g_sum, c->g_cap * sizeof *c->g_sum);
  td_mem_free(c->g_n, c->g_cap * sizeof *c->g_n);
  c->g_sum = s;
  c->g_n = n;
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
    if (c->used == c->cap && grow_agents(c, 2 * c->cap) != 0) {
      td_err_set(err, "crowd: out of memory");
      return TD_AGENT_NONE;
    }
    i = c->used++;
  }
  c->radius[i] = d->radius;
  c->max_speed[i] = d->max_speed;
  c->accel[i] = d->accel > 0.0f ? d->accel : 4.0f * d->max_speed;
  c->turn[i] = d->turn_rate > 0.0f ? d->turn_rate : 4.0f * PI_F;
  c->lane[i] = d->lane;
  c->slot[i] = d->slot;
  c->group[i] = d->group;
  c->travelled[i] = 0.0f;
  c->enter[i] = 0.0f;
  c->inv_with[i] = -1;
  c->spawn_tick[i] = c->tick;
  c->vx[i] = c->vy[i] = 0.0f;
  if (d->radius > c->max_radius) c->max_radius = d->radius;
  if (d->max_speed > c->max_speed_all) c->max_speed_all = d->max_speed;
  const int32_t *next = td_route_next(c->route);
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
  }
  c->live++;
  return make_handle(c, i);
}

int32_t td_crowd_spawn(td_crowd *c, const td_agent_desc *desc, int32_t at,
                       const td_formation *f, td_agent *out, td_err *err) {
  int32_t per = f->per_row > 0 ? f->per_row : 1;
  for (int32_t k = 0; k < f->count; k++) {
    td_agent_desc d = *desc;
    int32_t row = k / per, col = k % per;
    int32_t in_row = f->count - row * per < per ? f->count - row * per : per;
    d.lane = in_row > 1 ? -f->width / 2 + f->width * (float)col / (float)(in_row - 1) : 0.0f;
    d.lane += desc->lane;
    d.slot = desc->slot - f->spacing * (float)row;
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

/* The lane geometry at the waypoint an agent heads to. */
typedef struct corner {
  float ax, ay, bx, by;   /* segment from a to b */
  float dx, dy, len;      /* its direction and length */
  float nx, ny;           /* left normal */
  float d2x, d2y;         /* direction after b (= d when b ends the route) */
  float mx, my;           /* miter direction at b (unit) */
  float scale;            /* 1/cos(theta/2), clamped */
  float tx, ty;           /* crossing direction at b: mean of d and d2 */
  bool last;              /* b is a goal or has no next */
} corner;

static void corner_at(const td_crowd *c, int32_t a, int32_t b, corner *k) {
  const int32_t *next = td_route_next(c->route);
  node_pos(c, a, &k->ax, &k->ay);
  node_pos(c, b, &k->bx, &k->by);
  k->len = seg_dir(c, a, b, &k->dx, &k->dy);
  k->nx = -k->dy;
  k->ny = k->dx;
  int32_t n2 = next[b];
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

static void free_finished(td_crowd *c) {
  c->leak_len = 0;
  for (size_t i = 0; i < c->used; i++)
    if (c->state[i] == TD_AGENT_LEAKED || c->state[i] == TD_AGENT_REMOVED) {
      c->state[i] = TD_AGENT_FREE;
      c->gen[i]++;
      c->free_list[c->free_len++] = (uint32_t)i;
      c->live--;
    }
}

/* Where the lane of agent i meets the bisector at the end of its segment,
** as a projection on the segment (0 at from, len at to for lane 0). */
static float lane_end(const corner *k, float lane) {
  float mpx = k->bx + k->mx * lane * k->scale, mpy = k->by + k->my * lane * k->scale;
  return (mpx - k->ax) * k->dx + (mpy - k->ay) * k->dy;
}

/* Route distance left for a walker, plus its slot: equal for every agent of
** a group that keeps its formation. The agent's progress on its own lane
** segment (from where it entered it to the lane's miter point at the end)
** is mapped onto the centre line, so that an outer lane, which is longer
** round a corner, is not taken to lag: the formation wheels like a block. */
static float progress(const td_crowd *c, size_t i, const corner *k) {
  const td_cost *dist = td_route_dist(c->route);
  float left = dist[c->to[i]] == TD_COST_INF ? 0.0f : (float)td_graph_cost_to_units(dist[c->to[i]]);
  float t = (c->x[i] - k->ax) * k->dx + (c->y[i] - k->ay) * k->dy;
  float t0 = c->enter[i], t1 = lane_end(k, c->lane[i]);
  float f = t1 - t0 > 1e-3f ? (t - t0) / (t1 - t0) : 1.0f;
  return left + (1.0f - f) * k->len + c->slot[i];
}

static void formation(td_crowd *c) {
  if (c->g_cap == 0) return;
  memset(c->g_sum, 0, c->g_cap * sizeof *c->g_sum);
  memset(c->g_n, 0, c->g_cap * sizeof *c->g_n);
  for (size_t i = 0; i < c->used; i++) {
    if (c->state[i] != TD_AGENT_WALK) continue;
    corner k;
    corner_at(c, c->from[i], c->to[i], &k);
    c->prog[i] = progress(c, i, &k);
    c->g_sum[c->group[i]] += (double)c->prog[i];
    c->g_n[c->group[i]]++;
  }
}

/* Rebuilds the hash: cell size covers the widest interaction of a tick. */
static int rehash(td_crowd *c) {
  float reach = 2.0f * c->max_radius * 1.5f + 2.0f * c->max_speed_all * c->dt + c->p.margin;
  if (!(reach > 0.0f)) reach = 1.0f;
  if (reach != c->cell) {
    float w = c->ext_w, h = c->ext_h;
    int32_t gw = (int32_t)(w / reach) + 1, gh = (int32_t)(h / reach) + 1;
    while ((int64_t)gw * gh > 4 * 1024 * 1024) { /* bound the table */
      reach *= 1.5f;
      gw = (int32_t)(w / reach) + 1;
      gh = (int32_t)(h / reach) + 1;
    }
    size_t cells = (size_t)gw * (size_t)gh + 1;
    int32_t *start = td_mem_alloc(cells * sizeof *start);
    if (!start) return -1;
    td_mem_free(c->cell_start, c->cell_slots * sizeof *c->cell_start);
    c->cell_start = start;
    c->cell_slots = cells;
    c->gw = gw;
    c->gh = gh;
    c->cell = reach;
  }
  size_t ncell = (size_t)c->gw * (size_t)c->gh;
  memset(c->cell_start, 0, (ncell + 1) * sizeof *c->cell_start);
  for (size_t i = 0; i < c->used; i++) {
    c->cell_of[i] = -1;
    if (c->state[i] == TD_AGENT_FREE) continue;
    int32_t gx = (int32_t)floorf((c->x[i] - c->gx0) / c->cell);
    int32_t gy = (int32_t)floorf((c->y[i] - c->gy0) / c->cell);
    gx = gx < 0 ? 0 : gx >= c->gw ? c->gw - 1 : gx;
    gy = gy < 0 ? 0 : gy >= c->gh ? c->gh - 1 : gy;
    c->cell_of[i] = gy * c->gw + gx;
    c->cell_start[c->cell_of[i] + 1]++;
  }
  for (size_t k = 0; k < ncell; k++) c->cell_start[k + 1] += c->cell_start[k];
  /* fill in slot order, advancing each cell's start as a cursor, then shift
  ** the starts back by one cell */
  for (size_t i = 0; i < c->used; i++)
    if (c->cell_of[i] >= 0) c->cell_items[c->cell_start[c->cell_of[i]]++] = (int32_t)i;
  for (size_t k = ncell; k > 0; k--) c->cell_start[k] = c->cell_start[k - 1];
  c->cell_start[0] = 0;
  return 0;
}

/* Visits the agents in the 3x3 cells around agent i (i itself excluded). */
#define FOR_NEIGHBOURS(c, i, j)                                                      \
  for (int32_t ny_ = -1, cc_ = (c)->cell_of[i]; ny_ <= 1; ny_++)                    \
    for (int32_t nx_ = -1; nx_ <= 1; nx_++)                                          \
      for (int32_t cgx_ = cc_ % (c)->gw + nx_, cgy_ = cc_ / (c)->gw + ny_,           \
                   k_ = (cgx_ >= 0 && cgx_ < (c)->gw && cgy_ >= 0 && cgy_ < (c)->gh) \
                            ? (c)->cell_start[cgy_ * (c)->gw + cgx_]                 \
                            : 0,                                                     \
                   e_ = (cgx_ >= 0 && cgx_ < (c)->gw && cgy_ >= 0 && cgy_ < (c)->gh) \
                            ? (c)->cell_start[cgy_ * (c)->gw + cgx_ + 1]             \
                            : 0,                                                     \
                   j = 0;                                                            \
           k_ < e_; k_++)                                                            \
        if ((j = (c)->cell_items[k_]) != (int32_t)(i))

/* Turns (vx, vy) towards (wx, wy) by at most max_turn radians and changes
** its length towards |w| by at most max_dv. */
static void limit(float vx, float vy, float wx, float wy, float max_turn, float max_dv,
                  float *ox, float *oy) {
  float vl = len2(vx, vy), wl = len2(wx, wy);
  float hx = wx, hy = wy;
  if (vl > 1e-6f && wl > 1e-6f) {
    float cross = vx * wy - vy * wx, dot = vx * wx + vy * wy;
    float ang = atan2f(cross, dot);
    if (fabsf(ang) > max_turn) {
      float a = ang > 0 ? max_turn : -max_turn, cs = cosf(a), sn = sinf(a);
      hx = (vx * cs - vy * sn) / vl * wl;
      hy = (vx * sn + vy * cs) / vl * wl;
    }
  }
  float tl = len2(hx, hy);
  float speed = tl > vl + max_dv ? vl + max_dv : tl < vl - max_dv ? vl - max_dv : tl;
  if (speed < 0.0f) speed = 0.0f;
  if (tl > 1e-6f) {
    *ox = hx / tl * speed;
    *oy = hy / tl * speed;
  } else {
    *ox = vl > 1e-6f ? vx / vl * speed : 0.0f;
    *oy = vl > 1e-6f ? vy / vl * speed : 0.0f;
  }
}

/* Desired velocity of a walker: pure pursuit of a point ahead on its lane,
** bent around the corner at the lane's miter point. */
static void walk_desire(const td_crowd *c, size_t i, float *wx, float *wy) {
  corner k;
  corner_at(c, c->from[i], c->to[i], &k);
  float speed = c->max_speed[i];
  float lane = c->lane[i];

  /* An agent ahead in the way: a wave-mate of the same kind is followed
  ** (our speed capped so the gap does not close), anyone slower by nature
  ** (another kind, or a stunned one) is passed: our lane shifts aside. */
  float follow = INFINITY;
  if (c->cell_of[i] >= 0) {
    float best = INFINITY, shift = 0.0f;
    FOR_NEIGHBOURS(c, i, j) {
      if (c->state[j] != TD_AGENT_WALK && c->state[j] != TD_AGENT_STUNNED) continue;
      float rx = c->x[j] - c->x[i], ry = c->y[j] - c->y[i];
      float ahead = rx * k.dx + ry * k.dy, side = rx * k.nx + ry * k.ny;
      float reach = c->radius[i] + c->radius[j];
      float vj = c->vx[j] * k.dx + c->vy[j] * k.dy;
      bool mate = c->group[j] == c->group[i] && c->state[j] == TD_AGENT_WALK &&
                  c->max_speed[j] >= 0.9f * c->max_speed[i];
      if (mate) {
        if (ahead <= 0.0f || ahead > 3.0f * reach || fabsf(side) >= reach) continue;
        /* close at most to 1.25 reach, at the speed that gets there in 1/4 s */
        float cap = vj + (ahead - 1.25f * reach) * 4.0f;
        if (cap < follow) follow = cap < 0.0f ? 0.0f : cap;
        continue;
      }
      /* pass: from 4 reach before until it is a reach behind us */
      if (ahead <= -reach || ahead > 4.0f * reach || fabsf(side) >= 1.2f * reach) continue;
      if (vj > 0.9f * speed) continue; /* not slower: no need to pass */
      if (fabsf(ahead) < best) {
        best = fabsf(ahead);
        /* pass on the side we already lean to (ties: the left) */
        shift = side > 0.0f ? -(1.3f * reach - side) : 1.3f * reach + side;
      }
    }
    lane += shift;
  }

  float lookahead = c->p.lookahead * speed;
  if (lookahead < 2.0f * c->radius[i]) lookahead = 2.0f * c->radius[i];
  /* the lane line: a + n*lane + t*d; its miter point at b */
  float t = (c->x[i] - k.ax) * k.dx + (c->y[i] - k.ay) * k.dy;
  float mpx = k.bx + k.mx * lane * k.scale, mpy = k.by + k.my * lane * k.scale;
  float tb = lane_end(&k, lane);
  float tc = t + lookahead, px, py;
  if (tc <= tb || k.last) {
    px = k.ax + k.nx * lane + k.dx * tc;
    py = k.ay + k.ny * lane + k.dy * tc;
  } else {
    px = mpx + k.d2x * (tc - tb);
    py = mpy + k.d2y * (tc - tb);
  }

  /* cohesion: hurry when behind the group's mean progress, ease off ahead */
  if (c->p.cohesion > 0.0f && c->g_n[c->group[i]] > 1) {
    float mean = (float)(c->g_sum[c->group[i]] / c->g_n[c->group[i]]);
    float behind = c->prog[i] - mean; /* > 0: more left to go than the group */
    float f = 1.0f + c->p.cohesion * behind / speed;
    f = f < 0.7f ? 0.7f : f > 1.15f ? 1.15f : f;
    speed *= f;
  }
  if (speed > follow) speed = follow;
  float ex = px - c->x[i], ey = py - c->y[i], el = len2(ex, ey);
  *wx = el > 1e-6f ? ex / el * speed : 0.0f;
  *wy = el > 1e-6f ? ey / el * speed : 0.0f;
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
  static const float angles[7] = {0.0f, 0.349f, -0.349f, 0.698f, -0.698f, 1.047f, -1.047f};
  float len = speed * 1.0f + 3.0f * c->radius[i];
  float ox = c->x[i] - hx * c->radius[i], oy = c->y[i] - hy * c->radius[i];
  float left = 0.0f, right = 0.0f, centre = 0.0f;
  for (int a = 0; a < 7; a++) {
    float cs = cosf(angles[a]), sn = sinf(angles[a]);
    float dx = hx * cs - hy * sn, dy = hx * sn + hy * cs;
    float hit = INFINITY;
    for (size_t o = 0; o < c->obs_n; o++) {
      float h = ray_rect(ox, oy, dx, dy, c->obs + 4 * o, c->radius[i]);
      if (h < hit) hit = h;
    }
    if (!(hit < len)) continue;
    float w = (1.0f - hit / len) * (1.2f - fabsf(angles[a]));
    if (a == 0) centre = w;
    else if (angles[a] > 0.0f) left += w;  /* counter-clockwise side */
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

static void steer(td_crowd *c) {
  float dt = c->dt;
  for (size_t i = 0; i < c->used; i++) {
    c->nvx[i] = c->vx[i];
    c->nvy[i] = c->vy[i];
    uint8_t s = c->state[i];
    float wx = 0.0f, wy = 0.0f;
    if (s == TD_AGENT_WALK) {
      walk_desire(c, i, &wx, &wy);
    } else if (s == TD_AGENT_FLY) {
      float gd;
      fly_desire(c, i, &wx, &wy, &gd);
      if (gd <= 2.0f * c->radius[i]) {
        c->state[i] = TD_AGENT_LEAKED;
        continue;
      }
    } else if (s != TD_AGENT_STUNNED && s != TD_AGENT_STRANDED) {
      continue;
    }
    /* soft separation: keep a margin from neighbours of the same layer */
    if (c->p.separation && c->cell_of[i] >= 0) {
      float px = 0.0f, py = 0.0f;
      FOR_NEIGHBOURS(c, i, j) {
        if (layer(c->state[j]) != layer(s)) continue;
        float rx = c->x[i] - c->x[j], ry = c->y[i] - c->y[j], d = len2(rx, ry);
        float want = c->radius[i] + c->radius[j] + c->p.margin + 0.2f * c->radius[i];
        if (d >= want || d < 1e-6f) continue;
        float push = (want - d) / want;
        px += rx / d * push;
        py += ry / d * push;
      }
      wx += px * c->max_speed[i];
      wy += py * c->max_speed[i];
    }
    limit(c->vx[i], c->vy[i], wx, wy, c->turn[i] * dt, c->accel[i] * dt, &c->nvx[i],
          &c->nvy[i]);
    if (s == TD_AGENT_STUNNED || s == TD_AGENT_STRANDED) {
      /* standing: only the push moves it, slowly */
      c->nvx[i] *= 0.5f;
      c->nvy[i] *= 0.5f;
    }
  }
}

static void move(td_crowd *c) {
  float dt = c->dt;
  for (size_t i = 0; i < c->used; i++) {
    uint8_t s = c->state[i];
    if (s == TD_AGENT_FREE || s == TD_AGENT_LEAKED || s == TD_AGENT_REMOVED) continue;
    c->vx[i] = c->nvx[i];
    c->vy[i] = c->nvy[i];
    c->x[i] += c->vx[i] * dt;
    c->y[i] += c->vy[i] * dt;
    c->travelled[i] += len2(c->vx[i], c->vy[i]) * dt;
  }
}

/* Pushes overlapping walkers apart by half the overlap each (plus a thin
** skin), from the positions before the pass (Jacobi), twice. Coincident
** agents split along the y axis, the lower slot upwards. */
static void project(td_crowd *c) {
  for (int iter = 0; iter < 2; iter++) {
    for (size_t i = 0; i < c->used; i++) {
      c->cx[i] = 0.0f;
      c->cy[i] = 0.0f;
      int li = layer(c->state[i]);
      if (c->cell_of[i] < 0 || li < 0) continue;
      FOR_NEIGHBOURS(c, i, j) {
        if (layer(c->state[j]) != li) continue;
        float rx = c->x[i] - c->x[j], ry = c->y[i] - c->y[j], d = len2(rx, ry);
        /* a skin of 2% of the radii: resolved pairs end slightly apart */
        float want = (c->radius[i] + c->radius[j]) * 1.02f;
        if (d >= want) continue;
        if (d < 1e-6f) { /* coincident: split along y, by slot order */
          c->cy[i] += ((size_t)j > i ? -0.5f : 0.5f) * want;
          continue;
        }
        float corr = (want - d) * 0.5f;
        c->cx[i] += rx / d * corr;
        c->cy[i] += ry / d * corr;
      }
    }
    for (size_t i = 0; i < c->used; i++) {
      c->x[i] += c->cx[i];
      c->y[i] += c->cy[i];
    }
  }
}

/* Takes next[] at waypoints; goals are leaks; a node without a route makes
** the agent wait there. */
static void waypoints(td_crowd *c) {
  const int32_t *next = td_route_next(c->route);
  for (size_t i = 0; i < c->used; i++) {
    if (c->state[i] == TD_AGENT_STRANDED && next[c->to[i]] != TD_NONE) {
      c->from[i] = c->to[i];
      c->to[i] = next[c->to[i]];
      c->state[i] = TD_AGENT_WALK;
      c->enter[i] = 0.0f;
    }
    if (c->state[i] != TD_AGENT_WALK) continue;
    for (int hops = 0; hops < 4; hops++) { /* short segments: several per tick */
      corner k;
      corner_at(c, c->from[i], c->to[i], &k);
      float past = (c->x[i] - k.bx) * k.tx + (c->y[i] - k.by) * k.ty;
      if (k.last) past = (c->x[i] - k.bx) * k.dx + (c->y[i] - k.by) * k.dy + c->radius[i];
      if (past < 0.0f) break;
      int32_t b = c->to[i];
      if (td_route_is_goal(c->route, b) && td_route_dist(c->route)[b] == 0) {
        c->state[i] = TD_AGENT_LEAKED;
        break;
      }
      if (next[b] == TD_NONE) {
        c->state[i] = TD_AGENT_STRANDED;
        break;
      }
      if (next[b] == c->from[i]) c->lane[i] = -c->lane[i]; /* U-turn: keep its side */
      c->from[i] = b;
      c->to[i] = next[b];
      corner k2;
      corner_at(c, c->from[i], c->to[i], &k2);
      c->enter[i] = (c->x[i] - k2.ax) * k2.dx + (c->y[i] - k2.ay) * k2.dy;
    }
  }
}

static void collect_leaks(td_crowd *c) {
  for (size_t i = 0; i < c->used; i++) {
    if (c->state[i] != TD_AGENT_LEAKED) continue;
    if (c->leak_len == c->leak_cap) {
      td_agent *p = td_mem_grow(c->leaks, &c->leak_cap, c->leak_len + 1, sizeof *p);
      if (!p) continue; /* the leak still happens; only the list misses it */
      c->leaks = p;
    }
    c->leaks[c->leak_len++] = make_handle(c, i);
    c->m.leaks++;
  }
}

/* ---- metrics ------------------------------------------------------------- */

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

static void measure(td_crowd *c) {
  /* min_gap over neighbour pairs of one layer */
  for (size_t i = 0; i < c->used; i++) {
    int li = layer(c->state[i]);
    if (c->cell_of[i] < 0 || li < 0) continue;
    FOR_NEIGHBOURS(c, i, j) {
      if ((size_t)j < i || layer(c->state[j]) != li) continue;
      double gap = (double)len2(c->x[i] - c->x[j], c->y[i] - c->y[j]) -
                   (double)c->radius[i] - (double)c->radius[j];
      if (gap < c->m.min_gap) c->m.min_gap = gap;
    }
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
    corner k;
    corner_at(c, c->from[i], c->to[i], &k);
    float t = (c->x[i] - k.ax) * k.dx + (c->y[i] - k.ay) * k.dy;
    float lat = (c->x[i] - k.ax) * k.nx + (c->y[i] - k.ay) * k.ny;
    float zone = c->p.lookahead * c->max_speed[i] + 2.0f * c->radius[i] +
                 fabsf(c->lane[i]) * k.scale;
    if (t > zone && t < k.len - zone) {
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
  qsort(c->sort_keys, n, sizeof *c->sort_keys, cmp_i64);
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
          corner k;
          corner_at(c, c->from[i], c->to[i], &k);
          float li = (c->x[i] - k.ax) * k.nx + (c->y[i] - k.ay) * k.ny;
          float lj = (c->x[j] - k.ax) * k.nx + (c->y[j] - k.ay) * k.ny;
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
  free_finished(c);
  formation(c);
  bool hashed = (c->p.separation || c->metrics_on) && rehash(c) == 0;
  if (!hashed)
    for (size_t i = 0; i < c->used; i++) c->cell_of[i] = -1;
  steer(c);
  move(c);
  if (c->p.separation && hashed) project(c);
  waypoints(c);
  collect_leaks(c);
  if (c->metrics_on && hashed) {
    if (rehash(c) == 0) measure(c);
  }
  c->tick++;
}

void td_crowd_route_changed(td_crowd *c) {
  const td_graph *g = c->g;
  const td_cost *dist = td_route_dist(c->route);
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
      if (c->state[i] == TD_AGENT_STRANDED && td_route_next(c->route)[b] != TD_NONE)
        c->state[i] = TD_AGENT_WALK;
      continue;
    }
    if (back_ok) {
      corner k;
      c->from[i] = b;
      c->to[i] = a;
      c->lane[i] = -c->lane[i]; /* keep its side of the road */
      c->state[i] = TD_AGENT_WALK;
      corner_at(c, b, a, &k);
      c->enter[i] = (c->x[i] - k.ax) * k.dx + (c->y[i] - k.ay) * k.dy;
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

static uint64_t fnv(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) {
    h ^= b[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

uint64_t td_crowd_checksum(const td_crowd *c) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < c->used; i++) {
    if (c->state[i] == TD_AGENT_FREE) continue;
    h = fnv(h, &i, sizeof i);
    h = fnv(h, &c->state[i], 1);
    h = fnv(h, &c->x[i], sizeof(float));
    h = fnv(h, &c->y[i], sizeof(float));
    h = fnv(h, &c->vx[i], sizeof(float));
    h = fnv(h, &c->vy[i], sizeof(float));
    h = fnv(h, &c->from[i], sizeof(int32_t));
    h = fnv(h, &c->to[i], sizeof(int32_t));
  }
  return h;
}
