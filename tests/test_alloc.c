/*
** test_alloc.c: allocation failure through the one hook (nav/mem.h). The map
** loader, the mod's Lua states, the world, its crowd and route all allocate
** through td_mem; these tests make the N-th allocation fail, for N = 1, 2,
** 3, ..., while loading a map, creating a game (maps/01-crossroads.tmx with
** scripts/base) and playing it for 600 ticks, and saving and loading it.
** Each run must either succeed (Lua's emergency collection, a handler
** disabled) or fail with one line saying "out of memory" - and free every
** block either way (the hook counts them; ASan and valgrind check the rest).
** Large sweeps use a stride (TD_TEST_SWEEP_FULL=1 runs every N); the counts
** are printed. The meter (td_mem_meter_set) is tested here too.
*/
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "game/game.h"
#include "script/mapfile.h"

#define PLAY_TICKS 600
#define MAX_RUNS 2000 /* per sweep: keeps the suite to seconds */

static char map_path[600], mod_dir[600], tmpdir[256];

static int group_setup(void **state) {
  (void)state;
  snprintf(map_path, sizeof map_path, "%s", td_test_path("maps/01-crossroads.tmx"));
  snprintf(mod_dir, sizeof mod_dir, "%s", td_test_path("scripts/base"));
  snprintf(tmpdir, sizeof tmpdir, "/tmp/td_test_alloc_XXXXXX");
  return mkdtemp(tmpdir) ? 0 : -1;
}

static int group_teardown(void **state) {
  (void)state;
  char path[400];
  snprintf(path, sizeof path, "%s/game.tds", tmpdir);
  remove(path);
  return rmdir(tmpdir); /* fails when a failed save left its temporary */
}

static void report(const td_test_sweep *s) {
  print_message("%s: %ld allocations; failed 1 in %ld (%ld runs%s): %ld survived, %ld refused "
                "cleanly\n", s->what, s->total, s->stride, s->runs,
                s->fail_rest ? ", every later one failing too" : "", s->survived, s->refused);
  assert_int_equal(s->runs, s->survived + s->refused);
  assert_true(s->refused > 0); /* the failures reached the error paths */
}

/* ---- operations ---------------------------------------------------------- */

static int load_map(void *ud, td_err *err) {
  const char *path = ud;
  td_map m;
  if (td_mapfile_load(path, &m, err) != 0) {
    /* refused: named, and the map left empty */
    if (!strstr(err->msg, path)) fail_msg("message does not name the map: %s", err->msg);
    assert_null(m.graph);
    assert_int_equal(m.spawn_count + m.goal_count + m.base_count + m.layer_count, 0);
    return -1;
  }
  assert_non_null(m.graph);
  td_map_free(&m);
  return 0;
}

static td_game_options game_options(void) {
  return (td_game_options){.map_path = map_path, .mod_dir = mod_dir, .seed = 1};
}

static int create_game(void *ud, td_err *err) {
  (void)ud;
  td_game_options o = game_options();
  td_game *g = td_game_create(&o, err);
  if (!g) return -1;
  assert_int_equal(td_world_tick(td_game_world(g)), 0);
  td_game_destroy(g);
  return 0;
}

/* A game with towers on the first bases and a wave called every 100 ticks,
** so that enemies walk, towers fire and handlers run within the ticks. */
static td_game *start(td_err *err) {
  td_game_options o = game_options();
  td_game *g = td_game_create(&o, err);
  if (!g) return NULL;
  td_world_give_gold(td_game_world(g), 100000);
  const td_map *m = td_game_map(g);
  const td_rules *r = td_game_rules(g);
  int rc = 0;
  td_command c;
  for (uint64_t t = 0; rc == 0 && t < PLAY_TICKS; t += 100) { /* a wave every 100 ticks */
    c = (td_command){.tick = t, .kind = TD_COMMAND_CALL_WAVE};
    rc = td_game_command(g, &c, err);
  }
  for (size_t b = 0; rc == 0 && b < m->base_count && b < 4; b++) {
    c = (td_command){.tick = 1 + b, .kind = TD_COMMAND_PLACE, .base = (int32_t)b,
                     .tower_type = (int32_t)(b % r->tower_count)};
    rc = td_game_command(g, &c, err);
  }
  if (rc != 0) {
    td_game_destroy(g);
    return NULL;
  }
  return g;
}

static int steps(td_game *g, int n, td_err *err) {
  for (int t = 0; t < n; t++)
    if (td_game_step(g, err) != 0) return -1;
  return 0;
}

static int play_game(void *ud, td_err *err) {
  int *enemies_seen = ud;
  td_game *g = start(err);
  if (!g) return -1;
  int rc = steps(g, PLAY_TICKS, err);
  if (rc == 0) {
    const td_world *w = td_game_world(g);
    assert_int_equal(td_world_tick(w), PLAY_TICKS);
    if (td_world_enemy_count(w) > 0 || td_world_wave(w) > 0) (*enemies_seen)++;
  } else {
    /* a step that failed broke the world: every later one fails too */
    td_err again;
    assert_int_not_equal(td_game_step(g, &again), 0);
  }
  td_game_destroy(g);
  return rc;
}

static int save_and_load(void *ud, td_err *err) {
  (void)ud;
  char path[400];
  snprintf(path, sizeof path, "%s/game.tds", tmpdir);
  td_game *g = start(err);
  if (!g) return -1;
  int rc = steps(g, 120, err);
  if (rc == 0) rc = td_game_save(g, path, err);
  if (rc == 0) {
    td_game_options o = game_options();
    td_game *h = td_game_load(&o, path, err);
    if (!h) {
      rc = -1;
    } else {
      assert_int_equal(td_world_checksum(td_game_world(h)), td_world_checksum(td_game_world(g)));
      td_game_destroy(h);
    }
  }
  td_game_destroy(g);
  return rc;
}

/* ---- tests --------------------------------------------------------------- */

static void test_map_load(void **state) {
  td_test_alloc *a = *state;
  const char *maps[] = {"maps/01-crossroads.tmx", "maps/02-grid.tmx"};
  for (size_t i = 0; i < sizeof maps / sizeof maps[0]; i++) {
    char path[600];
    snprintf(path, sizeof path, "%s", td_test_path(maps[i]));
    td_test_sweep s = {.what = maps[i], .expect = "out of memory"};
    td_test_alloc_sweep(a, load_map, path, &s);
    report(&s);
    assert_int_equal(s.stride, 1); /* every allocation */
    s = (td_test_sweep){.what = maps[i], .expect = "out of memory", .fail_rest = true};
    td_test_alloc_sweep(a, load_map, path, &s);
    report(&s);
  }
}

static void test_game_create(void **state) {
  td_test_alloc *a = *state;
  td_test_sweep s = {.what = "td_game_create", .expect = "out of memory", .max_runs = MAX_RUNS};
  td_test_alloc_sweep(a, create_game, NULL, &s);
  report(&s);
  s = (td_test_sweep){.what = "td_game_create", .expect = "out of memory", .fail_rest = true,
                      .max_runs = MAX_RUNS / 4};
  td_test_alloc_sweep(a, create_game, NULL, &s);
  report(&s);
}

static void test_game_play(void **state) {
  td_test_alloc *a = *state;
  /* the creation's allocations were swept above: start after them */
  td_err err;
  a->calls = 0;
  td_game *g = start(&err);
  if (!g) fail_msg("%s", err.msg);
  long created = a->calls;
  td_game_destroy(g);
  int seen = 0;
  td_test_sweep s = {.what = "600 ticks", .first = created + 1, .expect = "out of memory",
                     .max_runs = MAX_RUNS};
  td_test_alloc_sweep(a, play_game, &seen, &s);
  report(&s);
  assert_true(s.total > created);
  assert_true(seen > 0); /* the game got as far as a wave */
  print_message("600 ticks: %ld allocations after the game's creation\n", s.total - created);
}

static void test_save_load(void **state) {
  td_test_alloc *a = *state;
  td_test_sweep s = {.what = "save and load", .expect = "out of memory", .max_runs = MAX_RUNS / 2};
  td_test_alloc_sweep(a, save_and_load, NULL, &s);
  report(&s);
}

/* The meter counts what passes through td_mem while it is set and refuses
** an allocation or growth past its limit (setting over), never a shrink or
** a free; frees of older blocks count down from where it started. */
static void test_meter(void **state) {
  td_test_alloc *a = *state;
  char *old = td_mem_alloc(100); /* before the meter */
  td_mem_meter m = {.live = 100, .limit = 1000};
  assert_null(td_mem_meter_set(&m));
  char *p = td_mem_alloc(600);
  assert_non_null(p);
  assert_int_equal(m.live, 700);
  assert_null(td_mem_alloc(301)); /* 1001 > 1000 */
  assert_true(m.over);
  assert_null(td_mem_calloc(301, 1));
  char *q = td_mem_realloc(p, 600, 900);
  assert_non_null(q);
  assert_int_equal(m.live, 1000);
  assert_null(td_mem_realloc(q, 900, 901)); /* the block stays */
  q = td_mem_realloc(q, 900, 200);          /* shrinking always works */
  assert_non_null(q);
  assert_int_equal(m.live, 300);
  td_mem_free(old, 100);
  assert_int_equal(m.live, 200);
  td_mem_free(q, 200);
  assert_int_equal(m.live, 0);
  assert_int_equal(m.peak, 1000);
  assert_ptr_equal(td_mem_meter_set(NULL), &m);
  size_t before = a->calls;
  p = td_mem_alloc(5000); /* no meter: no limit */
  assert_non_null(p);
  td_mem_free(p, 5000);
  assert_true((size_t)a->calls > before);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_meter, td_test_alloc_setup, td_test_alloc_teardown),
      cmocka_unit_test_setup_teardown(test_map_load, td_test_alloc_setup, td_test_alloc_teardown),
      cmocka_unit_test_setup_teardown(test_game_create, td_test_alloc_setup,
                                      td_test_alloc_teardown),
      cmocka_unit_test_setup_teardown(test_game_play, td_test_alloc_setup, td_test_alloc_teardown),
      cmocka_unit_test_setup_teardown(test_save_load, td_test_alloc_setup, td_test_alloc_teardown),
  };
  return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
