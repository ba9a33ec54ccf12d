/*
** test_auto.c: the built-in player (engine/game/auto.h).
** - On a map it can do nothing on: no tower bases
**   (tests/data/maps/sprite_road.lua). It plays the game through without an
**   error and builds nothing; under the Sanitize build this is the case
**   that once passed NULL to memset (issue 17).
** - Its strategies on 01-crossroads and 02-grid: each plays to the end; a
**   game saved and loaded halfway (the player made afresh as the default
**   one: the memory's strategy wins) ends exactly as the uninterrupted one,
**   with the same commands; the strategies give different commands; the
**   maze player's route from the spawn is longer than the default's at
**   some point on 02-grid; the random player with two seeds differs.
** - The memory: version 1 (before strategies) loads and keeps the
**   strategy the player was made with; a bad strategy is refused.
*/
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "game/auto.h"
#include "game/game.h"

static void test_no_bases(void **state) {
  (void)state;
  char map[512], dir[512];
  snprintf(map, sizeof map, "%s", td_test_path("tests/data/maps/sprite_road.lua"));
  snprintf(dir, sizeof dir, "%s", td_test_path("scripts/base"));
  td_game_options o = {.map_path = map, .mod_dir = dir, .seed = 1};
  td_err err;
  td_game *g = td_game_create(&o, &err);
  if (!g) fail_msg("%s", err.msg);
  assert_int_equal(td_game_map(g)->base_count, 0);
  td_auto *au = td_auto_create(&err);
  assert_non_null(au);
  td_world *w = td_game_world(g);
  while (td_world_state(w) == TD_GAME_PLAYING && td_world_tick(w) < 3000) {
    if (td_auto_play(au, g, &err) != 0) fail_msg("tick %llu: %s", (unsigned long long)td_world_tick(w), err.msg);
    if (td_game_step(g, &err) != 0) fail_msg("step: %s", err.msg);
  }
  assert_true(td_world_tick(w) >= 600); /* it played, through several decisions */
  int32_t built = -1, upgraded = -1;
  td_auto_counts(au, &built, &upgraded);
  assert_int_equal(built, 0);
  assert_int_equal(upgraded, 0);
  td_auto_destroy(au);
  td_game_destroy(g);
}

/* ---- strategies ---------------------------------------------------------- */

#define SAMPLES 200     /* route lengths, one every SAMPLE_EVERY ticks */
#define SAMPLE_EVERY 600
#define MAX_TICKS 120000

typedef struct played {
  td_game_state state;
  uint64_t ticks, checksum, cmd_hash;
  size_t ncmd;
  int32_t built, upgraded;
  double len[SAMPLES]; /* the route's length from the spawns, -1: not reached */
} played;

static td_game *open_map(const char *name, uint64_t seed, td_game_options *o, char *map,
                         char *dir) {
  snprintf(map, 512, "%s", td_test_path(name));
  snprintf(dir, 512, "%s", td_test_path("scripts/base"));
  *o = (td_game_options){.map_path = map, .mod_dir = dir, .seed = seed};
  td_err err;
  td_game *g = td_game_create(o, &err);
  if (!g) fail_msg("%s", err.msg);
  return g;
}

/* The summed length of the routes from every spawn along next. */
static double route_length(const td_world *w) {
  const td_map *m = td_world_map(w);
  const td_route *rt = td_world_route(w);
  const td_graph *g = td_route_graph(rt);
  const int32_t *next = td_route_next(rt);
  double len = 0;
  for (size_t s = 0; s < m->spawn_count; s++) {
    int32_t n = m->spawns[s].node;
    for (int32_t k = 0; k < g->node_count && n >= 0 && !td_route_is_goal(rt, n) && next[n] >= 0;
         k++) {
      len += hypot(g->x[next[n]] - g->x[n], g->y[next[n]] - g->y[n]);
      n = next[n];
    }
  }
  return len;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
  return h;
}

/* Plays map with strategy to its end; save_at > 0: saves the game (with the
** player's memory) at that tick and goes on with a loaded copy and a
** player made afresh (as the default one). */
static void play(const char *name, int strategy, uint64_t seed, uint64_t save_at, played *out) {
  td_game_options o;
  char map[512], dir[512];
  td_err err;
  td_game *g = open_map(name, seed, &o, map, dir);
  td_auto *au = td_auto_create_strategy(strategy, &err);
  assert_non_null(au);
  assert_int_equal(td_auto_strategy(au), strategy);
  memset(out, 0, sizeof *out);
  for (size_t i = 0; i < SAMPLES; i++) out->len[i] = -1;
  td_world *w = td_game_world(g);
  while (td_world_state(w) == TD_GAME_PLAYING && td_world_tick(w) < MAX_TICKS) {
    uint64_t t = td_world_tick(w);
    if (save_at && t == save_at) {
      td_blob mem = {0};
      td_auto_save(au, &mem);
      assert_false(mem.failed);
      assert_int_equal(td_game_set_player_state(g, mem.data, mem.len, &err), 0);
      td_blob_free(&mem);
      const char *path = td_test_tmp("auto.tds");
      if (td_game_save(g, path, &err) != 0) fail_msg("%s", err.msg);
      td_game_destroy(g);
      td_auto_destroy(au);
      g = td_game_load(&o, path, &err);
      if (!g) fail_msg("%s", err.msg);
      w = td_game_world(g);
      au = td_auto_create(&err);
      assert_non_null(au);
      size_t len;
      const void *st = td_game_player_state(g, &len);
      if (td_auto_load(au, st, len, &err) != 0) fail_msg("%s", err.msg);
      assert_int_equal(td_auto_strategy(au), strategy); /* the memory's */
    }
    if (t % SAMPLE_EVERY == 0 && t / SAMPLE_EVERY < SAMPLES)
      out->len[t / SAMPLE_EVERY] = route_length(w);
    if (td_auto_play(au, g, &err) != 0) fail_msg("tick %llu: %s", (unsigned long long)t, err.msg);
    if (td_game_step(g, &err) != 0) fail_msg("step: %s", err.msg);
  }
  out->state = td_world_state(w);
  out->ticks = td_world_tick(w);
  out->checksum = td_world_checksum(w);
  const td_command *c = td_game_commands(g, &out->ncmd);
  out->cmd_hash = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < out->ncmd; i++) {
    int32_t f[5] = {(int32_t)c[i].kind, c[i].base, c[i].tower_type, c[i].upgrade,
                    (int32_t)c[i].tick};
    out->cmd_hash = fnv(out->cmd_hash, f, sizeof f);
  }
  td_auto_counts(au, &out->built, &out->upgraded);
  td_auto_destroy(au);
  td_game_destroy(g);
}

static played games[2][TD_AUTO_STRATEGIES]; /* 01-crossroads, 02-grid at seed 1 */
static const char *const maps[2] = {"maps/01-crossroads.tmx", "maps/02-grid.tmx"};

static void test_strategies_play(void **state) {
  (void)state;
  for (int m = 0; m < 2; m++)
    for (int s = 0; s < TD_AUTO_STRATEGIES; s++) {
      played *p = &games[m][s], again;
      play(maps[m], s, 1, 0, p);
      print_message("%s %-8s %s at tick %llu, %zu commands (%d built, %d upgrades)\n", maps[m],
                    td_auto_strategy_name(s), p->state == TD_GAME_WON ? "won" : "lost",
                    (unsigned long long)p->ticks, p->ncmd, (int)p->built, (int)p->upgraded);
      assert_int_not_equal(p->state, TD_GAME_PLAYING); /* it did not stall */
      assert_true(p->built >= 1);
      assert_int_equal(p->ncmd >= (size_t)(p->built + p->upgraded), 1);
      /* the same game, saved and loaded halfway: the same end */
      play(maps[m], s, 1, 4500, &again);
      assert_int_equal(again.ticks, p->ticks);
      assert_int_equal(again.checksum, p->checksum);
      assert_int_equal(again.cmd_hash, p->cmd_hash);
    }
  /* different strategies, different commands */
  for (int m = 0; m < 2; m++)
    for (int s = 0; s < TD_AUTO_STRATEGIES; s++)
      for (int u = s + 1; u < TD_AUTO_STRATEGIES; u++) {
        if (games[m][s].cmd_hash == games[m][u].cmd_hash)
          fail_msg("%s: %s and %s give the same commands", maps[m], td_auto_strategy_name(s),
                   td_auto_strategy_name(u));
      }
}

static void test_maze_lengthens(void **state) {
  (void)state;
  played d, mz;
  play("maps/02-grid.tmx", TD_AUTO_DEFAULT, 1, 0, &d);
  play("maps/02-grid.tmx", TD_AUTO_MAZE, 1, 0, &mz);
  double most = 0;
  int at = -1;
  for (int i = 0; i < SAMPLES && d.len[i] >= 0 && mz.len[i] >= 0; i++) {
    assert_true(mz.len[i] >= d.len[0] - 1e-9); /* never shorter than the open route */
    if (mz.len[i] - d.len[i] > most) most = mz.len[i] - d.len[i], at = i;
  }
  print_message("02-grid: the maze's route is longer by %.0f map units at tick %d\n", most,
                at * SAMPLE_EVERY);
  assert_true(at >= 0 && most > 32); /* more than a tile */
}

static void test_random_seeds(void **state) {
  (void)state;
  played a, b, c;
  play("maps/01-crossroads.tmx", TD_AUTO_RANDOM, 1, 0, &a);
  play("maps/01-crossroads.tmx", TD_AUTO_RANDOM, 2, 0, &b);
  play("maps/01-crossroads.tmx", TD_AUTO_RANDOM, 1, 0, &c);
  assert_int_not_equal(a.cmd_hash, b.cmd_hash);
  assert_int_equal(a.cmd_hash, c.cmd_hash);
  assert_int_equal(a.checksum, c.checksum);
}

/* ---- the memory ---------------------------------------------------------- */

static void test_memory_versions(void **state) {
  (void)state;
  td_err err;
  /* version 1: "AUT1", built 3, upgraded 2, want -1, since 0, 2 types */
  td_blob b = {0};
  td_blob_u32(&b, 0x31545541u);
  td_blob_i32(&b, 3);
  td_blob_i32(&b, 2);
  td_blob_i32(&b, -1);
  td_blob_u64(&b, 0);
  td_blob_u32(&b, 2);
  td_blob_i32(&b, 1);
  td_blob_i32(&b, 2);
  td_auto *a = td_auto_create_strategy(TD_AUTO_ECONOMY, &err);
  assert_non_null(a);
  assert_int_equal(td_auto_load(a, b.data, b.len, &err), 0);
  assert_int_equal(td_auto_strategy(a), TD_AUTO_ECONOMY); /* it names none */
  int32_t built, upgraded;
  td_auto_counts(a, &built, &upgraded);
  assert_int_equal(built, 3);
  assert_int_equal(upgraded, 2);
  /* cut short: refused */
  assert_int_equal(td_auto_load(a, b.data, b.len - 1, &err), -1);
  td_blob_free(&b);

  /* version 2 names its strategy; one out of range is refused */
  td_auto *r = td_auto_create_strategy(TD_AUTO_RANDOM, &err);
  assert_non_null(r);
  td_auto_save(r, &b);
  td_auto *d = td_auto_create(&err);
  assert_non_null(d);
  assert_int_equal(td_auto_load(d, b.data, b.len, &err), 0);
  assert_int_equal(td_auto_strategy(d), TD_AUTO_RANDOM);
  ((unsigned char *)b.data)[4] = TD_AUTO_STRATEGIES;
  assert_int_equal(td_auto_load(a, b.data, b.len, &err), -1);
  assert_non_null(strstr(err.msg, "not the built-in player's"));
  assert_int_equal(td_auto_strategy(a), TD_AUTO_ECONOMY); /* unchanged */
  td_blob_free(&b);
  assert_null(td_auto_create_strategy(TD_AUTO_STRATEGIES, &err));
  td_auto_destroy(a);
  td_auto_destroy(r);
  td_auto_destroy(d);

  /* the names */
  for (int s = 0; s < TD_AUTO_STRATEGIES; s++)
    assert_int_equal(td_auto_strategy_find(td_auto_strategy_name(s)), s);
  assert_string_equal(td_auto_strategy_name(TD_AUTO_DEFAULT), "default");
  assert_int_equal(td_auto_strategy_find("Maze"), -1);
  assert_null(td_auto_strategy_name(TD_AUTO_STRATEGIES));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_no_bases),
      cmocka_unit_test(test_strategies_play),
      cmocka_unit_test(test_maze_lengthens),
      cmocka_unit_test(test_random_seeds),
      cmocka_unit_test(test_memory_versions),
  };
  return cmocka_run_group_tests(tests, td_test_dir_setup, td_test_dir_teardown);
}
