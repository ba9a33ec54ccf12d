/*
** bench_crowd.c: `td bench crowd`, the crowd benchmark.
**
** Each case steps n agents (1k, 10k, 100k, 1M) on a long winding route,
** with separation on and off, and reports the median time of a tick and the
** time per agent; the table adds the 90th percentile and the mean (the
** crowd makes its neighbour lists again every few ticks: those ticks take
** longer, and only the mean counts them all). The route is a serpentine
** built in code: rows of slightly bent straights joined by two right-angle
** turns, a few hundred waypoints on the large cases, its length scaled so
** that every case has the same density.
** Agents stand in waves (groups of 48: 6 lanes 1.5 apart, 8 rows 2 apart, a
** gap of 10 to the next wave), spread along the whole route, each wave on one
** segment; wave speeds vary (3.5 to 4.5 units/s), radius 0.5, 60 ticks/s.
**
** The baseline, run in the same process and interleaved tick by tick with
** the crowd so that drift hits both, is the floor of crowd movement: every
** agent on the same route from the same position just seeks its next
** waypoint at its top speed (no lanes, no corners, no acceleration or turn
** limit, no cohesion, no neighbours). The ratio crowd / floor is what lanes
** and flocking cost over merely moving points along the route; it stays
** meaningful on a shared machine where absolute times drift.
**
** Every case has a road (nav/walk.h): each edge of the route ROAD_WIDE
** wide, square-capped, which holds the waves as they are; ground agents
** keep to it (lanes fitted to the room, the boundary constraint after the
** projection). The narrow cases (1k-, 10k-, 100k-narrow) make the same
** serpentine a corridor ROAD_NARROW wide, with waves as they stand once
** narrowed (24 in single file, NARROW_PITCH apart, see shape_for): they
** file through, and queue where a faster wave catches up with a slower one.
** The wave cases (100k-wave, 100k-wave-metrics, 10k-wave-metrics) stand
** one group, rows of 60, on the first segment of a long straight, and time
** the ticks with the metrics off and on: lane_swaps sorts the walkers once
** and group_spread takes the group's convex hull, O(n log n), where an
** insertion sort of one group on a segment was quadratic (10k against 100k
** shows the growth).
**
** After the timed ticks, a few more run with the metrics on (untimed), to
** show that the crowd being timed behaves: with separation, min_gap must
** stay above 0, and in every case off_road must be 0 (no disc left the
** road by more than 5% of its radius), or the bench exits 1.
** Cases of at most 10k agents are also run twice and must give the same
** checksum (determinism), or the bench exits 1.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/bench.h"
#include "app/cmds.h"
#include "app/graphgen.h"
#include "crowd/crowd.h"
#include "nav/graph.h"
#include "nav/route.h"
#include "nav/walk.h"

#define DT (1.0 / 60.0)
#define WAVE_LANES 6
#define WAVE_ROWS 8
#define WAVE_SIZE (WAVE_LANES * WAVE_ROWS)
#define WAVE_WIDTH 7.5f    /* outer lane to outer lane: lanes 1.5 apart */
#define WAVE_SPACING 2.0f  /* between rows */
#define WAVE_GAP 10.0      /* from the last row of a wave to the next wave */
#define WAVE_PITCH ((WAVE_ROWS - 1) * (double)WAVE_SPACING + WAVE_GAP)
#define ROW_PITCH 24.0     /* between the rows of the serpentine */
/* The road: 10 holds a wave of 7.5 between outer lanes with radius 0.5
** (room 4.5 a side for lanes of 3.75) and its miter points at the
** right-angle turns (3.75 x 3.75 from the corner, inside the square the
** two capped rectangles cover). The rows of the serpentine are ROW_PITCH
** apart and bend 4 at most: a row's road (y +-4 +-5) and the next one's
** leave 6 between them, and each leg's road, capped, reaches 5 past its
** rows (y - 5 to y + 24 + 5), short of the legs two rows on. */
#define ROAD_WIDE 10.0f
/* A corridor that holds two discs of radius 0.5 abreast with 0.2 to
** spare; lanes fitted to it are one (two need a room of 2.2 radii between
** them: half width 1.1 + 0.5): the waves file through. */
#define ROAD_NARROW 2.2f
/* A narrowed wave: 24 bodies in single file, NARROW_SPACING apart (about
** 30 long), NARROW_PITCH from one head to the next (WAVE_GAP between). */
#define NARROW_PITCH 40.0
#define NARROW_WAVE 24
#define NARROW_SPACING 1.3f
/* The one wave of the wave cases: rows of 60, 1.5 apart like the waves'
** lanes (88.5 wide, 1667 rows at 100k: 3.3k long), on a road that holds
** them (room 45.75 a side for lanes of 44.25). Rows of 6 would make it
** 33k long: the crowd's grid, laid over the graph's box and a border of 2%
** of its size, would have many more cells than agents and go sparse
** (binary searches of the keys), and that, not the metrics, would show. */
#define ONE_WAVE_LANES 60
#define ROAD_WAVE 92.5f

typedef struct bench_case {
  const char *name;
  int32_t agents;
  bool separation;
  float road;        /* road width (every edge) */
  bool one_wave;     /* one group of `agents` on a long straight, not waves of 48 */
  bool metrics;      /* metrics on during the timed ticks too */
  bool quick;        /* part of --quick */
  int ticks;         /* timed ticks (after the warm-up) */
  double target_ms;  /* issue 3's target per tick, 0: none */
} bench_case;

static const bench_case cases[] = {
  {"1k-sep", 1000, true, ROAD_WIDE, false, false, true, 300, 0},
  {"1k-nosep", 1000, false, ROAD_WIDE, false, false, true, 300, 0},
  {"10k-sep", 10000, true, ROAD_WIDE, false, false, true, 200, 0},
  {"10k-nosep", 10000, false, ROAD_WIDE, false, false, true, 200, 0},
  {"100k-sep", 100000, true, ROAD_WIDE, false, false, false, 60, 5.0},
  {"100k-nosep", 100000, false, ROAD_WIDE, false, false, false, 60, 0},
  {"1M-sep", 1000000, true, ROAD_WIDE, false, false, false, 20, 0},
  {"1M-nosep", 1000000, false, ROAD_WIDE, false, false, false, 30, 20.0},
  {"1k-narrow", 1000, true, ROAD_NARROW, false, false, true, 300, 0},
  {"10k-narrow", 10000, true, ROAD_NARROW, false, false, false, 200, 0},
  {"100k-narrow", 100000, true, ROAD_NARROW, false, false, false, 20, 0},
  {"10k-wave-metrics", 10000, true, ROAD_WAVE, true, true, false, 200, 0},
  {"100k-wave", 100000, true, ROAD_WAVE, true, false, false, 60, 0},
  {"100k-wave-metrics", 100000, true, ROAD_WAVE, true, true, false, 60, 0},
};

#define WARMUP_TICKS 30    /* waves start at rest: let them reach speed */
#define METRIC_TICKS 10

/* ---- the route ----------------------------------------------------------- */

/* A serpentine of about `need` map units: rows of `per_row` segments along
** x, their inner waypoints alternately 4 units up and down (turns of 15
** degrees on the 60-unit segments of the small cases, under one degree on
** the long ones of the large cases), joined by legs of ROW_PITCH (two
** right-angle turns), rows as many as make the map square. The goal is the
** last node; the route runs through every node. */
static td_graph *serpentine(double need, int32_t *nodes_out) {
  double seg = need / 300.0 > 60.0 ? need / 300.0 : 60.0; /* a few hundred waypoints */
  int32_t rows = (int32_t)ceil(sqrt(need / ROW_PITCH)); /* a square map */
  int32_t per_row = (int32_t)ceil(need / rows / seg);
  if (per_row < 1) per_row = 1;
  int32_t n = rows * (per_row + 1);
  double bend = 0.15 * seg < 4.0 ? 0.15 * seg : 4.0;
  td_graph *g = td_graph_create(n, n);
  if (!g) return NULL;
  double row_len = per_row * seg;
  for (int32_t r = 0; r < rows; r++) {
    bool east = r % 2 == 0;
    for (int32_t k = 0; k <= per_row; k++) {
      double x = east ? k * seg : row_len - k * seg;
      double y = r * ROW_PITCH + ((k > 0 && k < per_row) ? (k % 2 ? bend : -bend) : 0.0);
      if (td_graph_add_node(g, x, y, NULL) < 0) goto fail;
    }
  }
  for (int32_t v = 0; v + 1 < n; v++)
    if (td_graph_add_edge(g, v, v + 1, 1.0, NULL) < 0) goto fail;
  if (td_graph_finalize(g, NULL) != 0) goto fail;
  *nodes_out = n;
  return g;
fail:
  td_graph_destroy(g);
  return NULL;
}

/* The waves a segment of length len holds: heads from 6 before its end,
** pitch apart, tails at least 2 after its start. */
/* How a case's waves stand: 48 in 8 rows of 6 on a road that holds them;
** on a narrow one, as a wave stands once it has narrowed: 24 in single file,
** NARROW_SPACING apart (a body, the follow distance), NARROW_PITCH from
** head to head. Placed 6 abreast there, six bodies per row would start on
** one spot and the first ticks would be a jam, not a corridor. */
typedef struct wave_shape {
  int32_t size, per_row;
  float width, spacing;
  double pitch;
} wave_shape;

static wave_shape shape_for(float road) {
  if (road < WAVE_WIDTH + 1.0f)
    return (wave_shape){NARROW_WAVE, 1, 0.0f, NARROW_SPACING, NARROW_PITCH};
  return (wave_shape){WAVE_SIZE, WAVE_LANES, WAVE_WIDTH, WAVE_SPACING, WAVE_PITCH};
}

static int32_t waves_on(double len, const wave_shape *ws) {
  int32_t rows = (ws->size + ws->per_row - 1) / ws->per_row; /* whole rows */
  double length = (double)(rows - 1) * (double)ws->spacing;
  return len - 6.0 - length < 2.0 ? 0 : (int32_t)((len - 8.0 - length) / ws->pitch) + 1;
}

static double seg_len(const td_graph *g, int32_t a) {
  return hypot(g->x[a + 1] - g->x[a], g->y[a + 1] - g->y[a]);
}

/* The serpentine that holds `waves` waves of shape ws: grown until it does. */
static td_graph *route_for(int32_t waves, const wave_shape *ws, int32_t *nodes_out) {
  for (double need = (double)waves * ws->pitch + 100.0;; need *= 1.1) {
    td_graph *g = serpentine(need, nodes_out);
    if (!g) return NULL;
    int64_t room = 0;
    for (int32_t a = 0; a + 1 < g->node_count; a++) room += waves_on(seg_len(g, a), ws);
    if (room >= waves) return g;
    td_graph_destroy(g);
  }
}

/* A straight of two segments along x, the first long enough for one wave
** of `agents` in rows of ONE_WAVE_LANES (its head 20 before the first
** segment's end), the second 60 long to the goal. */
static td_graph *straight_for(int32_t agents, int32_t *nodes_out) {
  int32_t rows = (agents + ONE_WAVE_LANES - 1) / ONE_WAVE_LANES;
  double first = (rows - 1) * (double)WAVE_SPACING + 40.0;
  td_graph *g = td_graph_create(3, 2);
  if (!g) return NULL;
  if (td_graph_add_node(g, 0.0, 0.0, NULL) < 0 || td_graph_add_node(g, first, 0.0, NULL) < 0 ||
      td_graph_add_node(g, first + 60.0, 0.0, NULL) < 0 ||
      td_graph_add_edge(g, 0, 1, 1.0, NULL) < 0 || td_graph_add_edge(g, 1, 2, 1.0, NULL) < 0 ||
      td_graph_finalize(g, NULL) != 0) {
    td_graph_destroy(g);
    return NULL;
  }
  *nodes_out = 3;
  return g;
}

/* One wave of `want` agents, group 0, speed 4, rows of ONE_WAVE_LANES on
** the straight's first segment, its head 20 before the segment's end. */
static int32_t place_one_wave(td_crowd *c, const td_graph *g, int32_t want) {
  td_agent_desc d = {.radius = 0.5f, .max_speed = 4.0f,
                     .slot = (float)(seg_len(g, 0) - 20.0), .group = 0};
  td_formation f = {.count = want, .per_row = ONE_WAVE_LANES,
                    .width = 1.5f * (float)(ONE_WAVE_LANES - 1), .spacing = WAVE_SPACING};
  return td_crowd_spawn(c, &d, 0, &f, NULL, NULL);
}

/* Places the waves along the route, from the goal end backwards, each on one
** segment, pitch apart. Wave w: group w, speed 3.5 .. 4.5. Returns the
** number of agents added (== want unless out of memory or out of route). */
static int32_t place_waves(td_crowd *c, const td_graph *g, int32_t want, const wave_shape *ws,
                           uint64_t seed) {
  td_graphgen_rng rng = {seed ? seed : 1};
  int32_t added = 0, group = 0;
  for (int32_t a = g->node_count - 2; a >= 0 && added < want; a--) {
    int32_t k = waves_on(seg_len(g, a), ws);
    for (int32_t w = 0; w < k && added < want; w++) {
      td_agent_desc d = {.radius = 0.5f,
                         .max_speed = 3.5f + 0.25f * (float)td_graphgen_below(&rng, 5),
                         .slot = (float)(seg_len(g, a) - 6.0 - w * ws->pitch),
                         .group = group++};
      int32_t count = want - added < ws->size ? want - added : ws->size;
      td_formation f = {.count = count, .per_row = ws->per_row, .width = ws->width,
                        .spacing = ws->spacing};
      int32_t got = td_crowd_spawn(c, &d, a, &f, NULL, NULL);
      added += got;
      if (got < count) return added;
    }
  }
  return added;
}

/* ---- the baseline: the floor of crowd movement ---------------------------- */

typedef struct floor_crowd {
  float *x, *y, *speed;
  int32_t *to;       /* node sought; TD_NONE: arrived */
  size_t n, size;
  void *block;
  const td_graph *g;
  const int32_t *next;
} floor_crowd;

static int floor_make(floor_crowd *f, const td_crowd *c, const td_route *r) {
  size_t n = td_crowd_capacity(c);
  memset(f, 0, sizeof *f);
  f->g = td_route_graph(r);
  f->next = td_route_next(r);
  /* through td's allocation hook, in one block with the columns staggered
  ** in the page, like the crowd's (see grow_agents in crowd.c): a fair floor */
  size_t col = (n * sizeof(float) + 4095) / 4096 * 4096 + 192;
  unsigned char *b = f->block = td_mem_alloc(4 * col);
  f->size = 4 * col;
  f->n = n;
  if (!b) return -1;
  f->x = (float *)b;
  f->y = (float *)(b + col);
  f->speed = (float *)(b + 2 * col);
  f->to = (int32_t *)(b + 3 * col);
  for (size_t i = 0; i < n; i++) {
    td_agent_view v;
    if (!td_crowd_view(c, i, &v)) {
      f->to[i] = TD_NONE;
      continue;
    }
    f->x[i] = v.x;
    f->y[i] = v.y;
    f->speed[i] = 4.0f;
    f->to[i] = v.to;
  }
  return 0;
}

static void floor_free(floor_crowd *f) { td_mem_free(f->block, f->size); }

static void floor_step(floor_crowd *f) {
  const float dt = (float)DT;
  for (size_t i = 0; i < f->n; i++) {
    int32_t to = f->to[i];
    if (to == TD_NONE) continue;
    float ex = (float)f->g->x[to] - f->x[i], ey = (float)f->g->y[to] - f->y[i];
    float d = sqrtf(ex * ex + ey * ey), step = f->speed[i] * dt;
    if (d <= step) { /* arrived: on to the next waypoint (or done) */
      f->to[i] = f->next[to];
      continue;
    }
    f->x[i] += ex / d * step;
    f->y[i] += ey / d * step;
  }
}

/* ---- one case ------------------------------------------------------------ */

typedef struct result {
  int32_t agents, waypoints;
  double ms, p90, mean, floor_ms, min_gap, lane_error, off_road_depth;
  int64_t off_road;
  uint64_t checksum;
} result;

typedef struct world {
  td_graph *g;
  td_route *r;
  td_walk *walk;
  td_crowd *c;
} world;

static void world_free(world *w) {
  td_crowd_destroy(w->c);
  td_walk_destroy(w->walk); /* the crowd borrowed it */
  td_route_destroy(w->r);
  td_graph_destroy(w->g);
}

static int world_make(const bench_case *bc, uint64_t seed, world *w, int32_t *waypoints,
                      td_err *err) {
  memset(w, 0, sizeof *w);
  wave_shape ws = shape_for(bc->road);
  int32_t waves = (bc->agents + ws.size - 1) / ws.size;
  w->g = bc->one_wave ? straight_for(bc->agents, waypoints)
                      : route_for(waves, &ws, waypoints);
  if (!w->g) return td_err_set(err, "out of memory");
  int32_t goal = *waypoints - 1;
  w->r = td_route_create(w->g, &goal, 1, err);
  if (!w->r) return -1;
  float *widths = malloc((size_t)w->g->edge_count * sizeof *widths);
  if (!widths) return td_err_set(err, "out of memory");
  for (int32_t e = 0; e < w->g->edge_count; e++) widths[e] = bc->road;
  w->walk = td_walk_create_road(w->g, widths, err);
  free(widths);
  if (!w->walk) return -1;
  td_crowd_params p = td_crowd_default_params(DT);
  p.separation = bc->separation;
  /* no gate: the waves stand along the whole route at their slots from the
  ** start (a wave per segment, WAVE_PITCH apart), not queued at a spawn; a
  ** gate would hold every row behind node `a` of its segment off the map */
  p.gate = false;
  w->c = td_crowd_create(w->r, &p, err);
  if (!w->c) return -1;
  td_crowd_set_walk(w->c, w->walk); /* before the waves: their lanes fit the road */
  int32_t placed = bc->one_wave ? place_one_wave(w->c, w->g, bc->agents)
                                : place_waves(w->c, w->g, bc->agents, &ws, seed);
  if (placed != bc->agents)
    return td_err_set(err, "could not place %d agents (out of memory?)", bc->agents);
  return 0;
}

static int run_case(const bench_case *bc, const bench_opts *o, result *res) {
  world w;
  td_err err;
  memset(res, 0, sizeof *res);
  if (world_make(bc, o->seed, &w, &res->waypoints, &err) != 0) {
    td_app_say("bench crowd: %s: %s", bc->name, err.msg);
    world_free(&w);
    return 2;
  }
  res->agents = (int32_t)td_crowd_count(w.c);
  floor_crowd f;
  double *t = malloc((size_t)bc->ticks * sizeof *t), *tf = malloc((size_t)bc->ticks * sizeof *tf);
  if (!t || !tf || floor_make(&f, w.c, w.r) != 0) {
    td_app_say("bench crowd: %s: out of memory", bc->name);
    exit(2);
  }
  for (int k = 0; k < WARMUP_TICKS; k++) {
    td_crowd_step(w.c);
    floor_step(&f);
  }
  if (bc->metrics) td_crowd_enable_metrics(w.c, true); /* timed with them */
  for (int k = 0; k < bc->ticks; k++) { /* interleaved, so drift hits both */
    double s = bench_now_ms();
    td_crowd_step(w.c);
    t[k] = bench_now_ms() - s;
    s = bench_now_ms();
    floor_step(&f);
    tf[k] = bench_now_ms() - s;
  }
  for (int k = 0; k < bc->ticks; k++) res->mean += t[k] / bc->ticks;
  qsort(t, (size_t)bc->ticks, sizeof *t, bench_cmp_double);
  qsort(tf, (size_t)bc->ticks, sizeof *tf, bench_cmp_double);
  res->ms = t[bc->ticks / 2];
  res->p90 = t[(bc->ticks * 9) / 10];
  res->floor_ms = tf[bc->ticks / 2];
  res->checksum = td_crowd_checksum(w.c);
  int status = 0;

  /* determinism: the same case again gives the same state */
  if (bc->agents <= 10000) {
    world w2;
    int32_t wp;
    if (world_make(bc, o->seed, &w2, &wp, &err) != 0) {
      td_app_say("bench crowd: %s: %s", bc->name, err.msg);
      exit(2);
    }
    for (int k = 0; k < WARMUP_TICKS + bc->ticks; k++) {
      if (k == WARMUP_TICKS && bc->metrics) td_crowd_enable_metrics(w2.c, true);
      td_crowd_step(w2.c);
    }
    if (td_crowd_checksum(w2.c) != res->checksum) {
      td_app_say("bench crowd: %s: two runs of the same case differ", bc->name);
      status = 1;
    }
    world_free(&w2);
  }

  td_crowd_enable_metrics(w.c, true);
  for (int k = 0; k < METRIC_TICKS; k++) td_crowd_step(w.c);
  const td_crowd_metrics *m = td_crowd_get_metrics(w.c);
  res->min_gap = m->min_gap;
  res->lane_error = m->lane_error;
  res->off_road = m->off_road;
  res->off_road_depth = m->off_road_depth;
  if (bc->separation && !(m->min_gap > 0.0)) {
    td_app_say("bench crowd: %s: agents overlap (min_gap %g)", bc->name, m->min_gap);
    status = 1;
  }
  if (m->off_road > 0) {
    td_app_say("bench crowd: %s: agents off the road (off_road %lld, depth %g)",
               bc->name, (long long)m->off_road, m->off_road_depth);
    status = 1;
  }

  free(t);
  free(tf);
  floor_free(&f);
  world_free(&w);
  return status;
}

static void report(const bench_case *bc, const bench_opts *o, const result *r) {
  double ns = r->ms * 1e6 / r->agents, over = r->ms / (r->floor_ms > 0 ? r->floor_ms : 1e-9);
  if (o->json) {
    bench_emit("crowd", bc->name, "agents", r->agents);
    bench_emit("crowd", bc->name, "waypoints", r->waypoints);
    bench_emit("crowd", bc->name, "separation", bc->separation);
    bench_emit("crowd", bc->name, "road_width", bc->road);
    bench_emit("crowd", bc->name, "metrics_timed", bc->metrics);
    bench_emit("crowd", bc->name, "ticks", bc->ticks);
    bench_emit("crowd", bc->name, "ms_per_tick", r->ms);
    bench_emit("crowd", bc->name, "p90_ms", r->p90);
    bench_emit("crowd", bc->name, "ns_per_agent", ns);
    bench_emit("crowd", bc->name, "floor_ms", r->floor_ms);
    bench_emit("crowd", bc->name, "over_floor", over);
    bench_emit("crowd", bc->name, "min_gap", r->min_gap);
    bench_emit("crowd", bc->name, "lane_error", r->lane_error);
    bench_emit("crowd", bc->name, "off_road", (double)r->off_road);
    if (bc->target_ms > 0) {
      bench_emit("crowd", bc->name, "target_ms", bc->target_ms);
      bench_emit("crowd", bc->name, "target_met", r->ms <= bc->target_ms);
    }
    return;
  }
  char target[24] = "-";
  if (bc->target_ms > 0)
    snprintf(target, sizeof target, "<=%g %s", bc->target_ms,
             r->ms <= bc->target_ms ? "met" : "MISSED");
  printf("%-17s %8d %5d %4s %4.1f %9.3f %9.3f %9.3f %8.1f %9.3f %7.2fx %8.3f %8.4f %8lld "
         "%08llx  %s\n",
         bc->name, r->agents, r->waypoints, bc->separation ? "on" : "off", (double)bc->road, r->ms,
         r->p90, r->mean, ns, r->floor_ms, over, r->min_gap, r->lane_error,
         (long long)r->off_road, (unsigned long long)(r->checksum & 0xFFFFFFFFu), target);
  fflush(stdout);
}

int td_bench_crowd(const bench_opts *o) {
  if (!o->json) {
    printf("td bench crowd  (seed %llu, dt 1/60 s, waves of %d, medians over the timed ticks "
           "after %d warm-up ticks)\n",
           (unsigned long long)o->seed, WAVE_SIZE, WARMUP_TICKS);
    printf("%-17s %8s %5s %4s %4s %9s %9s %9s %8s %9s %8s %8s %8s %8s %8s  %s\n", "case",
           "agents", "wayp", "sep", "road", "ms/tick", "p90 ms", "mean ms", "ns/agent",
           "floor ms", "x floor", "min_gap", "lane_err", "off_road", "checksum", "target");
  }
  int status = 0, ran = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    if (o->quick && !cases[i].quick) continue;
    if (o->only && strcmp(o->only, cases[i].name) != 0) continue;
    result r;
    int s = run_case(&cases[i], o, &r);
    if (s < 2) report(&cases[i], o, &r);
    if (s > status) status = s;
    ran++;
  }
  if (ran == 0) {
    td_app_say("bench crowd: no case named '%s'", o->only ? o->only : "");
    return 2;
  }
  if (!o->json)
    printf("x floor = crowd time / the floor's (every agent just seeks its next waypoint: no "
           "lanes, corners, limits, cohesion or neighbours); road = its width; -metrics: timed "
           "with the metrics on\n");
  return status;
}
