/*
** shot.c: a tower fires; instant and chain hits, projectiles in flight
** (homing, ballistic, pierce), splash.
**
** Projectiles live in a pool; a new one takes the lowest free slot and a
** finished one frees its slot at once (nothing holds a reference to a
** projectile). Every hit goes through enemy_hit, which may kill; a kill
** may split, which adds enemies (and may move the enemy pool), so no
** enemy pointer is kept across a hit.
*/
#include "sim/world_int.h"

#include <math.h>
#include <string.h>

int64_t shot_take(td_world *w) {
  for (size_t i = w->shot_low; i < w->shot_used; i++)
    if (!w->shots[i].used) {
      w->shot_low = i + 1;
      return (int64_t)i;
    }
  if (w->shot_used == w->shot_cap) {
    size_t old = w->shot_cap;
    shot_rec *p = td_mem_grow(w->shots, &w->shot_cap, old + 1, sizeof *p);
    if (!p) return -1;
    memset(p + old, 0, (w->shot_cap - old) * sizeof *p);
    w->shots = p;
  }
  w->shot_low = w->shot_used + 1;
  return (int64_t)w->shot_used++;
}

static void shot_free(td_world *w, size_t i) {
  memset(&w->shots[i], 0, sizeof w->shots[i]);
  if (i < w->shot_low) w->shot_low = i;
}

/* ---- splash -------------------------------------------------------------- */

typedef struct splash_ctx {
  const td_tower_level *l;
  float x, y, r2, damage;
  uint32_t tower;
} splash_ctx;

static void splash_one(void *ctx, td_world *w, size_t i) {
  splash_ctx *s = ctx;
  const enemy_rec *e = &w->enemies[i];
  if (!can_hit(s->l, &w->rules->enemies[e->type])) return;
  float dx = e->x - s->x, dy = e->y - s->y;
  if (dx * dx + dy * dy > s->r2) return;
  enemy_hit(w, i, s->damage, s->l->damage_type, s->tower, s->l);
}

/* Every enemy the level can hit within its splash of (x, y). */
static void splash(td_world *w, const td_tower_level *l, uint32_t tower, float damage, float x,
                   float y) {
  float r = l->splash * w->tile;
  splash_ctx s = {.l = l, .x = x, .y = y, .r2 = r * r, .damage = damage, .tower = tower};
  grid_query(w, x, y, r, splash_one, &s);
}

/* ---- nearest ------------------------------------------------------------- */

typedef struct near_ctx {
  const td_tower_level *l;
  float x, y, r2;
  bool body;              /* within the enemy's own radius instead of r2 */
  const uint32_t *skip;   /* slots not to take */
  size_t nskip;
  int64_t best;
  float best_d2;
} near_ctx;

static void near_one(void *ctx, td_world *w, size_t i) {
  near_ctx *n = ctx;
  const enemy_rec *e = &w->enemies[i];
  const td_enemy_type *t = &w->rules->enemies[e->type];
  if (!can_hit(n->l, t)) return;
  for (size_t k = 0; k < n->nskip; k++)
    if (n->skip[k] == i) return;
  float dx = e->x - n->x, dy = e->y - n->y, d2 = dx * dx + dy * dy;
  float lim = n->body ? (t->radius * w->tile) * (t->radius * w->tile) : n->r2;
  if (d2 > lim) return;
  if (n->best < 0 || d2 < n->best_d2 || (d2 == n->best_d2 && (int64_t)i < n->best)) {
    n->best = (int64_t)i;
    n->best_d2 = d2;
  }
}

/* ---- firing -------------------------------------------------------------- */

static void chain(td_world *w, const td_tower_level *l, uint32_t tower, float damage, size_t first) {
  uint32_t hit[65];
  size_t n = 0;
  size_t cur = first;
  float r = l->chain_range * w->tile;
  for (int32_t k = 0;; k++) {
    float x = w->enemies[cur].x, y = w->enemies[cur].y; /* stays valid when it dies */
    hit[n++] = (uint32_t)cur;
    enemy_hit(w, cur, damage, l->damage_type, tower, l);
    if (k >= l->chain || n >= sizeof hit / sizeof hit[0]) break;
    near_ctx q = {.l = l, .x = x, .y = y, .r2 = r * r, .skip = hit, .nskip = n, .best = -1};
    grid_query(w, x, y, r, near_one, &q);
    if (q.best < 0) break;
    cur = (size_t)q.best;
    damage *= l->chain_falloff;
  }
}

void tower_fire(td_world *w, size_t b, size_t target) {
  const tower_rec *t = &w->towers[b];
  const td_tower_level *l = &w->rules->levels[t->level];
  uint32_t th = tower_handle(w, b);
  float damage = l->damage * (1.0f + t->buff_damage);
  const enemy_rec *e = &w->enemies[target];
  float ex = e->x, ey = e->y;
  td_event ev = world_event(w, TD_EVENT_FIRED);
  ev.tower = th;
  ev.enemy = enemy_handle(w, target);
  ev.type = t->level;
  ev.base = (int32_t)b;
  ev.x = t->x;
  ev.y = t->y;
  world_emit(w, &ev);
  switch (l->shot) {
  case TD_SHOT_INSTANT:
    if (l->splash > 0.0f) splash(w, l, th, damage, ex, ey);
    else enemy_hit(w, target, damage, l->damage_type, th, l);
    return;
  case TD_SHOT_CHAIN: chain(w, l, th, damage, target); return;
  case TD_SHOT_HOMING:
  case TD_SHOT_BALLISTIC:
  case TD_SHOT_PIERCE: break;
  }
  int64_t i = shot_take(w);
  if (i < 0) {
    world_fail(w, "projectiles");
    return;
  }
  shot_rec *s = &w->shots[i];
  s->used = true;
  s->kind = (uint8_t)l->shot;
  s->tower = th;
  s->target = ev.enemy;
  s->level = t->level;
  s->damage_type = l->damage_type;
  s->damage = damage;
  s->x = t->x;
  s->y = t->y;
  s->tx = ex;
  s->ty = ey;
  if (l->shot == TD_SHOT_PIERCE) {
    float dx = ex - t->x, dy = ey - t->y, d = sqrtf(dx * dx + dy * dy);
    s->dx = d > 0.0f ? dx / d : 1.0f;
    s->dy = d > 0.0f ? dy / d : 0.0f;
    s->left = l->range * w->tile;
    s->pierce_left = l->pierce;
  }
}

/* ---- flight -------------------------------------------------------------- */

static bool remembered(const shot_rec *s, uint32_t h) {
  uint32_t n = s->nhit < TD_WORLD_PIERCE_MEMORY ? s->nhit : TD_WORLD_PIERCE_MEMORY;
  for (uint32_t k = 0; k < n; k++)
    if (s->hit[k] == h) return true;
  return false;
}

typedef struct sweep_ctx {
  const shot_rec *s;
  const td_tower_level *l;
  float x0, y0, len;
  size_t n;
  bool oom;
} sweep_ctx;

static void sweep_one(void *ctx, td_world *w, size_t i) {
  sweep_ctx *c = ctx;
  const enemy_rec *e = &w->enemies[i];
  const td_enemy_type *t = &w->rules->enemies[e->type];
  if (!can_hit(c->l, t) || remembered(c->s, enemy_handle(w, i))) return;
  /* closest point of the path to the enemy's centre */
  float px = e->x - c->x0, py = e->y - c->y0;
  float along = px * c->s->dx + py * c->s->dy;
  along = along < 0.0f ? 0.0f : along > c->len ? c->len : along;
  float qx = px - along * c->s->dx, qy = py - along * c->s->dy;
  float rad = t->radius * w->tile;
  if (qx * qx + qy * qy > rad * rad) return;
  if (c->n == w->sweep_cap) {
    sweep_hit *p = td_mem_grow(w->sweep, &w->sweep_cap, c->n + 1, sizeof *p);
    if (!p) {
      c->oom = true;
      return;
    }
    w->sweep = p;
  }
  w->sweep[c->n++] = (sweep_hit){along, (uint32_t)i};
}

/* Pierce: this tick's stretch of path; the enemies it crosses, in order
** along it (then by slot), up to what it has left. */
static bool fly_pierce(td_world *w, size_t i) {
  shot_rec *s = &w->shots[i];
  const td_tower_level *l = &w->rules->levels[s->level];
  float step = l->shot_speed * w->tile * DT;
  if (step > s->left) step = s->left;
  sweep_ctx c = {.s = s, .l = l, .x0 = s->x, .y0 = s->y, .len = step};
  float mx = s->x + s->dx * step * 0.5f, my = s->y + s->dy * step * 0.5f;
  grid_query(w, mx, my, step * 0.5f + w->max_radius, sweep_one, &c);
  if (c.oom) {
    world_fail(w, "pierce hits");
    return true;
  }
  for (size_t a = 1; a < c.n; a++) { /* insertion sort: a handful */
    sweep_hit h = w->sweep[a];
    size_t b = a;
    while (b > 0 && (w->sweep[b - 1].t > h.t ||
                     (w->sweep[b - 1].t == h.t && w->sweep[b - 1].slot > h.slot))) {
      w->sweep[b] = w->sweep[b - 1];
      b--;
    }
    w->sweep[b] = h;
  }
  for (size_t k = 0; k < c.n && s->pierce_left > 0; k++) {
    uint32_t slot = w->sweep[k].slot;
    s->hit[s->nhit % TD_WORLD_PIERCE_MEMORY] = enemy_handle(w, slot);
    s->nhit++;
    s->pierce_left--;
    uint32_t tower = s->tower;
    float damage = s->damage;
    enemy_hit(w, slot, damage, l->damage_type, tower, l);
    s = &w->shots[i];
  }
  s->x += s->dx * step;
  s->y += s->dy * step;
  s->left -= step;
  return s->left <= 0.0f || s->pierce_left <= 0;
}

/* Homing and ballistic: towards (tx, ty); true on arrival (after the hit). */
static bool fly_to(td_world *w, size_t i) {
  shot_rec *s = &w->shots[i];
  const td_tower_level *l = &w->rules->levels[s->level];
  int64_t ti = enemy_slot(w, s->target);
  if (s->kind == TD_SHOT_HOMING && ti >= 0) {
    s->tx = w->enemies[ti].x;
    s->ty = w->enemies[ti].y;
  }
  float dx = s->tx - s->x, dy = s->ty - s->y, d = sqrtf(dx * dx + dy * dy);
  float step = l->shot_speed * w->tile * DT;
  if (d > step) {
    s->x += dx / d * step;
    s->y += dy / d * step;
    return false;
  }
  s->x = s->tx;
  s->y = s->ty;
  shot_rec h = *s; /* hits may add enemies, never shots; a copy keeps it simple */
  if (l->splash > 0.0f) {
    splash(w, l, h.tower, h.damage, h.tx, h.ty);
  } else if (h.kind == TD_SHOT_HOMING) {
    if (ti >= 0) enemy_hit(w, (size_t)ti, h.damage, l->damage_type, h.tower, l);
  } else {
    near_ctx q = {.l = l, .x = h.tx, .y = h.ty, .body = true, .best = -1};
    grid_query(w, h.tx, h.ty, w->max_radius, near_one, &q);
    if (q.best >= 0)
      enemy_hit(w, (size_t)q.best, h.damage, l->damage_type, h.tower, l);
  }
  return true;
}

void shots_update(td_world *w) {
  for (size_t i = 0; i < w->shot_used && !w->broken; i++) {
    if (!w->shots[i].used) continue;
    bool done = w->shots[i].kind == TD_SHOT_PIERCE ? fly_pierce(w, i) : fly_to(w, i);
    if (done) shot_free(w, i);
  }
}
