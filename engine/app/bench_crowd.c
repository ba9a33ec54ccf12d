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
** After the timed ticks, a few more run with the metrics on (untimed), to
** show that the crowd being timed behaves: with separation, min_gap must
** stay above 0, or the bench exits 1.
** Cases of at most 10k agents are also run twice and must give the same
** checksum (determinism), or the bench exits 1.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/bench.h"
#include "app/graphgen.h"
#include "crowd/crowd.h"
#include "nav/graph.h"
#include "nav/route.h"

#define DT (1.0 / 60.0)
#define WAVE_LANES 6
#define WAVE_ROWS 8
#define WAVE_SIZE (WAVE_LANES * WAVE_ROWS)
#define WAVE_WIDTH 7.5f    /* outer lane to outer lane: lanes 1.5 apart */
#define WAVE_SPACING 2.0f  /* between rows */
#define WAVE_GAP 10.0      /* from the last row of a wave to the next wave */
#define WAVE_PITCH ((WAVE_ROWS - 1) * (double)WAVE_SPACING + WAVE_GAP)
#define ROW_PITCH 24.0     /* between the rows of the serpentine */

typedef struct bench_case {
  const char *name;
  int32_t agents;
  bool separation;
  bool quick;        /* part of --quick */
  int ticks;         /* timed ticks (after the warm-up) */
  double target_ms;  /* issue 3's target per tick, 0: none */
} bench_case;

static const bench_case cases[] = {
  {"1k-sep", 1000, true, true, 300, 0},
  {"1k-nosep", 1000, false, true, 300, 0},
  {"10k-sep", 10000, true, true, 200, 0},
  {"10k-nosep", 10000, false, true, 200, 0},
  {"100k-sep", 100000, true, false, 60, 5.0},
  {"100k-nosep", 100000, false, false, 60, 0},
  {"1M-sep", 1000000, true, false, 20, 0},
  {"1M-nosep", 1000000, false, false, 30, 20.0},
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
** WAVE_PITCH apart, tails at least 2 after its start. */
static int32_t waves_on(double len) {
  double length = (WAVE_ROWS - 1) * (double)WAVE_SPACING;
  return len - 6.0 - length < 2.0 ? 0 : (int32_t)((len - 8.0 - length) / WAVE_PITCH) + 1;
}

static double seg_len(const td_graph *g, int32_t a) {
  return hypot(g->x[a + 1] - g->x[a], g->y[a + 1] - g->y[a]);
}

/* The serpentine that holds `waves` waves: grown until it does. */
static td_graph *route_for(int32_t waves, int32_t *nodes_out) {
  for (double need = (double)waves * WAVE_PITCH + 100.0;; need *= 1.1) {
    td_graph *g = serpentine(need, nodes_out);
    if (!g) return NULL;
    int64_t room = 0;
    for (int32_t a = 0; a + 1 < g->node_count; a++) room += waves_on(seg_len(g, a));
    if (room >= waves) return g;
    td_graph_destroy(g);
  }
}

/* Places the waves along the route, from the goal end backwards, each on one
** segment, WAVE_PITCH apart. Wave w: group w, speed 3.5 .. 4.5. Returns the
** number of agents added (== want unless out of memory or out of route). */
static int32_t place_waves(td_crowd *c, const td_graph *g, int32_t want, uint64_t seed) {
  td_graphgen_rng rng = {seed ? seed : 1};
  int32_t added = 0, group = 0;
  for (int32_t a = g->node_count - 2; a >= 0 && added < want; a--) {
    int32_t k = waves_on(seg_len(g, a));
    for (int32_t w = 0; w < k && added < want; w++) {
      td_agent_desc d = {.radius = 0.5f,
                         .max_speed = 3.5f + 0.25f * (float)td_graphgen_below(&rng, 5),
                         .slot = (float)(seg_len(g, a) - 6.0 - w * WAVE_PITCH),
                         .group = group++};
      int32_t count = want - added < WAVE_SIZE ? want - added : WAVE_SIZE;
      td_formation f = {.count = count, .per_row = WAVE_LANES, .width = WAVE_WIDTH,
                        .spacing = WAVE_SPACING};
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
  double ms, p90, mean, floor_ms, min_gap, lane_error;
  uint64_t checksum;
} result;

typedef struct world {
  td_graph *g;
  td_route *r;
  td_crowd *c;
} world;

static void world_free(world *w) {
  td_crowd_destroy(w->c);
  td_route_destroy(w->r);
  td_graph_destroy(w->g);
}

static int world_make(const bench_case *bc, uint64_t seed, world *w, int32_t *waypoints,
                      td_err *err) {
  memset(w, 0, sizeof *w);
  int32_t waves = (bc->agents + WAVE_SIZE - 1) / WAVE_SIZE;
  w->g = route_for(waves, waypoints);
  if (!w->g) return td_err_set(err, "out of memory");
  int32_t goal = *waypoints - 1;
  w->r = td_route_create(w->g, &goal, 1, err);
  if (!w->r) return -1;
  td_crowd_params p = td_crowd_default_params(DT);
  p.separation = bc->separation;
  /* no gate: the waves stand along the whole route at their slots from the
  ** start (a wave per segment, WAVE_PITCH apart), not queued at a spawn; a
  ** gate would hold every row behind node `a` of its segment off the map */
  p.gate = false;
  w->c = td_crowd_create(w->r, &p, err);
  if (!w->c) return -1;
  if (place_waves(w->c, w->g, bc->agents, seed) != bc->agents)
    return td_err_set(err, "could not place %d agents (out of memory?)", bc->agents);
  return 0;
}

static int run_case(const bench_case *bc, const bench_opts *o, result *res) {
  world w;
  td_err err;
  memset(res, 0, sizeof *res);
  if (world_make(bc, o->seed, &w, &res->waypoints, &err) != 0) {
    fprintf(stderr, "td: bench crowd: %s: %s\n", bc->name, err.msg);
    world_free(&w);
    return 2;
  }
  res->agents = (int32_t)td_crowd_count(w.c);
  floor_crowd f;
  double *t = malloc((size_t)bc->ticks * sizeof *t), *tf = malloc((size_t)bc->ticks * sizeof *tf);
  if (!t || !tf || floor_make(&f, w.c, w.r) != 0) {
    fprintf(stderr, "td: bench crowd: %s: out of memory\n", bc->name);
    exit(2);
  }
  for (int k = 0; k < WARMUP_TICKS; k++) {
    td_crowd_step(w.c);
    floor_step(&f);
  }
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
      fprintf(stderr, "td: bench crowd: %s: %s\n", bc->name, err.msg);
      exit(2);
    }
    for (int k = 0; k < WARMUP_TICKS + bc->ticks; k++) td_crowd_step(w2.c);
    if (td_crowd_checksum(w2.c) != res->checksum) {
      fprintf(stderr, "td: bench crowd: %s: two runs of the same case differ\n", bc->name);
      status = 1;
    }
    world_free(&w2);
  }

  td_crowd_enable_metrics(w.c, true);
  for (int k = 0; k < METRIC_TICKS; k++) td_crowd_step(w.c);
  const td_crowd_metrics *m = td_crowd_get_metrics(w.c);
  res->min_gap = m->min_gap;
  res->lane_error = m->lane_error;
  if (bc->separation && !(m->min_gap > 0.0)) {
    fprintf(stderr, "td: bench crowd: %s: agents overlap (min_gap %g)\n", bc->name, m->min_gap);
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
    bench_emit("crowd", bc->name, "ticks", bc->ticks);
    bench_emit("crowd", bc->name, "ms_per_tick", r->ms);
    bench_emit("crowd", bc->name, "p90_ms", r->p90);
    bench_emit("crowd", bc->name, "ns_per_agent", ns);
    bench_emit("crowd", bc->name, "floor_ms", r->floor_ms);
    bench_emit("crowd", bc->name, "over_floor", over);
    bench_emit("crowd", bc->name, "min_gap", r->min_gap);
    bench_emit("crowd", bc->name, "lane_error", r->lane_error);
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
  printf("%-10s %8d %5d %5s %9.3f %9.3f %9.3f %8.1f %9.3f %7.2fx %8.3f %8.4f %08llx  %s\n",
         bc->name, r->agents, r->waypoints, bc->separation ? "on" : "off", r->ms, r->p90, r->mean,
         ns, r->floor_ms, over, r->min_gap, r->lane_error,
         (unsigned long long)(r->checksum & 0xFFFFFFFFu), target);
  fflush(stdout);
}

int td_bench_crowd(const bench_opts *o) {
  if (!o->json) {
    printf("td bench crowd  (seed %llu, dt 1/60 s, waves of %d, medians over the timed ticks "
           "after %d warm-up ticks)\n",
           (unsigned long long)o->seed, WAVE_SIZE, WARMUP_TICKS);
    printf("%-10s %8s %5s %5s %9s %9s %9s %8s %9s %8s %8s %8s %8s  %s\n", "case", "agents",
           "wayp", "sep", "ms/tick", "p90 ms", "mean ms", "ns/agent", "floor ms", "x floor",
           "min_gap", "lane_err", "checksum", "target");
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
    fprintf(stderr, "td: bench crowd: no case named '%s'\n", o->only ? o->only : "");
    return 2;
  }
  if (!o->json)
    printf("x floor = crowd time / the floor's (every agent just seeks its next waypoint: no "
           "lanes, corners, limits, cohesion or neighbours)\n");
  return status;
}
