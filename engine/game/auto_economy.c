/*
** auto_economy.c: the economy strategy's turn (auto.h). It keeps its gold
** until the defence looks short, calls waves early for the bonus while it
** looks safe, and upgrades heavily in the last two thirds of the game.
**
** The estimate, per kind of ground (walkers, flyers): what the towers
** would deal to one enemy walking the route alone, sum over towers of
** damage per second x seconds in range (cover points x half a tile / the
** coming enemies' mean speed; splash, chains and pierce count extra
** targets), against the coming enemies' mean health x (1 + a tenth of
** their number) x the margin. The coming enemies: those of the next wave
** (td_world_preview) and those on the map. The margin starts at 100% and
** grows by ECO_MARGIN_STEP after every wave in which lives were lost; a
** loss of lives in the current wave counts as short at once.
**
** Short: the option (a new tower at its best base, or an upgrade) that
** closes most of the shortfall per gold, when affordable (else it waits;
** when nothing helps, the default turn). Safe: with no enemy on the map and
** ECO_CALL_MARGIN to spare, the next wave is called; past a third of the
** waves, the best upgrade per gold is bought.
*/
#include "game/auto_int.h"

#define ECO_MARGIN_STEP 50      /* percent */
#define ECO_MARGIN_MAX 2000
#define ECO_CALL_MARGIN 1.5f    /* x the need, to call a wave early */

typedef struct need {
  float health[2];  /* ground, air: mean health x crowd x margin */
  float speed[2];   /* tiles per second */
} need;

/* The coming enemies: the next wave's and those on the map. */
static need coming(const td_auto *a, const td_world *w) {
  const td_rules *r = td_world_rules(w);
  double hsum[2] = {0, 0}, ssum[2] = {0, 0}, n[2] = {0, 0};
  td_wave_entry e[64];
  size_t ne = td_world_preview(w, td_world_wave(w) + 1, e, 64);
  if (ne > 64) ne = 64;
  for (size_t i = 0; i < ne; i++) {
    const td_enemy_type *t = &r->enemies[e[i].enemy];
    int k = t->flying ? 1 : 0;
    double c = (double)e[i].count * (e[i].spawns > 0 ? e[i].spawns : 1);
    hsum[k] += c * (double)e[i].health;
    ssum[k] += c * (double)t->speed;
    n[k] += c;
  }
  size_t cap = td_world_enemy_capacity(w);
  for (size_t s = 0; s < cap; s++) {
    td_enemy_view v;
    if (!td_world_enemy(w, s, &v)) continue;
    int k = v.flying ? 1 : 0;
    hsum[k] += (double)v.health;
    ssum[k] += (double)r->enemies[v.type].speed;
    n[k] += 1;
  }
  need d = {{0, 0}, {1, 1}};
  for (int k = 0; k < 2; k++) {
    if (n[k] <= 0) continue;
    d.health[k] = (float)(hsum[k] / n[k] * (1.0 + n[k] / 10.0) * a->eco_margin / 100.0);
    d.speed[k] = ssum[k] > 0 ? (float)(ssum[k] / n[k]) : 1.0f;
  }
  return d;
}

/* What level l at (x, y) deals to one enemy passing alone: out[0] a
** walker, out[1] a flyer. */
static void deals(const td_auto *a, const td_world *w, const td_tower_level *l, float x, float y,
                  const need *d, float out[2]) {
  const td_rules *r = td_world_rules(w);
  out[0] = out[1] = 0;
  if (auto_is_support(l)) return;
  float dps;
  if (l->soldiers > 0) {
    const td_soldier_type *s = &r->soldier_types[l->soldier];
    dps = (float)l->soldiers * s->damage * s->rate;
  } else {
    float extra = 1.0f + (float)l->chain + (l->splash > 0 ? 1.0f : 0.0f) +
                  (l->pierce > 1 ? 0.5f * (float)(l->pierce - 1) : 0.0f);
    dps = l->damage * l->rate * extra;
  }
  /* cover points are half a tile apart */
  float ground = auto_level_cover(a, w, l, x, y, 0, a->ground_end, 0.0f);
  out[0] = dps * ground * 0.5f / d->speed[0];
  if (l->soldiers <= 0) {
    float air = auto_level_cover(a, w, l, x, y, 0, 0, 1.0f);
    out[1] = dps * air * 0.5f / d->speed[1];
  }
}

/* The defence as it stands. */
static void defence(const td_auto *a, const td_world *w, const need *d, float out[2]) {
  const td_map *m = td_world_map(w);
  const td_rules *r = td_world_rules(w);
  out[0] = out[1] = 0;
  for (size_t b = 0; b < m->base_count; b++) {
    td_tower_view t;
    if (!td_world_tower(w, b, &t)) continue;
    float v[2];
    deals(a, w, &r->levels[t.level], t.x, t.y, d, v);
    out[0] += v[0];
    out[1] += v[1];
  }
}

/* What closes `gap` (the shortfall, or everything when gap is NULL) per gold. */
static float worth(const float gain[2], const float *gap) {
  if (!gap) return gain[0] + gain[1];
  return (gain[0] < gap[0] ? gain[0] : gap[0]) + (gain[1] < gap[1] ? gain[1] : gap[1]);
}

typedef struct option {
  int32_t base, type, child; /* child >= 0: an upgrade of the tower on base */
  int32_t cost;
  float value;               /* per gold */
} option;

/* The best option (builds when build, upgrades) by value per gold;
** affordable or not. value 0: none helps. */
static option best_option(const td_auto *a, const td_world *w, const need *d, const float *gap,
                          bool build) {
  const td_map *m = td_world_map(w);
  const td_rules *r = td_world_rules(w);
  option best = {.base = -1, .type = -1, .child = -1};
  for (size_t t = 0; build && t < r->tower_count; t++) {
    const td_tower_level *l = &r->levels[r->towers[t].root];
    float c;
    int32_t b = auto_best_base(a, w, (int32_t)t, &c);
    if (b < 0 || auto_is_support(l)) continue;
    float x = (float)(m->bases[b].x + m->bases[b].w * 0.5);
    float y = (float)(m->bases[b].y + m->bases[b].h * 0.5);
    float v[2];
    deals(a, w, l, x, y, d, v);
    float val = worth(v, gap) / (float)(l->cost > 0 ? l->cost : 1);
    if (val > best.value)
      best = (option){.base = b, .type = (int32_t)t, .child = -1, .cost = l->cost, .value = val};
  }
  for (size_t b = 0; b < m->base_count; b++) {
    td_tower_view t;
    if (!td_world_tower(w, b, &t)) continue;
    const td_tower_level *l = &r->levels[t.level];
    float now[2];
    deals(a, w, l, t.x, t.y, d, now);
    for (int k = 0; k < TD_RULES_MAX_CHILDREN && l->children[k] >= 0; k++) {
      const td_tower_level *up = &r->levels[l->children[k]];
      float v[2];
      deals(a, w, up, t.x, t.y, d, v);
      v[0] = v[0] > now[0] ? v[0] - now[0] : 0;
      v[1] = v[1] > now[1] ? v[1] - now[1] : 0;
      float val = worth(v, gap) / (float)(up->cost > 0 ? up->cost : 1);
      if (val > best.value)
        best = (option){.base = (int32_t)b, .type = t.type, .child = k, .cost = up->cost,
                        .value = val};
    }
  }
  return best;
}

static int take(td_auto *a, td_game *g, const option *o, td_err *err) {
  int rc = o->child >= 0 ? auto_upgrade_at(a, g, o->base, o->child, err)
                         : auto_place_at(a, g, o->base, o->type, err);
  return rc < 0 ? -1 : 0;
}

int auto_economy_turn(td_auto *a, td_game *g, td_err *err) {
  td_world *w = td_game_world(g);
  const td_rules *r = td_world_rules(w);
  int32_t wave = td_world_wave(w), lives = td_world_lives(w), gold = td_world_gold(w);
  if (a->eco_wave < 0) a->eco_wave = wave, a->eco_lives = lives;
  if (wave != a->eco_wave) {
    if (lives < a->eco_lives && a->eco_margin < ECO_MARGIN_MAX) a->eco_margin += ECO_MARGIN_STEP;
    a->eco_wave = wave;
    a->eco_lives = lives;
  }
  need d = coming(a, w);
  float have[2];
  defence(a, w, &d, have);
  float gap[2] = {d.health[0] > have[0] ? d.health[0] - have[0] : 0,
                  d.health[1] > have[1] ? d.health[1] - have[1] : 0};
  bool leaking = lives < a->eco_lives;
  if (td_world_tower_count(w) == 0 || leaking || gap[0] > 0 || gap[1] > 0) {
    /* short: what closes most of the gap per gold (everything, when
    ** leaking with no gap seen) */
    bool gapped = gap[0] > 0 || gap[1] > 0;
    option o = best_option(a, w, &d, gapped ? gap : NULL, true);
    if (o.value <= 0) return auto_default_turn(a, g, err);
    if (o.cost <= gold) return take(a, g, &o, err);
    return 0; /* save for it */
  }
  /* safe: call the next wave early while the map is clear */
  bool more = td_world_next_wave_ticks(w) > TD_AUTO_PERIOD;
  if (more && td_world_enemy_count(w) == 0 && wave >= 1 &&
      have[0] >= d.health[0] * ECO_CALL_MARGIN && have[1] >= d.health[1] * ECO_CALL_MARGIN)
    return auto_call_wave(g, err) < 0 ? -1 : 0;
  /* later: upgrades (builds only when no upgrade helps) */
  if (wave * 3 >= r->wave_count) {
    option o = best_option(a, w, &d, NULL, false);
    if (o.value <= 0) o = best_option(a, w, &d, NULL, true);
    if (o.value > 0 && o.cost <= gold) return take(a, g, &o, err);
  }
  return 0;
}
