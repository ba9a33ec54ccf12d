/*
** test_auto.c: the built-in player (engine/game/auto.h) on a map it can do
** nothing on: no tower bases (tests/data/maps/sprite_road.lua). It plays
** the game through without an error and builds nothing; under the Sanitize
** build this is the case that once passed NULL to memset (issue 17).
*/
#include "support.h"

#include <stdio.h>

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

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_no_bases),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
