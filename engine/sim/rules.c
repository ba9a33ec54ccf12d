/*
** rules.c: freeing, validating and reading the rules (see rules.h).
*/
#include "sim/rules.h"

#include <math.h>
#include <string.h>

void td_rules_free(td_rules *r) {
  td_mem_free(r->enemies, r->enemy_count * sizeof *r->enemies);
  td_mem_free(r->towers, r->tower_count * sizeof *r->towers);
  td_mem_free(r->soldier_types, r->soldier_type_count * sizeof *r->soldier_types);
  td_mem_free(r->levels, r->level_count * sizeof *r->levels);
  td_mem_free(r->groups, r->group_count * sizeof *r->groups);
  memset(r, 0, sizeof *r);
}

/* A finite number in [lo, hi]. */
static bool in(float v, float lo, float hi) { return isfinite(v) && v >= lo && v <= hi; }

bool td_rules_name_char(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '_' || c == '-' || c == '.';
}

/* What is wrong with a name (see td_rules_name_char), or NULL. Rules read
** by the mod loader never get here with a bad one (it names the file and
** line); rules built in C do. */
static const char *name_fault(const char *name) {
  const char *end = memchr(name, '\0', TD_RULES_NAME_MAX);
  if (!end) return "its name has no terminating zero";
  if (end == name) return "no name";
  for (const char *p = name; p < end; p++)
    if (!td_rules_name_char((unsigned char)*p))
      return "a name may hold only letters, digits, '_', '-' and '.'";
  return NULL;
}

static int check_enemy(const td_rules *r, size_t i, td_err *err) {
  const td_enemy_type *e = &r->enemies[i];
  const char *n = e->name;
#define BAD(...) td_err_set(err, "enemy '%s': " __VA_ARGS__)
  if (!in(e->health, 1e-6f, 1e9f)) return BAD("health must be > 0", n);
  if (!in(e->armour, 0, 1e9f)) return BAD("armour must be >= 0", n);
  for (int32_t t = 0; t < r->damage_type_count; t++)
    if (!in(e->resist[t], -1, 0.95f))
      return BAD("resistance to '%s' must be in -1 .. 0.95", n, r->damage_types[t]);
  if (!in(e->speed, 1e-6f, 1e3f)) return BAD("speed must be > 0", n);
  if (!in(e->radius, 1e-3f, 100)) return BAD("radius must be > 0", n);
  if (e->bounty < 0) return BAD("bounty must be >= 0", n);
  if (e->lives < 0) return BAD("lives must be >= 0", n);
  if (!in(e->regen, 0, 1e9f)) return BAD("regen must be >= 0", n);
  if (!in(e->heal_radius, 0, 1e3f) || !in(e->heal_rate, 0, 1e9f))
    return BAD("heal_radius and heal_rate must be >= 0", n);
  if (e->split_into < -1 || e->split_into >= (int32_t)r->enemy_count)
    return BAD("split_into names no enemy type", n);
  if (e->split_into >= 0 && (e->split_count < 1 || e->split_count > 64))
    return BAD("split_count must be in 1 .. 64", n);
  if (!in(e->melee_damage, 0, 1e9f) || !in(e->melee_rate, 0, 1e3f))
    return BAD("melee damage and rate must be >= 0", n);
  if (!in(e->siege_damage, 0, 1e9f) || !in(e->siege_range, 0, 1e3f) ||
      !in(e->siege_rate, 0, 1e3f))
    return BAD("siege damage, rate and range must be >= 0", n);
  if (e->siege_damage > 0 && !(e->siege_rate > 0))
    return BAD("a siege attack needs a rate > 0", n);
#undef BAD
  return 0;
}

static int check_soldier(const td_rules *r, size_t i, td_err *err) {
  const td_soldier_type *s = &r->soldier_types[i];
  const char *n = s->name;
#define BAD(...) td_err_set(err, "soldier '%s': " __VA_ARGS__)
  if (!in(s->health, 1e-6f, 1e9f)) return BAD("health must be > 0", n);
  if (!in(s->armour, 0, 1e9f)) return BAD("armour must be >= 0", n);
  if (!in(s->damage, 0, 1e9f)) return BAD("damage must be >= 0", n);
  if (s->damage_type < 0 || s->damage_type >= r->damage_type_count)
    return BAD("unknown damage type", n);
  if (!in(s->rate, 1e-3f, 1e3f)) return BAD("rate must be > 0", n);
  if (!in(s->speed, 1e-3f, 1e3f)) return BAD("speed must be > 0", n);
  if (!in(s->radius, 1e-3f, 10)) return BAD("radius must be > 0", n);
  if (!in(s->respawn, 0, 1e4f)) return BAD("respawn must be >= 0", n);
  if (!in(s->sight, 1e-3f, 1e3f)) return BAD("sight must be > 0", n);
  if (!in(s->regen, 0, 1e9f)) return BAD("regen must be >= 0", n);
#undef BAD
  return 0;
}

static int check_level(const td_rules *r, size_t i, td_err *err) {
  const td_tower_level *l = &r->levels[i];
  const char *n = l->name;
#define BAD(...) td_err_set(err, "tower level '%s': " __VA_ARGS__)
  if (l->tower < 0 || l->tower >= (int32_t)r->tower_count) return BAD("belongs to no tower", n);
  if (l->parent < -1 || l->parent >= (int32_t)r->level_count) return BAD("parent out of range", n);
  if (l->cost < 0) return BAD("cost must be >= 0", n);
  if (!in(l->range, 1e-3f, 1e3f)) return BAD("range must be > 0", n);
  if (!in(l->rate, 0, 1e3f)) return BAD("rate must be >= 0", n);
  if (!in(l->damage, 0, 1e9f)) return BAD("damage must be >= 0", n);
  if (l->damage_type < 0 || l->damage_type >= r->damage_type_count)
    return BAD("unknown damage type", n);
  if ((unsigned)l->shot > TD_SHOT_PIERCE) return BAD("unknown shot kind", n);
  if (l->shot != TD_SHOT_INSTANT && l->shot != TD_SHOT_CHAIN && !in(l->shot_speed, 1e-3f, 1e4f))
    return BAD("shot_speed must be > 0 for this shot", n);
  if (!in(l->splash, 0, 1e3f)) return BAD("splash must be >= 0", n);
  if (l->chain < 0 || l->chain > 64) return BAD("chain must be in 0 .. 64", n);
  if (l->shot == TD_SHOT_CHAIN && (!in(l->chain_range, 1e-3f, 1e3f) || !in(l->chain_falloff, 0, 1)))
    return BAD("a chain needs chain_range > 0 and chain_falloff in 0 .. 1", n);
  if (l->shot == TD_SHOT_PIERCE && (l->pierce < 1 || l->pierce > 1000))
    return BAD("pierce must be in 1 .. 1000", n);
  if ((unsigned)l->effect.kind > TD_EFFECT_STUN) return BAD("unknown effect", n);
  if (l->effect.kind != TD_EFFECT_NONE && !in(l->effect.duration, 1e-3f, 1e4f))
    return BAD("effect duration must be > 0", n);
  if (l->effect.kind == TD_EFFECT_SLOW && !in(l->effect.magnitude, 0, 0.9f))
    return BAD("a slow's magnitude must be in 0 .. 0.9", n);
  if (l->effect.kind == TD_EFFECT_DOT && !in(l->effect.magnitude, 0, 1e9f))
    return BAD("damage over time must be >= 0", n);
  if (!in(l->aim_time, 0, 60) || !in(l->turn_rate, 0, 1e3f))
    return BAD("aim_time and turn_rate must be >= 0", n);
  if (!in(l->buff_damage, 0, 100) || !in(l->buff_rate, 0, 100))
    return BAD("buffs must be >= 0", n);
  if (!in(l->health, 0, 1e9f)) return BAD("health must be >= 0", n);
  if (l->soldiers < 0 || l->soldiers > TD_RULES_MAX_SOLDIERS)
    return BAD("soldiers must be in 0 .. %d", n, TD_RULES_MAX_SOLDIERS);
  if (l->soldiers > 0 && (l->soldier < 0 || l->soldier >= (int32_t)r->soldier_type_count))
    return BAD("names no soldier type", n);
  for (int k = 0; k < TD_RULES_MAX_CHILDREN; k++) {
    int32_t ch = l->children[k];
    if (ch == -1) continue;
    if (ch < 0 || ch >= (int32_t)r->level_count || r->levels[ch].parent != (int32_t)i)
      return BAD("upgrade %d does not name this level as its parent", n, k + 1);
  }
  if (l->parent >= 0) {
    const td_tower_level *p = &r->levels[l->parent];
    bool listed = false;
    for (int k = 0; k < TD_RULES_MAX_CHILDREN; k++) listed |= p->children[k] == (int32_t)i;
    if (!listed || p->tower != l->tower) return BAD("its parent does not list it", n);
    /* a cycle would need a root-less loop: walk up at most level_count steps */
    int32_t up = l->parent;
    for (size_t s = 0; up >= 0; s++, up = r->levels[up].parent)
      if (s > r->level_count) return BAD("its upgrades form a cycle", n);
  }
#undef BAD
  return 0;
}

static int check_group(const td_rules *r, size_t i, td_err *err) {
  const td_spawn_group *g = &r->groups[i];
#define BAD(...) td_err_set(err, "spawn group %zu: " __VA_ARGS__)
  if (g->enemy < 0 || g->enemy >= (int32_t)r->enemy_count) return BAD("unknown enemy type", i + 1);
  if (g->begin < 1) return BAD("begin must be >= 1", i + 1);
  if (g->end != 0 && g->end < g->begin) return BAD("end must be 0 or >= begin", i + 1);
  if (g->every < 1) return BAD("every must be >= 1", i + 1);
  if (g->count < 1 || g->count > 100000) return BAD("count must be in 1 .. 100000", i + 1);
  if (!in(g->count_growth, 0, 1e4f)) return BAD("count_growth must be >= 0", i + 1);
  if (g->max_count < g->count || g->max_count > 100000)
    return BAD("max_count must be in count .. 100000", i + 1);
  if (!in(g->health_growth, 0, 1e3f)) return BAD("health_growth must be >= 0", i + 1);
  if (g->spawn < -1) return BAD("spawn must be -1 (every spawn) or a spawn index", i + 1);
  if (!in(g->delay, 0, 1e5f)) return BAD("delay must be >= 0", i + 1);
  if (g->per_row < 1) return BAD("per_row must be >= 1", i + 1);
  if (!in(g->width, 0, 1e3f) || !in(g->spacing, 0, 1e3f))
    return BAD("width and spacing must be >= 0", i + 1);
#undef BAD
  return 0;
}

int td_rules_validate(const td_rules *r, td_err *err) {
  if (r->api_version != TD_RULES_API_VERSION)
    return td_err_set(err, "rules: api_version %d, this td speaks %d", (int)r->api_version,
                      TD_RULES_API_VERSION);
  if (r->damage_type_count < 1 || r->damage_type_count > TD_RULES_MAX_DAMAGE_TYPES)
    return td_err_set(err, "rules: between 1 and %d damage types", TD_RULES_MAX_DAMAGE_TYPES);
  for (int32_t t = 0; t < r->damage_type_count; t++) {
    const char *bad = name_fault(r->damage_types[t]);
    if (bad) return td_err_set(err, "damage type %d: %s", (int)t + 1, bad);
    for (int32_t u = 0; u < t; u++)
      if (strcmp(r->damage_types[t], r->damage_types[u]) == 0)
        return td_err_set(err, "damage type '%s': declared twice", r->damage_types[t]);
  }
  for (size_t i = 0; i < r->enemy_count; i++) {
    const char *bad = name_fault(r->enemies[i].name);
    if (bad) return td_err_set(err, "enemy %zu: %s", i + 1, bad);
    for (size_t j = 0; j < i; j++)
      if (strcmp(r->enemies[i].name, r->enemies[j].name) == 0)
        return td_err_set(err, "enemy '%s': declared twice", r->enemies[i].name);
    if (check_enemy(r, i, err)) return -1;
  }
  for (size_t i = 0; i < r->soldier_type_count; i++) {
    const char *bad = name_fault(r->soldier_types[i].name);
    if (bad) return td_err_set(err, "soldier %zu: %s", i + 1, bad);
    for (size_t j = 0; j < i; j++)
      if (strcmp(r->soldier_types[i].name, r->soldier_types[j].name) == 0)
        return td_err_set(err, "soldier '%s': declared twice", r->soldier_types[i].name);
    if (check_soldier(r, i, err)) return -1;
  }
  for (size_t i = 0; i < r->tower_count; i++) {
    const td_tower_type *t = &r->towers[i];
    const char *bad = name_fault(t->name);
    if (bad) return td_err_set(err, "tower %zu: %s", i + 1, bad);
    for (size_t j = 0; j < i; j++)
      if (strcmp(t->name, r->towers[j].name) == 0)
        return td_err_set(err, "tower '%s': declared twice", t->name);
    if (t->root < 0 || t->root >= (int32_t)r->level_count || r->levels[t->root].parent != -1 ||
        r->levels[t->root].tower != (int32_t)i)
      return td_err_set(err, "tower '%s': its root is not one of its levels", t->name);
    if ((unsigned)t->default_target >= TD_TARGET_MODE_COUNT ||
        (t->default_target == TD_TARGET_SCRIPT && !t->script_target))
      return td_err_set(err, "tower '%s': bad default targeting mode", t->name);
  }
  for (size_t i = 0; i < r->level_count; i++) {
    const char *bad = name_fault(r->levels[i].name);
    if (bad) return td_err_set(err, "tower level %zu: %s", i + 1, bad);
    if (check_level(r, i, err)) return -1;
    if (r->levels[i].parent == -1 && r->towers[r->levels[i].tower].root != (int32_t)i)
      return td_err_set(err, "tower level '%s': a second root", r->levels[i].name);
  }
  for (size_t i = 0; i < r->group_count; i++)
    if (check_group(r, i, err)) return -1;
  if (r->wave_count < 1 || r->wave_count > 100000)
    return td_err_set(err, "rules: wave_count must be in 1 .. 100000");
  if (!in(r->first_wave_delay, 0, 1e5f) || !in(r->wave_interval, 1e-3f, 1e5f))
    return td_err_set(err, "rules: first_wave_delay >= 0 and wave_interval > 0");
  if (r->start_gold < 0 || r->start_lives < 1 || r->wave_income < 0)
    return td_err_set(err, "rules: start_gold >= 0, start_lives >= 1, wave_income >= 0");
  if (!in(r->sell_refund, 0, 1)) return td_err_set(err, "rules: sell_refund must be in 0 .. 1");
  if (!in(r->early_bonus, 0, 1e6f) || !in(r->endless_health_growth, 0, 1e3f))
    return td_err_set(err, "rules: early_bonus and endless_health_growth must be >= 0");
  if (!in(r->repair_cost, 0, 10)) return td_err_set(err, "rules: repair_cost must be in 0 .. 10");
  return 0;
}

static bool group_in_wave(const td_spawn_group *g, int32_t n) {
  return n >= g->begin && (g->end == 0 || n <= g->end) && (n - g->begin) % g->every == 0;
}

size_t td_rules_wave_groups(const td_rules *r, int32_t n, int32_t *out) {
  size_t k = 0;
  for (size_t i = 0; i < r->group_count; i++)
    if (group_in_wave(&r->groups[i], n)) out[k++] = (int32_t)i;
  return k;
}

int32_t td_rules_group_count(const td_rules *r, const td_spawn_group *g, int32_t n) {
  (void)r;
  double c = g->count + floor((double)g->count_growth * (n - g->begin));
  return c >= g->max_count ? g->max_count : (int32_t)c;
}

float td_rules_group_health(const td_rules *r, const td_spawn_group *g, int32_t n) {
  double h = (double)r->enemies[g->enemy].health * (1.0 + (double)g->health_growth * (n - g->begin));
  if (n > r->wave_count) h *= 1.0 + (double)r->endless_health_growth * (n - r->wave_count);
  return (float)h;
}

float td_rules_damage(const td_enemy_type *e, float damage, int32_t damage_type) {
  float d = damage * (1.0f - e->resist[damage_type]) - e->armour;
  float floor_d = damage * TD_RULES_MIN_DAMAGE;
  return d > floor_d ? d : floor_d;
}

float td_rules_soldier_damage(const td_soldier_type *s, float damage) {
  float d = damage - s->armour;
  float floor_d = damage * TD_RULES_MIN_DAMAGE;
  return d > floor_d ? d : floor_d;
}
