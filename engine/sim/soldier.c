/*
** soldier.c: barracks' soldiers (unit.h's soldier machine) and the path
** queue they use. (Interface only for now: the behaviour lands next.)
*/
#include "sim/world_int.h"

int soldiers_init(td_world *w) {
  w->pathq = td_pathq_create(w->graph, NULL);
  return w->pathq ? 0 : -1;
}

void soldiers_free(td_world *w) { td_pathq_destroy(w->pathq); }

void soldiers_update(td_world *w) { td_pathq_tick(w->pathq, TD_WORLD_PATH_BUDGET); }

void soldiers_tower_changed(td_world *w, int32_t base) {
  (void)w;
  (void)base;
}

void soldiers_route_changed(td_world *w) { td_pathq_restart(w->pathq); }

void soldiers_enemy_gone(td_world *w, size_t enemy_slot) {
  (void)w;
  (void)enemy_slot;
}

td_refusal soldiers_rally(td_world *w, int32_t base, float x, float y) {
  (void)x;
  (void)y;
  if (base < 0 || (size_t)base >= w->map->base_count) return TD_REFUSAL_NO_BASE;
  if (!w->towers[base].used) return TD_REFUSAL_NO_TOWER;
  return TD_REFUSAL_NO_SOLDIERS;
}

size_t td_world_soldier_capacity(const td_world *w) { return w->soldier_used; }
size_t td_world_soldier_count(const td_world *w) { return w->soldier_live; }

bool td_world_soldier(const td_world *w, size_t slot, td_soldier_view *out) {
  (void)w;
  (void)slot;
  (void)out;
  return false;
}

bool td_world_soldier_get(const td_world *w, uint32_t handle, td_soldier_view *out) {
  (void)w;
  (void)handle;
  (void)out;
  return false;
}

size_t td_world_soldier_path(const td_world *w, uint32_t handle, float *xy, size_t cap) {
  (void)w;
  (void)handle;
  (void)xy;
  (void)cap;
  return 0;
}

size_t td_world_rally_posts(const td_world *w, int32_t base, int32_t tower_type, float x,
                            float y, float *xy, size_t cap, td_refusal *why) {
  (void)w;
  (void)base;
  (void)tower_type;
  (void)x;
  (void)y;
  (void)xy;
  (void)cap;
  if (why) *why = TD_REFUSAL_NO_SOLDIERS;
  return 0;
}

const td_pathq_stats *td_world_pathq_stats(const td_world *w) {
  return td_pathq_get_stats(w->pathq);
}

size_t td_world_pathq_pending(const td_world *w) { return td_pathq_pending(w->pathq); }
