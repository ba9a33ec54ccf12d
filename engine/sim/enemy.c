/*
** enemy.c: the enemy pool, hits, effects, deaths and splits, regeneration
** and healers, and the bucket grid that answers "who is near (x, y)".
**
** The grid: square cells (at least two tiles, at most 256 x 256 of them)
** over the map's box; enemies outside it fall in the border cells, so a
** query clamped to the grid still finds them. It is rebuilt every tick
** after the crowd moved, by a counting sort of the active enemies in slot
** order: a cell lists its enemies in slot order, and a query visits cells
** row by row, so every visit order is a function of the state.
*/
#include "sim/world_int.h"

#include <math.h>
#include <string.h>

#define GRID_MAX_SIDE 256
#define FAR 3.0e38f /* route_left of an enemy with no route */

bool enemy_active(const enemy_rec *e) {
  return e->state == TD_ENEMY_WALK || e->state == TD_ENEMY_STUNNED ||
         e->state == TD_ENEMY_BLOCKED || e->state == TD_ENEMY_ATTACK;
}

/* ---- the state machine (unit.h) ------------------------------------------ */

static bool stands(uint8_t s) {
  return s == TD_ENEMY_STUNNED || s == TD_ENEMY_BLOCKED || s == TD_ENEMY_ATTACK;
}

void enemy_go(td_world *w, size_t i, td_enemy_state to) {
  enemy_rec *e = &w->enemies[i];
  uint8_t from = e->state;
  w->arrows[TD_UNIT_ENEMY][from][to]++;
  e->state = (uint8_t)to;
  /* the crowd: an agent stands while stunned or fighting (a freed or dying
  ** one has left it) */
  if (enemy_active(e) && stands(from) != stands(to))
    td_crowd_set_stunned(w->crowd, e->agent, stands(to));
}

void enemy_settle(td_world *w, size_t i) {
  enemy_rec *e = &w->enemies[i];
  if (!enemy_active(e)) return;
  td_enemy_state want = e->stun_ticks > 0                 ? TD_ENEMY_STUNNED
                        : e->holder && e->at_hand          ? TD_ENEMY_ATTACK
                        : e->holder                        ? TD_ENEMY_BLOCKED
                        : e->siege >= 0                    ? TD_ENEMY_ATTACK
                                                           : TD_ENEMY_WALK;
  if (want != e->state) enemy_go(w, i, want);
}

bool can_hit(const td_tower_level *l, const td_enemy_type *t) {
  return t->flying ? l->hits_air : l->hits_ground;
}

int64_t enemy_slot(const td_world *w, uint32_t handle) {
  uint32_t s1 = handle & HANDLE_MASK;
  if (s1 == 0 || s1 > w->enemy_used) return -1;
  const enemy_rec *e = &w->enemies[s1 - 1];
  if (make_handle(e->gen, s1 - 1) != handle || !enemy_active(e)) return -1;
  return (int64_t)s1 - 1;
}

uint32_t enemy_handle(const td_world *w, size_t slot) {
  return make_handle(w->enemies[slot].gen, slot);
}

/* ---- the pool ------------------------------------------------------------ */

int32_t group_take(td_world *w) {
  for (size_t g = 0; g < w->group_cap; g++)
    if (w->group_refs[g] == 0) return (int32_t)g;
  size_t old = w->group_cap;
  int32_t *p = td_mem_grow(w->group_refs, &w->group_cap, old + 1, sizeof *p);
  if (!p) {
    world_fail(w, "crowd groups");
    return -1;
  }
  memset(p + old, 0, (w->group_cap - old) * sizeof *p);
  w->group_refs = p;
  return (int32_t)old;
}

/* The lowest free slot, growing the pool when every slot is used. */
static int64_t take_slot(td_world *w) {
  for (size_t i = w->enemy_low; i < w->enemy_used; i++)
    if (w->enemies[i].state == TD_ENEMY_FREE) return (int64_t)i;
  if (w->enemy_used == TD_WORLD_MAX_ENEMIES) return -1;
  if (w->enemy_used == w->enemy_cap) {
    size_t old = w->enemy_cap;
    enemy_rec *p = td_mem_grow(w->enemies, &w->enemy_cap, old + 1, sizeof *p);
    if (!p) return -2;
    memset(p + old, 0, (w->enemy_cap - old) * sizeof *p);
    w->enemies = p;
  }
  return (int64_t)w->enemy_used++;
}

int64_t enemy_add(td_world *w, int32_t type, int32_t node, float health, float scale,
                  int32_t wave, int32_t group, float lane, float slot, td_err *err) {
  const td_enemy_type *t = &w->rules->enemies[type];
  int64_t i = take_slot(w);
  if (i == -1) {
    td_err_set(err, "world: more than %u enemies", TD_WORLD_MAX_ENEMIES);
    return -1;
  }
  if (i == -2 || group < 0) {
    world_fail(w, "enemies");
    return -1;
  }
  td_agent_desc d = {.radius = t->radius * w->tile, .max_speed = t->speed * w->tile,
                     .lane = lane, .slot = slot, .group = group, .flying = t->flying};
  td_err e2;
  td_agent a = td_crowd_add(w->crowd, &d, node, &e2);
  if (a == TD_AGENT_NONE) {
    /* the only failure left with valid arguments is memory */
    world_fail(w, "crowd");
    if (err) *err = e2;
    return -1;
  }
  enemy_rec *e = &w->enemies[i];
  uint32_t gen = e->gen;
  memset(e, 0, sizeof *e);
  e->gen = gen;
  e->siege = -1;
  enemy_go(w, (size_t)i, TD_ENEMY_WALK);
  e->type = type;
  e->wave = wave;
  e->group = group;
  e->agent = a;
  e->health = e->max_health = health;
  e->scale = scale;
  e->applied_scale = 1.0f;
  td_agent_view v;
  if (td_crowd_view(w->crowd, (size_t)td_crowd_slot(w->crowd, a), &v)) {
    e->waiting = v.state == TD_AGENT_WAITING;
    e->x = v.x;
    e->y = v.y;
    e->from = v.from;
    e->to = v.to;
  }
  e->route_left = FAR;
  w->group_refs[group]++;
  w->enemy_low = (size_t)i + 1;
  w->enemy_live++;
  w->enemy_alive++;
  if (wave > 0) {
    wave_rec *r = wave_find(w, wave);
    if (r) r->alive++;
  }
  td_event ev = world_event(w, TD_EVENT_SPAWNED);
  ev.enemy = make_handle(gen, (size_t)i);
  ev.type = type;
  ev.wave = wave;
  ev.x = e->x;
  ev.y = e->y;
  world_emit(w, &ev);
  return i;
}

uint32_t td_world_spawn_enemy(td_world *w, const td_spawn_desc *d, td_err *err) {
  const td_rules *r = w->rules;
  if (d->type < 0 || (size_t)d->type >= r->enemy_count) {
    td_err_set(err, "world: spawn: no enemy type %d", (int)d->type);
    return 0;
  }
  int32_t node = d->node;
  if (d->spawn >= 0) {
    if ((size_t)d->spawn >= w->map->spawn_count) {
      td_err_set(err, "world: spawn: no spawn %d", (int)d->spawn);
      return 0;
    }
    node = w->spawn_nodes[d->spawn];
  }
  if (node < 0 || node >= w->graph->node_count) {
    td_err_set(err, "world: spawn: no node %d", (int)node);
    return 0;
  }
  if (!isfinite(d->health) || d->health < 0 || !isfinite(d->lane) || !isfinite(d->slot)) {
    td_err_set(err, "world: spawn: health, lane and slot must be finite (health >= 0)");
    return 0;
  }
  if (w->broken) {
    td_err_set(err, "%s", w->fault.msg);
    return 0;
  }
  float base = r->enemies[d->type].health;
  float h = d->health > 0 ? d->health : base;
  int32_t wave = d->wave > 0 && wave_find(w, d->wave) ? d->wave : 0;
  int64_t i = enemy_add(w, d->type, node, h, h / base, wave, group_take(w), d->lane * w->tile,
                        d->slot * w->tile, err);
  if (i < 0) {
    if (w->broken && err) td_err_set(err, "%s", w->fault.msg);
    return 0;
  }
  return enemy_handle(w, (size_t)i);
}

/* Splits: split_count of split_into where slot i died, one new formation. */
static void split(td_world *w, size_t i) {
  enemy_rec pe = w->enemies[i]; /* a copy: adding may move the pool */
  const td_enemy_type *pt = &w->rules->enemies[pe.type];
  if (pt->split_into < 0 || pt->split_count < 1) return;
  const td_enemy_type *ct = &w->rules->enemies[pt->split_into];
  const td_graph *g = w->graph;
  int32_t node = pe.from;
  if (!pt->flying && pe.to >= 0 && pe.to != pe.from) {
    float da = hypotf((float)g->x[pe.from] - pe.x, (float)g->y[pe.from] - pe.y);
    float db = hypotf((float)g->x[pe.to] - pe.x, (float)g->y[pe.to] - pe.y);
    if (db < da) node = pe.to;
  }
  int32_t group = group_take(w);
  td_formation f = {.count = pt->split_count, .per_row = pt->split_count,
                    .width = 2.2f * ct->radius * w->tile * (float)(pt->split_count - 1),
                    .spacing = 0.0f};
  float nx = (float)g->x[node], ny = (float)g->y[node];
  for (int32_t k = 0; k < pt->split_count && !w->broken; k++) {
    float lane, slot;
    td_formation_place(&f, k, &lane, &slot);
    if (ct->flying) { /* flyers start at node + (slot, lane): put them where it died */
      slot += pe.x - nx;
      lane += pe.y - ny;
    }
    enemy_add(w, pt->split_into, node, ct->health * pe.scale, pe.scale, pe.wave, group, lane, slot,
              NULL);
  }
}

/* Slot i dies: credited to tower. Removal is at the end of the step. */
static void kill(td_world *w, size_t i, uint32_t tower) {
  enemy_rec *e = &w->enemies[i];
  const td_enemy_type *t = &w->rules->enemies[e->type];
  if (e->holder) soldiers_enemy_gone(w, i);
  enemy_go(w, i, TD_ENEMY_DYING);
  e->holder = 0;
  e->at_hand = 0;
  e->siege = -1;
  e->health = 0.0f;
  td_crowd_remove(w->crowd, e->agent);
  w->enemy_alive--;
  if (e->wave > 0) {
    wave_rec *r = wave_find(w, e->wave);
    if (r) r->alive--;
  }
  td_world_give_gold(w, t->bounty);
  td_event ev = world_event(w, TD_EVENT_KILLED);
  ev.enemy = make_handle(e->gen, i);
  ev.tower = tower;
  ev.type = e->type;
  ev.wave = e->wave;
  ev.amount = (float)t->bounty;
  ev.x = e->x;
  ev.y = e->y;
  world_emit(w, &ev);
  split(w, i);
}

/* The crowd's speed scale and stun follow the enemy's effects. */
static void push_motion(td_world *w, enemy_rec *e) {
  float s = e->slow_ticks > 0 ? 1.0f - e->slow : 1.0f;
  if (s != e->applied_scale) {
    td_crowd_set_speed_scale(w->crowd, e->agent, s);
    e->applied_scale = s;
  }
  enemy_settle(w, (size_t)(e - w->enemies));
}

static int32_t ticks_of(float seconds) {
  float t = ceilf(seconds * (float)TD_WORLD_TICK_HZ - 1e-3f);
  return t < 1.0f ? 1 : t > 1e9f ? 1000000000 : (int32_t)t;
}

void enemy_effect(td_world *w, size_t i, const td_effect *fx, int32_t dtype, uint32_t tower) {
  enemy_rec *e = &w->enemies[i];
  const td_enemy_type *t = &w->rules->enemies[e->type];
  if (!enemy_active(e) || !fx) return;
  int32_t ticks = ticks_of(fx->duration);
  switch (fx->kind) {
  case TD_EFFECT_SLOW: {
    float m = fx->magnitude < 0 ? 0 : fx->magnitude > 0.9f ? 0.9f : fx->magnitude;
    if (t->boss) m *= 0.5f;
    if (e->slow_ticks <= 0 || m > e->slow) e->slow = m;
    if (ticks > e->slow_ticks) e->slow_ticks = ticks;
    break;
  }
  case TD_EFFECT_DOT:
    if (dtype < 0 || dtype >= w->rules->damage_type_count) return;
    if (e->dot_ticks[dtype] <= 0 || fx->magnitude > e->dot[dtype]) {
      e->dot[dtype] = fx->magnitude;
      e->dot_tower[dtype] = tower;
    }
    if (ticks > e->dot_ticks[dtype]) e->dot_ticks[dtype] = ticks;
    break;
  case TD_EFFECT_STUN:
    if (t->boss) return;
    if (ticks > e->stun_ticks) e->stun_ticks = ticks;
    break;
  case TD_EFFECT_NONE: return;
  }
  push_motion(w, e);
}

int td_world_apply_effect(td_world *w, uint32_t enemy_h, const td_effect *fx, int32_t damage_type,
                          uint32_t tower) {
  int64_t i = enemy_slot(w, enemy_h);
  if (i < 0 || !fx || (unsigned)fx->kind > TD_EFFECT_STUN || !isfinite(fx->magnitude) ||
      !(fx->duration > 0) || !isfinite(fx->duration))
    return -1;
  if (fx->kind == TD_EFFECT_DOT && (damage_type < 0 || damage_type >= w->rules->damage_type_count))
    return -1;
  enemy_effect(w, (size_t)i, fx, damage_type, tower);
  return 0;
}

/* A hit: the health it takes, the HIT event, a kill or the effect. */
static float hit(td_world *w, size_t i, float raw, int32_t dtype, uint32_t tower,
                 const td_tower_level *l, td_hit_source src, uint32_t soldier) {
  enemy_rec *e = &w->enemies[i];
  if (!enemy_active(e)) return 0.0f;
  const td_enemy_type *t = &w->rules->enemies[e->type];
  float d = td_rules_damage(t, raw, dtype);
  float taken = d < e->health ? d : e->health;
  e->health -= d;
  td_event ev = world_event(w, TD_EVENT_HIT);
  ev.enemy = make_handle(e->gen, i);
  ev.tower = tower;
  ev.soldier = soldier;
  ev.type = e->type;
  ev.source = src;
  if (l) {
    ev.level = (int32_t)(l - w->rules->levels);
  } else {
    int64_t ts = tower ? tower_slot(w, tower) : -1;
    if (ts >= 0) ev.level = w->towers[ts].level;
  }
  ev.amount = taken;
  ev.x = e->x;
  ev.y = e->y;
  world_emit(w, &ev);
  if (e->health <= 0.0f) kill(w, i, tower);
  else if (l && l->effect.kind != TD_EFFECT_NONE) enemy_effect(w, i, &l->effect, dtype, tower);
  return taken;
}

float enemy_hit(td_world *w, size_t i, float raw, int32_t dtype, uint32_t tower,
                const td_tower_level *l) {
  return hit(w, i, raw, dtype, tower, l, l ? TD_HIT_TOWER : TD_HIT_SCRIPT, 0);
}

float enemy_hit_by_soldier(td_world *w, size_t i, float raw, int32_t dtype, uint32_t soldier,
                           uint32_t tower) {
  return hit(w, i, raw, dtype, tower, NULL, TD_HIT_SOLDIER, soldier);
}

float td_world_damage(td_world *w, uint32_t enemy_h, float amount, int32_t damage_type,
                      uint32_t tower) {
  int64_t i = enemy_slot(w, enemy_h);
  if (i < 0 || damage_type < 0 || damage_type >= w->rules->damage_type_count ||
      !isfinite(amount) || amount < 0)
    return 0.0f;
  return enemy_hit(w, (size_t)i, amount, damage_type, tower, NULL);
}

/* ---- per tick ------------------------------------------------------------ */

/* Positions from the crowd, and leaks (an agent that reached a goal). */
void enemies_sync(td_world *w) {
  const td_cost *dist = td_route_dist(w->route);
  const td_graph *g = w->graph;
  const int32_t *goals;
  size_t ng = td_route_goals(w->route, &goals);
  for (size_t i = 0; i < w->enemy_used; i++) {
    enemy_rec *e = &w->enemies[i];
    if (!enemy_active(e)) continue;
    int64_t s = td_crowd_slot(w->crowd, e->agent);
    td_agent_view v;
    /* An agent added on a goal (a splitter's children where it died, a
    ** script's spawn) is leaked at once, and the crowd lets a leaked agent
    ** go at its next step: one that is gone leaked too (found by td soak). */
    bool gone = s < 0 || !td_crowd_view(w->crowd, (size_t)s, &v);
    if (!gone) {
      e->waiting = v.state == TD_AGENT_WAITING;
      e->x = v.x;
      e->y = v.y;
      e->vx = v.vx;
      e->vy = v.vy;
      e->from = v.from;
      e->to = v.to;
    }
    const td_enemy_type *t = &w->rules->enemies[e->type];
    if (gone || v.state == TD_AGENT_LEAKED) {
      if (e->holder) soldiers_enemy_gone(w, i);
      e = &w->enemies[i];
      enemy_go(w, i, TD_ENEMY_LEAKED);
      e->holder = 0;
      e->at_hand = 0;
      e->siege = -1;
      w->enemy_alive--;
      w->lives -= t->lives;
      if (w->lives < 0) w->lives = 0;
      if (e->wave > 0) {
        wave_rec *r = wave_find(w, e->wave);
        if (r) r->alive--;
      }
      td_event ev = world_event(w, TD_EVENT_LEAKED);
      ev.enemy = make_handle(e->gen, i);
      ev.type = e->type;
      ev.wave = e->wave;
      ev.amount = (float)t->lives;
      ev.x = e->x;
      ev.y = e->y;
      world_emit(w, &ev);
      continue;
    }
    if (t->flying) {
      float best = FAR;
      for (size_t k = 0; k < ng; k++) {
        float d = hypotf((float)g->x[goals[k]] - e->x, (float)g->y[goals[k]] - e->y);
        if (d < best) best = d;
      }
      e->route_left = best;
    } else if (e->to >= 0 && dist[e->to] != TD_COST_INF) {
      e->route_left = (float)td_graph_cost_to_units(dist[e->to]) +
                      hypotf((float)g->x[e->to] - e->x, (float)g->y[e->to] - e->y);
    } else {
      e->route_left = FAR;
    }
  }
}

typedef struct heal_ctx {
  size_t healer;
  float x, y, r2, amount;
} heal_ctx;

static void heal_one(void *ctx, td_world *w, size_t j) {
  heal_ctx *h = ctx;
  enemy_rec *e = &w->enemies[j];
  /* one held by a soldier is out of its healers' reach: a held enemy healed
  ** faster than its soldier hurts it would stand for good, and a wave in
  ** single file behind it with it */
  if (j == h->healer || e->holder) return;
  float dx = e->x - h->x, dy = e->y - h->y;
  if (dx * dx + dy * dy > h->r2) return;
  e->health += h->amount;
  if (e->health > e->max_health) e->health = e->max_health;
}

/* Effects tick (damage over time, then durations), regeneration, healers. */
void enemies_update(td_world *w) {
  const td_rules *r = w->rules;
  size_t n = w->enemy_used; /* enemies split off during the pass wait a tick */
  for (size_t i = 0; i < n; i++) {
    enemy_rec *e = &w->enemies[i];
    if (!enemy_active(e)) continue;
    const td_enemy_type *t = &r->enemies[e->type];
    for (int32_t k = 0; k < r->damage_type_count; k++) {
      e = &w->enemies[i];
      if (!enemy_active(e) || e->dot_ticks[k] <= 0) continue;
      e->dot_ticks[k]--;
      float d = e->dot[k] * DT * (1.0f - t->resist[k]);
      if (d <= 0.0f) continue;
      e->health -= d;
      if (e->health <= 0.0f) kill(w, i, e->dot_tower[k]);
    }
    e = &w->enemies[i];
    if (!enemy_active(e)) continue;
    if (e->slow_ticks > 0) e->slow_ticks--;
    if (e->stun_ticks > 0) e->stun_ticks--;
    push_motion(w, e);
    if (t->regen > 0.0f) {
      e->health += t->regen * DT;
      if (e->health > e->max_health) e->health = e->max_health;
    }
  }
  for (size_t i = 0; i < n; i++) {
    const enemy_rec *e = &w->enemies[i];
    if (!enemy_active(e)) continue;
    const td_enemy_type *t = &r->enemies[e->type];
    if (t->heal_radius <= 0.0f || t->heal_rate <= 0.0f) continue;
    float rad = t->heal_radius * w->tile;
    heal_ctx h = {.healer = i, .x = e->x, .y = e->y, .r2 = rad * rad,
                  .amount = t->heal_rate * DT};
    grid_query(w, e->x, e->y, rad, heal_one, &h);
  }
}

/* End of step: the dying and the leaked leave; their handles die. */
void enemies_reap(td_world *w) {
  for (size_t i = 0; i < w->enemy_used; i++) {
    enemy_rec *e = &w->enemies[i];
    if (e->state != TD_ENEMY_DYING && e->state != TD_ENEMY_LEAKED) continue;
    enemy_go(w, i, TD_ENEMY_FREE);
    e->gen++;
    w->group_refs[e->group]--;
    w->enemy_live--;
    if (i < w->enemy_low) w->enemy_low = i;
  }
}

/* ---- the bucket grid ----------------------------------------------------- */

/* The layout, once (the map's box: graph nodes, bases, tile layers). */
static int grid_layout(td_world *w) {
  const td_graph *g = w->graph;
  const td_map *m = w->map;
  double x0 = 0, y0 = 0, x1 = (double)m->width * m->tile_w, y1 = (double)m->height * m->tile_h;
  for (int32_t n = 0; n < g->node_count; n++) {
    x0 = g->x[n] < x0 ? g->x[n] : x0;
    y0 = g->y[n] < y0 ? g->y[n] : y0;
    x1 = g->x[n] > x1 ? g->x[n] : x1;
    y1 = g->y[n] > y1 ? g->y[n] : y1;
  }
  for (size_t b = 0; b < m->base_count; b++) {
    const td_tower_base *tb = &m->bases[b];
    x0 = tb->x < x0 ? tb->x : x0;
    y0 = tb->y < y0 ? tb->y : y0;
    x1 = tb->x + tb->w > x1 ? tb->x + tb->w : x1;
    y1 = tb->y + tb->h > y1 ? tb->y + tb->h : y1;
  }
  double cell = 2.0 * (double)w->tile;
  double side = (x1 - x0) > (y1 - y0) ? (x1 - x0) : (y1 - y0);
  if (side / cell > GRID_MAX_SIDE) cell = side / GRID_MAX_SIDE;
  w->gx0 = (float)x0;
  w->gy0 = (float)y0;
  w->gcell = (float)cell;
  w->gw = (int32_t)((x1 - x0) / cell) + 1;
  w->gh = (int32_t)((y1 - y0) / cell) + 1;
  if (w->gw > GRID_MAX_SIDE) w->gw = GRID_MAX_SIDE;
  if (w->gh > GRID_MAX_SIDE) w->gh = GRID_MAX_SIDE;
  w->g_start = td_mem_calloc((size_t)w->gw * (size_t)w->gh + 1, sizeof(int32_t));
  return w->g_start ? 0 : -1;
}

static inline int32_t cell_x(const td_world *w, float x) {
  float c = floorf((x - w->gx0) / w->gcell);
  return c < 0 ? 0 : c >= (float)w->gw ? w->gw - 1 : (int32_t)c;
}

static inline int32_t cell_y(const td_world *w, float y) {
  float c = floorf((y - w->gy0) / w->gcell);
  return c < 0 ? 0 : c >= (float)w->gh ? w->gh - 1 : (int32_t)c;
}

int grid_build(td_world *w) {
  if (!w->g_start) return grid_layout(w);
  size_t cells = (size_t)w->gw * (size_t)w->gh;
  size_t n = w->enemy_used;
  if (n > w->g_items_cap) {
    int32_t *p = td_mem_grow(w->g_items, &w->g_items_cap, n, sizeof *p);
    if (!p) return -1;
    w->g_items = p;
  }
  if (n > w->g_cell_cap) {
    int32_t *p = td_mem_grow(w->g_cell_of, &w->g_cell_cap, n, sizeof *p);
    if (!p) return -1;
    w->g_cell_of = p;
  }
  int32_t *start = w->g_start;
  memset(start, 0, (cells + 1) * sizeof *start);
  for (size_t i = 0; i < n; i++) {
    const enemy_rec *e = &w->enemies[i];
    if (!enemy_active(e) || e->waiting) { /* a waiting one is off the map */
      w->g_cell_of[i] = -1;
      continue;
    }
    int32_t c = cell_y(w, e->y) * w->gw + cell_x(w, e->x);
    w->g_cell_of[i] = c;
    start[c + 1]++;
  }
  for (size_t c = 0; c < cells; c++) start[c + 1] += start[c];
  /* fill with start[c] as a cursor, then shift back */
  for (size_t i = 0; i < n; i++) {
    int32_t c = w->g_cell_of[i];
    if (c >= 0) w->g_items[start[c]++] = (int32_t)i;
  }
  for (size_t c = cells; c > 0; c--) start[c] = start[c - 1];
  start[0] = 0;
  return 0;
}

void grid_query(td_world *w, float x, float y, float r, grid_visit f, void *ctx) {
  if (!w->g_start || !w->g_items) return;
  int32_t cx0 = cell_x(w, x - r), cx1 = cell_x(w, x + r);
  int32_t cy0 = cell_y(w, y - r), cy1 = cell_y(w, y + r);
  for (int32_t cy = cy0; cy <= cy1; cy++)
    for (int32_t cx = cx0; cx <= cx1; cx++) {
      int32_t c = cy * w->gw + cx;
      for (int32_t k = w->g_start[c]; k < w->g_start[c + 1]; k++) {
        size_t s = (size_t)w->g_items[k];
        if (enemy_active(&w->enemies[s])) f(ctx, w, s);
      }
    }
}
