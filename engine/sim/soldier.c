/*
** soldier.c: barracks' soldiers (unit.h's soldier machine): the pool, the
** machine's arrows, engaging and fighting, and the world's calls (built,
** sold, rallied, the route changed, an enemy gone); the views. Where they
** stand is soldier_ground.c's, how they walk soldier_walk.c's.
**
** Design note.
** Soldiers live in a pool like the enemies (lowest free slot, handles with
** generations). A barracks' soldiers are numbered 0 .. n-1 (index): soldier
** k stands on post k. Posts are a function of the rally point, the
** barracks' level and the ground (towers, closed cells), made again when
** any of them changes (posts_update); they are kept in the records (and
** saved), so that a change of rules cannot make a loaded world drift. The
** rules of engaging and fighting are world.h's Soldiers paragraph.
**
** Determinism: slot order everywhere; the enemy grid's visit order; the
** path queue answers on ticks that depend on the requests only.
*/
#include "sim/soldier_int.h"

#include <string.h>

/* ---- the pool ------------------------------------------------------------ */

uint32_t soldier_handle(const td_world *w, size_t slot) {
  return make_handle(w->soldiers[slot].gen, slot);
}

int64_t soldier_slot(const td_world *w, uint32_t handle) {
  uint32_t s1 = handle & HANDLE_MASK;
  if (s1 == 0 || s1 > w->soldier_used) return -1;
  const soldier_rec *s = &w->soldiers[s1 - 1];
  if (s->state == TD_SOLDIER_FREE || make_handle(s->gen, s1 - 1) != handle) return -1;
  return (int64_t)s1 - 1;
}

/* Every change of a soldier's state goes through here (unit.h). */
void soldier_go(td_world *w, size_t i, td_soldier_state to) {
  soldier_rec *s = &w->soldiers[i];
  w->arrows[TD_UNIT_SOLDIER][s->state][to]++;
  if (s->state == TD_SOLDIER_FREE) w->soldier_live++;
  s->state = (uint8_t)to;
  if (to == TD_SOLDIER_FREE) {
    s->gen++;
    w->soldier_live--;
  }
}

const td_soldier_type *soldier_type_of(const td_world *w, const soldier_rec *s) {
  return &w->rules->soldier_types[s->type];
}

float soldier_radius(const td_world *w, const soldier_rec *s) {
  return soldier_type_of(w, s)->radius * w->tile;
}

static int32_t ticks_of(float seconds) {
  float t = seconds * (float)TD_WORLD_TICK_HZ;
  return t <= 0.0f ? 0 : t >= 1e7f ? 10000000 : (int32_t)lroundf(t);
}

/* ---- letting go ---------------------------------------------------------- */

/* Lets go of its enemy (the enemy walks on, or fights on a stun's end). */
static void release(td_world *w, size_t i) {
  soldier_rec *s = &w->soldiers[i];
  if (!s->enemy) return;
  int64_t e = enemy_slot(w, s->enemy);
  s->enemy = 0;
  if (e < 0 || w->enemies[e].holder != soldier_handle(w, i)) return;
  w->enemies[e].holder = 0;
  w->enemies[e].at_hand = 0;
  enemy_settle(w, (size_t)e);
}

/* To MOVE (back to its post), its enemy let go, its way forgotten. */
void soldier_go_post(td_world *w, size_t i) {
  release(w, i);
  soldier_rec *s = &w->soldiers[i];
  way_reset(w, s);
  s->timer = 0;
  if (s->state != TD_SOLDIER_MOVE) soldier_go(w, i, TD_SOLDIER_MOVE);
}

/* ---- fighting ------------------------------------------------------------ */

typedef struct engage_ctx {
  float x, y, r2;
  int32_t cx, cy;         /* grids: the post's cell */
  uint32_t shun;
  int64_t best;
  float bd;
} engage_ctx;

static void engage_one(void *ctx, td_world *w, size_t i) {
  engage_ctx *c = ctx;
  const enemy_rec *e = &w->enemies[i];
  if (e->holder || e->waiting || w->rules->enemies[e->type].flying) return;
  if (c->shun && enemy_handle(w, i) == c->shun) return;
  float dx = e->x - c->x, dy = e->y - c->y, d2 = dx * dx + dy * dy;
  if (d2 > c->r2) return;
  if (c->best >= 0 && (d2 > c->bd || (d2 == c->bd && (int64_t)i > c->best))) return;
  if (w->map->grid) { /* walls hide: in sight means in line of sight too */
    int32_t ex, ey;
    if (!ground_cell(w->map->grid, e->x, e->y, &ex, &ey) ||
        !td_grid_line_of_sight(w->map->grid, w->graph, c->cx, c->cy, ex, ey))
      return;
  }
  c->best = (int64_t)i;
  c->bd = d2;
}

static bool touching(const td_world *w, const soldier_rec *s, const enemy_rec *e) {
  float reach = soldier_radius(w, s) + w->rules->enemies[e->type].radius * w->tile +
                TOUCH * w->tile;
  return dist(s->x, s->y, e->x, e->y) <= reach;
}

/* Its enemy at hand: both fight. */
static void at_hand(td_world *w, size_t i, size_t e) {
  w->enemies[e].at_hand = 1;
  enemy_settle(w, e);
  way_reset(w, &w->soldiers[i]);
  way_stand(&w->soldiers[i]);
  soldier_go(w, i, TD_SOLDIER_ATTACK);
}

/* An IDLE or MOVE soldier looks for an enemy (see world.h); true when it
** engaged one. One walking back from afar engages once near its post:
** within its sight of it (on a grid, in line of sight too). */
static bool try_engage(td_world *w, size_t i) {
  soldier_rec *s = &w->soldiers[i];
  float sight = soldier_type_of(w, s)->sight * w->tile;
  engage_ctx c = {.x = s->post_x, .y = s->post_y, .r2 = sight * sight, .shun = s->shun,
                  .best = -1};
  if (w->map->grid) ground_cell(w->map->grid, s->post_x, s->post_y, &c.cx, &c.cy);
  if (s->state == TD_SOLDIER_MOVE) {
    if (dist(s->x, s->y, s->post_x, s->post_y) > sight) return false;
    int32_t sx, sy;
    if (w->map->grid && (!ground_cell(w->map->grid, s->x, s->y, &sx, &sy) ||
                         !td_grid_line_of_sight(w->map->grid, w->graph, sx, sy, c.cx, c.cy)))
      return false;
  }
  grid_query(w, s->post_x, s->post_y, sight, engage_one, &c);
  if (c.best < 0) return false;
  size_t ei = (size_t)c.best;
  enemy_rec *e = &w->enemies[ei];
  e->holder = soldier_handle(w, i);
  e->at_hand = 0;
  e->siege = -1; /* a sapper at a tower turns to the soldier */
  enemy_settle(w, ei);
  way_reset(w, s);
  s->timer = 0;
  s->enemy = enemy_handle(w, ei);
  soldier_go(w, i, TD_SOLDIER_ENGAGE);
  td_event ev = world_event(w, TD_EVENT_ENGAGED);
  ev.soldier = soldier_handle(w, i);
  ev.tower = tower_handle(w, (size_t)s->base);
  ev.enemy = s->enemy;
  ev.type = e->type;
  ev.x = e->x;
  ev.y = e->y;
  world_emit(w, &ev);
  if (touching(w, s, e)) at_hand(w, i, ei);
  return true;
}

static void die(td_world *w, size_t i, uint32_t killer) {
  release(w, i);
  soldier_rec *s = &w->soldiers[i];
  way_reset(w, s);
  way_stand(s);
  s->health = 0.0f;
  s->timer = ticks_of(TD_SOLDIER_FALL_TIME);
  soldier_go(w, i, TD_SOLDIER_DIE);
  td_event ev = world_event(w, TD_EVENT_SOLDIER_DIED);
  ev.soldier = soldier_handle(w, i);
  ev.tower = w->towers[s->base].used ? tower_handle(w, (size_t)s->base) : 0;
  ev.enemy = killer;
  ev.type = s->type;
  ev.x = s->x;
  ev.y = s->y;
  world_emit(w, &ev);
}

static void step_closer(td_world *w, size_t i, float ex, float ey) {
  bool blocked;
  way_move(w, i, ex, ey, &blocked);
}

/* ATTACK: it hits at its rate; its enemy (unless stunned) hits back. */
static void fight(td_world *w, size_t i) {
  soldier_rec *s = &w->soldiers[i];
  const td_soldier_type *st = soldier_type_of(w, s);
  int64_t ei = enemy_slot(w, s->enemy);
  if (ei < 0) { /* (soldiers_enemy_gone sees to it; kept for safety) */
    soldier_go_post(w, i);
    return;
  }
  enemy_rec *e = &w->enemies[ei];
  float reach = soldier_radius(w, s) + w->rules->enemies[e->type].radius * w->tile +
                (TOUCH + REACH) * w->tile;
  if (dist(s->x, s->y, e->x, e->y) > reach) step_closer(w, i, e->x, e->y);
  else way_stand(s);
  s->cool -= DT;
  if (s->cool <= 0.0f) {
    s->cool += 1.0f / st->rate;
    uint32_t me = soldier_handle(w, i), enemy = s->enemy;
    enemy_hit_by_soldier(w, (size_t)ei, st->damage, st->damage_type, me,
                         tower_handle(w, (size_t)s->base));
    s = &w->soldiers[i];
    if (s->state != TD_SOLDIER_ATTACK || s->enemy != enemy) return; /* it fell */
  }
  e = &w->enemies[ei];
  const td_enemy_type *et = &w->rules->enemies[e->type];
  if (!e->at_hand || e->stun_ticks > 0 || et->melee_rate <= 0.0f || et->melee_damage <= 0.0f)
    return;
  e->attack_cool -= DT;
  if (e->attack_cool > 0.0f) return;
  e->attack_cool += 1.0f / et->melee_rate;
  s->health -= td_rules_soldier_damage(st, et->melee_damage);
  if (s->health <= 0.0f) die(w, i, s->enemy);
}

/* ---- one soldier's tick -------------------------------------------------- */

static void tick_one(td_world *w, size_t i) {
  soldier_rec *s = &w->soldiers[i];
  const td_soldier_type *st = soldier_type_of(w, s);
  if (s->state != TD_SOLDIER_ATTACK && s->cool > 0.0f) {
    s->cool -= DT;
    if (s->cool < 0.0f) s->cool = 0.0f;
  }
  switch ((td_soldier_state)s->state) {
  case TD_SOLDIER_DIE:
    if (s->timer > 0) s->timer--;
    if (s->timer <= 0) {
      door_for(w, s, &s->x, &s->y); /* back in the barracks */
      s->timer = ticks_of(st->respawn);
      soldier_go(w, i, TD_SOLDIER_RESPAWN);
    }
    break;
  case TD_SOLDIER_RESPAWN:
    if (s->timer > 0) s->timer--;
    if (s->timer <= 0) {
      door_for(w, s, &s->x, &s->y);
      s->health = st->health;
      s->cool = 0.0f;
      s->shun = 0;
      soldier_go_post(w, i);
    }
    break;
  case TD_SOLDIER_IDLE:
    s->health = fminf(s->health + st->regen * DT, st->health);
    if (dist(s->x, s->y, s->post_x, s->post_y) > OFF_POST * w->tile) soldier_go_post(w, i);
    else try_engage(w, i);
    break;
  case TD_SOLDIER_MOVE:
    if (try_engage(w, i)) break;
    if (way_walk(w, i, w->soldiers[i].post_x, w->soldiers[i].post_y)) {
      s = &w->soldiers[i];
      s->x = s->post_x;
      s->y = s->post_y;
      way_reset(w, s);
      way_stand(s);
      soldier_go(w, i, TD_SOLDIER_IDLE);
    }
    break;
  case TD_SOLDIER_ENGAGE: {
    int64_t ei = enemy_slot(w, s->enemy);
    float slack = (st->sight + SIGHT_SLACK) * w->tile;
    if (ei < 0 || dist(s->post_x, s->post_y, w->enemies[ei].x, w->enemies[ei].y) > slack) {
      soldier_go_post(w, i);
      break;
    }
    if (touching(w, s, &w->enemies[ei])) {
      at_hand(w, i, (size_t)ei);
      break;
    }
    way_walk(w, i, w->enemies[ei].x, w->enemies[ei].y);
    s = &w->soldiers[i];
    if (s->state == TD_SOLDIER_ENGAGE && touching(w, s, &w->enemies[ei])) at_hand(w, i, (size_t)ei);
    break;
  }
  case TD_SOLDIER_ATTACK: fight(w, i); break;
  case TD_SOLDIER_FREE:
  case TD_SOLDIER_STATE_COUNT: break;
  }
}

/* ---- the world's calls --------------------------------------------------- */

int soldiers_init(td_world *w) {
  td_fan_init(&w->s_fan);
  size_t nb = w->map->base_count;
  w->s_rects = td_mem_alloc((nb ? nb : 1) * 4 * sizeof *w->s_rects);
  w->pathq = td_pathq_create(w->graph, NULL);
  if (!w->s_rects || !w->pathq) return -1;
  if (w->map->grid) {
    td_pathq_set_simplify(w->pathq, w->map->grid);
    /* soldiers' walks on a grid: Jump Point Search while no cost rule
    ** weighs the grid (nav/pathq.h) */
    if (td_pathq_use_grid(w->pathq, w->map->grid, NULL) != 0) return -1;
  }
  return 0;
}

void soldiers_free(td_world *w) {
  td_pathq_destroy(w->pathq);
  td_mem_free(w->s_rects, (w->map->base_count ? w->map->base_count : 1) * 4 * sizeof *w->s_rects);
  td_mem_free(w->soldiers, w->soldier_cap * sizeof *w->soldiers);
}

void soldiers_rebuild(td_world *w) {
  w->soldier_live = 0;
  for (size_t i = 0; i < w->soldier_used; i++)
    w->soldier_live += w->soldiers[i].state != TD_SOLDIER_FREE;
  soldier_rects_update(w);
}

void soldiers_update(td_world *w) {
  soldier_rects_update(w);
  td_pathq_tick(w->pathq, TD_WORLD_PATH_BUDGET);
  for (size_t i = 0; i < w->soldier_used && !w->broken; i++)
    if (w->soldiers[i].state != TD_SOLDIER_FREE) tick_one(w, i);
}

/* A new soldier (FREE -> MOVE) at (x, y) for post k of base; its slot, or
** -1 (out of memory: the world is broken). */
static int64_t soldier_new(td_world *w, int32_t base, int k, int32_t type, float x, float y,
                           float px, float py) {
  size_t i = 0;
  while (i < w->soldier_used && w->soldiers[i].state != TD_SOLDIER_FREE) i++;
  if (i == w->soldier_used) {
    if (w->soldier_used == w->soldier_cap) {
      size_t old = w->soldier_cap;
      soldier_rec *p = td_mem_grow(w->soldiers, &w->soldier_cap, old + 1, sizeof *p);
      if (!p) {
        world_fail(w, "soldiers");
        return -1;
      }
      memset(p + old, 0, (w->soldier_cap - old) * sizeof *p);
      w->soldiers = p;
    }
    w->soldier_used++;
  }
  soldier_rec *s = &w->soldiers[i];
  uint32_t gen = s->gen;
  memset(s, 0, sizeof *s);
  s->gen = gen;
  s->index = (uint8_t)k;
  s->type = type;
  s->base = base;
  s->x = x;
  s->y = y;
  s->post_x = px;
  s->post_y = py;
  s->health = w->rules->soldier_types[type].health;
  s->facing = atan2f(py - y, px - x);
  way_stall_reset(s);
  soldier_go(w, i, TD_SOLDIER_MOVE);
  return (int64_t)i;
}

static void soldier_free(td_world *w, size_t i) {
  release(w, i);
  way_reset(w, &w->soldiers[i]);
  soldier_go(w, i, TD_SOLDIER_FREE);
}

void soldiers_tower_changed(td_world *w, int32_t base) {
  soldier_rects_update(w);
  const tower_rec *t = &w->towers[base];
  int32_t n = 0, type = -1;
  if (t->used && w->rules->levels[t->level].soldiers > 0) {
    n = w->rules->levels[t->level].soldiers;
    type = w->rules->levels[t->level].soldier;
  }
  int64_t have[TD_RULES_MAX_SOLDIERS];
  for (int k = 0; k < TD_RULES_MAX_SOLDIERS; k++) have[k] = -1;
  for (size_t i = 0; i < w->soldier_used; i++) {
    soldier_rec *s = &w->soldiers[i];
    if (s->state == TD_SOLDIER_FREE || s->base != base) continue;
    if (s->index >= n) {
      soldier_free(w, i);
      continue;
    }
    have[s->index] = (int64_t)i;
    if (s->type == type) continue;
    /* retyped (an upgrade): the same share of its health */
    const td_soldier_type *nt = &w->rules->soldier_types[type];
    float old = (size_t)s->type < w->rules->soldier_type_count
                    ? w->rules->soldier_types[s->type].health : 0.0f;
    float share = old > 0.0f ? s->health / old : 1.0f;
    share = share < 0.0f ? 0.0f : share > 1.0f ? 1.0f : share;
    s->type = type;
    if (s->state != TD_SOLDIER_DIE && s->state != TD_SOLDIER_RESPAWN) {
      s->health = nt->health * share;
      if (!(s->health > 0.0f)) s->health = nt->health;
    }
  }
  if (n == 0) return;
  float xy[2 * TD_RULES_MAX_SOLDIERS];
  posts_make(w, base, t->level, t->rally_x, t->rally_y, xy);
  float cx = 0.0f, cy = 0.0f;
  for (size_t k = 0; k < (size_t)n; k++) {
    cx += xy[2 * k];
    cy += xy[2 * k + 1];
  }
  float dx, dy;
  door_of(w, base, w->rules->soldier_types[type].radius * w->tile, cx / (float)n, cy / (float)n,
          &dx, &dy);
  for (size_t k = 0; k < (size_t)n; k++) {
    if (have[k] >= 0) {
      w->soldiers[have[k]].post_x = xy[2 * k];
      w->soldiers[have[k]].post_y = xy[2 * k + 1];
    } else if (soldier_new(w, base, (int)k, type, dx, dy, xy[2 * k], xy[2 * k + 1]) < 0) {
      return;
    }
  }
}

void soldiers_rules_changed(td_world *w) {
  for (size_t b = 0; b < w->map->base_count; b++) soldiers_tower_changed(w, (int32_t)b);
}

void soldiers_route_changed(td_world *w) {
  td_pathq_restart(w->pathq);
  soldier_rects_update(w);
  for (size_t b = 0; b < w->map->base_count; b++) posts_update(w, (int32_t)b);
  const td_grid *g = w->map->grid;
  for (size_t i = 0; i < w->soldier_used; i++) {
    soldier_rec *s = &w->soldiers[i];
    if (s->state == TD_SOLDIER_FREE) continue;
    float r = soldier_radius(w, s), x = s->x, y = s->y;
    obst o = obst_of(w, -1);
    if (g ? !ground_point_open(w, x, y) || obst_inside(&o, x, y, r) : obst_inside(&o, x, y, r)) {
      /* a tower came where it stands: to the nearest ground (grids: the
      ** nearest open cell) */
      ground_settle(w, &o, r, x, y, &s->x, &s->y);
      if (s->request || s->planned) way_reset(w, s);
    }
    if (s->state != TD_SOLDIER_MOVE && s->state != TD_SOLDIER_ENGAGE) continue;
    if (!g) {
      if (s->planned || s->request) way_reset(w, s); /* straight or along the graph, again */
    } else if (s->planned && !way_open(w, s)) {
      way_reset(w, s);
    }
  }
}

void soldiers_enemy_gone(td_world *w, size_t enemy_slot_) {
  const enemy_rec *e = &w->enemies[enemy_slot_];
  int64_t i = soldier_slot(w, e->holder);
  if (i < 0 || w->soldiers[i].enemy != enemy_handle(w, enemy_slot_)) return;
  soldier_rec *s = &w->soldiers[i];
  s->enemy = 0; /* the caller lets go of the enemy's side */
  if (s->state == TD_SOLDIER_ENGAGE || s->state == TD_SOLDIER_ATTACK) soldier_go_post(w, (size_t)i);
}

td_refusal soldiers_rally(td_world *w, int32_t base, float x, float y) {
  if (base < 0 || (size_t)base >= w->map->base_count) return TD_REFUSAL_NO_BASE;
  tower_rec *t = &w->towers[base];
  if (!t->used) return TD_REFUSAL_NO_TOWER;
  td_refusal why = rally_check(w, base, t->level, x, y);
  if (why != TD_REFUSAL_NONE) return why;
  t->rally_x = x;
  t->rally_y = y;
  posts_update(w, base);
  for (size_t i = 0; i < w->soldier_used; i++) {
    soldier_rec *s = &w->soldiers[i];
    if (s->state == TD_SOLDIER_FREE || s->base != base || s->state == TD_SOLDIER_DIE ||
        s->state == TD_SOLDIER_RESPAWN)
      continue;
    soldier_go_post(w, i);
  }
  td_event e = world_event(w, TD_EVENT_RALLIED);
  e.tower = tower_handle(w, (size_t)base);
  e.base = base;
  e.x = x;
  e.y = y;
  world_emit(w, &e);
  return TD_REFUSAL_NONE;
}

/* ---- read access --------------------------------------------------------- */

size_t td_world_soldier_capacity(const td_world *w) { return w->soldier_used; }
size_t td_world_soldier_count(const td_world *w) { return w->soldier_live; }

bool td_world_soldier(const td_world *w, size_t slot, td_soldier_view *out) {
  if (slot >= w->soldier_used || w->soldiers[slot].state == TD_SOLDIER_FREE) return false;
  const soldier_rec *s = &w->soldiers[slot];
  const td_soldier_type *st = soldier_type_of(w, s);
  bool timed = s->state == TD_SOLDIER_DIE || s->state == TD_SOLDIER_RESPAWN;
  *out = (td_soldier_view){.handle = soldier_handle(w, slot),
                           .state = (td_soldier_state)s->state,
                           .type = s->type,
                           .base = s->base,
                           .tower = w->towers[s->base].used ? tower_handle(w, (size_t)s->base) : 0,
                           .enemy = s->enemy,
                           .x = s->x,
                           .y = s->y,
                           .radius = st->radius * w->tile,
                           .facing = s->facing,
                           .health = s->health,
                           .max_health = st->health,
                           .post_x = s->post_x,
                           .post_y = s->post_y,
                           .cooldown = s->cool > 0.0f ? s->cool : 0.0f,
                           .timer = timed ? (float)s->timer * DT : 0.0f,
                           .request = s->request};
  return true;
}

bool td_world_soldier_get(const td_world *w, uint32_t handle, td_soldier_view *out) {
  int64_t i = soldier_slot(w, handle);
  return i >= 0 && td_world_soldier(w, (size_t)i, out);
}

size_t td_world_soldier_path(const td_world *w, uint32_t handle, float *xy, size_t cap) {
  int64_t i = soldier_slot(w, handle);
  if (i < 0) return 0;
  const soldier_rec *s = &w->soldiers[i];
  size_t n = 0;
#define PUT(px, py)                                                                            \
  do {                                                                                         \
    if (n < cap) {                                                                             \
      xy[2 * n] = (px);                                                                        \
      xy[2 * n + 1] = (py);                                                                    \
    }                                                                                          \
    n++;                                                                                       \
  } while (0)
  PUT(s->x, s->y);
  bool walking = s->state == TD_SOLDIER_MOVE || s->state == TD_SOLDIER_ENGAGE;
  if (!walking || !s->planned) return n;
  if (s->recenter && w->map->grid) {
    int32_t cx, cy;
    ground_cell(w->map->grid, s->x, s->y, &cx, &cy);
    double x, y;
    td_grid_cell_center(w->map->grid, cx, cy, &x, &y);
    PUT((float)x, (float)y);
  }
  for (size_t k = s->at; k < s->npath; k++)
    PUT((float)w->graph->x[s->path[k]], (float)w->graph->y[s->path[k]]);
  if (s->state == TD_SOLDIER_MOVE) {
    PUT(s->post_x, s->post_y);
  } else {
    int64_t e = enemy_slot(w, s->enemy);
    if (e >= 0) PUT(w->enemies[e].x, w->enemies[e].y);
  }
#undef PUT
  return n;
}

const td_pathq_stats *td_world_pathq_stats(const td_world *w) {
  return td_pathq_get_stats(w->pathq);
}

size_t td_world_pathq_pending(const td_world *w) { return td_pathq_pending(w->pathq); }
