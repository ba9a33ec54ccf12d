/*
** test_crowd.c: lanes through corners, flocking, re-routing, leaks and the
** behaviour metrics, on small routes built in code.
*/
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "crowd/crowd.h"
#include "nav/blob.h"
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
  printf("  %s: min_gap %.3f lane_error %.4f lane_swaps %lld spread %.2f leaks %lld jitter %lld "
         "orbits %lld samples %lld\n",
         name, m->min_gap, m->lane_error, (long long)m->lane_swaps, m->group_spread,
         (long long)m->leaks, (long long)m->jitter, (long long)m->orbits, (long long)m->samples);
  assert_int_equal(m->orbits, 0); /* no orbiting a target, anywhere */
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
  assert_int_equal(m->jitter, 0);
  assert_int_equal(m->leaks, 3);
  assert_true(ticks < 60 * 40);
  assert_true(m->min_gap > 0.0);
  assert_int_equal(m->lane_swaps, 0);
  assert_true(m->lane_error < 0.1);
  assert_true(m->samples > 300);
  line_world_free(&w);
}

/* A 60-agent wave (5 lanes x 12 rows) on a winding route with six
** corners of 90 and 45 degrees keeps apart, in lane and together. */
static void test_wave_of_60_on_winding_route(void **state) {
  (void)state;
  static const double pts[8][2] = {{0, 0},   {40, 0},  {40, 40}, {80, 40},
                                   {110, 10}, {140, 10}, {140, 60}, {200, 60}};
  line_world w;
  line_world_make(&w, pts, 8, true);
  td_agent_desc d = {.radius = 0.5f, .max_speed = 4.0f, .group = 0};
  td_formation f = {.count = 60, .per_row = 5, .width = 6.0f, .spacing = 2.0f};
  assert_int_equal(td_crowd_spawn(w.c, &d, 0, &f, NULL, NULL), 60);
  int ticks = run_until_empty(w.c, 60 * 200);
  const td_crowd_metrics *m = td_crowd_get_metrics(w.c);
  print_metrics("wave60", m);
  /* no zig-zag (0; 47 while agents passed wave-mates that had turned the
  ** corner ahead of them instead of following them) */
  assert_true(m->jitter <= 5);
  assert_int_equal(m->leaks, 60);
  assert_true(ticks < 60 * 150);
  assert_true(m->min_gap > 0.0);
  assert_int_equal(m->lane_swaps, 0);
  assert_true(m->lane_error < 0.1);
  /* the formation is 6 wide and 22 long (diagonal ~23): it stays so */
  assert_true(m->group_spread < 30.0);
  line_world_free(&w);
}

/* Two routes from 0 to 5: the short one over 1-2 (length 60) and the long
** one over 3-4 (length 100). Mid-wave a tower closes 1-2: agents beyond it
** go on, agents before it take the long way, those on it turn back. */
static void test_tower_mid_wave_forces_detour(void **state) {
  (void)state;
  td_graph *g = td_graph_create(6, 7);
  double pos[6][2] = {{0, 0}, {20, 0}, {40, 0}, {0, 20}, {60, 20}, {60, 0}};
  for (int i = 0; i < 6; i++) td_graph_add_node(g, pos[i][0], pos[i][1], NULL);
  td_graph_add_edge(g, 0, 1, 1.0, NULL);
  int32_t e12 = td_graph_add_edge(g, 1, 2, 1.0, NULL);
  td_graph_add_edge(g, 2, 5, 1.0, NULL);
  td_graph_add_edge(g, 0, 3, 1.0, NULL);
  td_graph_add_edge(g, 3, 4, 1.0, NULL);
  td_graph_add_edge(g, 4, 5, 1.0, NULL);
  assert_int_equal(td_graph_finalize(g, NULL), 0);
  int32_t goal = 5;
  td_route *r = td_route_create(g, &goal, 1, NULL);
  assert_int_equal(td_route_next(r)[0], 1);
  td_crowd_params p = td_crowd_default_params(DT);
  td_crowd *c = td_crowd_create(r, &p, NULL);
  td_crowd_enable_metrics(c, true);
  td_agent_desc d = {.radius = 0.5f, .max_speed = 4.0f, .group = 0};
  td_formation f = {.count = 30, .per_row = 3, .width = 3.0f, .spacing = 2.0f};
  assert_int_equal(td_crowd_spawn(c, &d, 0, &f, NULL, NULL), 30);
  for (int t = 0; t < 60 * 6; t++) td_crowd_step(c); /* the head is past node 1 */
  int on_12 = 0, before_1 = 0;
  for (size_t i = 0; i < td_crowd_capacity(c); i++) {
    td_agent_view v;
    if (!td_crowd_view(c, i, &v)) continue;
    on_12 += v.from == 1 && v.to == 2;
    before_1 += v.to == 1;
  }
  assert_true(on_12 > 0 && before_1 > 0);
  td_graph_change block = {.kind = TD_CHANGE_BLOCK_EDGE, .id = e12};
  assert_int_equal(td_route_apply(r, &block, 1, NULL), 0);
  assert_int_equal(td_route_next(r)[0], 3);
  td_crowd_route_changed(c);
  int turned = 0;
  for (size_t i = 0; i < td_crowd_capacity(c); i++) {
    td_agent_view v;
    if (td_crowd_view(c, i, &v)) turned += v.from == 2 && v.to == 1;
  }
  assert_int_equal(turned, on_12);
  int ticks = run_until_empty(c, 60 * 120);
  const td_crowd_metrics *m = td_crowd_get_metrics(c);
  print_metrics("detour", m);
  assert_true(m->jitter <= 3); /* 0 (5 before mates round a corner were followed) */
  assert_int_equal(m->leaks, 30); /* everyone still arrives */
  assert_true(ticks < 60 * 100);
  assert_true(m->min_gap > 0.0); /* nobody overlaps */
  td_crowd_destroy(c);
  td_route_destroy(r);
  td_graph_destroy(g);
}

/* A fast group catches a slow one on a long straight: the fast agents
** step around the slow ones, overtake and arrive first, without overlap. */
static void test_mixed_speeds_overtake(void **state) {
  (void)state;
  static const double pts[3][2] = {{0, 0}, {150, 0}, {150, 20}};
  line_world w;
  line_world_make(&w, pts, 3, true);
  td_agent_desc slow = {.radius = 0.5f, .max_speed = 1.5f, .group = 0};
  td_agent_desc fast = {.radius = 0.5f, .max_speed = 5.0f, .group = 1, .slot = -12.0f};
  td_formation f = {.count = 3, .per_row = 3, .width = 3.0f, .spacing = 2.0f};
  td_agent s[3], q[3];
  assert_int_equal(td_crowd_spawn(w.c, &slow, 0, &f, s, NULL), 3);
  assert_int_equal(td_crowd_spawn(w.c, &fast, 0, &f, q, NULL), 3);
  int fast_first = 0, slow_left = 3, fast_left = 3;
  for (int t = 0; t < 60 * 200 && slow_left + fast_left > 0; t++) {
    td_crowd_step(w.c);
    const td_agent *l;
    size_t n = td_crowd_leaks(w.c, &l);
    for (size_t k = 0; k < n; k++) {
      bool is_fast = l[k] == q[0] || l[k] == q[1] || l[k] == q[2];
      if (is_fast) {
        fast_left--;
        if (slow_left == 3) fast_first++;
      } else {
        slow_left--;
      }
    }
  }
  const td_crowd_metrics *m = td_crowd_get_metrics(w.c);
  print_metrics("overtake", m);
  assert_true(m->jitter <= 2); /* 0 (1 while the nearest of two slower agents abreast was passed) */
  assert_int_equal(slow_left + fast_left, 0);
  assert_int_equal(fast_first, 3);
  assert_true(m->min_gap > 0.0);
  line_world_free(&w);
}

/* Flyers cross a wall of tower footprints: they go around it, sliding
** along it without a zig-zag, never enter an obstacle, and reach the goal. */
static void test_flyers_around_a_wall(void **state) {
  (void)state;
  static const double pts[2][2] = {{0, 0}, {60, 0}};
  line_world w;
  line_world_make(&w, pts, 2, true);
  /* a wall of six 4x4 towers across the straight line, 24 units tall */
  float wall[6 * 4];
  for (int k = 0; k < 6; k++) {
    wall[4 * k + 0] = 28.0f;
    wall[4 * k + 1] = -12.0f + 4.0f * (float)k;
    wall[4 * k + 2] = 4.0f;
    wall[4 * k + 3] = 4.0f;
  }
  assert_int_equal(td_crowd_set_obstacles(w.c, wall, 6, NULL), 0);
  td_agent_desc d = {.radius = 0.5f, .max_speed = 4.0f, .group = 0, .flying = true,
                     .turn_rate = 3.0f};
  for (int k = 0; k < 5; k++) {
    d.lane = -2.0f + (float)k;
    assert_true(td_crowd_add(w.c, &d, 0, NULL) != TD_AGENT_NONE);
  }
  td_crowd_grid grid;
  assert_false(td_crowd_grid_info(w.c, &grid)); /* laid out by the first step */
  int inside = 0, t = 0, hits = 0;
  for (; t < 60 * 60; t++) {
    td_crowd_step(w.c);
    /* the overlays' view of the rays: the fan's seven unit rays from
    ** behind the agent and the goal's; a hit lies on the wall grown by the
    ** radius */
    for (size_t i = 0; i < td_crowd_capacity(w.c); i++) {
      td_crowd_ray rays[TD_CROWD_RAYS];
      int n = td_crowd_flyer_rays(w.c, i, rays);
      td_agent_view v;
      assert_int_equal(n, td_crowd_view(w.c, i, &v) && v.state == TD_AGENT_FLY ? TD_CROWD_RAYS : 0);
      for (int k = 0; k < n; k++) {
        assert_float_equal(rays[k].dx * rays[k].dx + rays[k].dy * rays[k].dy, 1.0, 1e-4);
        if (!isfinite(rays[k].hit)) continue;
        assert_true(rays[k].hit <= rays[k].len);
        float hx = rays[k].ox + rays[k].dx * rays[k].hit, hy = rays[k].oy + rays[k].dy * rays[k].hit;
        assert_true(hx >= 28.0f - 0.5f - 1e-3f && hx <= 32.0f + 0.5f + 1e-3f);
        assert_true(hy >= -12.0f - 0.5f - 1e-3f && hy <= 12.0f + 0.5f + 1e-3f);
        hits++;
      }
    }
    size_t alive = 0;
    for (size_t i = 0; i < td_crowd_capacity(w.c); i++) {
      td_agent_view v;
      if (!td_crowd_view(w.c, i, &v) || v.state != TD_AGENT_FLY) continue;
      alive++;
      for (int k = 0; k < 6; k++)
        if (v.x > wall[4 * k] && v.x < wall[4 * k] + 4.0f && v.y > wall[4 * k + 1] &&
            v.y < wall[4 * k + 1] + 4.0f)
          inside++;
    }
    if (alive == 0) break;
  }
  print_metrics("flyers", td_crowd_get_metrics(w.c));
  assert_true(hits > 0);
  assert_true(td_crowd_grid_info(w.c, &grid));
  assert_true(grid.cell > 0.0f && grid.cols > 0 && grid.rows > 0);
  assert_true(grid.x0 <= 0.0f && grid.x0 + grid.cell * (float)grid.cols >= 60.0f); /* holds the graph */
  /* they slide along the wall and round its end without a zig-zag (0; 287
  ** while the fan took the goal's direction whenever its rays were clear,
  ** and turned back into the wall each time) */
  assert_int_equal(td_crowd_get_metrics(w.c)->jitter, 0);
  assert_int_equal(inside, 0);
  assert_int_equal(td_crowd_get_metrics(w.c)->leaks, 5);
  assert_true(td_crowd_get_metrics(w.c)->min_gap > 0.0);
  assert_true(t < 60 * 40);
  line_world_free(&w);
}

/* Flyers among the towers of a 03-serpent game of the built-in player (at
** tick 60000: 34 towers in rows), one from the centre of every tile of the
** map to its goal. The fan goes round the nearest tower, which is not
** always the one in the way: from 117 of the 504 tiles a flyer went back
** and forth between two towers for ever (one did in that game, which never
** ended). After four seconds that bring it no closer it flies over them
** for a second and a half (crowd_stall.c): every flyer arrives within a
** minute, after one to four such breaks at most. TRAP_SECONDS=0x1p30f (no
** breaks) fails this test. */
static void test_flyers_out_of_traps(void **state) {
  (void)state;
  static const float towers[][4] = {
    {160, 128, 32, 32}, {224, 128, 32, 32}, {288, 128, 32, 32}, {352, 128, 32, 32},
    {416, 128, 32, 32}, {480, 128, 32, 32}, {544, 128, 32, 32}, {160, 256, 32, 32},
    {224, 256, 32, 32}, {288, 256, 32, 32}, {352, 256, 32, 32}, {416, 256, 32, 32},
    {480, 256, 32, 32}, {544, 256, 32, 32}, {160, 384, 32, 32}, {224, 384, 32, 32},
    {288, 384, 32, 32}, {352, 384, 32, 32}, {416, 384, 32, 32}, {480, 384, 32, 32},
    {544, 384, 32, 32}, {160, 512, 32, 32}, {224, 512, 32, 32}, {288, 512, 32, 32},
    {352, 512, 32, 32}, {416, 512, 32, 32}, {480, 512, 32, 32}, {544, 512, 32, 32},
    {704, 128, 32, 32}, {704, 384, 32, 32}, {32, 256, 32, 32},  {32, 512, 32, 32},
    {704, 256, 32, 32}, {32, 384, 32, 32},
  };
  size_t n = sizeof towers / sizeof towers[0];
  int broke = 0, most = 0, slowest = 0;
  for (int ty = 0; ty < 21; ty++)
    for (int tx = 0; tx < 24; tx++) {
      double pts[2][2] = {{32.0 * tx + 16.0, 32.0 * ty + 16.0}, {720, 592}};
      line_world w;
      line_world_make(&w, (const double (*)[2])pts, 2, true);
      assert_int_equal(td_crowd_set_obstacles(w.c, &towers[0][0], n, NULL), 0);
      td_agent_desc d = {.radius = 9.6f, .max_speed = 64.0f, .flying = true};
      assert_true(td_crowd_add(w.c, &d, 0, NULL) != TD_AGENT_NONE);
      int t = 0, ghost = 0;
      for (; t < 60 * 60; t++) {
        td_crowd_step(w.c);
        td_agent_view v;
        if (!td_crowd_view(w.c, 0, &v) || v.state != TD_AGENT_FLY) break;
        ghost += v.ghost;
      }
      assert_int_equal(td_crowd_get_metrics(w.c)->leaks, 1); /* arrived */
      assert_true(ghost % 90 == 0 && ghost <= 4 * 90);       /* whole breaks of 1.5 s */
      broke += ghost > 0;
      most = ghost > most ? ghost : most;
      slowest = t > slowest ? t : slowest;
      line_world_free(&w);
    }
  printf("  504 flyers arrived, %d after breaking out (at most %d ticks a ghost), the slowest "
         "in %.1f s\n", broke, most, slowest / 60.0);
  assert_true(broke >= 100); /* the traps are there to break */
}

/* Three corners, for the tests that run two crowds side by side. */
static const double zigzag[5][2] = {{0, 0}, {30, 0}, {30, 30}, {0, 30}, {0, 60}};

/* Steps a and b together, checking that they agree bit for bit. */
static void step_both_agree(td_crowd *a, td_crowd *b, int ticks) {
  for (int t = 0; t < ticks; t++) {
    td_crowd_step(a);
    td_crowd_step(b);
    assert_true(td_crowd_checksum(a) == td_crowd_checksum(b));
  }
}

/* Same inputs, same state: two crowds stepped side by side agree bit for
** bit, and a different input changes the checksum. */
static void test_deterministic(void **state) {
  (void)state;
  line_world a, b;
  line_world_make(&a, zigzag, 5, true);
  line_world_make(&b, zigzag, 5, true);
  td_agent_desc d = {.radius = 0.5f, .max_speed = 4.0f, .group = 0};
  td_formation f = {.count = 40, .per_row = 4, .width = 4.5f, .spacing = 1.5f};
  td_crowd_spawn(a.c, &d, 0, &f, NULL, NULL);
  td_crowd_spawn(b.c, &d, 0, &f, NULL, NULL);
  step_both_agree(a.c, b.c, 600);
  d.max_speed = 4.001f;
  td_crowd_add(b.c, &d, 0, NULL);
  td_crowd_add(a.c, &(td_agent_desc){.radius = 0.5f, .max_speed = 4.0f}, 0, NULL);
  td_crowd_step(a.c);
  td_crowd_step(b.c);
  td_crowd_step(a.c);
  td_crowd_step(b.c);
  assert_true(td_crowd_checksum(a.c) != td_crowd_checksum(b.c));
  line_world_free(&a);
  line_world_free(&b);
}

/* Handles: removal happens at the end of the tick; a freed slot is reused
** with a new generation, so the old handle stays dead. Bad input is refused
** with a message. */
static void test_handles_and_errors(void **state) {
  (void)state;
  static const double pts[2][2] = {{0, 0}, {100, 0}};
  line_world w;
  line_world_make(&w, pts, 2, true);
  td_agent_desc d = {.radius = 0.5f, .max_speed = 4.0f};
  td_agent a = td_crowd_add(w.c, &d, 0, NULL);
  td_agent b = td_crowd_add(w.c, &d, 0, NULL);
  assert_true(a != TD_AGENT_NONE && b != TD_AGENT_NONE && a != b);
  td_crowd_step(w.c);
  td_crowd_remove(w.c, a);
  assert_false(td_crowd_alive(w.c, a));
  assert_int_equal(td_crowd_count(w.c), 2); /* still there until the tick ends */
  td_crowd_step(w.c);
  assert_int_equal(td_crowd_count(w.c), 1);
  td_agent c2 = td_crowd_add(w.c, &d, 0, NULL);
  assert_true(c2 != a);                     /* same slot, new generation */
  assert_false(td_crowd_alive(w.c, a));
  assert_true(td_crowd_alive(w.c, c2) && td_crowd_alive(w.c, b));
  td_crowd_remove(w.c, a);                  /* a stale handle does nothing */
  assert_true(td_crowd_alive(w.c, c2));
  td_err err;
  d.radius = 0.0f;
  assert_int_equal(td_crowd_add(w.c, &d, 0, &err), TD_AGENT_NONE);
  assert_non_null(strstr(err.msg, "positive radius"));
  d.radius = 0.5f;
  assert_int_equal(td_crowd_add(w.c, &d, 7, &err), TD_AGENT_NONE);
  assert_non_null(strstr(err.msg, "start node 7 does not exist"));
  td_crowd_params p = td_crowd_default_params(0.0);
  assert_null(td_crowd_create(w.r, &p, &err));
  assert_non_null(strstr(err.msg, "dt must be"));
  line_world_free(&w);
}

/* With every way to the goal closed, agents wait (stranded); when a way
** opens again they walk on and arrive. */
static void test_stranded_then_resume(void **state) {
  (void)state;
  static const double pts[3][2] = {{0, 0}, {20, 0}, {40, 0}};
  line_world w;
  line_world_make(&w, pts, 3, true);
  td_agent_desc d = {.radius = 0.5f, .max_speed = 4.0f};
  td_formation f = {.count = 6, .per_row = 3, .width = 3.0f, .spacing = 2.0f};
  td_crowd_spawn(w.c, &d, 0, &f, NULL, NULL);
  for (int t = 0; t < 60; t++) td_crowd_step(w.c);
  td_graph_change cut = {.kind = TD_CHANGE_BLOCK_EDGE, .id = 1}; /* 1-2: the goal is cut off */
  assert_int_equal(td_route_apply(w.r, &cut, 1, NULL), 0);
  td_crowd_route_changed(w.c);
  for (int t = 0; t < 60 * 20; t++) td_crowd_step(w.c);
  int stranded = 0;
  for (size_t i = 0; i < td_crowd_capacity(w.c); i++) {
    td_agent_view v;
    if (td_crowd_view(w.c, i, &v)) stranded += v.state == TD_AGENT_STRANDED;
  }
  assert_int_equal(stranded, 6);
  assert_int_equal(td_crowd_get_metrics(w.c)->leaks, 0);
  cut.kind = TD_CHANGE_UNBLOCK_EDGE;
  assert_int_equal(td_route_apply(w.r, &cut, 1, NULL), 0);
  td_crowd_route_changed(w.c);
  run_until_empty(w.c, 60 * 30);
  assert_int_equal(td_crowd_get_metrics(w.c)->leaks, 6);
  assert_true(td_crowd_get_metrics(w.c)->min_gap > 0.0);
  line_world_free(&w);
}

/* The step's own allocations (the corner table, the close-pair list, the
** table of cells, the leak list) all have fallbacks that compute the same
** thing another way: a crowd whose every allocation fails from the spawn of
** its waves on moves bit for bit like one with memory, and frees what it
** holds. */
static void run_wave(bool starve, td_test_alloc *a, uint64_t *sums, int ticks) {
  static const double pts[8][2] = {{0, 0},   {40, 0},  {40, 40}, {80, 40},
                                   {110, 10}, {140, 10}, {140, 60}, {200, 60}};
  line_world w;
  line_world_make(&w, pts, 8, true);
  td_crowd_enable_metrics(w.c, false); /* metrics need memory of their own */
  /* two flyers, gone at once, make room for both groups (and need no corner) */
  for (int32_t g = 0; g < 2; g++) {
    td_agent_desc fly = {.radius = 0.5f, .max_speed = 4.0f, .group = g, .flying = true};
    td_crowd_remove(w.c, td_crowd_add(w.c, &fly, 0, NULL));
  }
  if (starve) {
    a->fail_at = a->calls + 1;
    a->fail_rest = true;
  }
  /* a fast group catches a slow one: close pairs, passing, projection */
  td_agent_desc slow = {.radius = 0.5f, .max_speed = 3.0f, .group = 0};
  td_agent_desc fast = {.radius = 0.4f, .max_speed = 5.0f, .group = 1, .slot = -16.0f};
  td_formation f = {.count = 30, .per_row = 5, .width = 6.0f, .spacing = 2.0f};
  assert_int_equal(td_crowd_spawn(w.c, &slow, 0, &f, NULL, NULL), 30);
  assert_int_equal(td_crowd_spawn(w.c, &fast, 0, &f, NULL, NULL), 30);
  for (int t = 0; t < ticks; t++) {
    td_crowd_step(w.c);
    if (starve) assert_true(sums[t] == td_crowd_checksum(w.c));
    else sums[t] = td_crowd_checksum(w.c);
  }
  assert_int_equal(td_crowd_count(w.c), 0); /* all arrived */
  a->fail_at = 0;
  a->fail_rest = false;
  line_world_free(&w);
}

static void test_same_moves_without_memory(void **state) {
  (void)state;
  enum { TICKS = 60 * 110 };
  static uint64_t sums[TICKS];
  td_test_alloc a = {0};
  td_test_alloc_install(&a);
  run_wave(false, &a, sums, TICKS);
  long failures = a.failures;
  run_wave(true, &a, sums, TICKS);
  assert_true(a.failures > failures); /* the fallbacks did run */
  td_test_alloc_remove();
  td_test_alloc_assert_clean(&a);
}

/* Effects: a stunned walker stands while its wave-mates walk on, and walks
** on when released; a slowed one falls back by the share taken off; a
** stunned flyer hovers. Dead handles are ignored. */
static void test_stun_and_slow(void **state) {
  (void)state;
  static const double pts[2][2] = {{0, 0}, {400, 0}};
  line_world w;
  line_world_make(&w, pts, 2, false);
  td_agent_desc d = {.radius = 0.5f, .max_speed = 4.0f, .group = 0, .lane = -3.0f};
  td_agent plain = td_crowd_add(w.c, &d, 0, NULL);
  d.lane = 0.0f;
  d.group = 1; /* each alone: no cohesion between them */
  td_agent slowed = td_crowd_add(w.c, &d, 0, NULL);
  d.lane = 3.0f;
  d.group = 2;
  td_agent stunned = td_crowd_add(w.c, &d, 0, NULL);
  td_agent flyer = td_crowd_add(w.c, &(td_agent_desc){.radius = 0.5f, .max_speed = 4.0f,
                                                      .group = 3, .flying = true}, 0, NULL);
  for (int t = 0; t < 60; t++) td_crowd_step(w.c); /* all at full speed */
  td_crowd_set_speed_scale(w.c, slowed, 0.5f);
  td_crowd_set_stunned(w.c, stunned, true);
  td_crowd_set_stunned(w.c, flyer, true);
  td_agent_view v0[4], v1[4];
  td_agent hs[4] = {plain, slowed, stunned, flyer};
  for (int k = 0; k < 4; k++) td_crowd_view(w.c, (size_t)td_crowd_slot(w.c, hs[k]), &v0[k]);
  assert_int_equal(v0[2].state, TD_AGENT_STUNNED);
  for (int t = 0; t < 180; t++) td_crowd_step(w.c);
  for (int k = 0; k < 4; k++) td_crowd_view(w.c, (size_t)td_crowd_slot(w.c, hs[k]), &v1[k]);
  float moved[4];
  for (int k = 0; k < 4; k++) moved[k] = hypotf(v1[k].x - v0[k].x, v1[k].y - v0[k].y);
  printf("  moved in 3 s: plain %.2f slowed %.2f stunned %.2f flyer %.2f\n", (double)moved[0],
         (double)moved[1], (double)moved[2], (double)moved[3]);
  assert_true(fabsf(moved[0] - 12.0f) < 0.3f);  /* 4 units/s */
  assert_true(moved[1] > 5.5f && moved[1] < 7.0f); /* half speed after braking */
  assert_true(moved[2] < 0.3f);                  /* stands (braking only) */
  assert_true(moved[3] < 0.3f);                  /* hovers */
  td_crowd_set_stunned(w.c, stunned, false);
  td_crowd_set_speed_scale(w.c, slowed, 1.0f);
  for (int t = 0; t < 60; t++) td_crowd_step(w.c);
  td_agent_view v2;
  td_crowd_view(w.c, (size_t)td_crowd_slot(w.c, stunned), &v2);
  assert_int_equal(v2.state, TD_AGENT_WALK);
  assert_true(v2.x - v1[2].x > 2.0f);
  td_crowd_remove(w.c, plain);
  td_crowd_step(w.c);
  td_crowd_set_stunned(w.c, plain, true); /* dead: nothing happens */
  td_crowd_set_speed_scale(w.c, plain, 0.1f);
  line_world_free(&w);
}

/* A crowd saved mid-wave and loaded into a new crowd on the same route
** moves on bit for bit like the original; a save cut at any byte, or with
** a bad agent, is refused with a message and leaves the crowd as it was. */
static void test_save_load(void **state) {
  (void)state;
  line_world a, b;
  line_world_make(&a, zigzag, 5, true);
  line_world_make(&b, zigzag, 5, true);
  td_agent_desc d = {.radius = 0.5f, .max_speed = 4.0f, .group = 0};
  td_formation f = {.count = 24, .per_row = 4, .width = 4.5f, .spacing = 1.5f};
  td_agent hs[24];
  td_crowd_spawn(a.c, &d, 0, &f, hs, NULL);
  td_crowd_add(a.c, &(td_agent_desc){.radius = 0.4f, .max_speed = 3.0f, .group = 3,
                                     .flying = true}, 0, NULL);
  float rect[4] = {10, -5, 4, 4};
  td_crowd_set_obstacles(a.c, rect, 1, NULL);
  for (int t = 0; t < 300; t++) td_crowd_step(a.c);
  td_crowd_remove(a.c, hs[3]);
  td_crowd_set_speed_scale(a.c, hs[5], 0.6f);
  td_crowd_set_stunned(a.c, hs[7], true);
  td_crowd_step(a.c);
  td_blob blob = {0};
  td_crowd_save(a.c, &blob);
  assert_false(blob.failed);
  uint64_t before = td_crowd_checksum(b.c);
  /* every truncation is refused and changes nothing */
  for (size_t len = 0; len < blob.len; len += (len < 200 ? 1 : 37)) {
    td_blob_reader r = td_blob_read(blob.data, len);
    td_err err;
    assert_int_equal(td_crowd_load(b.c, &r, &err), -1);
    assert_non_null(strstr(err.msg, "crowd: "));
    assert_true(td_crowd_checksum(b.c) == before);
  }
  /* a bad state byte is named */
  td_blob bad = {0};
  td_blob_bytes(&bad, blob.data, blob.len);
  size_t state_col = 4 + 4 + 8 * 3 + 8 * 4 + 4 * 2 + 23 * 4 * td_crowd_capacity(a.c);
  bad.data[state_col + 2] = 99;
  td_blob_reader rb = td_blob_read(bad.data, bad.len);
  td_err err;
  assert_int_equal(td_crowd_load(b.c, &rb, &err), -1);
  assert_string_equal(err.msg, "crowd: bad agent 2: state 99");
  td_blob_free(&bad);
  /* so is any other number out of its range (float columns, in the
  ** save's order: x y vx vy speed radius max_speed base_speed dv lane ...) */
  static const struct {
    int column;
    float value;
    const char *msg;
  } numbers[] = {
    {8, NAN, "crowd: bad agent 2: acceleration out of range"},
    {9, 1e30f, "crowd: bad agent 2: lane or slot out of range"},
    {10, -1e30f, "crowd: bad agent 2: lane or slot out of range"},
    {15, -1.0f, "crowd: bad agent 2: look-ahead out of range"},
    {17, 5.0f, "crowd: bad agent 2: turn rate out of range"},
    {0, 1e20f, "crowd: bad agent 2: position far off the map"},
  };
  for (size_t q = 0; q < sizeof numbers / sizeof numbers[0]; q++) {
    td_blob worse = {0};
    td_blob_bytes(&worse, blob.data, blob.len);
    size_t at = 4 + 4 + 8 * 3 + 8 * 4 + 4 * 2 +
                ((size_t)numbers[q].column * td_crowd_capacity(a.c) + 2) * 4;
    uint32_t bits;
    memcpy(&bits, &numbers[q].value, 4);
    for (int k = 0; k < 4; k++) worse.data[at + (size_t)k] = (uint8_t)(bits >> (8 * k)); /* little-endian */
    td_blob_reader rw = td_blob_read(worse.data, worse.len);
    assert_int_equal(td_crowd_load(b.c, &rw, &err), -1);
    assert_string_equal(err.msg, numbers[q].msg);
    assert_true(td_crowd_checksum(b.c) == before);
    td_blob_free(&worse);
  }

  td_blob_reader r = td_blob_read(blob.data, blob.len);
  assert_int_equal(td_crowd_load(b.c, &r, &err), 0);
  assert_int_equal(r.pos, blob.len);
  assert_true(td_crowd_checksum(a.c) == td_crowd_checksum(b.c));
  assert_int_equal(td_crowd_tick(a.c), td_crowd_tick(b.c));
  step_both_agree(a.c, b.c, 900);
  assert_int_equal(td_crowd_get_metrics(a.c)->leaks, td_crowd_get_metrics(b.c)->leaks);
  assert_true(td_crowd_get_metrics(a.c)->min_gap == td_crowd_get_metrics(b.c)->min_gap);
  td_blob_free(&blob);
  line_world_free(&a);
  line_world_free(&b);
}

/* The jitter metric can fail: a flyer whose goal is inside a tower zig-zags
** at its wall (the fan steers off, the goal pulls back), and never arrives. */
static void test_jitter_detected(void **state) {
  (void)state;
  static const double pts[2][2] = {{-20, 0}, {3, 0}};
  line_world w;
  line_world_make(&w, pts, 2, false);
  /* the goal inside a tower: the fan steers off it, the goal pulls back */
  float tower[4] = {0.0f, -3.0f, 6.0f, 6.0f};
  assert_int_equal(td_crowd_set_obstacles(w.c, tower, 1, NULL), 0);
  td_crowd_add(w.c, &(td_agent_desc){.radius = 0.3f, .max_speed = 4.0f, .flying = true}, 0,
               NULL);
  for (int t = 0; t < 60 * 30; t++) td_crowd_step(w.c);
  const td_crowd_metrics *m = td_crowd_get_metrics(w.c);
  assert_int_equal(m->leaks, 0);
  printf("  goal in a tower: orbits %lld jitter %lld\n", (long long)m->orbits, (long long)m->jitter);
  assert_true(m->jitter > 100);
  line_world_free(&w);
}

/* A crossroads (maps/01-crossroads.tmx in code): a trunk, a north and a
** south branch joined to it at sharp angles. A block mid-wave turns agents
** back through the junctions, where wave-mates meet across corners: no two
** may follow each other (each ahead of the other in its own direction of
** travel, they stop for good). Everyone arrives. */
static void test_crossroads_block_no_deadlock(void **state) {
  (void)state;
  static const double p[13][2] = {{48, 336},  {176, 336}, {336, 336}, {496, 336}, {656, 336},
                                  {816, 336}, {912, 336}, {272, 144}, {496, 144}, {720, 144},
                                  {272, 528}, {496, 528}, {720, 528}};
  static const int e[18][2] = {{0, 1}, {1, 2},  {2, 3},   {3, 4},  {4, 5},  {5, 6},
                               {1, 7}, {7, 8},  {8, 9},   {9, 5},  {1, 10}, {10, 11},
                               {11, 12}, {12, 5}, {8, 3}, {3, 11}, {9, 4},  {7, 2}};
  for (int blk = 1; blk <= 2; blk++) {
    td_graph *g = td_graph_create(13, 18);
    for (int i = 0; i < 13; i++) td_graph_add_node(g, p[i][0], p[i][1], NULL);
    int32_t edge[18];
    for (int i = 0; i < 18; i++) edge[i] = td_graph_add_edge(g, e[i][0], e[i][1], 1.0, NULL);
    assert_int_equal(td_graph_finalize(g, NULL), 0);
    int32_t goal = 6;
    td_route *r = td_route_create(g, &goal, 1, NULL);
    td_crowd_params pp = td_crowd_default_params(DT);
    td_crowd *c = td_crowd_create(r, &pp, NULL);
    td_crowd_enable_metrics(c, true);
    /* td sim's wave on a map of 32-unit tiles */
    td_agent_desc d = {.radius = 6.4f, .max_speed = 64.0f, .group = 0};
    td_formation f = {.count = 20, .per_row = 3, .width = 38.4f, .spacing = 25.6f};
    assert_int_equal(td_crowd_spawn(c, &d, 0, &f, NULL, NULL), 20);
    for (int t = 0; t < 240; t++) td_crowd_step(c);
    td_graph_change block = {.kind = TD_CHANGE_BLOCK_EDGE, .id = edge[blk]};
    assert_int_equal(td_route_apply(r, &block, 1, NULL), 0);
    td_crowd_route_changed(c);
    int ticks = run_until_empty(c, 60 * 120);
    const td_crowd_metrics *m = td_crowd_get_metrics(c);
    print_metrics(blk == 1 ? "crossroads, trunk 1-2 blocked" : "crossroads, trunk 2-3 blocked", m);
    assert_int_equal(m->leaks, 20);
    assert_true(ticks < 60 * 60);
    assert_true(m->min_gap > 0.0);
    td_crowd_destroy(c);
    td_route_destroy(r);
    td_graph_destroy(g);
  }
}

/* A wave spawned into the tail of another (td sim's --spawn can do it)
** does not overlap it for a single tick: the projection runs until nothing
** overlaps (every agent is pushed apart at its first step). */
static void test_spawn_into_a_tail(void **state) {
  (void)state;
  static const double pts[3][2] = {{0, 0}, {80, 0}, {80, 40}};
  line_world w;
  line_world_make(&w, pts, 3, true);
  td_agent_desc d = {.radius = 0.5f, .max_speed = 4.0f, .group = 0};
  td_formation f = {.count = 30, .per_row = 5, .width = 6.0f, .spacing = 2.0f};
  assert_int_equal(td_crowd_spawn(w.c, &d, 0, &f, NULL, NULL), 30);
  for (int t = 0; t < 60; t++) td_crowd_step(w.c);
  d.group = 1;
  d.slot = 4.0f; /* into the first wave's last rows */
  assert_int_equal(td_crowd_spawn(w.c, &d, 0, &f, NULL, NULL), 30);
  double worst = INFINITY;
  for (int t = 0; t < 60 * 40 && td_crowd_count(w.c) > 0; t++) {
    td_crowd_step(w.c);
    const td_crowd_metrics *m = td_crowd_get_metrics(w.c);
    if (m->min_gap < worst) worst = m->min_gap;
  }
  print_metrics("spawn into a tail", td_crowd_get_metrics(w.c));
  assert_true(worst > 0.0); /* from the first step on */
  assert_int_equal(td_crowd_get_metrics(w.c)->leaks, 60);
  line_world_free(&w);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_seed004_three_lanes_two_corners),
    cmocka_unit_test(test_wave_of_60_on_winding_route),
    cmocka_unit_test(test_tower_mid_wave_forces_detour),
    cmocka_unit_test(test_mixed_speeds_overtake),
    cmocka_unit_test(test_flyers_around_a_wall),
    cmocka_unit_test(test_flyers_out_of_traps),
    cmocka_unit_test(test_deterministic),
    cmocka_unit_test(test_handles_and_errors),
    cmocka_unit_test(test_stranded_then_resume),
    cmocka_unit_test(test_same_moves_without_memory),
    cmocka_unit_test(test_stun_and_slow),
    cmocka_unit_test(test_save_load),
    cmocka_unit_test(test_jitter_detected),
    cmocka_unit_test(test_spawn_into_a_tail),
    cmocka_unit_test(test_crossroads_block_no_deadlock),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
