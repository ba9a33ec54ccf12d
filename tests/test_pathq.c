/*
** test_pathq.c: the budgeted path-request queue: order, ticks, budgets,
** cancellation, simplification, stale paths, reentrant callbacks, saves.
*/
#include "support.h"

#include <stdlib.h>
#include <string.h>

#include "nav/astar.h"
#include "nav/grid.h"
#include "nav/jps.h"
#include "nav/pathq.h"
#include "nav/route.h"

/* ---- fixtures ------------------------------------------------------------ */

#define MAX_ANSWERS 64

typedef struct answer {
  uint32_t id;
  td_astar_status status;
  size_t len;
  td_cost cost;
  int32_t first, last;
  int tick;
  int32_t path[512];
} answer;

typedef struct log {
  answer a[MAX_ANSWERS];
  int n;
  int tick;                /* set by the test before each td_pathq_tick */
  td_pathq *q;             /* for reentrant callbacks */
  uint32_t cancel_on_answer; /* cancel this id from the first callback */
  int32_t request_on_answer; /* node: make a request from the first callback */
  uint32_t made_in_callback;
} log_t;

static void record(void *user, uint32_t id, td_astar_status status, const int32_t *path,
                   size_t len, td_cost cost) {
  log_t *lg = user;
  assert_true(lg->n < MAX_ANSWERS);
  answer *a = &lg->a[lg->n++];
  a->id = id;
  a->status = status;
  a->len = len;
  a->cost = cost;
  a->tick = lg->tick;
  a->first = len ? path[0] : TD_NONE;
  a->last = len ? path[len - 1] : TD_NONE;
  assert_true(len <= 512);
  if (len) memcpy(a->path, path, len * sizeof *path);
  if (status != TD_ASTAR_FOUND) assert_null(path);
  if (lg->cancel_on_answer) {
    assert_true(td_pathq_cancel(lg->q, lg->cancel_on_answer));
    lg->cancel_on_answer = 0;
  }
  if (lg->request_on_answer != TD_NONE) {
    td_err err;
    lg->made_in_callback = td_pathq_request(lg->q, lg->request_on_answer, 0, record, lg, &err);
    assert_true(lg->made_in_callback != 0);
    lg->request_on_answer = TD_NONE;
    assert_int_equal(td_pathq_tick(lg->q, 1000), 0); /* reentrant tick: ignored */
  }
}

typedef struct world {
  td_grid *grid;
  td_graph *g;
  td_pathq *q;
  log_t log;
} world;

/* A 30x20 map whose walls make long detours: horizontal walls with one
** gap each, alternating ends. */
static void world_init(world *w) {
  td_err err;
  memset(w, 0, sizeof *w);
  w->grid = td_grid_create(30, 20, 1.0, &err);
  for (int y = 0; y < 20; y++)
    for (int x = 0; x < 30; x++) td_grid_set_walkable(w->grid, x, y, true);
  for (int y = 3; y < 19; y += 4)
    for (int x = 0; x < 30; x++)
      if ((y / 4) % 2 ? x != 29 : x != 0) td_grid_set_walkable(w->grid, x, y, false);
  w->g = td_grid_build_graph(w->grid, &err);
  assert_non_null(w->g);
  w->q = td_pathq_create(w->g, &err);
  assert_non_null(w->q);
  w->log.q = w->q;
  w->log.request_on_answer = TD_NONE;
}

static void world_free(world *w) {
  td_pathq_destroy(w->q);
  td_graph_destroy(w->g);
  td_grid_destroy(w->grid);
}

static int32_t at(const world *w, int x, int y) {
  int32_t n = td_grid_node_at(w->grid, x, y);
  assert_true(n != TD_NONE);
  return n;
}

static uint32_t request(world *w, int32_t a, int32_t b) {
  td_err err;
  uint32_t id = td_pathq_request(w->q, a, b, record, &w->log, &err);
  if (!id) fail_msg("%s", err.msg);
  return id;
}

/* Expansions and path of a one-shot A*. */
static uint64_t one_shot(const world *w, int32_t a, int32_t b, td_cost *cost, size_t *len) {
  td_err err;
  td_astar *s = td_astar_create(&err);
  assert_int_equal(td_astar_find(s, w->g, a, b, &err), TD_ASTAR_FOUND);
  uint64_t e = td_astar_expanded(s);
  *len = td_astar_path(s, NULL, 0, cost);
  td_astar_destroy(s);
  return e;
}

static size_t tick(world *w, uint64_t budget) {
  w->log.tick++;
  return td_pathq_tick(w->q, budget);
}

/* ---- tests --------------------------------------------------------------- */

static void test_fifo_order(void **state) {
  (void)state;
  world w;
  world_init(&w);
  uint32_t ids[6];
  int32_t ends[6][2] = {{at(&w, 0, 0), at(&w, 29, 19)}, {at(&w, 5, 1), at(&w, 6, 1)},
                        {at(&w, 2, 2), at(&w, 2, 2)},   {at(&w, 29, 0), at(&w, 0, 19)},
                        {at(&w, 10, 5), at(&w, 3, 1)},  {at(&w, 7, 6), at(&w, 8, 9)}};
  for (int i = 0; i < 6; i++) ids[i] = request(&w, ends[i][0], ends[i][1]);
  for (int i = 1; i < 6; i++) assert_true(ids[i] == ids[i - 1] + 1);
  assert_int_equal(td_pathq_pending(w.q), 6);
  assert_int_equal(tick(&w, 1000000), 6);
  assert_int_equal(w.log.n, 6);
  for (int i = 0; i < 6; i++) {
    assert_int_equal(w.log.a[i].id, ids[i]);
    assert_int_equal(w.log.a[i].status, TD_ASTAR_FOUND);
    assert_int_equal(w.log.a[i].first, ends[i][0]);
    assert_int_equal(w.log.a[i].last, ends[i][1]);
    td_cost c;
    size_t n;
    one_shot(&w, ends[i][0], ends[i][1], &c, &n);
    assert_true(w.log.a[i].cost == c);
    assert_int_equal(w.log.a[i].len, n);
  }
  assert_int_equal(td_pathq_pending(w.q), 0);
  assert_int_equal(tick(&w, 1000), 0);
  assert_int_equal(td_pathq_get_stats(w.q)->delivered, 6);
  world_free(&w);
}

static void test_long_search_spans_ticks(void **state) {
  (void)state;
  world w;
  world_init(&w);
  int32_t a = at(&w, 0, 0), b = at(&w, 0, 19);
  td_cost cost;
  size_t len;
  uint64_t need = one_shot(&w, a, b, &cost, &len);
  const uint64_t budget = 17;
  assert_true(need > 5 * budget);
  uint32_t id = request(&w, a, b);
  uint64_t sum = 0;
  int ticks = 0;
  while (w.log.n == 0) {
    tick(&w, budget);
    ticks++;
    uint64_t used = td_pathq_get_stats(w.q)->last_expansions;
    assert_true(used <= budget);
    if (w.log.n == 0) assert_int_equal(used, budget); /* a running search uses it all */
    sum += used;
    assert_true(ticks < 1000);
  }
  assert_int_equal(sum, need);
  assert_int_equal(td_pathq_get_stats(w.q)->expansions, need);
  assert_int_equal(ticks, (int)((need + budget - 1) / budget));
  assert_int_equal(w.log.a[0].id, id);
  assert_int_equal(w.log.a[0].tick, ticks);
  assert_true(w.log.a[0].cost == cost);
  assert_int_equal(w.log.a[0].len, len);
  world_free(&w);
}

/* The budget left when one request is answered goes to the next one. */
static void test_budget_carries_to_next_request(void **state) {
  (void)state;
  world w;
  world_init(&w);
  int32_t a1 = at(&w, 0, 0), b1 = at(&w, 29, 19), a2 = at(&w, 29, 0), b2 = at(&w, 3, 18);
  td_cost c;
  size_t n;
  uint64_t e1 = one_shot(&w, a1, b1, &c, &n), e2 = one_shot(&w, a2, b2, &c, &n);
  const uint64_t budget = 23;
  request(&w, a1, b1);
  request(&w, a2, b2);
  int ticks = 0;
  while (w.log.n < 2) {
    tick(&w, budget);
    ticks++;
    assert_true(ticks < 1000);
  }
  assert_int_equal(td_pathq_get_stats(w.q)->expansions, e1 + e2);
  assert_int_equal(ticks, (int)((e1 + e2 + budget - 1) / budget));
  assert_int_equal(w.log.a[0].tick, (int)((e1 + budget - 1) / budget));
  world_free(&w);
}

static void test_zero_budget_answers_only_trivial(void **state) {
  (void)state;
  world w;
  world_init(&w);
  int32_t p = at(&w, 4, 4);
  request(&w, p, p);             /* no expansion needed */
  uint32_t long_id = request(&w, at(&w, 0, 0), at(&w, 0, 19));
  request(&w, p, p);             /* behind the long one: waits */
  assert_int_equal(tick(&w, 0), 1);
  assert_int_equal(w.log.a[0].len, 1);
  assert_true(w.log.a[0].cost == 0);
  assert_int_equal(tick(&w, 0), 0);
  assert_int_equal(td_pathq_pending(w.q), 2);
  assert_int_equal(tick(&w, 1000000), 2);
  assert_int_equal(w.log.a[1].id, long_id);
  /* a blocked end answers NO_PATH without expanding */
  w.g->node_blocked[p] = 1; /* stands for td_route_apply */
  request(&w, at(&w, 0, 0), p);
  assert_int_equal(tick(&w, 0), 1);
  assert_int_equal(w.log.a[3].status, TD_ASTAR_NO_PATH);
  assert_int_equal(w.log.a[3].len, 0);
  assert_true(w.log.a[3].cost == TD_COST_INF);
  world_free(&w);
}

static void test_cancel_queued_and_in_progress(void **state) {
  (void)state;
  world w;
  world_init(&w);
  uint32_t r1 = request(&w, at(&w, 0, 0), at(&w, 0, 19)); /* long */
  uint32_t r2 = request(&w, at(&w, 1, 1), at(&w, 2, 2));
  uint32_t r3 = request(&w, at(&w, 5, 0), at(&w, 9, 2));
  uint32_t r4 = request(&w, at(&w, 6, 0), at(&w, 9, 1));
  assert_true(td_pathq_cancel(w.q, r3)); /* queued */
  assert_false(td_pathq_cancel(w.q, r3));
  assert_false(td_pathq_cancel(w.q, 12345));
  assert_int_equal(td_pathq_pending(w.q), 3);
  assert_int_equal(tick(&w, 10), 0); /* r1 in progress */
  assert_true(td_pathq_cancel(w.q, r1));
  assert_int_equal(td_pathq_pending(w.q), 2);
  assert_int_equal(tick(&w, 1000000), 2);
  assert_int_equal(w.log.n, 2);
  assert_int_equal(w.log.a[0].id, r2);
  assert_int_equal(w.log.a[1].id, r4);
  assert_false(td_pathq_cancel(w.q, r2)); /* answered */
  const td_pathq_stats *st = td_pathq_get_stats(w.q);
  assert_int_equal(st->cancelled, 2);
  assert_int_equal(st->delivered, 2);
  /* the cancelled search's expansions are spent, the restart is clean: a
  ** new request for the same ends costs a full search */
  td_cost c;
  size_t n;
  uint64_t need = one_shot(&w, at(&w, 0, 0), at(&w, 0, 19), &c, &n);
  uint64_t before = st->expansions;
  request(&w, at(&w, 0, 0), at(&w, 0, 19));
  assert_int_equal(tick(&w, 1000000), 1);
  assert_int_equal(st->expansions - before, need);
  world_free(&w);
}

static void test_callbacks_may_request_and_cancel(void **state) {
  (void)state;
  world w;
  world_init(&w);
  uint32_t r1 = request(&w, at(&w, 1, 1), at(&w, 2, 2));
  uint32_t r2 = request(&w, at(&w, 3, 1), at(&w, 4, 2));
  uint32_t r3 = request(&w, at(&w, 5, 1), at(&w, 6, 2));
  w.log.cancel_on_answer = r2;
  w.log.request_on_answer = at(&w, 9, 9);
  assert_int_equal(tick(&w, 1000000), 3); /* r1, r3, then the new one */
  assert_int_equal(w.log.a[0].id, r1);
  assert_int_equal(w.log.a[1].id, r3);
  assert_int_equal(w.log.a[2].id, w.log.made_in_callback);
  assert_int_equal(w.log.a[2].first, at(&w, 9, 9));
  /* many requests force the array to grow and slide while answering */
  for (int i = 0; i < 40; i++) request(&w, at(&w, i % 30, 0), at(&w, (i * 7) % 30, 2));
  assert_int_equal(tick(&w, 1000000), 40);
  for (int i = 1; i < w.log.n; i++) assert_true(w.log.a[i].id > w.log.a[i - 1].id);
  world_free(&w);
}

static void test_bad_requests(void **state) {
  (void)state;
  world w;
  world_init(&w);
  td_err err;
  assert_int_equal(td_pathq_request(w.q, -1, 0, record, &w.log, &err), 0);
  assert_non_null(strstr(err.msg, "unknown node"));
  assert_int_equal(td_pathq_request(w.q, 0, w.g->node_count, record, &w.log, &err), 0);
  assert_int_equal(td_pathq_request(w.q, 0, 1, NULL, &w.log, &err), 0);
  assert_non_null(strstr(err.msg, "callback"));
  assert_int_equal(td_pathq_pending(w.q), 0);
  world_free(&w);
}

static void test_simplified_paths_keep_sight(void **state) {
  (void)state;
  world w;
  world_init(&w);
  td_pathq_set_simplify(w.q, w.grid);
  int32_t ends[4][2] = {{at(&w, 0, 0), at(&w, 0, 19)}, {at(&w, 29, 19), at(&w, 1, 0)},
                        {at(&w, 3, 2), at(&w, 25, 1)}, {at(&w, 8, 8), at(&w, 8, 8)}};
  for (int i = 0; i < 4; i++) request(&w, ends[i][0], ends[i][1]);
  assert_int_equal(tick(&w, 1000000), 4);
  for (int i = 0; i < 4; i++) {
    answer *a = &w.log.a[i];
    assert_int_equal(a->status, TD_ASTAR_FOUND);
    assert_int_equal(a->first, ends[i][0]);
    assert_int_equal(a->last, ends[i][1]);
    td_cost c;
    size_t n;
    one_shot(&w, ends[i][0], ends[i][1], &c, &n);
    assert_true(a->cost == c); /* the cost of the grid path */
    assert_true(a->len <= n);
    for (size_t k = 0; k + 1 < a->len; k++) {
      int32_t c0 = w.grid->node_cell[a->path[k]], c1 = w.grid->node_cell[a->path[k + 1]];
      assert_true(td_grid_line_of_sight(w.grid, w.g, c0 % 30, c0 / 30, c1 % 30, c1 / 30));
    }
  }
  /* (3,2) -> (25,1) is one straight look along the open band */
  assert_int_equal(w.log.a[2].len, 2);
  /* the long ones bend at every wall's gap */
  assert_true(w.log.a[0].len >= 5 && w.log.a[0].len < 40);
  world_free(&w);
}

/* The flags change while a search runs: a path through a node blocked
** since is not delivered; the search starts over. */
static void test_stale_path_restarts(void **state) {
  (void)state;
  world w;
  world_init(&w);
  /* (1,0) -> (28,0): the straight row is the shortest path, and the exact
  ** heuristic expands only its nodes. Half way, (5,0) is behind the search;
  ** blocking it then leaves a finished path through it. The band is three
  ** rows tall, so the new path steps around (5,0), a little longer. */
  int32_t a = at(&w, 1, 0), b = at(&w, 28, 0);
  td_cost c;
  size_t n;
  uint64_t need = one_shot(&w, a, b, &c, &n);
  request(&w, a, b);
  assert_int_equal(tick(&w, need / 2), 0);
  int32_t block = at(&w, 5, 0);
  w.g->node_blocked[block] = 1; /* stands for td_route_apply between ticks */
  while (w.log.n == 0) assert_true(tick(&w, need) <= 1);
  answer *ans = &w.log.a[0];
  assert_int_equal(ans->status, TD_ASTAR_FOUND);
  for (size_t k = 0; k < ans->len; k++) assert_true(ans->path[k] != block);
  assert_true(ans->cost > c);
  assert_int_equal(td_pathq_get_stats(w.q)->restarts, 1);
  /* td_pathq_restart: after an unblock, the search starts over at once */
  w.g->node_blocked[block] = 0;
  request(&w, a, b);
  assert_int_equal(tick(&w, need / 2), 0);
  td_pathq_restart(w.q);
  assert_int_equal(td_pathq_get_stats(w.q)->restarts, 2);
  uint64_t before = td_pathq_get_stats(w.q)->expansions;
  assert_int_equal(tick(&w, 1000000), 1);
  assert_int_equal(td_pathq_get_stats(w.q)->expansions - before, need);
  assert_true(w.log.a[1].cost == c);
  world_free(&w);
}

/* ---- allocation failures ------------------------------------------------- */

/* A queue saved with a search half done and requests waiting, loaded
** into another queue on the same graph, answers the same requests with the
** same paths on the same ticks, and counts the same; a second save is the
** same bytes. Bad states are refused with a reason, the queue unchanged. */
static void save_and_load(bool jps) {
  world a, b;
  world_init(&a);
  world_init(&b);
  td_pathq_set_simplify(a.q, a.grid);
  td_pathq_set_simplify(b.q, b.grid);
  td_err uerr;
  if (jps) {
    assert_int_equal(td_pathq_use_grid(a.q, a.grid, &uerr), 0);
    assert_int_equal(td_pathq_use_grid(b.q, b.grid, &uerr), 0);
  }
  const uint64_t budget = jps ? 1 : 40; /* JPS expands far fewer */
  int32_t ends[5][2] = {{at(&a, 0, 0), at(&a, 0, 19)}, {at(&a, 29, 0), at(&a, 3, 18)},
                        {at(&a, 5, 1), at(&a, 5, 1)},  {at(&a, 1, 18), at(&a, 28, 1)},
                        {at(&a, 10, 5), at(&a, 3, 1)}};
  uint32_t ids[5];
  for (int i = 0; i < 5; i++) ids[i] = request(&a, ends[i][0], ends[i][1]);
  assert_true(td_pathq_cancel(a.q, ids[2]));
  tick(&a, budget);
  tick(&a, budget); /* the first search is half done */
  assert_int_equal(a.log.n, 0);
  td_blob blob = {0};
  td_pathq_save(a.q, &blob);
  assert_false(blob.failed);
  td_blob_reader r = td_blob_read(blob.data, blob.len);
  td_err err;
  if (td_pathq_load(b.q, &r, record, &b.log, &err) != 0) fail_msg("%s", err.msg);
  assert_int_equal(r.pos, r.len);
  assert_int_equal(td_pathq_pending(b.q), 4);
  uint32_t got[8];
  assert_int_equal(td_pathq_ids(b.q, got, 8), 4);
  assert_int_equal(got[0], ids[0]);
  assert_int_equal(got[2], ids[3]);
  assert_memory_equal(td_pathq_get_stats(a.q), td_pathq_get_stats(b.q), sizeof(td_pathq_stats));
  td_blob again = {0};
  td_pathq_save(b.q, &again);
  assert_int_equal(again.len, blob.len);
  assert_memory_equal(again.data, blob.data, blob.len);
  assert_int_equal(td_pathq_checksum(a.q, 1), td_pathq_checksum(b.q, 1));
  b.log.tick = a.log.tick;
  for (int t = 0; t < 200 && a.log.n < 4; t++) {
    tick(&a, budget);
    tick(&b, budget);
    assert_int_equal(td_pathq_get_stats(a.q)->last_expansions,
                     td_pathq_get_stats(b.q)->last_expansions);
  }
  assert_int_equal(a.log.n, 4);
  assert_int_equal(b.log.n, 4);
  for (int i = 0; i < 4; i++) {
    answer *x = &a.log.a[i], *y = &b.log.a[i];
    assert_int_equal(x->id, y->id);
    assert_int_equal(x->tick, y->tick);
    assert_int_equal(x->len, y->len);
    assert_true(x->cost == y->cost);
    assert_memory_equal(x->path, y->path, x->len * sizeof *x->path);
  }
  assert_memory_equal(td_pathq_get_stats(a.q), td_pathq_get_stats(b.q), sizeof(td_pathq_stats));
  /* new requests number on from the saved next id */
  assert_int_equal(request(&a, ends[0][0], ends[0][1]), request(&b, ends[0][0], ends[0][1]));

  /* refusals: a node out of the graph, two requests with one id, a search
  ** without requests, truncation */
  struct {
    size_t at;       /* byte to overwrite: the header is 65 bytes, a request 12 */
    uint32_t value;
    const char *why;
  } bad[] = {
      {65 + 12 + 4, 99999, "not in the graph"},  /* request 1's start */
      {65 + 12, ids[0], "an id twice"},          /* request 1's id */
      {0, 7, "not a path queue"},
  };
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    td_blob c = {0};
    td_blob_bytes(&c, blob.data, blob.len);
    memcpy(c.data + bad[k].at, &bad[k].value, 4);
    r = td_blob_read(c.data, c.len);
    size_t before = td_pathq_pending(b.q);
    assert_int_equal(td_pathq_load(b.q, &r, record, &b.log, &err), -1);
    if (!strstr(err.msg, bad[k].why)) fail_msg("case %zu: %s", k, err.msg);
    assert_int_equal(td_pathq_pending(b.q), before);
    td_blob_free(&c);
  }
  r = td_blob_read(blob.data, blob.len - 3);
  assert_int_equal(td_pathq_load(b.q, &r, record, &b.log, &err), -1);
  assert_non_null(strstr(err.msg, "truncated"));
  td_blob_free(&again);
  td_blob_free(&blob);
  world_free(&a);
  world_free(&b);
}

static void test_save_and_load(void **state) {
  (void)state;
  save_and_load(false);
  save_and_load(true);
}

/* ---- Jump Point Search ---------------------------------------------------- */

/* With the grid, the queue's searches are JPS's: the same costs as A*,
** JPS's expansions, the same answers whatever the budget; a cost factor
** off 1 makes them A*'s again; an edge blocked that no cell explains makes
** the request fall back to A* instead of restarting for ever. */
static void test_jps_queue(void **state) {
  (void)state;
  world w, small;
  world_init(&w);
  world_init(&small);
  td_err err;
  assert_int_equal(td_pathq_use_grid(w.q, w.grid, &err), 0);
  assert_int_equal(td_pathq_use_grid(small.q, small.grid, &err), 0);
  td_jps *j = td_jps_create(&err);
  assert_int_equal(td_jps_bind(j, w.grid, w.g, &err), 0);
  int32_t ends[4][2] = {{at(&w, 0, 0), at(&w, 0, 19)}, {at(&w, 29, 0), at(&w, 3, 18)},
                        {at(&w, 1, 18), at(&w, 28, 1)}, {at(&w, 10, 5), at(&w, 3, 1)}};
  uint64_t want = 0;
  for (int i = 0; i < 4; i++) {
    request(&w, ends[i][0], ends[i][1]);
    request(&small, ends[i][0], ends[i][1]);
    assert_int_equal(td_jps_find(j, ends[i][0], ends[i][1], &err), TD_ASTAR_FOUND);
    want += td_jps_expanded(j);
  }
  assert_int_equal(tick(&w, 1000000), 4);
  assert_int_equal(td_pathq_get_stats(w.q)->expansions, want);
  for (int t = 0; t < 10000 && small.log.n < 4; t++) tick(&small, 1);
  assert_int_equal(small.log.n, 4);
  for (int i = 0; i < 4; i++) {
    td_cost c;
    size_t n;
    uint64_t astar = one_shot(&w, ends[i][0], ends[i][1], &c, &n);
    assert_true(w.log.a[i].cost == c);
    assert_true(astar > 0);
    assert_int_equal(small.log.a[i].len, w.log.a[i].len);
    assert_memory_equal(small.log.a[i].path, w.log.a[i].path, w.log.a[i].len * sizeof(int32_t));
  }
  assert_true(want < td_pathq_get_stats(w.q)->expansions + 1);

  /* mud on one edge: A* again, its expansions */
  int32_t goal = at(&w, 0, 0);
  td_route *r = td_route_create(w.g, &goal, 1, &err);
  assert_non_null(r);
  td_graph_change mud = {.kind = TD_CHANGE_SET_FACTOR, .id = 0, .factor = 3.0};
  assert_int_equal(td_route_apply(r, &mud, 1, &err), 0);
  td_cost c;
  size_t n;
  uint64_t astar = one_shot(&w, ends[0][0], ends[0][1], &c, &n);
  uint64_t before = td_pathq_get_stats(w.q)->expansions;
  request(&w, ends[0][0], ends[0][1]);
  assert_int_equal(tick(&w, 1000000), 1);
  assert_int_equal(td_pathq_get_stats(w.q)->expansions - before, astar);
  assert_true(w.log.a[4].cost == c);
  mud.factor = 1.0;
  assert_int_equal(td_route_apply(r, &mud, 1, &err), 0);

  /* an edge blocked by itself (no cell is): JPS's straight path along the
  ** top row crosses it and is stale; the request falls back to A*, which
  ** steps round it, and restarts once */
  int32_t from = at(&w, 1, 0), to = at(&w, 28, 0);
  uint64_t straight_exp = one_shot(&w, from, to, &c, &n);
  (void)straight_exp;
  td_graph_change cut = {.kind = TD_CHANGE_BLOCK_EDGE,
                         .id = td_graph_find_edge(w.g, at(&w, 5, 0), at(&w, 6, 0))};
  assert_int_equal(td_route_apply(r, &cut, 1, &err), 0);
  uint64_t restarts = td_pathq_get_stats(w.q)->restarts;
  request(&w, from, to);
  assert_int_equal(tick(&w, 1000000), 1);
  answer *ans = &w.log.a[5];
  assert_int_equal(ans->status, TD_ASTAR_FOUND);
  assert_true(ans->cost > c);
  for (size_t k = 0; k + 1 < ans->len; k++) {
    int32_t e = td_graph_find_edge(w.g, ans->path[k], ans->path[k + 1]);
    assert_true(e != TD_NONE && td_graph_edge_open(w.g, e));
  }
  assert_true(td_pathq_get_stats(w.q)->restarts == restarts + 1);
  /* the next request begins with JPS again (and falls back again) */
  request(&w, from, to);
  assert_int_equal(tick(&w, 1000000), 1);
  assert_true(w.log.a[6].cost == ans->cost);
  assert_true(td_pathq_get_stats(w.q)->restarts == restarts + 2);
  td_route_destroy(r);
  td_jps_destroy(j);
  world_free(&w);
  world_free(&small);
}

static void test_allocation_failures(void **state) {
  (void)state;
  world w;
  world_init(&w);
  bool complete = false;
  for (long k = 0; k < 30 && !complete; k++) {
    td_test_alloc f = {.fail_at = k + 1, .fail_rest = true};
    td_test_alloc_install(&f);
    td_err err;
    log_t lg;
    memset(&lg, 0, sizeof lg);
    lg.request_on_answer = TD_NONE;
    td_pathq *q = td_pathq_create(w.g, &err);
    if (q) {
      lg.q = q;
      int made = 0;
      for (int i = 0; i < 20; i++)
        if (td_pathq_request(q, at(&w, i, 0), at(&w, 29 - i, 19), record, &lg, &err)) made++;
        else assert_non_null(strstr(err.msg, "memory"));
      td_pathq_tick(q, 1000000);
      assert_int_equal(lg.n, made);
      int errors = 0;
      for (int i = 0; i < lg.n; i++) errors += lg.a[i].status == TD_ASTAR_ERROR;
      complete = made == 20 && errors == 0;
      td_pathq_destroy(q);
    } else {
      assert_non_null(strstr(err.msg, "memory"));
    }
    td_test_alloc_remove();
    td_test_alloc_assert_clean(&f);
  }
  assert_true(complete);
  world_free(&w);
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_fifo_order),
    cmocka_unit_test(test_long_search_spans_ticks),
    cmocka_unit_test(test_budget_carries_to_next_request),
    cmocka_unit_test(test_zero_budget_answers_only_trivial),
    cmocka_unit_test(test_cancel_queued_and_in_progress),
    cmocka_unit_test(test_callbacks_may_request_and_cancel),
    cmocka_unit_test(test_bad_requests),
    cmocka_unit_test(test_simplified_paths_keep_sight),
    cmocka_unit_test(test_stale_path_restarts),
    cmocka_unit_test(test_save_and_load),
    cmocka_unit_test(test_jps_queue),
    cmocka_unit_test(test_allocation_failures),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
