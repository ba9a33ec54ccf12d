/*
** auto_maze.c: the maze strategy's turn (auto.h). On open and grid maps a
** tower closes cells of the ground, and the enemies walk around it: this
** player builds where a tower lengthens the route from the spawns to the
** goals most (auto_cover.c previews the route each base would make; the
** world refuses a tower that would cut every route). At that base it
** builds the affordable type that covers most there, else the cheapest (a
** wall), and it saves for one up to TD_AUTO_PATIENCE seconds. When no
** base lengthens the route (a waypoint map, whose bases stand off the
** road, or a maze that is done) it plays the default turn.
*/
#include "game/auto_int.h"

/* A gain shorter than this share of a tile is no gain (rounding). */
#define MAZE_MIN_GAIN 0.25

int auto_maze_turn(td_auto *a, td_game *g, td_err *err) {
  td_world *w = td_game_world(g);
  const td_map *m = td_world_map(w);
  const td_rules *r = td_world_rules(w);
  size_t types = r->tower_count;
  int32_t gold = td_world_gold(w);
  uint64_t tick = td_world_tick(w);
  for (int k = 0; k < AUTO_PLACE_TRIES; k++) {
    /* the base that lengthens the route most (ties: the lower index) */
    int32_t best = -1;
    double best_gain = MAZE_MIN_GAIN * m->tile_w;
    for (size_t b = 0; b < m->base_count; b++) {
      if (a->tried[b] || a->route_len[b] < 0) continue;
      double gain = a->route_len[b] - a->cur_len;
      if (gain > best_gain) best_gain = gain, best = (int32_t)b;
    }
    if (best < 0) break;
    /* the type: the affordable one covering most there, else the cheapest */
    int32_t pick = -1, cheapest = -1;
    float pick_c = 0;
    for (size_t t = 0; t < types; t++) {
      const td_tower_level *l = &r->levels[r->towers[t].root];
      if (auto_is_support(l)) continue;
      if (cheapest < 0 || l->cost < r->levels[r->towers[cheapest].root].cost)
        cheapest = (int32_t)t;
      float c = a->cov[(size_t)best * types + t];
      if (l->cost <= gold && c > pick_c) pick = (int32_t)t, pick_c = c;
    }
    if (pick < 0 && cheapest >= 0 && r->levels[r->towers[cheapest].root].cost <= gold)
      pick = cheapest;
    if (pick < 0) { /* save for the wall, for a while */
      if (cheapest < 0) break;
      if (a->want != cheapest) {
        a->want = cheapest;
        a->want_since = tick;
      }
      if ((float)(tick - a->want_since) < TD_AUTO_PATIENCE * (float)TD_WORLD_TICK_HZ) return 0;
      break;
    }
    int rc = auto_place_at(a, g, best, pick, err);
    if (rc != 0) return rc < 0 ? -1 : 0;
  }
  return auto_default_turn(a, g, err);
}
