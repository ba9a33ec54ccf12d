/*
** auto_default.c: the default strategy's turn (auto.h, steps 2 and 3):
** the tower type built least that covers something, at its best base,
** saving for it up to TD_AUTO_PATIENCE seconds; then the best affordable
** build, else an upgrade.
*/
#include "game/auto_int.h"

int auto_default_turn(td_auto *a, td_game *g, td_err *err) {
  td_world *w = td_game_world(g);
  const td_rules *r = td_world_rules(w);
  uint64_t tick = td_world_tick(w);
  int32_t gold = td_world_gold(w);

  /* the type built least that covers something somewhere */
  int32_t want = -1;
  for (size_t t = 0; t < r->tower_count; t++) {
    const td_tower_level *l = &r->levels[r->towers[t].root];
    if (auto_is_support(l) && a->built < 2) continue;
    float c;
    if (auto_best_base(a, w, (int32_t)t, &c) < 0) continue;
    if (want < 0 || a->built_of[t] < a->built_of[want]) want = (int32_t)t;
  }
  if (want >= 0 && r->levels[r->towers[want].root].cost <= gold)
    return auto_place(a, g, want, err) < 0 ? -1 : 0;
  if (want >= 0 && a->want != want) {
    a->want = want;
    a->want_since = tick;
  }
  bool patient = want >= 0 &&
                 (float)(tick - a->want_since) < TD_AUTO_PATIENCE * (float)TD_WORLD_TICK_HZ;
  if (patient) return 0;
  /* saving took too long, or nothing to build: the best affordable build,
  ** else an upgrade */
  int32_t alt = -1;
  float alt_c = 0;
  for (size_t t = 0; t < r->tower_count; t++) {
    const td_tower_level *l = &r->levels[r->towers[t].root];
    if (l->cost > gold || (auto_is_support(l) && a->built < 2)) continue;
    float c;
    if (auto_best_base(a, w, (int32_t)t, &c) >= 0 && c > alt_c) alt = (int32_t)t, alt_c = c;
  }
  if (alt >= 0) {
    int rc = auto_place(a, g, alt, err);
    if (rc != 0) return rc < 0 ? -1 : 0;
  }
  return auto_upgrade(a, g, err) < 0 ? -1 : 0;
}
