/*
** world_save.c: the checksum, saves and loads.
**
** One field list serves all three: state_io walks every piece of state
** through an `io` that hashes it (the checksum), writes it (a save) or
** reads it back (a load), so they cannot drift apart. Values go through as
** little-endian bytes in every mode, so a checksum is the same on every
** host, and so is a save. Derived data (the route, the blocks' counts, the
** crowd groups' counts, the buffs, the grid, the free-slot hints) is not
** state: a load rebuilds it. The route is derived too: a load puts the
** towers' blocks and the rules' cost factors back on the graph, and the
** route, a function of them, is as it was.
**
** A save: "TDWS" (u32), version (u32), the rules' hash (u64), the map's
** hash (u64), then state_io's fields, then the crowd (td_crowd_save).
*/
#include "sim/world_int.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define MAGIC 0x53574454u /* "TDWS", little-endian */
#define MAX_COORD 1e7f    /* positions and velocities: ten times a map's reach */
#define PI_F 3.14159265358979f

enum { IO_HASH, IO_SAVE, IO_LOAD };

typedef struct io {
  int mode;
  uint64_t h;
  td_blob *b;
  td_blob_reader *r;
  td_err *err;
} io;

static void le(uint8_t *o, uint64_t v, int n) {
  for (int k = 0; k < n; k++) o[k] = (uint8_t)(v >> (8 * k));
}

static void io_u64(io *o, uint64_t *v) {
  uint8_t b[8];
  switch (o->mode) {
  case IO_HASH: le(b, *v, 8); o->h = td_blob_fnv(o->h, b, 8); break;
  case IO_SAVE: td_blob_u64(o->b, *v); break;
  default: *v = td_blob_get_u64(o->r); break;
  }
}

static void io_u32(io *o, uint32_t *v) {
  uint8_t b[4];
  switch (o->mode) {
  case IO_HASH: le(b, *v, 4); o->h = td_blob_fnv(o->h, b, 4); break;
  case IO_SAVE: td_blob_u32(o->b, *v); break;
  default: *v = td_blob_get_u32(o->r); break;
  }
}

static void io_u8(io *o, uint8_t *v) {
  switch (o->mode) {
  case IO_HASH: o->h = td_blob_fnv(o->h, v, 1); break;
  case IO_SAVE: td_blob_u8(o->b, *v); break;
  default: *v = td_blob_get_u8(o->r); break;
  }
}

static void io_i32(io *o, int32_t *v) {
  uint32_t u = (uint32_t)*v;
  io_u32(o, &u);
  *v = (int32_t)u;
}

static void io_f32(io *o, float *v) {
  uint32_t u;
  memcpy(&u, v, 4);
  io_u32(o, &u);
  memcpy(v, &u, 4);
}

static void io_f64(io *o, double *v) {
  uint64_t u;
  memcpy(&u, v, 8);
  io_u64(o, &u);
  memcpy(v, &u, 8);
}

static void io_bool(io *o, bool *v) {
  uint8_t u = *v ? 1 : 0;
  io_u8(o, &u);
  *v = u != 0;
}

/* A count, with room for it checked on load: each item takes at least
** min_bytes, so a corrupt count cannot make us allocate much. */
static void io_size(io *o, size_t *n) {
  uint64_t v = *n;
  io_u64(o, &v);
  *n = (size_t)v;
}

/* Sets the error of a refused load: truncation wins over a bad value (a
** truncated save reads zeros). Always -1. */
static int bad(io *o, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static int bad(io *o, const char *fmt, ...) {
  if (o->r->failed) return td_err_set(o->err, "save: truncated at byte %zu", o->r->len);
  char msg[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return td_err_set(o->err, "save: %s", msg);
}

/* Whether n items of at least min_bytes each fit in what is left (on
** load); when they do not, the save is cut short (or lies): "truncated". */
static bool room(io *o, size_t n, size_t min_bytes) {
  if (o->mode != IO_LOAD || n <= (o->r->len - o->r->pos) / min_bytes) return true;
  o->r->failed = true;
  return false;
}

static bool fin(float v) { return isfinite(v); }

/* ---- the state ----------------------------------------------------------- */

static int io_enemy(io *o, td_world *w, size_t i, enemy_rec *e) {
  const td_rules *r = w->rules;
  io_u32(o, &e->gen);
  io_u8(o, &e->state);
  if (e->state == TD_ENEMY_FREE) return 0;
  io_i32(o, &e->type);
  io_i32(o, &e->wave);
  io_i32(o, &e->group);
  io_u32(o, &e->agent);
  io_f32(o, &e->health);
  io_f32(o, &e->max_health);
  io_f32(o, &e->scale);
  io_f32(o, &e->x);
  io_f32(o, &e->y);
  io_f32(o, &e->vx);
  io_f32(o, &e->vy);
  io_i32(o, &e->from);
  io_i32(o, &e->to);
  io_f32(o, &e->route_left);
  io_f32(o, &e->slow);
  io_i32(o, &e->slow_ticks);
  io_i32(o, &e->stun_ticks);
  for (int32_t k = 0; k < r->damage_type_count; k++) {
    io_f32(o, &e->dot[k]);
    io_i32(o, &e->dot_ticks[k]);
    io_u32(o, &e->dot_tower[k]);
  }
  io_f32(o, &e->applied_scale);
  if (o->mode != IO_LOAD) return 0;
  int32_t nodes = w->graph->node_count;
  if (e->state != TD_ENEMY_WALK && e->state != TD_ENEMY_STUNNED &&
      e->state != TD_ENEMY_BLOCKED && e->state != TD_ENEMY_ATTACK)
    return bad(o, "bad enemy %zu: state %u", i, e->state);
  if (e->type < 0 || (size_t)e->type >= r->enemy_count)
    return bad(o, "bad enemy %zu: type %d", i, (int)e->type);
  if (e->wave < 0 || e->group < 0 || e->group >= (int32_t)TD_WORLD_MAX_ENEMIES)
    return bad(o, "bad enemy %zu: wave %d, group %d", i, (int)e->wave, (int)e->group);
  if (e->from < -1 || e->from >= nodes || e->to < -1 || e->to >= nodes)
    return bad(o, "bad enemy %zu: segment %d-%d", i, (int)e->from, (int)e->to);
  /* the ranges a world keeps them in between two steps (a value outside
  ** would become inf or NaN, or make the next save unloadable) */
  const struct {
    const char *name;
    float v, lo, hi;
  } f[] = {
      {"max_health", e->max_health, FLT_MIN, FLT_MAX},
      {"health", e->health, FLT_MIN, e->max_health},
      {"scale", e->scale, FLT_MIN, FLT_MAX},
      {"x", e->x, -MAX_COORD, MAX_COORD},
      {"y", e->y, -MAX_COORD, MAX_COORD},
      {"vx", e->vx, -MAX_COORD, MAX_COORD},
      {"vy", e->vy, -MAX_COORD, MAX_COORD},
      {"route_left", e->route_left, 0.0f, FLT_MAX},
      {"slow", e->slow, 0.0f, 0.9f},
      {"applied_scale", e->applied_scale, FLT_MIN, 1.0f},
  };
  for (size_t k = 0; k < sizeof f / sizeof f[0]; k++)
    if (!(f[k].v >= f[k].lo && f[k].v <= f[k].hi)) /* NaN fails too */
      return bad(o, "bad enemy %zu: %s is %g, not in [%g, %g]", i, f[k].name, (double)f[k].v,
                 (double)f[k].lo, (double)f[k].hi);
  if (e->slow_ticks < 0 || e->stun_ticks < 0)
    return bad(o, "bad enemy %zu: slow or stun ticks %d, %d", i, (int)e->slow_ticks,
               (int)e->stun_ticks);
  for (int32_t k = 0; k < r->damage_type_count; k++)
    if (!(e->dot[k] >= 0.0f && e->dot[k] <= 1e9f) || e->dot_ticks[k] < 0)
      return bad(o, "bad enemy %zu: damage over time %d: %g per second for %d ticks", i, (int)k,
                 (double)e->dot[k], (int)e->dot_ticks[k]);
  return 0;
}

static int io_tower(io *o, td_world *w, size_t b, tower_rec *t) {
  io_u32(o, &t->gen);
  io_bool(o, &t->used);
  if (!t->used) return 0;
  uint32_t mode = (uint32_t)t->mode;
  io_i32(o, &t->level);
  io_u32(o, &mode);
  io_u8(o, &t->state);
  io_u32(o, &t->target);
  io_f32(o, &t->facing);
  io_i32(o, &t->aim);
  io_f32(o, &t->cool);
  io_i32(o, &t->spent);
  t->mode = (td_target_mode)mode;
  if (o->mode != IO_LOAD) return 0;
  const td_rules *r = w->rules;
  if (t->level < 0 || (size_t)t->level >= r->level_count)
    return bad(o, "bad tower %zu: level %d", b, (int)t->level);
  if (mode >= TD_TARGET_MODE_COUNT) return bad(o, "bad tower %zu: targeting mode %u", b, mode);
  if (t->state > TD_TOWER_COOLDOWN) return bad(o, "bad tower %zu: state %u", b, t->state);
  /* facing: what atan2f gives (turning wraps it back into this range) */
  if (!(t->facing >= -PI_F && t->facing <= PI_F))
    return bad(o, "bad tower %zu: facing %g, not in [-pi, pi]", b, (double)t->facing);
  if (!fin(t->cool) || t->aim < 0 || t->spent < 0)
    return bad(o, "bad tower %zu: cooldown %g, aim %d or gold spent %d out of range", b,
               (double)t->cool, (int)t->aim, (int)t->spent);
  return 0;
}

static int io_shot(io *o, td_world *w, size_t i, shot_rec *s) {
  io_bool(o, &s->used);
  if (!s->used) return 0;
  io_u8(o, &s->kind);
  io_u32(o, &s->tower);
  io_u32(o, &s->target);
  io_i32(o, &s->level);
  io_i32(o, &s->damage_type);
  io_f32(o, &s->damage);
  io_f32(o, &s->x);
  io_f32(o, &s->y);
  io_f32(o, &s->tx);
  io_f32(o, &s->ty);
  io_f32(o, &s->dx);
  io_f32(o, &s->dy);
  io_f32(o, &s->left);
  io_i32(o, &s->pierce_left);
  io_u32(o, &s->nhit);
  for (int k = 0; k < TD_WORLD_PIERCE_MEMORY; k++) io_u32(o, &s->hit[k]);
  if (o->mode != IO_LOAD) return 0;
  const td_rules *r = w->rules;
  if (s->kind > TD_SHOT_PIERCE || s->kind == TD_SHOT_INSTANT || s->kind == TD_SHOT_CHAIN)
    return bad(o, "bad projectile %zu: kind %u", i, s->kind);
  if (s->level < 0 || (size_t)s->level >= r->level_count)
    return bad(o, "bad projectile %zu: level %d", i, (int)s->level);
  if (s->damage_type < 0 || s->damage_type >= r->damage_type_count)
    return bad(o, "bad projectile %zu: damage type %d", i, (int)s->damage_type);
  const struct {
    const char *name;
    float v, lo, hi;
  } f[] = {
      {"damage", s->damage, 0.0f, FLT_MAX},  {"x", s->x, -MAX_COORD, MAX_COORD},
      {"y", s->y, -MAX_COORD, MAX_COORD},    {"tx", s->tx, -MAX_COORD, MAX_COORD},
      {"ty", s->ty, -MAX_COORD, MAX_COORD},  {"dx", s->dx, -2.0f, 2.0f}, /* a unit vector */
      {"dy", s->dy, -2.0f, 2.0f},            {"left", s->left, -MAX_COORD, MAX_COORD},
  };
  for (size_t k = 0; k < sizeof f / sizeof f[0]; k++)
    if (!(f[k].v >= f[k].lo && f[k].v <= f[k].hi)) /* NaN fails too */
      return bad(o, "bad projectile %zu: %s is %g, not in [%g, %g]", i, f[k].name,
                 (double)f[k].v, (double)f[k].lo, (double)f[k].hi);
  return 0;
}

/* Grows *p (of *cap items of size elem) to n items on load. */
static int load_array(io *o, void **p, size_t *cap, size_t n, size_t elem, const char *what) {
  if (o->mode != IO_LOAD || n <= *cap) return 0;
  void *q = td_mem_grow(*p, cap, n, elem);
  if (!q) return td_err_set(o->err, "save: %s: out of memory", what);
  memset((char *)q, 0, *cap * elem); /* a fresh world's arrays are empty */
  *p = q;
  return 0;
}

/* The costs rules set (cost.c): the edges whose own factor is not the
** map's, then the nodes whose factor is not 1, each as (id, factor) in
** ascending id order. Hashed only when there is one, so that a game that
** never changes a cost keeps the checksums it always had. */
static int costs_io(io *o, td_world *w) {
  const td_graph *mg = w->map->graph;
  size_t ne = 0, nn = 0;
  if (o->mode != IO_LOAD) {
    for (int32_t e = 0; e < mg->edge_count; e++) ne += w->edge_cost[e] != mg->edges[e].factor;
    for (int32_t v = 0; v < mg->node_count; v++) nn += w->node_cost[v] != 1.0;
    if (o->mode == IO_HASH && ne == 0 && nn == 0) return 0;
  }
  for (int k = 0; k < 2; k++) {
    bool edges = k == 0;
    int32_t lim = edges ? mg->edge_count : mg->node_count;
    double *arr = edges ? w->edge_cost : w->node_cost;
    size_t n = edges ? ne : nn;
    io_size(o, &n);
    if (!room(o, n, 12) || n > (size_t)lim)
      return bad(o, "bad count of %s costs %zu", edges ? "edge" : "node", n);
    if (o->mode != IO_LOAD) {
      for (int32_t id = 0; id < lim; id++) {
        double dflt = edges ? mg->edges[id].factor : 1.0;
        if (arr[id] == dflt) continue;
        int32_t i = id;
        io_i32(o, &i);
        io_f64(o, &arr[id]);
      }
      continue;
    }
    int32_t prev = -1;
    for (size_t i = 0; i < n; i++) {
      int32_t id = 0;
      double f = 0.0;
      io_i32(o, &id);
      io_f64(o, &f);
      if (o->r->failed) return bad(o, "(truncated)");
      if (id <= prev || id >= lim)
        return bad(o, "bad %s cost %zu: %s %d (ascending, below %d)", edges ? "edge" : "node", i,
                   edges ? "edge" : "node", (int)id, (int)lim);
      if (!(f > 0.0 && f <= TD_WORLD_MAX_COST))
        return bad(o, "bad %s cost %zu: factor %g, not in (0, %g]", edges ? "edge" : "node", i,
                   f, TD_WORLD_MAX_COST);
      arr[id] = f;
      prev = id;
    }
  }
  return 0;
}

/* Soldiers and sappers (unit.h): what a world without them keeps at its
** defaults. */
static bool units_default(const td_world *w) {
  for (size_t i = 0; i < w->enemy_used; i++) {
    const enemy_rec *e = &w->enemies[i];
    if (e->state != TD_ENEMY_FREE &&
        (e->holder || e->at_hand || e->siege != -1 || e->attack_cool != 0.0f))
      return false;
  }
  for (size_t b = 0; b < w->map->base_count; b++) {
    const tower_rec *t = &w->towers[b];
    if (t->used && (t->health != w->rules->levels[t->level].health || t->rally_x != t->x ||
                    t->rally_y != t->y))
      return false;
  }
  return w->soldier_used == 0 && td_pathq_pending(w->pathq) == 0;
}

/* A soldier: what a step reads from the last one (world_int.h's
** soldier_rec; its path only as far as it goes). */
static int io_soldier(io *o, td_world *w, size_t i, soldier_rec *s) {
  const td_rules *r = w->rules;
  io_u32(o, &s->gen);
  io_u8(o, &s->state);
  if (s->state == TD_SOLDIER_FREE) return 0;
  io_u8(o, &s->index);
  io_u8(o, &s->planned);
  io_u8(o, &s->partial);
  io_u8(o, &s->recenter);
  io_i32(o, &s->type);
  io_i32(o, &s->base);
  io_u32(o, &s->enemy);
  io_u32(o, &s->shun);
  io_u32(o, &s->request);
  io_i32(o, &s->timer);
  io_i32(o, &s->stall);
  io_f32(o, &s->x);
  io_f32(o, &s->y);
  io_f32(o, &s->vx);
  io_f32(o, &s->vy);
  io_f32(o, &s->facing);
  io_f32(o, &s->health);
  io_f32(o, &s->cool);
  io_f32(o, &s->post_x);
  io_f32(o, &s->post_y);
  io_f32(o, &s->best);
  uint16_t np = s->npath, at = s->at;
  uint32_t np32 = np, at32 = at;
  io_u32(o, &np32);
  io_u32(o, &at32);
  if (o->mode == IO_LOAD && (np32 > SOLDIER_PATH_MAX || at32 > np32))
    return bad(o, "bad soldier %zu: path of %u corners, at %u", i, np32, at32);
  s->npath = (uint16_t)np32;
  s->at = (uint16_t)at32;
  for (size_t k = s->at; k < s->npath; k++) io_i32(o, &s->path[k]);
  if (o->mode != IO_LOAD) return 0;
  if (s->state >= TD_SOLDIER_STATE_COUNT) return bad(o, "bad soldier %zu: state %u", i, s->state);
  if (s->type < 0 || (size_t)s->type >= r->soldier_type_count)
    return bad(o, "bad soldier %zu: type %d", i, (int)s->type);
  if (s->base < 0 || (size_t)s->base >= w->map->base_count || !w->towers[s->base].used)
    return bad(o, "bad soldier %zu: base %d has no tower", i, (int)s->base);
  const td_tower_level *l = &r->levels[w->towers[s->base].level];
  if (s->index >= l->soldiers || l->soldier != s->type)
    return bad(o, "bad soldier %zu: soldier %u of type %d, but its barracks keeps %d of type %d",
               i, s->index, (int)s->type, (int)l->soldiers, (int)l->soldier);
  for (size_t j = 0; j < i; j++)
    if (w->soldiers[j].state != TD_SOLDIER_FREE && w->soldiers[j].base == s->base &&
        w->soldiers[j].index == s->index)
      return bad(o, "bad soldier %zu: post %u of base %d taken by soldier %zu", i, s->index,
                 (int)s->base, j);
  if (s->planned > 1 || s->partial > 1 || s->recenter > 1 || (!w->map->grid && s->recenter))
    return bad(o, "bad soldier %zu: flags %u %u %u", i, s->planned, s->partial, s->recenter);
  for (size_t k = s->at; k < s->npath; k++)
    if (s->path[k] < 0 || s->path[k] >= w->graph->node_count)
      return bad(o, "bad soldier %zu: corner %zu is node %d", i, k, (int)s->path[k]);
  bool fights = s->state == TD_SOLDIER_ENGAGE || s->state == TD_SOLDIER_ATTACK;
  bool away = s->state == TD_SOLDIER_DIE || s->state == TD_SOLDIER_RESPAWN;
  if (fights != (s->enemy != 0) || (away && s->request))
    return bad(o, "bad soldier %zu: %s with enemy %u, request %u", i,
               td_unit_state_name(TD_UNIT_SOLDIER, s->state), s->enemy, s->request);
  float max = r->soldier_types[s->type].health;
  const struct {
    const char *name;
    float v, lo, hi;
  } f[] = {
      {"x", s->x, -MAX_COORD, MAX_COORD},
      {"y", s->y, -MAX_COORD, MAX_COORD},
      {"vx", s->vx, -MAX_COORD, MAX_COORD},
      {"vy", s->vy, -MAX_COORD, MAX_COORD},
      {"facing", s->facing, -4.0f, 4.0f},
      {"health", s->health, away ? 0.0f : FLT_MIN, max},
      {"cooldown", s->cool, -1.0f, 1e4f},
      {"post x", s->post_x, -MAX_COORD, MAX_COORD},
      {"post y", s->post_y, -MAX_COORD, MAX_COORD},
      {"best", s->best, 0.0f, FLT_MAX},
  };
  for (size_t k = 0; k < sizeof f / sizeof f[0]; k++)
    if (!(f[k].v >= f[k].lo && f[k].v <= f[k].hi))
      return bad(o, "bad soldier %zu: %s is %g, not in [%g, %g]", i, f[k].name, (double)f[k].v,
                 (double)f[k].lo, (double)f[k].hi);
  if (s->timer < 0 || s->timer > 10000000 || s->stall < 0 || s->stall > 10000000)
    return bad(o, "bad soldier %zu: timer %d, stall %d", i, (int)s->timer, (int)s->stall);
  return 0;
}

/* After a load: who holds whom, and whose requests the queue holds (see
** world_int.h's invariants). */
static int units_check(io *o, td_world *w) {
  for (size_t i = 0; i < w->soldier_used; i++) {
    const soldier_rec *s = &w->soldiers[i];
    if (s->state == TD_SOLDIER_FREE || !s->enemy) continue;
    int64_t e = enemy_slot(w, s->enemy);
    if (e < 0 || w->enemies[e].holder != make_handle(s->gen, i) ||
        (w->enemies[e].at_hand != 0) != (s->state == TD_SOLDIER_ATTACK))
      return bad(o, "bad soldier %zu: its enemy %u does not stand held by it", i, s->enemy);
    if (w->rules->enemies[w->enemies[e].type].flying)
      return bad(o, "bad soldier %zu: it holds a flyer", i);
  }
  for (size_t i = 0; i < w->enemy_used; i++) {
    const enemy_rec *e = &w->enemies[i];
    if (e->state == TD_ENEMY_FREE || !e->holder) continue;
    int64_t s = soldier_slot(w, e->holder);
    if (s < 0 || w->soldiers[s].enemy != make_handle(e->gen, i))
      return bad(o, "bad enemy %zu: held by %u, which does not hold it", i, e->holder);
  }
  size_t n = td_pathq_pending(w->pathq), mine = 0;
  uint32_t *ids = n ? td_mem_alloc(n * sizeof *ids) : NULL;
  if (n && !ids) return td_err_set(o->err, "save: out of memory");
  td_pathq_ids(w->pathq, ids, n);
  int rc = 0;
  for (size_t i = 0; i < w->soldier_used && rc == 0; i++) {
    const soldier_rec *s = &w->soldiers[i];
    if (s->state == TD_SOLDIER_FREE || !s->request) continue;
    mine++;
    bool found = false;
    for (size_t k = 0; k < n && !found; k++) found = ids[k] == s->request;
    for (size_t j = 0; j < i && found; j++)
      found = w->soldiers[j].state == TD_SOLDIER_FREE || w->soldiers[j].request != s->request;
    if (!found) rc = bad(o, "bad soldier %zu: request %u is not pending (or not its own)", i,
                         s->request);
  }
  td_mem_free(ids, n * sizeof *ids);
  if (rc == 0 && mine != n)
    rc = bad(o, "bad path queue: %zu requests pending, %zu of them soldiers'", n, mine);
  return rc;
}

/* The units section: every enemy's fight, every tower's health and rally
** point, then the soldiers (soldier.c) and their path queue (pathq.h's
** save; its checksum when hashing). Hashed only when something is not at
** its default (units_default), so that a game without soldiers and
** sappers keeps the checksums it always had. */
static int units_io(io *o, td_world *w) {
  if (o->mode == IO_HASH && units_default(w)) return 0;
  for (size_t i = 0; i < w->enemy_used; i++) {
    enemy_rec *e = &w->enemies[i];
    if (e->state == TD_ENEMY_FREE) continue;
    io_u32(o, &e->holder);
    io_u8(o, &e->at_hand);
    io_i32(o, &e->siege);
    io_f32(o, &e->attack_cool);
    if (o->mode != IO_LOAD) continue;
    if (e->siege < -1 || e->siege >= (int32_t)w->map->base_count || e->at_hand > 1 ||
        (e->at_hand && !e->holder) || !(e->attack_cool >= -1.0f && e->attack_cool <= FLT_MAX))
      return bad(o, "bad enemy %zu: holder %u, at hand %u, siege %d, attack cooldown %g", i,
                 e->holder, e->at_hand, (int)e->siege, (double)e->attack_cool);
  }
  for (size_t b = 0; b < w->map->base_count; b++) {
    tower_rec *t = &w->towers[b];
    if (!t->used) continue;
    io_f32(o, &t->health);
    io_f32(o, &t->rally_x);
    io_f32(o, &t->rally_y);
    if (o->mode != IO_LOAD) continue;
    float max = w->rules->levels[t->level].health;
    if (!(t->health >= 0.0f && t->health <= max) || (max > 0.0f && !(t->health > 0.0f)) ||
        !(fabsf(t->rally_x) <= MAX_COORD && fabsf(t->rally_y) <= MAX_COORD))
      return bad(o, "bad tower %zu: health %g of %g, rally point (%g, %g)", b,
                 (double)t->health, (double)max, (double)t->rally_x, (double)t->rally_y);
  }
  size_t n = w->soldier_used;
  io_size(o, &n);
  if (!room(o, n, 5) || n > (size_t)TD_RULES_MAX_SOLDIERS * w->map->base_count)
    return bad(o, "bad soldier count %zu", n);
  if (load_array(o, (void **)&w->soldiers, &w->soldier_cap, n, sizeof *w->soldiers, "soldiers"))
    return -1;
  w->soldier_used = n;
  for (size_t i = 0; i < n; i++)
    if (io_soldier(o, w, i, &w->soldiers[i]) != 0) return -1;
  switch (o->mode) {
  case IO_HASH: o->h = td_pathq_checksum(w->pathq, o->h); break;
  case IO_SAVE: td_pathq_save(w->pathq, o->b); break;
  default: {
    td_err perr;
    if (td_pathq_load(w->pathq, o->r, soldiers_path_done, w, &perr) != 0)
      return o->r->failed ? bad(o, "(truncated)") : bad(o, "bad %s", perr.msg);
    return units_check(o, w);
  }
  }
  return 0;
}

static int state_io(io *o, td_world *w) {
  const td_rules *r = w->rules;
  const td_map *m = w->map;
  io_u64(o, &w->tick);
  io_u64(o, &w->clock);
  io_u64(o, &w->next_wave_at);
  io_i32(o, &w->wave);
  io_i32(o, &w->gold);
  io_i32(o, &w->lives);
  io_u8(o, &w->game);
  io_bool(o, &w->paused);
  io_bool(o, &w->endless);
  io_u64(o, &w->rng.state);
  io_u64(o, &w->rng.inc);
  if (w->rules->first_wave_waits) io_bool(o, &w->armed); /* (else always true: not hashed) */
  if (o->mode == IO_LOAD) {
    if (w->game > TD_GAME_LOST) return bad(o, "bad game state %u", w->game);
    if (w->wave < 0 || w->gold < 0 || w->lives < 0 || !(w->rng.inc & 1))
      return bad(o, "bad wave, gold, lives or RNG");
  }

  size_t n = w->enemy_used;
  io_size(o, &n);
  if (!room(o, n, 5) || n > TD_WORLD_MAX_ENEMIES) return bad(o, "bad enemy count %zu", n);
  if (load_array(o, (void **)&w->enemies, &w->enemy_cap, n, sizeof *w->enemies, "enemies"))
    return -1;
  w->enemy_used = n;
  for (size_t i = 0; i < n; i++)
    if (io_enemy(o, w, i, &w->enemies[i]) != 0) return -1;

  for (size_t b = 0; b < m->base_count; b++)
    if (io_tower(o, w, b, &w->towers[b]) != 0) return -1;

  n = w->shot_used;
  io_size(o, &n);
  if (!room(o, n, 1)) return bad(o, "bad projectile count %zu", n);
  if (load_array(o, (void **)&w->shots, &w->shot_cap, n, sizeof *w->shots, "projectiles"))
    return -1;
  w->shot_used = n;
  for (size_t i = 0; i < n; i++)
    if (io_shot(o, w, i, &w->shots[i]) != 0) return -1;

  n = w->pend_len;
  io_size(o, &n);
  if (!room(o, n, 28)) return bad(o, "bad spawn batch count %zu", n);
  if (load_array(o, (void **)&w->pend, &w->pend_cap, n, sizeof *w->pend, "spawn batches"))
    return -1;
  w->pend_len = n;
  for (size_t i = 0; i < n; i++) {
    pending *p = &w->pend[i];
    io_u64(o, &p->at);
    io_i32(o, &p->wave);
    io_i32(o, &p->group);
    io_i32(o, &p->spawn);
    io_i32(o, &p->count);
    io_f32(o, &p->health);
    if (o->mode == IO_LOAD &&
        (p->group < 0 || (size_t)p->group >= r->group_count || p->spawn < 0 ||
         (size_t)p->spawn >= m->spawn_count || p->count < 0 || !(p->health > 0) ||
         !fin(p->health) || p->wave < 1))
      return bad(o, "bad spawn batch %zu", i);
    /* no wave makes more of a group than its max_count (a crafted batch of
    ** 600,000 made every tick after it take seconds) */
    if (o->mode == IO_LOAD && p->count > r->groups[p->group].max_count)
      return bad(o, "bad spawn batch %zu: %d enemies, the group's max_count is %d", i,
                 (int)p->count, (int)r->groups[p->group].max_count);
  }

  n = w->wave_len;
  io_size(o, &n);
  if (!room(o, n, 12)) return bad(o, "bad wave count %zu", n);
  if (load_array(o, (void **)&w->waves, &w->wave_cap, n, sizeof *w->waves, "waves")) return -1;
  w->wave_len = n;
  for (size_t i = 0; i < n; i++) {
    io_i32(o, &w->waves[i].wave);
    io_i32(o, &w->waves[i].pending);
    io_i32(o, &w->waves[i].alive);
    if (o->mode == IO_LOAD && (w->waves[i].wave < 1 || w->waves[i].pending < 0))
      return bad(o, "bad wave record %zu", i);
  }

  n = w->cmd_len;
  io_size(o, &n);
  if (!room(o, n, 28)) return bad(o, "bad command count %zu", n);
  if (load_array(o, (void **)&w->cmds, &w->cmd_cap, n, sizeof *w->cmds, "commands")) return -1;
  w->cmd_len = n;
  for (size_t i = 0; i < n; i++) {
    td_command *c = &w->cmds[i];
    uint32_t kind = (uint32_t)c->kind, mode = (uint32_t)c->mode;
    io_u64(o, &c->tick);
    io_u32(o, &kind);
    io_i32(o, &c->base);
    io_i32(o, &c->tower_type);
    io_i32(o, &c->upgrade);
    io_u32(o, &mode);
    if (kind == TD_COMMAND_RALLY) { /* (only there: other games keep their checksums) */
      io_f32(o, &c->x);
      io_f32(o, &c->y);
    }
    /* any value is kept: a bad command is refused when its tick comes */
    c->kind = (td_command_kind)(kind < TD_COMMAND_KIND_COUNT ? kind : TD_COMMAND_KIND_COUNT);
    c->mode = (td_target_mode)(mode < TD_TARGET_MODE_COUNT ? mode : TD_TARGET_MODE_COUNT);
  }
  if (units_io(o, w) != 0) return -1;
  if (costs_io(o, w) != 0) return -1;
  if (o->mode == IO_LOAD && o->r->failed) return bad(o, "(truncated)");
  return 0;
}

uint64_t td_world_checksum(const td_world *w) {
  /* hashing only reads: the io functions write back the value they read */
  io o = {.mode = IO_HASH, .h = TD_BLOB_FNV_SEED};
  state_io(&o, (td_world *)w);
  uint64_t c = td_crowd_checksum(w->crowd);
  return td_blob_fnv(o.h, &c, sizeof c);
}

/* ---- what a save is bound to --------------------------------------------- */

static void hash_name(io *o, const char *s) {
  const char *end = memchr(s, 0, TD_RULES_NAME_MAX);
  size_t n = end ? (size_t)(end - s) : TD_RULES_NAME_MAX;
  o->h = td_blob_fnv(o->h, s, n);
  uint8_t z = 0;
  io_u8(o, &z);
}

uint64_t td_world_rules_hash(const td_rules *rc) {
  td_rules *r = (td_rules *)rc; /* hashing only reads */
  io o = {.mode = IO_HASH, .h = TD_BLOB_FNV_SEED};
  io_i32(&o, &r->api_version);
  io_i32(&o, &r->damage_type_count);
  for (int32_t t = 0; t < r->damage_type_count && t < TD_RULES_MAX_DAMAGE_TYPES; t++)
    hash_name(&o, r->damage_types[t]);
  for (size_t i = 0; i < r->enemy_count; i++) {
    td_enemy_type *e = &r->enemies[i];
    hash_name(&o, e->name);
    io_f32(&o, &e->health);
    io_f32(&o, &e->armour);
    for (int k = 0; k < TD_RULES_MAX_DAMAGE_TYPES; k++) io_f32(&o, &e->resist[k]);
    io_f32(&o, &e->speed);
    io_f32(&o, &e->radius);
    io_i32(&o, &e->bounty);
    io_i32(&o, &e->lives);
    io_bool(&o, &e->flying);
    io_bool(&o, &e->boss);
    io_f32(&o, &e->regen);
    io_f32(&o, &e->heal_radius);
    io_f32(&o, &e->heal_rate);
    io_i32(&o, &e->split_into);
    io_i32(&o, &e->split_count);
    io_f32(&o, &e->melee_damage);
    io_f32(&o, &e->melee_rate);
    io_f32(&o, &e->siege_damage);
    io_f32(&o, &e->siege_rate);
    io_f32(&o, &e->siege_range);
  }
  for (size_t i = 0; i < r->soldier_type_count; i++) {
    td_soldier_type *s = &r->soldier_types[i];
    hash_name(&o, s->name);
    io_f32(&o, &s->health);
    io_f32(&o, &s->armour);
    io_f32(&o, &s->damage);
    io_i32(&o, &s->damage_type);
    io_f32(&o, &s->rate);
    io_f32(&o, &s->speed);
    io_f32(&o, &s->radius);
    io_f32(&o, &s->respawn);
    io_f32(&o, &s->sight);
    io_f32(&o, &s->regen);
  }
  for (size_t i = 0; i < r->tower_count; i++) {
    td_tower_type *t = &r->towers[i];
    uint32_t mode = (uint32_t)t->default_target;
    hash_name(&o, t->name);
    io_i32(&o, &t->root);
    io_u32(&o, &mode);
    io_bool(&o, &t->script_target);
  }
  for (size_t i = 0; i < r->level_count; i++) {
    td_tower_level *l = &r->levels[i];
    uint32_t shot = (uint32_t)l->shot, fx = (uint32_t)l->effect.kind;
    hash_name(&o, l->name);
    io_i32(&o, &l->tower);
    io_i32(&o, &l->parent);
    io_i32(&o, &l->cost);
    io_f32(&o, &l->range);
    io_f32(&o, &l->rate);
    io_f32(&o, &l->damage);
    io_i32(&o, &l->damage_type);
    io_u32(&o, &shot);
    io_f32(&o, &l->shot_speed);
    io_f32(&o, &l->splash);
    io_i32(&o, &l->chain);
    io_f32(&o, &l->chain_range);
    io_f32(&o, &l->chain_falloff);
    io_i32(&o, &l->pierce);
    io_u32(&o, &fx);
    io_f32(&o, &l->effect.magnitude);
    io_f32(&o, &l->effect.duration);
    io_bool(&o, &l->hits_ground);
    io_bool(&o, &l->hits_air);
    io_f32(&o, &l->aim_time);
    io_f32(&o, &l->turn_rate);
    io_f32(&o, &l->buff_damage);
    io_f32(&o, &l->buff_rate);
    io_f32(&o, &l->health);
    io_i32(&o, &l->soldier);
    io_i32(&o, &l->soldiers);
    for (int k = 0; k < TD_RULES_MAX_CHILDREN; k++) io_i32(&o, &l->children[k]);
  }
  for (size_t i = 0; i < r->group_count; i++) {
    td_spawn_group *g = &r->groups[i];
    io_i32(&o, &g->enemy);
    io_i32(&o, &g->begin);
    io_i32(&o, &g->end);
    io_i32(&o, &g->every);
    io_i32(&o, &g->count);
    io_f32(&o, &g->count_growth);
    io_i32(&o, &g->max_count);
    io_f32(&o, &g->health_growth);
    io_i32(&o, &g->spawn);
    io_f32(&o, &g->delay);
    io_i32(&o, &g->per_row);
    io_f32(&o, &g->width);
    io_f32(&o, &g->spacing);
  }
  io_i32(&o, &r->wave_count);
  io_f32(&o, &r->first_wave_delay);
  io_f32(&o, &r->wave_interval);
  io_i32(&o, &r->start_gold);
  io_i32(&o, &r->start_lives);
  io_i32(&o, &r->wave_income);
  io_f32(&o, &r->sell_refund);
  io_f32(&o, &r->early_bonus);
  io_f32(&o, &r->endless_health_growth);
  io_f32(&o, &r->repair_cost);
  io_bool(&o, &r->first_wave_waits);
  return o.h;
}

/* The map as the world uses it: the graph, the points and the bases. */
static uint64_t map_hash(const td_map *m) {
  io o = {.mode = IO_HASH, .h = TD_BLOB_FNV_SEED};
  const td_graph *g = m->graph;
  int32_t v[2] = {g->node_count, g->edge_count};
  io_i32(&o, &v[0]);
  io_i32(&o, &v[1]);
  for (int32_t i = 0; i < g->node_count; i++) {
    uint64_t x, y;
    memcpy(&x, &g->x[i], 8);
    memcpy(&y, &g->y[i], 8);
    io_u64(&o, &x);
    io_u64(&o, &y);
  }
  for (int32_t e = 0; e < g->edge_count; e++) {
    int32_t a = g->edges[e].a, b = g->edges[e].b;
    uint64_t w = g->edges[e].w;
    io_i32(&o, &a);
    io_i32(&o, &b);
    io_u64(&o, &w);
  }
  int32_t tw = m->tile_w;
  io_i32(&o, &tw);
  for (size_t i = 0; i < m->spawn_count; i++) {
    int32_t n = m->spawns[i].node;
    io_i32(&o, &n);
  }
  for (size_t i = 0; i < m->goal_count; i++) {
    int32_t n = m->goals[i].node;
    io_i32(&o, &n);
  }
  for (size_t i = 0; i < m->base_count; i++) {
    const td_tower_base *b = &m->bases[i];
    double r4[4] = {b->x, b->y, b->w, b->h};
    for (int k = 0; k < 4; k++) {
      uint64_t u;
      memcpy(&u, &r4[k], 8);
      io_u64(&o, &u);
    }
    for (size_t k = 0; k < b->block_count; k++) {
      uint32_t kind = (uint32_t)b->block[k].kind;
      int32_t id = b->block[k].id;
      io_u32(&o, &kind);
      io_i32(&o, &id);
    }
  }
  return o.h;
}

/* ---- save and load ------------------------------------------------------- */

void td_world_save(const td_world *w, td_blob *b) {
  if (w->broken || w->in_step) { /* no consistent state to write */
    b->failed = true;
    return;
  }
  td_blob_u32(b, MAGIC);
  td_blob_u32(b, TD_WORLD_SAVE_VERSION);
  td_blob_u64(b, td_world_rules_hash(w->rules));
  td_blob_u64(b, map_hash(w->map));
  io o = {.mode = IO_SAVE, .b = b};
  state_io(&o, (td_world *)w); /* saving only reads */
  td_crowd_save(w->crowd, b);
}

/* What a load rebuilds: counts, hints, group references, buffs, blocks. */
static int rebuild(td_world *w, td_err *err) {
  w->enemy_live = w->enemy_alive = 0;
  w->enemy_low = 0;
  for (size_t i = 0; i < w->enemy_used; i++) {
    const enemy_rec *e = &w->enemies[i];
    if (e->state == TD_ENEMY_FREE) continue;
    w->enemy_live++;
    w->enemy_alive++;
    if ((size_t)e->group >= w->group_cap) {
      size_t old = w->group_cap;
      int32_t *p = td_mem_grow(w->group_refs, &w->group_cap, (size_t)e->group + 1, sizeof *p);
      if (!p) return td_err_set(err, "save: out of memory");
      memset(p + old, 0, (w->group_cap - old) * sizeof *p);
      w->group_refs = p;
    }
    w->group_refs[e->group]++;
  }
  w->shot_low = 0;
  soldiers_rebuild(w);
  w->tower_live = 0;
  for (size_t b = 0; b < w->map->base_count; b++) w->tower_live += w->towers[b].used;
  towers_buffs(w);
  /* the bases' batches were checked at creation: only memory can fail */
  if (tower_reapply_blocks(w, NULL) != 0)
    return td_err_set(err, "save: re-applying the towers' blocks: out of memory");
  /* the factors were checked as they were read: as above, or weights too
  ** long in all (a map near the bound, a save made elsewhere) */
  td_err cerr;
  if (costs_reapply(w, &cerr) != 0)
    return td_err_set(err, "save: re-applying the cost factors: %s", cerr.msg);
  /* a grid's clearance follows the cells the towers closed again, before
  ** the crowd fits its walkers' lanes to it (as the saved world's was) */
  if (w->walk) td_walk_sync(w->walk);
  return 0;
}

td_world *td_world_load(const td_map *map, const td_rules *rules, td_blob_reader *r,
                        td_err *err) {
  uint32_t magic = td_blob_get_u32(r);
  if (!r->failed && magic != MAGIC) {
    td_err_set(err, "save: not a td world save");
    return NULL;
  }
  uint32_t version = td_blob_get_u32(r);
  uint64_t rh = td_blob_get_u64(r), mh = td_blob_get_u64(r);
  if (r->failed) {
    td_err_set(err, "save: truncated at byte %zu", r->len);
    return NULL;
  }
  if (version != TD_WORLD_SAVE_VERSION) {
    td_err_set(err, "save: format version %u, this td reads version %d", version,
               TD_WORLD_SAVE_VERSION);
    return NULL;
  }
  if (rh != td_world_rules_hash(rules)) {
    td_err_set(err, "save: made with other rules (rules hash %016llx, these are %016llx)",
               (unsigned long long)rh, (unsigned long long)td_world_rules_hash(rules));
    return NULL;
  }
  if (mh != map_hash(map)) {
    td_err_set(err, "save: made on another map");
    return NULL;
  }
  td_world *w = td_world_create(map, rules, 0, err);
  if (!w) return NULL;
  io o = {.mode = IO_LOAD, .r = r, .err = err};
  if (state_io(&o, w) != 0 || rebuild(w, err) != 0) goto fail;
  if (r->len - r->pos < 8) { /* the crowd's magic and version */
    td_err_set(err, "save: truncated at byte %zu", r->len);
    goto fail;
  }
  if (td_crowd_load(w->crowd, r, err) != 0) {
    if (err && strncmp(err->msg, "save:", 5) != 0) {
      char m[sizeof err->msg];
      snprintf(m, sizeof m, "%s", err->msg);
      td_err_set(err, "save: %s", m);
    }
    goto fail;
  }
  for (size_t i = 0; i < w->enemy_used; i++) {
    enemy_rec *e = &w->enemies[i];
    if (e->state == TD_ENEMY_FREE) continue;
    int64_t slot = td_crowd_slot(w->crowd, e->agent);
    td_agent_view v;
    if (!td_crowd_alive(w->crowd, e->agent) || slot < 0 ||
        !td_crowd_view(w->crowd, (size_t)slot, &v)) {
      td_err_set(err, "save: bad enemy %zu: its agent is not in the crowd", i);
      goto fail;
    }
    /* the world copies its enemies' motion from the crowd every step, and
    ** gives each agent its type's radius: a save where they differ was
    ** not written by a world */
    if (v.x != e->x || v.y != e->y || v.vx != e->vx || v.vy != e->vy ||
        v.radius != rules->enemies[e->type].radius * w->tile) {
      td_err_set(err, "save: bad enemy %zu: its agent in the crowd is elsewhere, moves "
                 "otherwise or has another size", i);
      goto fail;
    }
    e->waiting = v.state == TD_AGENT_WAITING; /* derived, as every step does */
  }
  if (r->pos != r->len) {
    td_err_set(err, "save: %zu bytes of unknown data after the end", r->len - r->pos);
    goto fail;
  }
  return w;
fail:
  td_world_destroy(w);
  return NULL;
}
