/*
** auto_random.c: the random strategy's turn (auto.h): a seeded random
** builder. Every decision draws from the player's own generator
** (splitmix64, seeded from the game's seed at the first decision; never
** the world's RNG, so the world plays as it would with any other player):
** half the time it builds a random affordable tower type at a random free
** base where that type covers something, a fifth of the time it buys a
** random affordable upgrade, else it waits. The generator's state is in
** the player's memory (td_auto_save), so a saved game plays on the same.
*/
#include "game/auto_int.h"

#define RANDOM_BUILD 50   /* percent of decisions that try to build */
#define RANDOM_UPGRADE 20 /* percent that try to upgrade */

static uint64_t next(td_auto *a) {
  uint64_t z = (a->rng += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* A number in [0, n) (n > 0); the tiny bias of the modulo does not matter. */
static uint32_t below(td_auto *a, uint32_t n) { return (uint32_t)(next(a) % n); }

static int build(td_auto *a, td_game *g, td_err *err) {
  td_world *w = td_game_world(g);
  const td_map *m = td_world_map(w);
  const td_rules *r = td_world_rules(w);
  size_t types = r->tower_count;
  int32_t gold = td_world_gold(w);
  uint32_t ntypes = 0, nbases = 0;
  int32_t type = -1;
  for (size_t t = 0; t < types; t++) { /* the affordable types that cover something */
    const td_tower_level *l = &r->levels[r->towers[t].root];
    float c;
    if (l->cost > gold || (auto_is_support(l) && a->built < 2) ||
        auto_best_base(a, w, (int32_t)t, &c) < 0)
      continue;
    ntypes++;
  }
  if (ntypes == 0) return 0;
  uint32_t pick = below(a, ntypes);
  for (size_t t = 0; t < types && type < 0; t++) {
    const td_tower_level *l = &r->levels[r->towers[t].root];
    float c;
    if (l->cost > gold || (auto_is_support(l) && a->built < 2) ||
        auto_best_base(a, w, (int32_t)t, &c) < 0)
      continue;
    if (pick-- == 0) type = (int32_t)t;
  }
  for (size_t b = 0; b < m->base_count; b++) nbases += a->cov[b * types + (size_t)type] > 0;
  if (nbases == 0) return 0;
  pick = below(a, nbases);
  for (size_t b = 0; b < m->base_count; b++)
    if (a->cov[b * types + (size_t)type] > 0 && pick-- == 0)
      return auto_place_at(a, g, (int32_t)b, type, err) < 0 ? -1 : 0;
  return 0;
}

static int upgrade(td_auto *a, td_game *g, td_err *err) {
  td_world *w = td_game_world(g);
  const td_map *m = td_world_map(w);
  const td_rules *r = td_world_rules(w);
  int32_t gold = td_world_gold(w);
  uint32_t n = 0;
  for (int pass = 0; pass < 2; pass++) { /* count, then take the pick-th */
    uint32_t pick = pass ? below(a, n) : 0;
    for (size_t b = 0; b < m->base_count; b++) {
      td_tower_view t;
      if (!td_world_tower(w, b, &t)) continue;
      const td_tower_level *l = &r->levels[t.level];
      for (int k = 0; k < TD_RULES_MAX_CHILDREN && l->children[k] >= 0; k++) {
        if (r->levels[l->children[k]].cost > gold) continue;
        if (!pass) n++;
        else if (pick-- == 0) return auto_upgrade_at(a, g, (int32_t)b, k, err) < 0 ? -1 : 0;
      }
    }
    if (n == 0) return 0;
  }
  return 0;
}

int auto_random_turn(td_auto *a, td_game *g, td_err *err) {
  if (!a->rng_seeded) {
    a->rng = td_game_seed(g) ^ 0x72616e646f6d2121ull; /* "random!!" */
    a->rng_seeded = true;
  }
  uint32_t roll = below(a, 100);
  if (roll < RANDOM_BUILD) return build(a, g, err);
  if (roll < RANDOM_BUILD + RANDOM_UPGRADE) return upgrade(a, g, err);
  return 0;
}
