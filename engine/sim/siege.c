/*
** siege.c: tower health, sappers that attack towers, destruction and
** repair (world.h's "Towers under fire"; unit.h's arrows of a sapper into
** and out of ATTACK).
**
** A sapper is an enemy whose type has siege_damage > 0. Its siege is the
** base whose tower it attacks (-1: none); enemy_settle turns siege >= 0
** into ATTACK (it stands) unless a stun or a soldier comes first. Each
** step, in slot order, a sapper that is on the map and not held by a
** soldier keeps its tower while that tower can be damaged and its
** footprint is within reach; otherwise it takes the nearest such tower
** (ties: the lower base), or none and walks. A stunned sapper keeps its
** tower (if still valid) and its clock: both wait for the stun to end. The
** clock (attack_cool) runs only while it attacks: it counts down by DT
** and at <= 0 the sapper hits and adds 1 / siege_rate, the remainder
** carried over as a tower's cooldown is. Hits go through the same path as
** td_world_damage_tower; at 0 health the tower falls (tower_clear, as a
** sale without refund).
*/
#include "sim/world_int.h"

#include <float.h>
#include <math.h>

/* The level of the tower on base has health: a sapper may attack it. */
static bool damageable(const td_world *w, int32_t base) {
  const tower_rec *t = &w->towers[base];
  return t->used && w->rules->levels[t->level].health > 0.0f;
}

/* Squared distance from (x, y) to the footprint of base (0 inside). */
static float gap2(const td_world *w, int32_t base, float x, float y) {
  const td_tower_base *tb = &w->map->bases[base];
  float x0 = (float)tb->x, y0 = (float)tb->y;
  float x1 = (float)(tb->x + tb->w), y1 = (float)(tb->y + tb->h);
  float dx = x < x0 ? x0 - x : x > x1 ? x - x1 : 0.0f;
  float dy = y < y0 ? y0 - y : y > y1 ? y - y1 : 0.0f;
  return dx * dx + dy * dy;
}

/* A sapper's reach, squared: its radius plus its siege range, map units. */
static float reach2(const td_world *w, const td_enemy_type *t) {
  float r = (t->radius + t->siege_range) * w->tile;
  return r * r;
}

/* The nearest damageable tower within a sapper's reach, or -1. */
static int32_t nearest(const td_world *w, const enemy_rec *e, const td_enemy_type *t) {
  float r2 = reach2(w, t), best2 = 0.0f;
  int32_t best = -1;
  for (size_t b = 0; b < w->map->base_count; b++) {
    if (!damageable(w, (int32_t)b)) continue;
    float d2 = gap2(w, (int32_t)b, e->x, e->y);
    if (d2 <= r2 && (best < 0 || d2 < best2)) {
      best = (int32_t)b;
      best2 = d2;
    }
  }
  return best;
}

/* Whether a sapper may go on attacking base. */
static bool keeps(const td_world *w, const enemy_rec *e, const td_enemy_type *t, int32_t base) {
  return damageable(w, base) && gap2(w, base, e->x, e->y) <= reach2(w, t);
}

/* A hit of amount (> 0) on the damageable tower on base: TOWER_DAMAGED,
** and at 0 health the fall. Returns the health taken. */
static float hurt(td_world *w, int32_t base, float amount, uint32_t enemy) {
  tower_rec *t = &w->towers[base];
  float taken = amount < t->health ? amount : t->health;
  t->health -= taken; /* exactly 0 when it takes all (a > b > 0: a - b > 0) */
  td_event e = world_event(w, TD_EVENT_TOWER_DAMAGED);
  e.tower = tower_handle(w, (size_t)base);
  e.type = t->level;
  e.base = base;
  e.enemy = enemy;
  e.amount = taken;
  e.x = t->x;
  e.y = t->y;
  world_emit(w, &e);
  if (t->health <= 0.0f) {
    t->health = 0.0f;
    tower_destroy(w, base, enemy);
  }
  return taken;
}

void sieges_update(td_world *w) {
  if (w->tower_live == 0) return; /* no tower: no siege can be on */
  const td_rules *r = w->rules;
  for (size_t i = 0; i < w->enemy_used && !w->broken; i++) {
    enemy_rec *e = &w->enemies[i];
    if (!enemy_active(e)) continue;
    const td_enemy_type *t = &r->enemies[e->type];
    if (!(t->siege_damage > 0.0f)) continue; /* most enemies: not a sapper */
    if (e->holder) { /* a soldier's (soldier.c clears the siege when it engages) */
      if (e->siege >= 0) {
        e->siege = -1;
        enemy_settle(w, i);
      }
      continue;
    }
    if (e->waiting) continue;
    bool stunned = e->stun_ticks > 0;
    if (e->siege < 0 || !keeps(w, e, t, e->siege)) {
      int32_t b = stunned ? -1 : nearest(w, e, t);
      if (b != e->siege) {
        e->siege = b;
        enemy_settle(w, i);
      }
    }
    if (stunned || e->siege < 0) continue;
    if (e->attack_cool > 0.0f) e->attack_cool -= DT;
    if (e->attack_cool > 0.0f) continue;
    e->attack_cool += 1.0f / t->siege_rate;
    hurt(w, e->siege, t->siege_damage, enemy_handle(w, i));
  }
}

void sieges_tower_gone(td_world *w, int32_t base) {
  for (size_t i = 0; i < w->enemy_used; i++) {
    enemy_rec *e = &w->enemies[i];
    if (!enemy_active(e) || e->siege != base) continue;
    e->siege = -1;
    enemy_settle(w, i);
  }
}

void tower_rescale_health(td_world *w, int32_t base, float old_max) {
  tower_rec *t = &w->towers[base];
  float new_max = w->rules->levels[t->level].health;
  t->health = old_max > 0.0f ? new_max * (t->health / old_max) : new_max;
  if (new_max > 0.0f && !(t->health > 0.0f)) t->health = FLT_MIN; /* a share that underflowed */
}

void sieges_rules_changed(td_world *w, const td_rules *old) {
  for (size_t b = 0; b < w->map->base_count; b++)
    if (w->towers[b].used) tower_rescale_health(w, (int32_t)b, old->levels[w->towers[b].level].health);
  for (size_t i = 0; i < w->enemy_used; i++) {
    enemy_rec *e = &w->enemies[i];
    if (!enemy_active(e) || e->siege < 0 || w->rules->enemies[e->type].siege_damage > 0.0f) continue;
    e->siege = -1; /* no longer a sapper */
    enemy_settle(w, i);
  }
}

void tower_destroy(td_world *w, int32_t base, uint32_t enemy) {
  tower_rec *t = &w->towers[base];
  if (!t->used) return;
  td_event e = world_event(w, TD_EVENT_TOWER_DESTROYED);
  e.tower = tower_handle(w, (size_t)base);
  e.type = t->level;
  e.base = base;
  e.enemy = enemy;
  e.x = t->x;
  e.y = t->y;
  if (tower_clear(w, base, "destroy") != 0) return;
  world_emit(w, &e);
}

/* The gold a repair of base costs now, or -1 when there is nothing to
** repair. ceil(repair_cost x spent x missing / max), forgiving a millionth
** of it first: a share written 0.3 is stored as 0.30000001 and would
** otherwise cost one gold more than it says. */
static int64_t repair_cost(const td_world *w, int32_t base) {
  if (base < 0 || (size_t)base >= w->map->base_count || !w->towers[base].used) return -1;
  const tower_rec *t = &w->towers[base];
  float max = w->rules->levels[t->level].health;
  if (!(max > 0.0f) || !(t->health < max)) return -1;
  double c = (double)w->rules->repair_cost * (double)t->spent * ((double)max - (double)t->health) /
             (double)max;
  c = ceil(c - c * 1e-6);
  return c <= 0.0 ? 0 : c >= (double)INT32_MAX ? INT32_MAX : (int64_t)c;
}

int32_t td_world_repair_cost(const td_world *w, int32_t base) {
  return (int32_t)repair_cost(w, base);
}

td_refusal tower_repair(td_world *w, int32_t base) {
  if (base < 0 || (size_t)base >= w->map->base_count) return TD_REFUSAL_NO_BASE;
  tower_rec *t = &w->towers[base];
  if (!t->used) return TD_REFUSAL_NO_TOWER;
  int64_t cost = repair_cost(w, base);
  if (cost < 0) return TD_REFUSAL_NOT_DAMAGED;
  if (w->gold < cost) return TD_REFUSAL_GOLD;
  w->gold -= (int32_t)cost;
  t->health = w->rules->levels[t->level].health;
  td_event e = world_event(w, TD_EVENT_REPAIRED);
  e.tower = tower_handle(w, (size_t)base);
  e.type = t->level;
  e.base = base;
  e.amount = (float)cost;
  e.x = t->x;
  e.y = t->y;
  world_emit(w, &e);
  return TD_REFUSAL_NONE;
}

float td_world_damage_tower(td_world *w, uint32_t tower, float amount, uint32_t enemy) {
  int64_t b = tower_slot(w, tower);
  if (b < 0 || w->broken || !isfinite(amount) || !(amount > 0.0f) || !damageable(w, (int32_t)b))
    return 0.0f;
  uint32_t credit = enemy && enemy_slot(w, enemy) >= 0 ? enemy : 0;
  return hurt(w, (int32_t)b, amount, credit);
}
