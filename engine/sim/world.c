/*
** world.c: a world's lifetime, the step, commands, events, the RNG and read
** access (see world.h for the model, world_int.h for the invariants).
*/
#include "sim/world_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ---- the RNG: PCG32 (XSH RR), one stream per seed ------------------------ */

uint32_t pcg32_next(pcg32 *r) {
  uint64_t old = r->state;
  r->state = old * 6364136223846793005ull + r->inc;
  uint32_t xorshifted = (uint32_t)(((old >> 18) ^ old) >> 27);
  uint32_t rot = (uint32_t)(old >> 59);
  return (xorshifted >> rot) | (xorshifted << ((-rot) & 31));
}

void pcg32_seed(pcg32 *r, uint64_t seed) {
  r->state = 0;
  r->inc = (seed << 1) | 1u; /* the stream: any odd increment */
  pcg32_next(r);
  r->state += seed ^ 0x853c49e6748fea9bull;
  pcg32_next(r);
}

uint32_t td_world_random(td_world *w) { return pcg32_next(&w->rng); }

float td_world_random_float(td_world *w) {
  return (float)(pcg32_next(&w->rng) >> 8) * (1.0f / 16777216.0f);
}

int32_t td_world_random_range(td_world *w, int32_t lo, int32_t hi) {
  if (hi <= lo) return lo;
  uint32_t span = (uint32_t)((int64_t)hi - lo) + 1u; /* 0: the whole 2^32 */
  if (span == 0) return (int32_t)pcg32_next(&w->rng);
  /* rejection of the top partial span: uniform, and deterministic */
  uint32_t limit = UINT32_MAX - (UINT32_MAX % span + 1) % span;
  uint32_t v;
  do v = pcg32_next(&w->rng);
  while (v > limit);
  return (int32_t)((int64_t)lo + v % span);
}

/* ---- events -------------------------------------------------------------- */

td_event world_event(const td_world *w, td_event_kind k) {
  td_event e = {.kind = k, .tick = w->tick, .type = -1, .base = -1, .level = -1};
  return e;
}

void world_fail(td_world *w, const char *what) {
  if (!w->broken) td_err_set(&w->fault, "world: %s: out of memory", what);
  w->broken = true;
}

void world_emit(td_world *w, const td_event *e) {
  if (w->ev_len == w->ev_cap) {
    td_event *p = td_mem_grow(w->events, &w->ev_cap, w->ev_len + 1, sizeof *p);
    if (!p) {
      world_fail(w, "events");
      return;
    }
    w->events = p;
  }
  w->events[w->ev_len++] = *e;
}

const td_event *td_world_events(const td_world *w, size_t *n) {
  *n = w->ev_len;
  return w->events;
}

/* ---- lifetime ------------------------------------------------------------ */

static int check_fit(const td_map *map, const td_rules *r, td_err *err) {
  if (!map->graph || !map->graph->finalized) return td_err_set(err, "world: the map has no graph");
  if (map->spawn_count == 0) return td_err_set(err, "world: the map has no spawn");
  if (map->goal_count == 0) return td_err_set(err, "world: the map has no goal");
  if (map->tile_w <= 0) return td_err_set(err, "world: the map's tile_w must be > 0");
  int32_t nodes = map->graph->node_count;
  for (size_t i = 0; i < map->spawn_count; i++)
    if (map->spawns[i].node < 0 || map->spawns[i].node >= nodes)
      return td_err_set(err, "world: spawn %zu names no node", i);
  for (size_t i = 0; i < map->goal_count; i++)
    if (map->goals[i].node < 0 || map->goals[i].node >= nodes)
      return td_err_set(err, "world: goal %zu names no node", i);
  for (size_t i = 0; i < map->base_count; i++)
    for (size_t k = 0; k < map->bases[i].block_count; k++) {
      const td_graph_change *c = &map->bases[i].block[k];
      int32_t lim = c->kind == TD_CHANGE_BLOCK_EDGE || c->kind == TD_CHANGE_UNBLOCK_EDGE
                        ? map->graph->edge_count
                        : nodes;
      if ((unsigned)c->kind > TD_CHANGE_UNBLOCK_NODE || c->id < 0 || c->id >= lim)
        return td_err_set(err, "world: tower base %zu: block item %zu is bad", i, k);
    }
  for (size_t i = 0; i < r->group_count; i++)
    if (r->groups[i].spawn >= (int32_t)map->spawn_count)
      return td_err_set(err, "spawn group %zu: spawn %d, but the map has %zu spawns", i + 1,
                        (int)r->groups[i].spawn, map->spawn_count);
  return 0;
}

td_world *td_world_create(const td_map *map, const td_rules *rules, uint64_t seed,
                          td_err *err) {
  if (td_rules_validate(rules, err) != 0 || check_fit(map, rules, err) != 0) return NULL;
  td_world *w = td_mem_calloc(1, sizeof *w);
  if (!w) {
    td_err_set(err, "world: out of memory");
    return NULL;
  }
  w->map = map;
  w->rules = rules;
  w->tile = (float)map->tile_w;
  const td_graph *mg = map->graph;
  size_t nodes = (size_t)mg->node_count, edges = (size_t)mg->edge_count;
  w->graph = td_graph_clone(mg, err);
  if (!w->graph) goto fail;
  /* the caller's map may carry blocked flags of its own: the world starts
  ** from them, and only its towers change them */
  w->spawn_nodes = td_mem_alloc(map->spawn_count * sizeof *w->spawn_nodes);
  int32_t *goals = td_mem_alloc(map->goal_count * sizeof *goals);
  if (!w->spawn_nodes || !goals) {
    td_mem_free(goals, map->goal_count * sizeof *goals);
    goto oom;
  }
  td_map_spawn_nodes(map, w->spawn_nodes);
  td_map_goal_nodes(map, goals);
  w->route = td_route_create(w->graph, goals, map->goal_count, err);
  td_mem_free(goals, map->goal_count * sizeof *goals);
  if (!w->route) goto fail;
  td_crowd_params p = td_crowd_default_params(1.0 / TD_WORLD_TICK_HZ);
  w->crowd = td_crowd_create(w->route, &p, err);
  if (!w->crowd) goto fail;
  /* the walkable area: a grid's open cells, or the road the map declares
  ** (a map built in code without widths is open ground) */
  if (td_map_walk(map, w->graph, &w->walk, err) != 0) goto fail;
  td_crowd_set_walk(w->crowd, w->walk);
  w->blocks_e = td_mem_calloc(edges ? edges : 1, sizeof *w->blocks_e);
  w->blocks_n = td_mem_calloc(nodes ? nodes : 1, sizeof *w->blocks_n);
  w->mark = td_mem_calloc(nodes ? nodes : 1, 1);
  w->edge_cost = td_mem_alloc((edges ? edges : 1) * sizeof *w->edge_cost);
  w->node_cost = td_mem_alloc((nodes ? nodes : 1) * sizeof *w->node_cost);
  if (map->base_count) {
    w->towers = td_mem_calloc(map->base_count, sizeof *w->towers);
    w->rects = td_mem_alloc(map->base_count * 4 * sizeof *w->rects);
  }
  if (!w->blocks_e || !w->blocks_n || !w->mark || !w->edge_cost || !w->node_cost ||
      (map->base_count && (!w->towers || !w->rects)))
    goto oom;
  if (grid_build(w) != 0) goto oom; /* the bucket grid's layout */
  if (soldiers_init(w) != 0) goto oom;
  for (size_t e = 0; e < edges; e++) w->edge_cost[e] = mg->edges[e].factor;
  for (size_t n = 0; n < nodes; n++) w->node_cost[n] = 1.0;
  towers_positions(w);
  for (size_t i = 0; i < rules->enemy_count; i++)
    if (rules->enemies[i].radius * w->tile > w->max_radius)
      w->max_radius = rules->enemies[i].radius * w->tile;
  pcg32_seed(&w->rng, seed);
  w->gold = rules->start_gold;
  w->lives = rules->start_lives;
  w->next_wave_at = (uint64_t)llroundf(rules->first_wave_delay * (float)TD_WORLD_TICK_HZ);
  w->armed = !rules->first_wave_waits;
  w->game = TD_GAME_PLAYING;
  return w;
oom:
  td_err_set(err, "world: out of memory");
fail:
  td_world_destroy(w);
  return NULL;
}

void td_world_destroy(td_world *w) {
  if (!w) return;
  const td_map *map = w->map;
  size_t nodes = (size_t)map->graph->node_count, edges = (size_t)map->graph->edge_count;
  soldiers_free(w);
  td_crowd_destroy(w->crowd);
  td_walk_destroy(w->walk);
  td_route_destroy(w->route);
  td_graph_destroy(w->graph);
  td_mem_free(w->spawn_nodes, map->spawn_count * sizeof *w->spawn_nodes);
  td_mem_free(w->enemies, w->enemy_cap * sizeof *w->enemies);
  td_mem_free(w->towers, map->base_count * sizeof *w->towers);
  td_mem_free(w->shots, w->shot_cap * sizeof *w->shots);
  td_mem_free(w->pend, w->pend_cap * sizeof *w->pend);
  td_mem_free(w->scripted, w->nscripted * sizeof *w->scripted);
  td_mem_free(w->waves, w->wave_cap * sizeof *w->waves);
  td_mem_free(w->cmds, w->cmd_cap * sizeof *w->cmds);
  td_mem_free(w->blocks_e, (edges ? edges : 1) * sizeof *w->blocks_e);
  td_mem_free(w->blocks_n, (nodes ? nodes : 1) * sizeof *w->blocks_n);
  td_mem_free(w->mark, nodes ? nodes : 1);
  td_mem_free(w->edge_cost, (edges ? edges : 1) * sizeof *w->edge_cost);
  td_mem_free(w->node_cost, (nodes ? nodes : 1) * sizeof *w->node_cost);
  td_mem_free(w->group_refs, w->group_cap * sizeof *w->group_refs);
  td_mem_free(w->events, w->ev_cap * sizeof *w->events);
  td_mem_free(w->g_start, w->g_start ? ((size_t)w->gw * (size_t)w->gh + 1) * sizeof(int32_t) : 0);
  td_mem_free(w->g_items, w->g_items_cap * sizeof *w->g_items);
  td_mem_free(w->g_cell_of, w->g_cell_cap * sizeof *w->g_cell_of);
  td_mem_free(w->cand, w->cand_cap * sizeof *w->cand);
  td_mem_free(w->sweep, w->sweep_cap * sizeof *w->sweep);
  td_mem_free(w->must, w->must_cap * sizeof *w->must);
  td_mem_free(w->rects, map->base_count * 4 * sizeof *w->rects);
  td_mem_free(w->batch, w->batch_cap * sizeof *w->batch);
  td_mem_free(w, sizeof *w);
}

void td_world_set_endless(td_world *w, bool endless) { w->endless = endless; }

int td_world_check_rules(const td_world *w, const td_rules *rules, td_err *err) {
  if (td_rules_validate(rules, err) != 0 || check_fit(w->map, rules, err) != 0) return -1;
  const td_rules *old = w->rules;
  for (size_t b = 0; b < w->map->base_count; b++) {
    const tower_rec *t = &w->towers[b];
    if (!t->used) continue;
    const td_tower_level *ol = &old->levels[t->level];
    if ((size_t)t->level >= rules->level_count ||
        strcmp(rules->levels[t->level].name, ol->name) != 0 ||
        rules->levels[t->level].tower != ol->tower)
      return td_err_set(err, "world: the tower on base %zu is a '%s', which the new rules "
                        "do not have at the same place", b, ol->name);
  }
  for (size_t i = 0; i < w->enemy_used; i++) {
    const enemy_rec *e = &w->enemies[i];
    if (e->state != TD_ENEMY_FREE && (size_t)e->type >= rules->enemy_count)
      return td_err_set(err, "world: a '%s' is alive, and the new rules have %zu enemy types",
                        old->enemies[e->type].name, rules->enemy_count);
  }
  for (size_t i = 0; i < w->pend_len; i++)
    if ((size_t)w->pend[i].group >= rules->group_count)
      return td_err_set(err, "world: spawn group %d is still to spawn, and the new rules "
                        "have %zu groups", (int)w->pend[i].group + 1, rules->group_count);
  return 0;
}

int td_world_set_rules(td_world *w, const td_rules *rules, td_err *err) {
  if (w->in_step) return td_err_set(err, "world: rules changed from a hook");
  if (td_world_check_rules(w, rules, err) != 0) return -1;
  const td_rules *old = w->rules;
  w->rules = rules;
  if (!rules->first_wave_waits) w->armed = true; /* (rules that do not wait never hold it) */
  sieges_rules_changed(w, old);
  soldiers_rules_changed(w); /* barracks keep their new levels' soldiers */
  /* only grows: enemies alive keep the radius they spawned with */
  for (size_t i = 0; i < rules->enemy_count; i++)
    if (rules->enemies[i].radius * w->tile > w->max_radius)
      w->max_radius = rules->enemies[i].radius * w->tile;
  w->buffs_dirty = true;
  return 0;
}

void td_world_set_hooks(td_world *w, const td_world_hooks *h) {
  if (h) w->hooks = *h;
  else memset(&w->hooks, 0, sizeof w->hooks);
}

/* ---- commands ------------------------------------------------------------ */

int td_world_command(td_world *w, const td_command *cmd, td_err *err) {
  if (w->cmd_len == w->cmd_cap) {
    td_command *p = td_mem_grow(w->cmds, &w->cmd_cap, w->cmd_len + 1, sizeof *p);
    if (!p) return td_err_set(err, "world: out of memory");
    w->cmds = p;
  }
  w->cmds[w->cmd_len++] = *cmd;
  return 0;
}

static void refuse(td_world *w, const td_command *c, td_refusal why, const td_place_check *pc) {
  td_event e = world_event(w, TD_EVENT_REFUSED);
  e.reason = why;
  e.base = c->base;
  /* type: the tower level the command was about, when there is one */
  const td_rules *r = w->rules;
  if (c->kind == TD_COMMAND_PLACE && c->tower_type >= 0 && (size_t)c->tower_type < r->tower_count)
    e.type = r->towers[c->tower_type].root;
  if (c->kind == TD_COMMAND_UPGRADE && c->base >= 0 && (size_t)c->base < w->map->base_count &&
      w->towers[c->base].used && c->upgrade >= 0 && c->upgrade < TD_RULES_MAX_CHILDREN)
    e.type = r->levels[w->towers[c->base].level].children[c->upgrade];
  if (why == TD_REFUSAL_CUTS_ROUTE && pc) {
    e.x = (float)w->graph->x[pc->node];
    e.y = (float)w->graph->y[pc->node];
    e.amount = (float)pc->spawn;
  }
  world_emit(w, &e);
}

static void apply_command(td_world *w, const td_command *c) {
  td_refusal why = TD_REFUSAL_NONE;
  td_place_check pc = {0};
  if ((unsigned)c->kind >= TD_COMMAND_KIND_COUNT) {
    why = TD_REFUSAL_BAD_COMMAND;
  } else if (w->game != TD_GAME_PLAYING) {
    why = TD_REFUSAL_GAME_OVER;
  } else {
    switch (c->kind) {
    case TD_COMMAND_PLACE:
      why = tower_place(w, c->base, c->tower_type, &pc, true);
      if (why == TD_REFUSAL_NONE) w->armed = true; /* wave 1's countdown starts */
      break;
    case TD_COMMAND_UPGRADE: why = tower_upgrade(w, c->base, c->upgrade); break;
    case TD_COMMAND_SELL: why = tower_sell(w, c->base); break;
    case TD_COMMAND_TARGET: {
      if (c->base < 0 || (size_t)c->base >= w->map->base_count) {
        why = TD_REFUSAL_NO_BASE;
        break;
      }
      tower_rec *t = &w->towers[c->base];
      if (!t->used) {
        why = TD_REFUSAL_NO_TOWER;
        break;
      }
      const td_tower_type *tt = &w->rules->towers[w->rules->levels[t->level].tower];
      if ((unsigned)c->mode >= TD_TARGET_MODE_COUNT ||
          (c->mode == TD_TARGET_SCRIPT && !tt->script_target)) {
        why = TD_REFUSAL_BAD_COMMAND;
        break;
      }
      t->mode = c->mode;
      break;
    }
    case TD_COMMAND_CALL_WAVE: why = wave_call(w); break;
    case TD_COMMAND_PAUSE: w->paused = true; break;
    case TD_COMMAND_RESUME: w->paused = false; break;
    case TD_COMMAND_RALLY: why = soldiers_rally(w, c->base, c->x, c->y); break;
    case TD_COMMAND_REPAIR: why = tower_repair(w, c->base); break;
    case TD_COMMAND_KIND_COUNT: why = TD_REFUSAL_BAD_COMMAND; break;
    }
  }
  if (why != TD_REFUSAL_NONE) refuse(w, c, why, &pc);
}

/* Applies the due commands in queue order and keeps the others, in order.
** A command's own effects may queue more (hooks do not run here), so the
** loop reads the length afresh. */
static void apply_commands(td_world *w) {
  size_t keep = 0;
  for (size_t i = 0; i < w->cmd_len; i++) {
    td_command c = w->cmds[i];
    if (c.tick <= w->tick) apply_command(w, &c);
    else w->cmds[keep++] = c;
  }
  w->cmd_len = keep;
}

/* ---- the step ------------------------------------------------------------ */

static void lose_or_win(td_world *w) {
  if (w->game != TD_GAME_PLAYING) return;
  if (w->lives <= 0) {
    w->lives = 0;
    w->game = TD_GAME_LOST;
    td_event e = world_event(w, TD_EVENT_LOST);
    e.wave = w->wave;
    world_emit(w, &e);
    return;
  }
  if (!w->endless && w->wave >= w->rules->wave_count && w->pend_len == 0 &&
      w->wave_len == 0 && w->enemy_alive == 0) {
    w->game = TD_GAME_WON;
    td_event e = world_event(w, TD_EVENT_WON);
    e.wave = w->wave;
    world_emit(w, &e);
  }
}

/* Wave ends, then the game's end. */
static void settle(td_world *w) {
  waves_settle(w);
  lose_or_win(w);
}

/* Hands the step's events to the hook, in order; events the hook causes
** are appended and handed on, up to TD_WORLD_HOOK_EVENTS. After the list
** is drained the end of waves and game is checked again, which may add
** more. */
static void deliver(td_world *w) {
  size_t i = 0, handed = 0;
  for (;;) {
    while (i < w->ev_len && handed < TD_WORLD_HOOK_EVENTS && !w->broken) {
      td_event e = w->events[i++];
      if (w->hooks.event) w->hooks.event(w->hooks.ud, w, &e);
      handed++;
    }
    size_t before = w->ev_len;
    settle(w);
    if (w->ev_len == before || handed >= TD_WORLD_HOOK_EVENTS || w->broken) break;
  }
}

int td_world_step(td_world *w, td_err *err) {
  if (w->in_step) return td_err_set(err, "world: td_world_step called from a hook");
  if (w->broken) return td_err_set(err, "%s", w->fault.msg);
  w->in_step = true;
  w->ev_len = 0;
  apply_commands(w);
  if (w->game == TD_GAME_PLAYING && !w->paused) {
    w->clock++;
    waves_update(w);
    td_crowd_step(w->crowd);
    enemies_sync(w);
    if (grid_build(w) != 0) world_fail(w, "enemy grid");
    enemies_update(w);
    soldiers_update(w);
    sieges_update(w);
    if (w->buffs_dirty) towers_buffs(w);
    towers_update(w);
    shots_update(w);
  }
  settle(w);
  if (w->hooks.tick) w->hooks.tick(w->hooks.ud, w);
  deliver(w);
  enemies_reap(w);
  w->tick++;
  w->in_step = false;
  if (w->broken) return td_err_set(err, "%s", w->fault.msg);
  return 0;
}

/* ---- read access --------------------------------------------------------- */

int32_t td_world_gold(const td_world *w) { return w->gold; }
int32_t td_world_lives(const td_world *w) { return w->lives; }
uint64_t td_world_tick(const td_world *w) { return w->tick; }
int32_t td_world_wave(const td_world *w) { return w->wave; }
td_game_state td_world_state(const td_world *w) { return (td_game_state)w->game; }
bool td_world_paused(const td_world *w) { return w->paused; }
bool td_world_first_wave_waiting(const td_world *w) {
  return !w->armed && w->wave == 0 && w->game == TD_GAME_PLAYING;
}
bool td_world_endless(const td_world *w) { return w->endless; }
const td_crowd *td_world_crowd(const td_world *w) { return w->crowd; }
const td_route *td_world_route(const td_world *w) { return w->route; }
const td_map *td_world_map(const td_world *w) { return w->map; }
const td_rules *td_world_rules(const td_world *w) { return w->rules; }

int64_t td_world_next_wave_ticks(const td_world *w) {
  if (!waves_left(w)) return -1;
  return w->next_wave_at > w->clock ? (int64_t)(w->next_wave_at - w->clock) : 0;
}

void td_world_give_gold(td_world *w, int32_t amount) {
  int64_t g = (int64_t)w->gold + amount;
  w->gold = g < 0 ? 0 : g > INT32_MAX ? INT32_MAX : (int32_t)g;
}

size_t td_world_preview(const td_world *w, int32_t n, td_wave_entry *out, size_t cap) {
  const td_rules *r = w->rules;
  size_t k = 0;
  if (n < 1) return 0;
  for (size_t i = 0; i < r->group_count; i++) {
    const td_spawn_group *g = &r->groups[i];
    if (n < g->begin || (g->end != 0 && n > g->end) || (n - g->begin) % g->every != 0) continue;
    if (k < cap)
      out[k] = (td_wave_entry){.group = (int32_t)i, .enemy = g->enemy,
                               .count = td_rules_group_count(r, g, n),
                               .spawns = g->spawn < 0 ? (int32_t)w->map->spawn_count : 1,
                               .health = td_rules_group_health(r, g, n), .delay = g->delay};
    k++;
  }
  return k;
}

size_t td_world_enemy_capacity(const td_world *w) { return w->enemy_used; }
size_t td_world_enemy_count(const td_world *w) { return w->enemy_live; }

bool td_world_enemy(const td_world *w, size_t slot, td_enemy_view *out) {
  if (slot >= w->enemy_used || w->enemies[slot].state == TD_ENEMY_FREE) return false;
  const enemy_rec *e = &w->enemies[slot];
  const td_enemy_type *t = &w->rules->enemies[e->type];
  uint32_t dots = 0;
  for (int32_t k = 0; k < w->rules->damage_type_count; k++)
    if (e->dot_ticks[k] > 0) dots |= 1u << k;
  *out = (td_enemy_view){.handle = make_handle(e->gen, slot), .state = (td_enemy_state)e->state,
                         .type = e->type, .wave = e->wave, .x = e->x, .y = e->y,
                         .radius = t->radius * w->tile,
                         .facing = (e->vx != 0.0f || e->vy != 0.0f) ? atan2f(e->vy, e->vx) : 0.0f,
                         .health = e->health, .max_health = e->max_health,
                         .slow = e->slow_ticks > 0 ? e->slow : 0.0f,
                         .slow_time = (float)e->slow_ticks * DT,
                         .stun_time = (float)e->stun_ticks * DT, .dots = dots,
                         .route_left = e->route_left,
                         .flying = t->flying, .boss = t->boss, .waiting = e->waiting != 0,
                         .holder = e->holder, .siege = e->siege,
                         .attack_cooldown = e->attack_cool > 0 ? e->attack_cool : 0};
  return true;
}

bool td_world_enemy_get(const td_world *w, uint32_t handle, td_enemy_view *out) {
  uint32_t s1 = handle & HANDLE_MASK;
  if (s1 == 0 || s1 > w->enemy_used) return false;
  if (make_handle(w->enemies[s1 - 1].gen, s1 - 1) != handle) return false;
  return td_world_enemy(w, s1 - 1, out);
}

static int32_t level_depth(const td_rules *r, int32_t level) {
  int32_t d = 0;
  for (int32_t up = r->levels[level].parent; up >= 0; up = r->levels[up].parent) d++;
  return d;
}

bool td_world_tower(const td_world *w, size_t base, td_tower_view *out) {
  if (base >= w->map->base_count || !w->towers[base].used) return false;
  const tower_rec *t = &w->towers[base];
  *out = (td_tower_view){.handle = make_handle(t->gen, base), .base = (int32_t)base,
                         .type = w->rules->levels[t->level].tower, .level = t->level,
                         .depth = level_depth(w->rules, t->level), .mode = t->mode,
                         .state = (td_tower_state)t->state, .target = t->target, .x = t->x,
                         .y = t->y, .facing = t->facing, .cooldown = t->cool > 0 ? t->cool : 0,
                         .buff_damage = t->buff_damage, .buff_rate = t->buff_rate,
                         .spent = t->spent, .health = t->health,
                         .max_health = w->rules->levels[t->level].health,
                         .soldiers = w->rules->levels[t->level].soldiers,
                         .rally_x = t->rally_x, .rally_y = t->rally_y};
  return true;
}

bool td_world_tower_get(const td_world *w, uint32_t handle, td_tower_view *out) {
  int64_t b = tower_slot(w, handle);
  return b >= 0 && td_world_tower(w, (size_t)b, out);
}

size_t td_world_tower_count(const td_world *w) { return w->tower_live; }

uint64_t td_world_arrows(const td_world *w, td_unit_kind k, int from, int to) {
  if ((unsigned)k >= TD_UNIT_KIND_COUNT || from < 0 || to < 0 || from >= 8 || to >= 8) return 0;
  return w->arrows[k][from][to];
}

size_t td_world_shot_capacity(const td_world *w) { return w->shot_used; }

bool td_world_shot(const td_world *w, size_t slot, td_shot_view *out) {
  if (slot >= w->shot_used || !w->shots[slot].used) return false;
  const shot_rec *s = &w->shots[slot];
  *out = (td_shot_view){.kind = (td_shot_kind)s->kind, .tower = s->tower, .target = s->target,
                        .level = s->level, .x = s->x, .y = s->y, .tx = s->tx, .ty = s->ty};
  return true;
}

/* td_world_nonfinite: counts the floats of the state that are not finite,
** naming the first. */
typedef struct finite_scan {
  size_t bad;
  char *what;
  size_t cap;
} finite_scan;

/* index: the record's slot, SIZE_MAX for the world itself; k: an array
** field's element, -1 for a plain field. */
static void scan_float(finite_scan *s, float v, const char *owner, size_t index,
                       const char *field, int32_t k) {
  if (isfinite(v)) return;
  if (s->bad++ != 0 || !s->what || s->cap == 0) return;
  char name[48];
  if (k >= 0) snprintf(name, sizeof name, "%s[%d]", field, (int)k);
  else snprintf(name, sizeof name, "%s", field);
  const char *val = isnan(v) ? "nan" : v > 0.0f ? "inf" : "-inf";
  if (index == SIZE_MAX) snprintf(s->what, s->cap, "%s: %s is %s", owner, name, val);
  else snprintf(s->what, s->cap, "%s %zu: %s is %s", owner, index, name, val);
}

size_t td_world_nonfinite(const td_world *w, char *what, size_t cap) {
  finite_scan s = {.what = what, .cap = cap};
  if (what && cap) what[0] = '\0';
  scan_float(&s, w->tile, "world", SIZE_MAX, "tile", -1);
  scan_float(&s, w->max_radius, "world", SIZE_MAX, "max_radius", -1);
  scan_float(&s, w->gx0, "world", SIZE_MAX, "grid x0", -1);
  scan_float(&s, w->gy0, "world", SIZE_MAX, "grid y0", -1);
  scan_float(&s, w->gcell, "world", SIZE_MAX, "grid cell", -1);
  for (size_t i = 0; i < w->enemy_used; i++) {
    const enemy_rec *e = &w->enemies[i];
    if (e->state == TD_ENEMY_FREE) continue;
    const char *o = "enemy slot";
    scan_float(&s, e->health, o, i, "health", -1);
    scan_float(&s, e->max_health, o, i, "max_health", -1);
    scan_float(&s, e->scale, o, i, "scale", -1);
    scan_float(&s, e->x, o, i, "x", -1);
    scan_float(&s, e->y, o, i, "y", -1);
    scan_float(&s, e->vx, o, i, "vx", -1);
    scan_float(&s, e->vy, o, i, "vy", -1);
    scan_float(&s, e->route_left, o, i, "route_left", -1);
    scan_float(&s, e->slow, o, i, "slow", -1);
    scan_float(&s, e->applied_scale, o, i, "applied_scale", -1);
    for (int32_t k = 0; k < w->rules->damage_type_count && k < TD_RULES_MAX_DAMAGE_TYPES; k++)
      scan_float(&s, e->dot[k], o, i, "dot", k);
  }
  for (size_t b = 0; b < w->map->base_count; b++) {
    const tower_rec *t = &w->towers[b];
    if (!t->used) continue;
    const char *o = "tower on base";
    scan_float(&s, t->facing, o, b, "facing", -1);
    scan_float(&s, t->cool, o, b, "cooldown", -1);
    scan_float(&s, t->x, o, b, "x", -1);
    scan_float(&s, t->y, o, b, "y", -1);
    scan_float(&s, t->buff_damage, o, b, "buff_damage", -1);
    scan_float(&s, t->buff_rate, o, b, "buff_rate", -1);
  }
  for (size_t i = 0; i < w->shot_used; i++) {
    const shot_rec *sh = &w->shots[i];
    if (!sh->used) continue;
    const char *o = "shot slot";
    scan_float(&s, sh->damage, o, i, "damage", -1);
    scan_float(&s, sh->x, o, i, "x", -1);
    scan_float(&s, sh->y, o, i, "y", -1);
    scan_float(&s, sh->tx, o, i, "tx", -1);
    scan_float(&s, sh->ty, o, i, "ty", -1);
    scan_float(&s, sh->dx, o, i, "dx", -1);
    scan_float(&s, sh->dy, o, i, "dy", -1);
    scan_float(&s, sh->left, o, i, "left", -1);
  }
  for (size_t i = 0; i < w->pend_len; i++)
    scan_float(&s, w->pend[i].health, "pending spawn", i, "health", -1);
  for (size_t i = 0; i < w->soldier_used; i++) {
    const soldier_rec *so = &w->soldiers[i];
    if (so->state == TD_SOLDIER_FREE) continue;
    const char *o = "soldier slot";
    scan_float(&s, so->x, o, i, "x", -1);
    scan_float(&s, so->y, o, i, "y", -1);
    scan_float(&s, so->vx, o, i, "vx", -1);
    scan_float(&s, so->vy, o, i, "vy", -1);
    scan_float(&s, so->facing, o, i, "facing", -1);
    scan_float(&s, so->health, o, i, "health", -1);
    scan_float(&s, so->cool, o, i, "cooldown", -1);
    scan_float(&s, so->post_x, o, i, "post_x", -1);
    scan_float(&s, so->post_y, o, i, "post_y", -1);
    scan_float(&s, so->best, o, i, "best", -1);
  }
  return s.bad;
}

/* ---- placement preview and messages -------------------------------------- */

bool td_world_check_place(td_world *w, int32_t base, int32_t tower_type, td_place_check *out) {
  td_place_check pc = {.reason = TD_REFUSAL_NONE, .spawn = -1, .node = -1};
  pc.reason = tower_place(w, base, tower_type, &pc, false);
  if (pc.reason == TD_REFUSAL_CUTS_ROUTE) {
    td_event e = world_event(w, TD_EVENT_REFUSED);
    e.reason = pc.reason;
    e.base = base;
    e.x = (float)w->graph->x[pc.node];
    e.y = (float)w->graph->y[pc.node];
    e.amount = (float)pc.spawn;
    td_world_refusal_message(w, &e, pc.text, sizeof pc.text);
  } else if (pc.reason != TD_REFUSAL_NONE) {
    snprintf(pc.text, sizeof pc.text, "%s", td_refusal_text(pc.reason));
  }
  if (out) *out = pc;
  return pc.reason == TD_REFUSAL_NONE;
}

void td_world_refusal_message(const td_world *w, const td_event *e, char *buf, size_t cap) {
  if (cap == 0) return;
  const char *why = td_refusal_text(e->reason);
  if (!why) why = "refused";
  if (e->reason != TD_REFUSAL_CUTS_ROUTE) {
    snprintf(buf, cap, "%s", why);
    return;
  }
  int32_t s = (int32_t)e->amount;
  if (s >= 0 && (size_t)s < w->map->spawn_count) {
    const td_map_point *p = &w->map->spawns[s];
    if (p->name[0])
      snprintf(buf, cap, "would cut spawn '%s' (object %d) off from every goal", p->name,
               (int)p->object_id);
    else
      snprintf(buf, cap, "would cut spawn %d (object %d) off from every goal", (int)s + 1,
               (int)p->object_id);
  } else {
    snprintf(buf, cap, "would cut enemies near (%.0f, %.0f) off from every goal", (double)e->x,
             (double)e->y);
  }
}
