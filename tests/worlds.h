/*
** worlds.h: fixtures shared by the tests that build worlds in code
** (test_world, test_siege, test_soldier, test_units): maps from points and
** edges, rules' building blocks, stepping and commanding a world, views,
** the unit arrows taken, saves and loads. Every helper fails the test
** (cmocka) on an error it does not return. Compiled into every test
** program with support.c; include it after support.h.
*/
#ifndef TD_TEST_WORLDS_H
#define TD_TEST_WORLDS_H

#include "support.h"

#include "nav/blob.h"
#include "sim/world.h"

#define TILE 10

/* ---- maps ----------------------------------------------------------------- */

/* A tower base for td_test_map_make: one tile square centred at (cx, cy),
** closing the first nblock changes of block when a tower stands on it. */
typedef struct td_test_base {
  double cx, cy;
  int nblock;
  td_graph_change block[2];
} td_test_base;

/* A 30 x 20 tile map ("test") from n points and ne edges (weight 1), one
** spawn (node spawn, object 7, named spawn_name), one goal (node goal,
** object 8) and nb bases (objects 100 + b), with every array from td_mem
** so that td_map_free releases it. */
void td_test_map_make(td_map *m, const char *spawn_name, const double (*pts)[2], int n,
                      const int (*edges)[2], int ne, int spawn, int goal,
                      const td_test_base *bases, int nb);

/* The fork through td_test_map_make: spawn 0 -> 1 -> 2 -> goal 3 (the short
** way, over edge FORK_E12), or 1 -> 4 -> 5 -> 2 (the detour, over FORK_E45).
** Nodes: (0, 50) (50, 50) (100, 50) (150, 50) (50, 100) (100, 100). */
enum { FORK_E01, FORK_E12, FORK_E23, FORK_E14, FORK_E45, FORK_E52 };
void td_test_fork_map(td_map *m, const char *spawn_name, const td_test_base *bases, int nb);

/* A line through td_test_map_make: nodes 0 .. 20 at (10 i, 50), edge i
** from node i to i + 1, spawn 0, goal 20. */
void td_test_line_map(td_map *m, const char *spawn_name, const td_test_base *bases, int nb);

/* A road map (30 x height tiles, named source): the road, one tile wide
** (road_width TILE on every edge), along y = 50 from node 0 (x = 0, the
** spawn, object 1) to node 30 (x = 300, the goal, object 2), a node a
** tile, edge i from i to i + 1; then nx more points (nodes 31 ..) and nxe
** more edges (edges 30 ..); nb pad bases (one tile, centred at bases[b],
** objects 10 + b; they close nothing). */
void td_test_road_map(td_map *m, const char *source, int height, const double (*xpts)[2], int nx,
                      const int (*xedges)[2], int nxe, const double (*bases)[2], int nb);

/* ---- rules ---------------------------------------------------------------- */

/* Zeroes r, sets the API version and one damage type ("physical", 0). */
void td_test_rules_init(td_rules *r);

/* An enemy: health, speed, radius 0.3, no split; all else 0. */
td_enemy_type td_test_enemy(const char *name, float health, float speed);

/* A tower level: instant shots of damage type 0 at ground units, no
** children; all else (range, rate, damage, health ...) 0. */
td_tower_level td_test_level(const char *name, int32_t tower, int32_t parent, int32_t cost);

/* A map and rules, freed together by td_test_fixture_free. */
typedef struct td_test_fixture {
  td_map map;
  td_rules rules;
} td_test_fixture;

void td_test_fixture_free(td_test_fixture *f);

/* ---- running a world ------------------------------------------------------ */

/* td_world_create; fails the test with its message. */
td_world *td_test_world(const td_map *m, const td_rules *r, uint64_t seed);

/* One step, n steps; a step's error fails the test. */
void td_test_step(td_world *w);
void td_test_steps(td_world *w, int n);

/* Queues c (tick 0: the current tick); the queue must take it. */
void td_test_cmd(td_world *w, td_command c);

/* Events of kind k in the last step's; the first of them, or NULL. */
size_t td_test_count_events(const td_world *w, td_event_kind k);
const td_event *td_test_find_event(const td_world *w, td_event_kind k);

/* The reason of the last step's first REFUSED event; NONE if none. */
td_refusal td_test_refusal(const td_world *w);

/* td_world_spawn_enemy of type at node (no spawn point) with a lane offset
** (tiles) and health (0: the type's); fails the test if refused. */
uint32_t td_test_spawn(td_world *w, int32_t type, int32_t node, float lane, float health);

/* The view of a live enemy / a built tower; fails the test if none. */
td_enemy_view td_test_enemy_view(const td_world *w, uint32_t h);
td_tower_view td_test_tower_view(const td_world *w, size_t base);

/* Fails the test if w took an arrow of kind k (states 0 .. 7) that is not
** in unit.h's table (game, if not NULL, names the game in the message);
** with seen not NULL, adds every arrow's count to seen[from][to]. */
void td_test_arrows_check(const td_world *w, td_unit_kind k, const char *game,
                          uint64_t (*seen)[8]);

/* ---- saves ---------------------------------------------------------------- */

/* Saves a and loads it back on f (a failed save or load fails the test);
** the save is left in *keep (the caller frees it) or freed if keep is NULL. */
td_world *td_test_save_and_load(const td_test_fixture *f, const td_world *a, td_blob *keep);

/* Two worlds that should be one: their saves are the same bytes. */
void td_test_assert_same_saves(const td_world *a, const td_world *b);

/* For allocation-failure games: saves w and loads it on f. 0 when both
** worked and the loaded world's checksum is w's; -1 when the save failed
** or the load ran out of memory; any other load error fails the test. */
int td_test_reload_check(const td_test_fixture *f, const td_world *w);

#endif
