/*
** test_override.c: rule overrides (engine/game/override.h): parsing, the
** field table, applying to a copy (every level of a tower type, one level,
** an enemy, the rules' own numbers), rounding of whole numbers, the
** rules' own validation, and a game made with overrides (its rules and
** their hash differ, the mod's stay as they were).
*/
#include "support.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/game.h"
#include "game/override.h"

static td_game *make_game(const td_override *ov, size_t n, td_err *err) {
  char map[512], dir[512];
  snprintf(map, sizeof map, "%s", td_test_path("maps/01-crossroads.tmx"));
  snprintf(dir, sizeof dir, "%s", td_test_path("scripts/base"));
  td_game_options o = {.map_path = map, .mod_dir = dir, .seed = 1, .overrides = ov,
                       .override_count = n};
  return td_game_create(&o, err);
}

static td_override parse_ok(td_override_op op, const char *arg) {
  td_override o;
  td_err err;
  if (td_override_parse(op, arg, &o, &err) != 0) fail_msg("%s: %s", arg, err.msg);
  return o;
}

static void parse_bad(td_override_op op, const char *arg, const char *want) {
  td_override o;
  td_err err = {0};
  assert_int_equal(td_override_parse(op, arg, &o, &err), -1);
  if (!strstr(err.msg, want)) fail_msg("%s: '%s' lacks '%s'", arg, err.msg, want);
}

static void test_parse(void **state) {
  (void)state;
  td_override o = parse_ok(TD_OVERRIDE_SCALE, "tower.cannon.cost=1.1");
  assert_int_equal(o.op, TD_OVERRIDE_SCALE);
  assert_string_equal(o.param, "tower.cannon.cost");
  assert_true(o.value == 1.1);
  o = parse_ok(TD_OVERRIDE_SET, "rules.start_gold=250");
  assert_true(o.value == 250);
  parse_ok(TD_OVERRIDE_SET, "level.arrow_2.damage=3e1");
  parse_ok(TD_OVERRIDE_SET, "enemy.runner.speed=-1"); /* the rules refuse it, not the parser */
  parse_bad(TD_OVERRIDE_SET, "tower.cannon.cost", "--set tower.cannon.cost: expected PARAM=VALUE");
  parse_bad(TD_OVERRIDE_SCALE, "=2", "expected PARAM=FACTOR");
  parse_bad(TD_OVERRIDE_SET, "towers.cannon.cost=1", "expected tower.NAME.FIELD");
  parse_bad(TD_OVERRIDE_SET, "tower.cannon=1", "expected tower.NAME.FIELD");
  parse_bad(TD_OVERRIDE_SET, "tower.can non.cost=1", "'can non' is not a name");
  parse_bad(TD_OVERRIDE_SET, "tower.cannon.price=1", "no tower field 'price' (cost, range,");
  parse_bad(TD_OVERRIDE_SET, "rules.gold=1", "no rules field 'gold' (wave_count,");
  parse_bad(TD_OVERRIDE_SET, "rules.start_gold=ten", "'ten' is not a finite number");
  parse_bad(TD_OVERRIDE_SET, "rules.start_gold=inf", "is not a finite number");
  parse_bad(TD_OVERRIDE_SET, "rules.start_gold=1e999", "is not a finite number");
  parse_bad(TD_OVERRIDE_SET, "rules.start_gold=1x", "is not a finite number");
  char text[128], num[32], list[640];
  assert_string_equal(td_override_text(&(td_override){TD_OVERRIDE_SCALE, "tower.a.cost", 1.1},
                                       text, sizeof text), "--scale tower.a.cost=1.1");
  td_override_number(0.1 + 0.2, num, sizeof num); /* not 0.3: read back exactly */
  assert_true(strtod(num, NULL) == 0.1 + 0.2);
  assert_non_null(td_override_fields("enemy", list, sizeof list));
  assert_non_null(strstr(list, "speed"));
  assert_null(td_override_fields("towers", list, sizeof list));
}

static void test_apply(void **state) {
  (void)state;
  td_err err;
  td_game *g = make_game(NULL, 0, &err);
  if (!g) fail_msg("%s", err.msg);
  const td_rules *src = td_game_rules(g);
  int32_t cannon = -1;
  for (size_t t = 0; t < src->tower_count; t++)
    if (!strcmp(src->towers[t].name, "cannon")) cannon = (int32_t)t;
  assert_true(cannon >= 0);
  td_override ov[4] = {
    parse_ok(TD_OVERRIDE_SCALE, "tower.cannon.cost=1.1"),
    parse_ok(TD_OVERRIDE_SET, "rules.start_gold=321.5"),   /* rounds half away from zero */
    parse_ok(TD_OVERRIDE_SCALE, "enemy.runner.speed=0.5"),
    parse_ok(TD_OVERRIDE_SET, "rules.sell_refund=0.25"),
  };
  td_rules r;
  if (td_override_apply(ov, 4, src, &r, &err) != 0) fail_msg("%s", err.msg);
  size_t levels = 0;
  for (size_t l = 0; l < src->level_count; l++) {
    if (src->levels[l].tower == cannon) {
      levels++;
      assert_int_equal(r.levels[l].cost, (int32_t)lround(src->levels[l].cost * 1.1));
    } else {
      assert_int_equal(r.levels[l].cost, src->levels[l].cost);
    }
  }
  assert_true(levels > 1); /* every level of the type */
  assert_int_equal(r.start_gold, 322);
  assert_true(r.sell_refund == 0.25f);
  for (size_t e = 0; e < src->enemy_count; e++)
    if (!strcmp(src->enemies[e].name, "runner"))
      assert_true(r.enemies[e].speed == src->enemies[e].speed * 0.5f);
  assert_true(td_world_rules_hash(&r) != td_world_rules_hash(src));
  td_rules_free(&r);
  /* set then scale: in order */
  td_override two[2] = {parse_ok(TD_OVERRIDE_SET, "rules.start_gold=100"),
                        parse_ok(TD_OVERRIDE_SCALE, "rules.start_gold=-1.5")};
  assert_int_equal(td_override_apply(two, 2, src, &r, &err), -1); /* -150 gold: refused? */
  assert_non_null(strstr(err.msg, "--scale rules.start_gold=-1.5: "));
  two[1] = parse_ok(TD_OVERRIDE_SCALE, "rules.start_gold=1.5");
  if (td_override_apply(two, 2, src, &r, &err) != 0) fail_msg("%s", err.msg);
  assert_int_equal(r.start_gold, 150);
  td_rules_free(&r);
  /* unknown names list what there is; refused values carry the rules' reason */
  static const struct {
    td_override_op op;
    const char *arg, *want;
  } bad[] = {
    {TD_OVERRIDE_SCALE, "tower.canon.cost=1.1",
     "--scale tower.canon.cost: no tower type 'canon' (arrow, cannon, "},
    {TD_OVERRIDE_SET, "level.cannon_9.cost=1", "no tower level 'cannon_9' ("},
    {TD_OVERRIDE_SET, "enemy.ghost.speed=1", "no enemy type 'ghost' ("},
    {TD_OVERRIDE_SET, "soldier.ninja.health=1", "no soldier type 'ninja'"},
    {TD_OVERRIDE_SET, "enemy.runner.speed=0", "--set enemy.runner.speed=0: enemy 'runner': speed"},
    {TD_OVERRIDE_SET, "tower.cannon.cost=-5", "--set tower.cannon.cost=-5: "},
    {TD_OVERRIDE_SET, "rules.start_gold=3e9", "out of range for a whole number"},
    {TD_OVERRIDE_SET, "rules.wave_interval=1e39", "out of range"},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    td_override o = parse_ok(bad[i].op, bad[i].arg);
    memset(&r, 0x55, sizeof r);
    assert_int_equal(td_override_apply(&o, 1, src, &r, &err), -1);
    if (!strstr(err.msg, bad[i].want)) fail_msg("%s: '%s' lacks '%s'", bad[i].arg, err.msg, bad[i].want);
    assert_null(r.levels); /* zeroed: nothing to free */
  }
  td_game_destroy(g);
}

static void test_game(void **state) {
  (void)state;
  td_err err;
  td_game *plain = make_game(NULL, 0, &err);
  if (!plain) fail_msg("%s", err.msg);
  td_override ov = parse_ok(TD_OVERRIDE_SET, "rules.start_gold=999");
  td_game *g = make_game(&ov, 1, &err);
  if (!g) fail_msg("%s", err.msg);
  assert_int_equal(td_game_rules(g)->start_gold, 999);
  assert_int_equal(td_world_gold(td_game_world(g)), 999);
  assert_true(td_game_rules(g)->start_gold != td_mod_rules(td_game_mod(g))->start_gold);
  size_t n;
  const td_override *got = td_game_overrides(g, &n);
  assert_int_equal(n, 1);
  assert_string_equal(got[0].param, "rules.start_gold");
  assert_true(td_world_rules_hash(td_game_rules(g)) != td_world_rules_hash(td_game_rules(plain)));
  assert_int_equal(td_game_reload(g, &err), -1); /* the overrides would be lost */
  assert_non_null(strstr(err.msg, "rule overrides"));
  td_game_destroy(g);
  td_game_destroy(plain);
  ov = parse_ok(TD_OVERRIDE_SCALE, "tower.canon.cost=2");
  assert_null(make_game(&ov, 1, &err));
  assert_non_null(strstr(err.msg, "--scale tower.canon.cost: no tower type 'canon'"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_parse),
    cmocka_unit_test(test_apply),
    cmocka_unit_test(test_game),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
