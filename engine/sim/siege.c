/*
** siege.c: tower health, sappers that attack towers, destruction and
** repair. (Interface only for now: the behaviour lands next.)
*/
#include "sim/world_int.h"

void sieges_update(td_world *w) { (void)w; }

td_refusal tower_repair(td_world *w, int32_t base) {
  if (base < 0 || (size_t)base >= w->map->base_count) return TD_REFUSAL_NO_BASE;
  if (!w->towers[base].used) return TD_REFUSAL_NO_TOWER;
  return TD_REFUSAL_NOT_DAMAGED;
}

void tower_destroy(td_world *w, int32_t base, uint32_t enemy) {
  (void)w;
  (void)base;
  (void)enemy;
}

int32_t td_world_repair_cost(const td_world *w, int32_t base) {
  (void)w;
  (void)base;
  return -1;
}

float td_world_damage_tower(td_world *w, uint32_t tower, float amount, uint32_t enemy) {
  (void)w;
  (void)tower;
  (void)amount;
  (void)enemy;
  return 0.0f;
}
