/*
** test_crowd.c: lanes through corners, flocking, re-routing, leaks and the
** behaviour metrics, on small routes built in code.
*/
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "crowd/crowd.h"
#include "nav/graph.h"
#include "nav/route.h"

#define DT (1.0 / 60.0)

/* A polyline route: nodes at pts, consecutive ones joined, goal last. */
typedef struct line_world {
  td_graph *g;
  td_route *r;
  td_crowd *c;
} line_world;

static void line_world_make(line_world *w, const double (*pts)[2], int n, bool separation) {
  w->g = td_graph_create(n, n);
  for (int i = 0; i < n; i++) td_graph_add_node(w->g, pts[i][0], pts[i][1], NULL);
  for (int i = 0; i + 1 < n; i++) td_graph_add_edge(w->g, i, i + 1, 1.0, NULL);
  assert_int_equal(td_graph_finalize(w->g, NULL), 0);
  int32_t goal = n - 1;
  w->r = td_route_create(w->g, &goal, 1, NULL);
  td_crowd_params p = td_crowd_default_params(DT);
  p.separation = separation;
  td_err err;
  w->c = td_crowd_create(w->r, &p, &err);
  assert_non_null(w->c);
  td_crowd_enable_metrics(w->c, true);
}

static void line_world_free(line_world *w) {
  td_crowd_destroy(w->c);
  td_route_destroy(w->r);
  td_graph_destroy(w->g);
}

/* Steps until every agent has leaked or max ticks; returns ticks run. */
static int run_until_empty(td_crowd *c, int max_ticks) {
  int t = 0;
  while (t < max_ticks) {
    td_crowd_step(c);
    t++;
    size_t alive = 0;
    for (size_t i = 0; i < td_crowd_capacity(c); i++) {
      td_agent_view v;
      if (td_crowd_view(c, i, &v) && v.state != TD_AGENT_LEAKED) alive++;
    }
    if (alive == 0) break;
  }
  return t;
}

static void print_metrics(const char *name, const td_crowd_metrics *m) {
  printf("  %s: min_gap %.3f lane_error %.4f lane_swaps %lld spread %.2f leaks %lld samples %lld\n",
         name, m->min_gap, m->lane_error, (long long)m->lane_swaps, m->group_spread,
         (long long)m->leaks, (long long)m->samples);
}

/* Seed 004: three enemies at lateral offsets -1.5, 0, +1.5 go through two
** corners (a right turn, then a left turn) and keep their lanes. */
static void test_seed004_three_lanes_two_corners(void **state) {
  (void)state;
  static const double pts[4][2] = {{0, 0}, {30, 0}, {30, 30}, {60, 30}};
  line_world w;
  line_world_make(&w, pts, 4, true);
  td_agent_desc d = {.radius = 0.5f, .max_speed = 4.0f, .group = 0};
  td_formation f = {.count = 3, .per_row = 3, .width = 3.0f, .spacing = 2.0f};
  assert_int_equal(td_crowd_spawn(w.c, &d, 0, &f, NULL, NULL), 3);
  int ticks = run_until_empty(w.c, 60 * 60);
  const td_crowd_metrics *m = td_crowd_get_metrics(w.c);
  print_metrics("seed004", m);
  assert_int_equal(m->leaks, 3);
  assert_true(ticks < 60 * 40);
  assert_true(m->min_gap > 0.0);
  assert_int_equal(m->lane_swaps, 0);
  assert_true(m->lane_error < 0.1);
  assert_true(m->samples > 300);
  line_world_free(&w);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_seed004_three_lanes_two_corners),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
