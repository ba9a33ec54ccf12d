/*
** tower.c: placing, upgrading and selling towers (with the route and the
** flyers' obstacles), support buffs, targeting and the tower state machine.
*/
#include "sim/world_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PI_F 3.14159265358979f

uint32_t tower_handle(const td_world *w, size_t base) {
  return make_handle(w->towers[base].gen, base);
}

int64_t tower_slot(const td_world *w, uint32_t handle) {
  uint32_t s1 = handle & HANDLE_MASK;
  if (s1 == 0 || s1 > w->map->base_count) return -1;
  const tower_rec *t = &w->towers[s1 - 1];
  if (!t->used || make_handle(t->gen, s1 - 1) != handle) return -1;
  return (int64_t)s1 - 1;
}

void towers_positions(td_world *w) {
  for (size_t b = 0; b < w->map->base_count; b++) {
    const td_tower_base *tb = &w->map->bases[b];
    w->towers[b].x = (float)(tb->x + tb->w / 2);
    w->towers[b].y = (float)(tb->y + tb->h / 2);
  }
}

/* The flyers avoid the rectangles of the bases that have a tower; ground
** bodies those of the towers that block the way (a tower on a pad beside
** the road, which closes nothing, leaves the road as it was). */
static size_t tower_rects(td_world *w, bool blocking_only) {
  size_t n = 0;
  for (size_t b = 0; b < w->map->base_count; b++) {
    const td_tower_base *tb = &w->map->bases[b];
    if (!w->towers[b].used || (blocking_only && tb->block_count == 0)) continue;
    w->rects[4 * n + 0] = (float)tb->x;
    w->rects[4 * n + 1] = (float)tb->y;
    w->rects[4 * n + 2] = (float)tb->w;
    w->rects[4 * n + 3] = (float)tb->h;
    n++;
  }
  return n;
}

int obstacles_update(td_world *w) {
  if (w->walk && td_walk_set_blocks(w->walk, w->rects, tower_rects(w, true), NULL) != 0) return -1;
  return td_crowd_set_obstacles(w->crowd, w->rects, tower_rects(w, false), NULL);
}

static int grow_must(td_world *w, size_t need) {
  if (need <= w->must_cap) return 0;
  int32_t *p = td_mem_grow(w->must, &w->must_cap, need, sizeof *p);
  if (!p) return -1;
  w->must = p;
  return 0;
}

/* must_reach of a placement: the spawns, then the distinct nodes walking
** enemies came from (an enemy that can still reach the node behind it is
** never stranded: it may walk back along a blocked segment). */
size_t route_must_reach(td_world *w) {
  size_t ns = w->map->spawn_count, n = ns;
  if (grow_must(w, ns + w->enemy_used) != 0) return SIZE_MAX;
  memcpy(w->must, w->spawn_nodes, ns * sizeof *w->must);
  for (size_t i = 0; i < w->enemy_used; i++) {
    const enemy_rec *e = &w->enemies[i];
    if (!enemy_active(e) || w->rules->enemies[e->type].flying || e->from < 0) continue;
    if (w->mark[e->from]) continue;
    w->mark[e->from] = 1;
    w->must[n++] = e->from;
  }
  for (size_t k = ns; k < n; k++) w->mark[w->must[k]] = 0;
  return n;
}

/* Refusal or NONE; TD_REFUSAL_COUNT when out of memory (apply: the world is
** broken; preview: nothing changed). apply=false changes nothing. */
td_refusal tower_place(td_world *w, int32_t base, int32_t type, td_place_check *info,
                       bool apply) {
  const td_rules *r = w->rules;
  if (info) {
    info->spawn = -1;
    info->node = -1;
  }
  if (w->game != TD_GAME_PLAYING) return TD_REFUSAL_GAME_OVER;
  if (base < 0 || (size_t)base >= w->map->base_count) return TD_REFUSAL_NO_BASE;
  if (w->towers[base].used) return TD_REFUSAL_OCCUPIED;
  if (type < 0 || (size_t)type >= r->tower_count) return TD_REFUSAL_NO_TOWER;
  int32_t root = r->towers[type].root;
  int32_t cost = r->levels[root].cost;
  if (w->gold < cost) return TD_REFUSAL_GOLD;
  const td_tower_base *tb = &w->map->bases[base];
  size_t m = route_must_reach(w);
  if (m == SIZE_MAX) {
    if (apply) world_fail(w, "placement");
    return TD_REFUSAL_COUNT;
  }
  td_route_verdict v;
  int rc = apply ? td_route_try_apply(w->route, tb->block, tb->block_count, w->must, m, &v, NULL)
                 : td_route_check(w->route, tb->block, tb->block_count, w->must, m, &v, NULL);
  if (rc != 0) {
    if (apply) world_fail(w, "route");
    return TD_REFUSAL_COUNT;
  }
  if (!v.ok) {
    if (info) {
      info->node = v.cut_node;
      info->spawn = v.cut_index < w->map->spawn_count ? (int32_t)v.cut_index : -1;
    }
    return TD_REFUSAL_CUTS_ROUTE;
  }
  if (!apply) return TD_REFUSAL_NONE;
  for (size_t k = 0; k < tb->block_count; k++) {
    const td_graph_change *c = &tb->block[k];
    if (c->kind == TD_CHANGE_BLOCK_EDGE) w->blocks_e[c->id]++;
    if (c->kind == TD_CHANGE_BLOCK_NODE) w->blocks_n[c->id]++;
  }
  tower_rec *t = &w->towers[base];
  t->used = true;
  t->level = root;
  t->mode = r->towers[type].default_target;
  t->state = TD_TOWER_IDLE;
  t->target = 0;
  t->facing = 0.0f;
  t->aim = 0;
  t->cool = 0.0f;
  t->spent = cost;
  t->health = r->levels[root].health;
  t->rally_x = t->x;
  t->rally_y = t->y;
  w->gold -= cost;
  w->tower_live++;
  w->buffs_dirty = true;
  /* the footprints first: the crowd's turn-backs look where they stand */
  if (obstacles_update(w) != 0) world_fail(w, "obstacles");
  td_crowd_route_changed(w->crowd);
  soldiers_route_changed(w);
  td_event e = world_event(w, TD_EVENT_PLACED);
  e.tower = tower_handle(w, (size_t)base);
  e.type = root;
  e.base = base;
  e.amount = (float)cost;
  e.x = t->x;
  e.y = t->y;
  world_emit(w, &e);
  soldiers_tower_changed(w, base);
  return TD_REFUSAL_NONE;
}

td_refusal tower_upgrade(td_world *w, int32_t base, int32_t child) {
  const td_rules *r = w->rules;
  if (base < 0 || (size_t)base >= w->map->base_count) return TD_REFUSAL_NO_BASE;
  tower_rec *t = &w->towers[base];
  if (!t->used) return TD_REFUSAL_NO_TOWER;
  if (child < 0 || child >= TD_RULES_MAX_CHILDREN || r->levels[t->level].children[child] < 0)
    return TD_REFUSAL_NO_UPGRADE;
  int32_t next = r->levels[t->level].children[child];
  int32_t cost = r->levels[next].cost;
  if (w->gold < cost) return TD_REFUSAL_GOLD;
  w->gold -= cost;
  float old_max = r->levels[t->level].health;
  t->level = next;
  tower_rescale_health(w, base, old_max); /* the share it had, of the new level's */
  t->spent += cost;
  w->buffs_dirty = true;
  td_event e = world_event(w, TD_EVENT_UPGRADED);
  e.tower = tower_handle(w, (size_t)base);
  e.type = next;
  e.base = base;
  e.amount = (float)cost;
  e.x = t->x;
  e.y = t->y;
  world_emit(w, &e);
  soldiers_tower_changed(w, base);
  return TD_REFUSAL_NONE;
}

/* The tower on base leaves (a sale or a fall): what it alone blocked (and
** the map itself does not) is unblocked through the route's incremental
** update, its handle dies, the obstacles follow, the sappers attacking it
** walk on, its soldiers go. The caller builds its event first (the handle
** dies here) and emits it after. 0, or -1 when out of memory (the world is
** then broken; what: the operation named). */
int tower_clear(td_world *w, int32_t base, const char *what) {
  tower_rec *t = &w->towers[base];
  const td_tower_base *tb = &w->map->bases[base];
  const td_graph *mg = w->map->graph;
  if (grow_batch(w, tb->block_count) != 0) {
    world_fail(w, what);
    return -1;
  }
  size_t n = 0;
  for (size_t k = 0; k < tb->block_count; k++) {
    const td_graph_change *c = &tb->block[k];
    if (c->kind == TD_CHANGE_BLOCK_EDGE && w->blocks_e[c->id] == 1 && !mg->edges[c->id].blocked)
      w->batch[n++] = (td_graph_change){.kind = TD_CHANGE_UNBLOCK_EDGE, .id = c->id};
    if (c->kind == TD_CHANGE_BLOCK_NODE && w->blocks_n[c->id] == 1 && !mg->node_blocked[c->id])
      w->batch[n++] = (td_graph_change){.kind = TD_CHANGE_UNBLOCK_NODE, .id = c->id};
  }
  if (n && td_route_apply(w->route, w->batch, n, NULL) != 0) {
    world_fail(w, "route");
    return -1;
  }
  for (size_t k = 0; k < tb->block_count; k++) {
    const td_graph_change *c = &tb->block[k];
    if (c->kind == TD_CHANGE_BLOCK_EDGE) w->blocks_e[c->id]--;
    if (c->kind == TD_CHANGE_BLOCK_NODE) w->blocks_n[c->id]--;
  }
  t->used = false;
  t->gen++;
  t->target = 0;
  w->tower_live--;
  w->buffs_dirty = true;
  sieges_tower_gone(w, base);
  if (obstacles_update(w) != 0) world_fail(w, "obstacles");
  if (n) td_crowd_route_changed(w->crowd);
  soldiers_tower_changed(w, base);
  soldiers_route_changed(w);
  return 0;
}

td_refusal tower_sell(td_world *w, int32_t base) {
  if (base < 0 || (size_t)base >= w->map->base_count) return TD_REFUSAL_NO_BASE;
  tower_rec *t = &w->towers[base];
  if (!t->used) return TD_REFUSAL_NO_TOWER;
  int32_t refund = (int32_t)floor((double)w->rules->sell_refund * t->spent);
  td_event e = world_event(w, TD_EVENT_SOLD);
  e.tower = tower_handle(w, (size_t)base);
  e.type = t->level;
  e.base = base;
  e.amount = (float)refund;
  e.x = t->x;
  e.y = t->y;
  if (tower_clear(w, base, "sell") != 0) return TD_REFUSAL_COUNT;
  td_world_give_gold(w, refund);
  world_emit(w, &e);
  return TD_REFUSAL_NONE;
}

/* After a load: the towers' blocks, counted and applied in base order. */
int tower_reapply_blocks(td_world *w, td_err *err) {
  for (size_t b = 0; b < w->map->base_count; b++) {
    if (!w->towers[b].used) continue;
    const td_tower_base *tb = &w->map->bases[b];
    if (td_route_apply(w->route, tb->block, tb->block_count, err) != 0) return -1;
    for (size_t k = 0; k < tb->block_count; k++) {
      const td_graph_change *c = &tb->block[k];
      if (c->kind == TD_CHANGE_BLOCK_EDGE) w->blocks_e[c->id]++;
      if (c->kind == TD_CHANGE_BLOCK_NODE) w->blocks_n[c->id]++;
    }
  }
  if (obstacles_update(w) != 0) return td_err_set(err, "world: out of memory");
  return 0;
}

/* Support buffs: of each kind the strongest support in range (no stacking). */
void towers_buffs(td_world *w) {
  const td_rules *r = w->rules;
  size_t nb = w->map->base_count;
  for (size_t b = 0; b < nb; b++) {
    tower_rec *t = &w->towers[b];
    t->buff_damage = t->buff_rate = 0.0f;
    if (!t->used) continue;
    for (size_t s = 0; s < nb; s++) {
      const tower_rec *u = &w->towers[s];
      if (s == b || !u->used) continue;
      const td_tower_level *l = &r->levels[u->level];
      if (l->rate > 0.0f || (l->buff_damage <= 0.0f && l->buff_rate <= 0.0f)) continue;
      float rad = l->range * w->tile, dx = t->x - u->x, dy = t->y - u->y;
      if (dx * dx + dy * dy > rad * rad) continue;
      if (l->buff_damage > t->buff_damage) t->buff_damage = l->buff_damage;
      if (l->buff_rate > t->buff_rate) t->buff_rate = l->buff_rate;
    }
  }
  w->buffs_dirty = false;
}

/* ---- targeting ----------------------------------------------------------- */

typedef struct pick_ctx {
  const td_tower_level *l;
  td_target_mode mode;
  float x, y, r2;
  int64_t best;
  float k1, k2;           /* the best's keys (smaller is better) */
  size_t n;               /* SCRIPT: candidates collected */
  bool oom;
} pick_ctx;

static void pick_one(void *ctx, td_world *w, size_t i) {
  pick_ctx *p = ctx;
  const enemy_rec *e = &w->enemies[i];
  if (!can_hit(p->l, &w->rules->enemies[e->type])) return;
  float dx = e->x - p->x, dy = e->y - p->y, d2 = dx * dx + dy * dy;
  if (d2 > p->r2) return;
  float k1, k2 = e->route_left;
  switch (p->mode) {
  case TD_TARGET_LAST: k1 = -e->route_left; break;
  case TD_TARGET_STRONGEST: k1 = -e->health; break;
  case TD_TARGET_CLOSEST: k1 = d2; break;
  case TD_TARGET_SCRIPT:
    if (p->n >= w->cand_cap) {
      uint32_t *c = td_mem_grow(w->cand, &w->cand_cap, p->n + 1, sizeof *c);
      if (!c) {
        p->oom = true;
        return;
      }
      w->cand = c;
    }
    w->cand[p->n++] = (uint32_t)i;
    return;
  default: k1 = e->route_left; break; /* FIRST */
  }
  if (p->best < 0 || k1 < p->k1 || (k1 == p->k1 && (k2 < p->k2 || (k2 == p->k2 && (int64_t)i < p->best)))) {
    p->best = (int64_t)i;
    p->k1 = k1;
    p->k2 = k2;
  }
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

/* The tower's choice under its mode: an enemy slot, or -1. */
static int64_t select_target(td_world *w, size_t b) {
  const tower_rec *t = &w->towers[b];
  const td_tower_level *l = &w->rules->levels[t->level];
  float rad = l->range * w->tile;
  td_target_mode mode = t->mode;
  if (mode == TD_TARGET_SCRIPT && !w->hooks.target) mode = TD_TARGET_FIRST;
  pick_ctx p = {.l = l, .mode = mode, .x = t->x, .y = t->y, .r2 = rad * rad, .best = -1};
  grid_query(w, t->x, t->y, rad, pick_one, &p);
  if (mode != TD_TARGET_SCRIPT) return p.best;
  if (p.oom) {
    world_fail(w, "targeting");
    return -1;
  }
  if (p.n == 0) return -1;
  qsort(w->cand, p.n, sizeof *w->cand, cmp_u32); /* slot order */
  for (size_t k = 0; k < p.n; k++) w->cand[k] = enemy_handle(w, w->cand[k]);
  int32_t k = w->hooks.target(w->hooks.ud, w, tower_handle(w, b), w->cand, p.n);
  if (k < 0 || (size_t)k >= p.n) return -1;
  return enemy_slot(w, w->cand[k]); /* the hook may have killed it: -1 */
}

/* a in (-pi, pi]: remainderf is exact and takes one step at any size (a
** loop subtracting 2 pi never ends at 4e30, where the step is lost) */
static float wrap_angle(float a) {
  float r = remainderf(a, 2.0f * PI_F);
  return r <= -PI_F ? r + 2.0f * PI_F : r;
}

/* Turns the turret towards (x, y) at the level's turn rate; true when it
** points there. */
static bool turn_to(tower_rec *t, const td_tower_level *l, float x, float y) {
  float want = atan2f(y - t->y, x - t->x);
  float diff = wrap_angle(want - t->facing);
  float step = l->turn_rate * DT;
  if (l->turn_rate <= 0.0f || fabsf(diff) <= step) {
    t->facing = want;
    return true;
  }
  t->facing = wrap_angle(t->facing + (diff > 0 ? step : -step));
  return false;
}

/* One tower's tick: the state machine of world.h. */
static void tower_tick(td_world *w, size_t b) {
  tower_rec *t = &w->towers[b];
  const td_tower_level *l = &w->rules->levels[t->level];
  if (l->rate <= 0.0f) { /* a support never fires */
    t->state = TD_TOWER_IDLE;
    t->target = 0;
    return;
  }
  float rad = l->range * w->tile;
  if (t->target) { /* still there, in range and hittable? */
    int64_t i = enemy_slot(w, t->target);
    bool keep = false;
    if (i >= 0) {
      const enemy_rec *e = &w->enemies[i];
      float dx = e->x - t->x, dy = e->y - t->y;
      keep = dx * dx + dy * dy <= rad * rad && can_hit(l, &w->rules->enemies[e->type]);
    }
    if (!keep) t->target = 0;
  }
  if (t->cool > 0.0f) t->cool -= DT;
  bool ready = t->cool <= 0.0f;
  if (t->target == 0 || (ready && t->state != TD_TOWER_AIMING)) {
    int64_t i = select_target(w, b);
    t = &w->towers[b]; /* (the hook cannot move towers; kept for clarity) */
    uint32_t pick = i >= 0 ? enemy_handle(w, (size_t)i) : 0;
    if (pick != t->target) {
      t->target = pick;
      if (pick) {
        t->state = TD_TOWER_AIMING;
        t->aim = (int32_t)lroundf(l->aim_time * (float)TD_WORLD_TICK_HZ);
      }
    }
  }
  if (t->target == 0) {
    t->state = TD_TOWER_IDLE;
    if (t->cool < 0.0f) t->cool = 0.0f;
    return;
  }
  int64_t ti = enemy_slot(w, t->target);
  const enemy_rec *e = &w->enemies[ti];
  bool aligned = turn_to(t, l, e->x, e->y);
  if (t->state == TD_TOWER_AIMING) {
    /* aim ticks of aiming, then the first tick aligned fires */
    if (t->aim > 0) {
      t->aim--;
      return;
    }
    if (!aligned) return;
  }
  if (!ready) {
    t->state = TD_TOWER_COOLDOWN;
    return;
  }
  if (!aligned) {
    t->state = TD_TOWER_AIMING;
    t->aim = 0;
    return;
  }
  t->state = TD_TOWER_FIRING;
  float rate = l->rate * (1.0f + t->buff_rate);
  t->cool += 1.0f / rate;
  tower_fire(w, b, (size_t)ti);
}

void towers_update(td_world *w) {
  for (size_t b = 0; b < w->map->base_count; b++)
    if (w->towers[b].used) tower_tick(w, b);
}

/* The ghost's route (world.h). The undo batch unblocks exactly the flags the
** block batch turns on (those clear now); since the route is canonical (a
** function of the flags), applying then undoing leaves dist and next as
** they were. The undo is no longer than the batch try_apply just took, so
** td_route_apply does not allocate and cannot fail for memory. */
bool td_world_preview_next(td_world *w, int32_t base, int32_t tower_type, int32_t *next_out) {
  if (w->in_step || w->broken || w->game != TD_GAME_PLAYING) return false;
  if (base < 0 || (size_t)base >= w->map->base_count || w->towers[base].used) return false;
  if (tower_type < 0 || (size_t)tower_type >= w->rules->tower_count) return false;
  const td_tower_base *tb = &w->map->bases[base];
  const td_graph *g = w->graph;
  if (grow_batch(w, tb->block_count) != 0) return false;
  size_t n = 0;
  for (size_t k = 0; k < tb->block_count; k++) {
    const td_graph_change *c = &tb->block[k];
    if (c->kind == TD_CHANGE_BLOCK_EDGE && !g->edges[c->id].blocked)
      w->batch[n++] = (td_graph_change){.kind = TD_CHANGE_UNBLOCK_EDGE, .id = c->id};
    if (c->kind == TD_CHANGE_BLOCK_NODE && !g->node_blocked[c->id])
      w->batch[n++] = (td_graph_change){.kind = TD_CHANGE_UNBLOCK_NODE, .id = c->id};
  }
  size_t m = route_must_reach(w);
  if (m == SIZE_MAX) return false;
  td_route_verdict v;
  if (td_route_try_apply(w->route, tb->block, tb->block_count, w->must, m, &v, NULL) != 0)
    return false;
  if (!v.ok) return false; /* rolled back by the transaction */
  memcpy(next_out, td_route_next(w->route), (size_t)g->node_count * sizeof *next_out);
  if (n && td_route_apply(w->route, w->batch, n, NULL) != 0) {
    world_fail(w, "route preview");
    return false;
  }
  return true;
}
