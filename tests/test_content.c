/*
** test_content.c: the bundled content (maps/, scripts/base) has what issue 6
** promises, on every map as the game loads it (the mod reads td.map_name()
** and plays that map's profile, so each map has its own rules):
**   - at least five maps, among them a waypoint web with tower bases, a
**     grid to maze on, two spawns with two exits, and a large map (10,000
**     waypoints or 250x250 cells);
**   - at least six tower types, each with upgrades, covering single target,
**     splash, slow, chain, anti-air and support;
**   - at least eight enemy types, among them fast, armoured, resistant to a
**     damage type, splitting, healing, flying, and a boss of its own for
**     every map;
**   - twenty waves or more, the boss in the last, and groups that go on past
**     the last wave (endless mode).
** Whether the maps can be won is tests/cli/balance.sh's (it plays them).
*/
#define _POSIX_C_SOURCE 200809L /* mkstemp */
#include "support.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "game/game.h"
#include "nav/route.h"

#define MAX_MAPS 32

#define NAME_MAX_LEN 1024

static int cmp_name(const void *a, const void *b) { return strcmp(a, b); }

/* The .lua files of maps/, sorted. */
static size_t bundled_maps(char names[MAX_MAPS][NAME_MAX_LEN]) {
  char dir[512];
  snprintf(dir, sizeof dir, "%s", td_test_path("maps"));
  DIR *d = opendir(dir);
  assert_non_null(d);
  size_t n = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    size_t len = strlen(e->d_name);
    if (len < 5 || strcmp(e->d_name + len - 4, ".tmx") != 0) continue;
    assert_true(n < MAX_MAPS);
    snprintf(names[n++], NAME_MAX_LEN, "%s/%s", dir, e->d_name);
  }
  closedir(d);
  qsort(names, n, NAME_MAX_LEN, cmp_name);
  return n;
}

static td_game *open_map_on(const char *path, td_difficulty d) {
  char map[NAME_MAX_LEN], mod[512];
  snprintf(map, sizeof map, "%s", path); /* td_test_path's buffer is reused */
  snprintf(mod, sizeof mod, "%s", td_test_path("scripts/base"));
  td_game_options o = {.map_path = map, .mod_dir = mod, .seed = 1, .difficulty = d};
  td_err err = {0};
  td_game *g = td_game_create(&o, &err);
  if (!g) fail_msg("%s: %s", map, err.msg);
  return g;
}

static td_game *open_map(const char *path) { return open_map_on(path, TD_DIFFICULTY_NORMAL); }

static bool has_upgrade(const td_rules *r, size_t tower) {
  const td_tower_level *root = &r->levels[r->towers[tower].root];
  return root->children[0] >= 0;
}

/* A tower type whose root level (the one a player builds first) does p. */
typedef bool (*level_pred)(const td_tower_level *l);

static bool single_target(const td_tower_level *l) {
  return l->rate > 0 && l->damage > 0 && l->splash == 0 && l->chain == 0 &&
         (l->shot == TD_SHOT_INSTANT || l->shot == TD_SHOT_HOMING);
}
static bool splash(const td_tower_level *l) { return l->rate > 0 && l->splash > 0 && l->hits_ground; }
static bool slows(const td_tower_level *l) { return l->effect.kind == TD_EFFECT_SLOW; }
static bool chains(const td_tower_level *l) { return l->shot == TD_SHOT_CHAIN && l->chain >= 2; }
static bool anti_air(const td_tower_level *l) { return l->hits_air && !l->hits_ground; }
static bool support(const td_tower_level *l) {
  return l->rate == 0 && (l->buff_damage > 0 || l->buff_rate > 0);
}

static int tower_doing(const td_rules *r, level_pred p) {
  for (size_t i = 0; i < r->tower_count; i++)
    if (p(&r->levels[r->towers[i].root])) return (int)i;
  return -1;
}

static void check_towers(const char *map, const td_rules *r) {
  if (r->tower_count < 6) fail_msg("%s: %zu tower types, want 6", map, r->tower_count);
  for (size_t i = 0; i < r->tower_count; i++)
    if (!has_upgrade(r, i)) fail_msg("%s: tower '%s' has no upgrade", map, r->towers[i].name);
  const struct {
    const char *role;
    level_pred p;
  } roles[] = {{"single target", single_target}, {"splash", splash}, {"slow", slows},
               {"chain", chains},                {"anti-air", anti_air}, {"support", support}};
  bool used[64] = {0};
  for (size_t k = 0; k < sizeof roles / sizeof roles[0]; k++) {
    int t = tower_doing(r, roles[k].p);
    if (t < 0) fail_msg("%s: no tower for the role '%s'", map, roles[k].role);
    /* distinct roles: a role is taken by a type no earlier role claimed */
    bool found = false;
    for (size_t i = 0; i < r->tower_count && !found; i++)
      if (!used[i] && roles[k].p(&r->levels[r->towers[i].root])) used[i] = found = true;
    if (!found) fail_msg("%s: the role '%s' shares its tower with another role", map, roles[k].role);
  }
}

static bool resists(const td_rules *r, const td_enemy_type *e) {
  for (int32_t d = 0; d < r->damage_type_count; d++)
    if (e->resist[d] >= 0.5f) return true;
  return false;
}

static void check_enemies(const char *map, const td_rules *r) {
  if (r->enemy_count < 8) fail_msg("%s: %zu enemy types, want 8", map, r->enemy_count);
  float slowest = r->enemies[0].speed;
  for (size_t i = 0; i < r->enemy_count; i++)
    if (r->enemies[i].speed < slowest) slowest = r->enemies[i].speed;
  int fast = 0, armoured = 0, resistant = 0, splitting = 0, healing = 0, flying = 0, boss = 0;
  for (size_t i = 0; i < r->enemy_count; i++) {
    const td_enemy_type *e = &r->enemies[i];
    fast += e->speed >= 2 * slowest && !e->flying;
    armoured += e->armour >= 3;
    resistant += resists(r, e);
    splitting += e->split_into >= 0 && e->split_count >= 2;
    healing += e->heal_radius > 0 && e->heal_rate > 0;
    flying += e->flying;
    boss += e->boss;
  }
  if (!fast) fail_msg("%s: no fast enemy", map);
  if (!armoured) fail_msg("%s: no armoured enemy", map);
  if (!resistant) fail_msg("%s: no enemy resisting a damage type by half", map);
  if (!splitting) fail_msg("%s: no enemy splitting on death", map);
  if (!healing) fail_msg("%s: no healer", map);
  if (!flying) fail_msg("%s: no flying enemy", map);
  if (!boss) fail_msg("%s: no boss", map);
}

/* The boss of the last wave (its enemy type), checked by check_waves. */
static int32_t last_boss(const td_rules *r) {
  int32_t out[64];
  size_t n = td_rules_wave_groups(r, r->wave_count, out);
  for (size_t i = 0; i < n; i++)
    if (r->enemies[r->groups[out[i]].enemy].boss) return r->groups[out[i]].enemy;
  return -1;
}

static void check_waves(const char *map, const td_rules *r) {
  if (r->wave_count < 20) fail_msg("%s: %d waves, want 20", map, (int)r->wave_count);
  int32_t out[64];
  /* every wave spawns something, the last one a boss */
  for (int32_t w = 1; w <= r->wave_count; w++)
    if (td_rules_wave_groups(r, w, out) == 0) fail_msg("%s: wave %d is empty", map, (int)w);
  if (last_boss(r) < 0) fail_msg("%s: no boss in the last wave (%d)", map, (int)r->wave_count);
  /* endless: the ten waves past the last all spawn */
  for (int32_t w = r->wave_count + 1; w <= r->wave_count + 10; w++)
    if (td_rules_wave_groups(r, w, out) == 0) fail_msg("%s: endless wave %d is empty", map, (int)w);
}

static void test_bundled_content(void **state) {
  (void)state;
  static char maps[MAX_MAPS][NAME_MAX_LEN];
  size_t n = bundled_maps(maps);
  if (n < 5) fail_msg("maps/: %zu maps, want 5", n);
  bool web = false, grid = false, twin = false, large = false;
  char bosses[MAX_MAPS][TD_RULES_NAME_MAX];
  for (size_t i = 0; i < n; i++) {
    td_game *g = open_map(maps[i]);
    const td_map *m = td_game_map(g);
    const td_rules *r = td_game_rules(g);
    check_towers(maps[i], r);
    check_enemies(maps[i], r);
    check_waves(maps[i], r);
    web |= !m->grid && m->base_count >= 6;
    grid |= m->grid != NULL && m->base_count >= 6;
    twin |= m->spawn_count >= 2 && m->goal_count >= 2;
    large |= m->graph->node_count >= 10000 || (int64_t)m->width * m->height >= 250 * 250;
    snprintf(bosses[i], sizeof bosses[i], "%s", r->enemies[last_boss(r)].name);
    for (size_t j = 0; j < i; j++)
      if (!strcmp(bosses[i], bosses[j])) fail_msg("%s: the boss '%s' again", maps[i], bosses[i]);
    print_message("%s: %dx%d tiles, %d nodes, %zu bases, %zu spawns, %zu goals, %d waves, boss %s\n",
                  strrchr(maps[i], '/') + 1, (int)m->width, (int)m->height,
                  (int)m->graph->node_count, m->base_count, m->spawn_count, m->goal_count,
                  (int)r->wave_count, bosses[i]);
    td_game_destroy(g);
  }
  assert_true(web);
  assert_true(grid);
  assert_true(twin);
  assert_true(large);
}

/* The profiles differ: a map's rules are its own (td.map_name()). */
static void test_profiles_differ(void **state) {
  (void)state;
  td_game *a = open_map(td_test_path("maps/01-crossroads.tmx"));
  int32_t waves_a = td_game_rules(a)->wave_count;
  td_game_destroy(a);
  td_game *b = open_map(td_test_path("maps/06-expanse.tmx"));
  int32_t waves_b = td_game_rules(b)->wave_count;
  td_game_destroy(b);
  assert_int_equal(waves_a, 20);
  assert_int_equal(waves_b, 30);
}

/* 03-serpent's pads (blocking = false): a tower on every one of them is
** built, and the route never changes: the road stays the one fixed route. */
static void test_serpent_pads(void **state) {
  (void)state;
  td_game *g = open_map(td_test_path("maps/03-serpent.tmx"));
  td_world *w = td_game_world(g);
  const td_map *m = td_game_map(g);
  size_t nodes = (size_t)m->graph->node_count;
  td_cost *before = malloc(nodes * sizeof *before);
  assert_non_null(before);
  memcpy(before, td_route_dist(td_world_route(w)), nodes * sizeof *before);
  td_err err = {0};
  td_world_give_gold(w, 100000);
  for (size_t b = 0; b < m->base_count; b++) {
    assert_int_equal(m->bases[b].block_count, 0);
    td_command c = {.kind = TD_COMMAND_PLACE, .base = (int32_t)b, .tower_type = 0};
    assert_int_equal(td_game_command(g, &c, &err), 0);
  }
  assert_int_equal(td_game_step(g, &err), 0);
  assert_int_equal(td_world_tower_count(w), m->base_count);
  assert_memory_equal(before, td_route_dist(td_world_route(w)), nodes * sizeof *before);
  free(before);
  td_game_destroy(g);
}

/* td.difficulty: the bundled mod scales health, gold and lives; a save and a
** replay keep the difficulty. */
static void test_difficulty(void **state) {
  (void)state;
  static const struct {
    td_difficulty d;
    int32_t lives, gold;
  } want[] = {{TD_DIFFICULTY_EASY, 45, 188}, {TD_DIFFICULTY_NORMAL, 30, 150},
              {TD_DIFFICULTY_HARD, 15, 128}};
  float health[3];
  for (int i = 0; i < 3; i++) {
    td_game *g = open_map_on(td_test_path("maps/01-crossroads.tmx"), want[i].d);
    const td_rules *r = td_game_rules(g);
    assert_int_equal(td_game_difficulty(g), want[i].d);
    assert_int_equal(r->start_lives, want[i].lives);
    assert_int_equal(r->start_gold, want[i].gold);
    health[i] = r->enemies[0].health;
    if (want[i].d == TD_DIFFICULTY_HARD) {
      char path[] = "/tmp/td_test_content_XXXXXX";
      int fd = mkstemp(path);
      assert_true(fd >= 0);
      close(fd);
      td_err err = {0};
      assert_int_equal(td_game_save(g, path, &err), 0);
      char map[NAME_MAX_LEN], mod[512];
      snprintf(map, sizeof map, "%s", td_test_path("maps/01-crossroads.tmx"));
      snprintf(mod, sizeof mod, "%s", td_test_path("scripts/base"));
      td_game_options o = {.map_path = map, .mod_dir = mod}; /* normal: the save says hard */
      td_game *h = td_game_load(&o, path, &err);
      if (!h) fail_msg("%s", err.msg);
      assert_int_equal(td_game_difficulty(h), TD_DIFFICULTY_HARD);
      assert_int_equal(td_game_rules(h)->start_lives, 15);
      assert_int_equal(td_world_checksum(td_game_world(h)), td_world_checksum(td_game_world(g)));
      td_game_destroy(h);
      unlink(path);
    }
    td_game_destroy(g);
  }
  assert_true(health[0] < health[1] && health[1] < health[2]);
  td_difficulty d;
  assert_int_equal(td_difficulty_parse("brutal", &d), -1);
  assert_string_equal(td_difficulty_name(TD_DIFFICULTY_HARD), "hard");
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_bundled_content),
    cmocka_unit_test(test_profiles_differ),
    cmocka_unit_test(test_difficulty),
    cmocka_unit_test(test_serpent_pads),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
