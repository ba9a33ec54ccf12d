/*
** world_int.h: the inside of a td_world, shared by world.c (lifetime, the
** step, commands, events, RNG, read access), tower.c (placement, targeting,
** buffs), shot.c (firing, projectiles, hits), enemy.c (the enemy pool,
** effects, deaths, the bucket grid), wave.c (the wave clock and spawns) and
** world_save.c (checksum, save, load). Not a public header.
**
** Invariants.
** - Enemy slot i is FREE, or holds a live crowd agent (state WALK/STUNNED),
**   or is DYING/LEAKED until the end of the step that made it so.
** - Handles: (slot + 1) in the low 20 bits, the slot's generation above;
**   a slot's generation grows when it is freed. Tower slots are base
**   indices.
** - A new enemy or shot takes the lowest free slot: slot assignment is a
**   function of which slots are used, so a save needs no free list.
** - group_refs[g] counts the non-free enemies in crowd group g; a new
**   formation takes the lowest group with none.
** - blocks_e[e] / blocks_n[n] count the towers that block edge e / node n.
** - The graph's edge e has factor edge_cost[e] * (node_cost[a] +
**   node_cost[b]) / 2 (cost.c), and its weight follows (route.h).
** - Each wave_rec counts its pending spawn batches and its enemies not yet
**   removed; it ends (and is dropped) when both reach zero.
** - An active enemy's siege >= 0 names a base that has a tower (a sale or
**   a fall clears it: sieges_tower_gone; an upgrade to a level without
**   health is noticed by the sapper's next update); a tower's health is in
**   (0, its level's health], or 0 for a level without.
** - Soldiers: a soldier of base b with index k exists only while b has a
**   tower whose level keeps more than k soldiers, of the soldier's type;
**   one per (b, k). A soldier in ENGAGE or ATTACK holds exactly one enemy,
**   whose holder is that soldier (at_hand exactly in ATTACK); every other
**   enemy's holder is 0. A soldier's request is pending in the path queue,
**   and every pending request is one soldier's.
*/
#ifndef TD_WORLD_INT_H
#define TD_WORLD_INT_H

#include "nav/fan.h"
#include "nav/walk.h"
#include "sim/unit.h"
#include "sim/world.h"

#define HANDLE_BITS 20
#define HANDLE_MASK ((1u << HANDLE_BITS) - 1)
#define DT (1.0f / (float)TD_WORLD_TICK_HZ)

typedef struct enemy_rec {
  uint32_t gen;
  uint8_t state;          /* td_enemy_state */
  uint8_t waiting;        /* its agent waits at the spawn's gate: off the map, not a target */
  int32_t type;
  int32_t wave;           /* 0: none */
  int32_t group;          /* crowd group */
  td_agent agent;
  float health, max_health;
  float scale;            /* max_health / the type's health (splits inherit it) */
  float x, y, vx, vy;     /* this tick's, from the crowd */
  int32_t from, to;
  float route_left;
  float slow;             /* magnitude while slow_ticks > 0 */
  int32_t slow_ticks, stun_ticks;
  float dot[TD_RULES_MAX_DAMAGE_TYPES];          /* damage per second */
  int32_t dot_ticks[TD_RULES_MAX_DAMAGE_TYPES];
  uint32_t dot_tower[TD_RULES_MAX_DAMAGE_TYPES];
  float applied_scale;    /* speed scale last given to the crowd */
  /* fighting (unit.h; saved in world_save.c's units section) */
  uint32_t holder;        /* the soldier that holds it, 0: none */
  uint8_t at_hand;        /* its holder touches it: they fight */
  int32_t siege;          /* the base whose tower it attacks, -1: none */
  float attack_cool;      /* seconds to its next hit (melee or siege) */
} enemy_rec;

/* A soldier (soldier.c). Its way: with `planned`, the corners path[at ..
** npath) (graph nodes), then its target (its post, or its enemy where it
** stands); `partial`: the path was cut at SOLDIER_PATH_MAX corners, so it
** asks again at the end; `recenter` (grids): stopped by a closed cell, it
** goes to the centre of its own cell first. */
#define SOLDIER_PATH_MAX 64

typedef struct soldier_rec {
  uint32_t gen;
  uint8_t state;          /* td_soldier_state */
  uint8_t index;          /* its post among its barracks' */
  uint8_t planned, partial, recenter;
  int32_t type;           /* soldier type */
  int32_t base;           /* its barracks' base */
  uint32_t enemy;         /* held (ENGAGE, ATTACK), 0: none */
  uint32_t shun;          /* the last enemy it found no way to: not engaged again */
  uint32_t request;       /* its pending path request, 0: none */
  int32_t timer;          /* ticks: DIE, RESPAWN: left; MOVE: before it asks again */
  int32_t stall;          /* ticks without getting nearer its next corner */
  float x, y, vx, vy;     /* position; velocity of its last move */
  float facing;
  float health;
  float cool;             /* seconds to its next hit (<= 0: ready) */
  float post_x, post_y;
  float best;             /* the nearest it has been to its next corner */
  uint16_t npath, at;
  int32_t path[SOLDIER_PATH_MAX];
} soldier_rec;

typedef struct tower_rec {
  uint32_t gen;
  bool used;
  int32_t level;
  td_target_mode mode;
  uint8_t state;          /* td_tower_state */
  uint32_t target;
  float facing;
  int32_t aim;            /* ticks of aiming left */
  float cool;             /* seconds until it may fire (<= 0: ready) */
  int32_t spent;
  float health;           /* 0 for a level that cannot be damaged */
  float rally_x, rally_y; /* a barracks' rally point (its centre until RALLY) */
  /* derived (not saved: recomputed from the towers) */
  float x, y;
  float buff_damage, buff_rate;
} tower_rec;

typedef struct shot_rec {
  bool used;
  uint8_t kind;           /* td_shot_kind */
  uint32_t tower, target;
  int32_t level;
  int32_t damage_type;
  float damage;
  float x, y, tx, ty;
  float dx, dy;           /* pierce: unit direction */
  float left;             /* pierce: distance left to fly */
  int32_t pierce_left;
  uint32_t hit[TD_WORLD_PIERCE_MEMORY];
  uint32_t nhit;          /* hits so far (the memory is a ring) */
} shot_rec;

typedef struct sweep_hit { /* a pierce shot crossing an enemy (shot.c) */
  float t;                /* distance along this tick's path */
  uint32_t slot;
} sweep_hit;

typedef struct pending {  /* a spawn batch waiting for its delay */
  uint64_t at;            /* clock tick it spawns at */
  int32_t wave, group, spawn, count;
  float health;
} pending;

typedef struct wave_rec {
  int32_t wave, pending, alive;
} wave_rec;

typedef struct pcg32 {
  uint64_t state, inc;
} pcg32;

struct td_world {
  const td_map *map;
  const td_rules *rules;
  td_graph *graph;        /* the world's own copy */
  td_route *route;
  td_crowd *crowd;
  td_walk *walk;          /* where ground bodies may stand (NULL: open ground) */
  float tile;             /* map units per tile */
  int32_t *spawn_nodes;   /* map->spawn_count */

  /* state */
  uint64_t tick;          /* steps run */
  uint64_t clock;         /* unpaused ticks run (the wave clock) */
  uint64_t next_wave_at;  /* clock tick of the next wave */
  int32_t wave;           /* last wave started */
  int32_t gold, lives;
  uint8_t game;           /* td_game_state */
  bool paused, endless;
  bool armed;             /* wave 1's countdown runs (rules->first_wave_waits: from the
                             first tower placed or a call) */
  pcg32 rng;
  double *edge_cost;      /* per edge: its own factor (the map's until set) */
  double *node_cost;      /* per node: 1 until set */

  enemy_rec *enemies;
  size_t enemy_cap, enemy_used, enemy_live; /* live: not FREE */
  size_t enemy_alive;     /* WALK or STUNNED */
  size_t enemy_low;       /* no free slot below */
  tower_rec *towers;          /* map->base_count */
  size_t tower_live;
  shot_rec *shots;
  size_t shot_cap, shot_used, shot_low;
  pending *pend;
  size_t pend_len, pend_cap;
  wave_rec *waves;
  int32_t *scripted;      /* waves a script runs, ascending (td_world_set_scripted_waves;
                             the mod's, not state) */
  size_t nscripted;
  size_t wave_len, wave_cap;
  td_command *cmds;
  size_t cmd_len, cmd_cap;

  /* soldiers (soldier.c) */
  struct soldier_rec *soldiers;
  size_t soldier_cap, soldier_used, soldier_live;
  td_pathq *pathq;        /* the soldiers' path requests (state: saved) */
  float *s_rects;         /* derived: every tower's footprint, x y w h */
  size_t s_nrects;
  td_fan s_fan;           /* their fan of rays (nav/fan.h) */

  /* derived */
  uint16_t *blocks_e, *blocks_n;
  uint64_t arrows[TD_UNIT_KIND_COUNT][8][8]; /* arrows taken (td_world_arrows; not state) */
  int32_t *group_refs;
  size_t group_cap;
  bool buffs_dirty;

  /* per step */
  td_event *events;
  size_t ev_len, ev_cap;
  bool in_step, broken;
  td_err fault;           /* why it broke */
  td_world_hooks hooks;

  /* bucket grid over enemies, rebuilt per tick (enemy.c) */
  float gx0, gy0, gcell;
  int32_t gw, gh;
  int32_t *g_start;       /* gw * gh + 1 */
  int32_t *g_items;       /* enemy slots, g_start[c] .. g_start[c + 1] */
  size_t g_items_cap;
  int32_t *g_cell_of;     /* per enemy slot (scratch) */
  size_t g_cell_cap;

  /* scratch */
  uint32_t *cand;         /* script targeting candidates */
  size_t cand_cap;
  sweep_hit *sweep;       /* a pierce shot's hits in one tick */
  size_t sweep_cap;
  float max_radius;       /* largest enemy radius, map units */
  int32_t *must;          /* placement must_reach */
  size_t must_cap;
  uint8_t *mark;          /* per node */
  float *rects;           /* obstacles */
  td_graph_change *batch;
  size_t batch_cap;
};

/* world.c */
void world_fail(td_world *w, const char *what);
void world_emit(td_world *w, const td_event *e);
td_event world_event(const td_world *w, td_event_kind k);
uint32_t pcg32_next(pcg32 *r);
void pcg32_seed(pcg32 *r, uint64_t seed);

/* enemy.c */
static inline uint32_t make_handle(uint32_t gen, size_t slot) {
  return ((gen & (0xFFFFFFFFu >> HANDLE_BITS)) << HANDLE_BITS) | (uint32_t)(slot + 1);
}
int64_t enemy_slot(const td_world *w, uint32_t handle); /* a live (targetable) enemy, or -1 */
uint32_t enemy_handle(const td_world *w, size_t slot);
bool enemy_active(const enemy_rec *e);
/* A new enemy at node (lane, slot: crowd offsets in map units); its slot,
** or -1 (the world is broken, or err says what was wrong). */
int64_t enemy_add(td_world *w, int32_t type, int32_t node, float health, float scale,
                  int32_t wave, int32_t group, float lane, float slot, td_err *err);
int32_t group_take(td_world *w);
/* A hit of raw damage; emits TD_EVENT_HIT. l: the level of the tower's shot
** (its effect is applied, and the event says source tower), NULL for a
** script's (source script, credited to tower's current level if any). */
float enemy_hit(td_world *w, size_t slot, float raw, int32_t dtype, uint32_t tower,
                const td_tower_level *l);
void enemy_effect(td_world *w, size_t slot, const td_effect *fx, int32_t dtype, uint32_t tower);
void enemies_sync(td_world *w);
void enemies_update(td_world *w);
void enemies_reap(td_world *w);
int grid_build(td_world *w);
/* Calls f(ctx, slot) for every active enemy in the cells that overlap the
** square of half side r around (x, y), in cell order then slot order. */
typedef void (*grid_visit)(void *ctx, td_world *w, size_t slot);
void grid_query(td_world *w, float x, float y, float r, grid_visit f, void *ctx);
bool can_hit(const td_tower_level *l, const td_enemy_type *t);
/* Every change of an enemy's state goes through here: it counts the arrow
** (unit.h) and tells the crowd whether the agent stands (STUNNED, BLOCKED,
** ATTACK) or moves. */
void enemy_go(td_world *w, size_t slot, td_enemy_state to);
/* The state an active enemy should be in, from its stun, its holder (and
** whether at hand) and its siege; applied through enemy_go when it differs.
** Call after changing stun_ticks, holder, at_hand or siege. */
void enemy_settle(td_world *w, size_t slot);
/* A hit of raw damage from a soldier (source SOLDIER; credited to its
** barracks). */
float enemy_hit_by_soldier(td_world *w, size_t slot, float raw, int32_t dtype, uint32_t soldier,
                           uint32_t tower);

/* soldier.c (unit.h's soldier machine; the path queue's client) */
int soldiers_init(td_world *w);           /* the path queue: 0, or -1 (OOM) */
void soldiers_free(td_world *w);
void soldiers_update(td_world *w);        /* path queue tick, then every soldier */
/* A barracks on base was built, upgraded, sold or destroyed: musters,
** retypes or frees its soldiers. */
void soldiers_tower_changed(td_world *w, int32_t base);
/* The graph's blocked flags changed (a tower came or went): paths are
** checked, the queue restarted. */
void soldiers_route_changed(td_world *w);
/* An enemy held by a soldier died, leaked or stopped being held: its
** soldier lets go. */
void soldiers_enemy_gone(td_world *w, size_t enemy_slot);
td_refusal soldiers_rally(td_world *w, int32_t base, float x, float y);
/* The rules changed (td_world_set_rules): every barracks as if upgraded. */
void soldiers_rules_changed(td_world *w);
/* After a load: counts and the derived footprints. */
void soldiers_rebuild(td_world *w);
/* The path queue's callback (saved requests are answered through it). */
void soldiers_path_done(void *user, uint32_t id, td_astar_status st, const int32_t *path,
                        size_t len, td_cost cost);
int64_t soldier_slot(const td_world *w, uint32_t handle); /* a non-free soldier, or -1 */
uint32_t soldier_handle(const td_world *w, size_t slot);

/* siege.c (sappers, tower health, repair) */
void sieges_update(td_world *w);          /* sappers pick towers and hit them */
td_refusal tower_repair(td_world *w, int32_t base);
/* A tower at 0 health falls: the base reopens (as a sale, no refund);
** TOWER_DESTROYED credits enemy (0: none). */
void tower_destroy(td_world *w, int32_t base, uint32_t enemy);
/* The tower on base is gone (sold or fallen): every sapper attacking it
** forgets it (siege -1) and walks on (a stunned one when its stun ends). */
void sieges_tower_gone(td_world *w, int32_t base);
/* The tower on base changed level (an upgrade, a reload) from one whose
** maximum health was old_max: it keeps the share of health it had. */
void tower_rescale_health(td_world *w, int32_t base, float old_max);
/* After td_world_set_rules swapped in new rules (old: the previous ones):
** towers keep their share of health, and an enemy whose type is no longer
** a sapper leaves its tower. */
void sieges_rules_changed(td_world *w, const td_rules *old);

/* tower.c */
td_refusal tower_place(td_world *w, int32_t base, int32_t type, td_place_check *info,
                       bool apply);
td_refusal tower_upgrade(td_world *w, int32_t base, int32_t child);
td_refusal tower_sell(td_world *w, int32_t base);
/* What a sale and a fall share (tower.c has the contract): 0, or -1 when
** out of memory (the world is broken). */
int tower_clear(td_world *w, int32_t base, const char *what);
int tower_reapply_blocks(td_world *w, td_err *err);
void towers_positions(td_world *w);
void towers_buffs(td_world *w);
void towers_update(td_world *w);
int obstacles_update(td_world *w);
uint32_t tower_handle(const td_world *w, size_t base);
int64_t tower_slot(const td_world *w, uint32_t handle);

/* The nodes a change of the route must leave routed: the spawns, then the
** nodes walking enemies came from (in w->must); SIZE_MAX when out of
** memory. */
size_t route_must_reach(td_world *w);

/* cost.c */
double cost_edge_factor(const td_world *w, int32_t e);
/* Room for need changes in w->batch (the scratch batch of sales, previews
** and costs): 0, or -1 when out of memory. */
int grow_batch(td_world *w, size_t need);
/* After a load: the graph's factors from edge_cost and node_cost. */
int costs_reapply(td_world *w, td_err *err);

/* shot.c */
void tower_fire(td_world *w, size_t base, size_t target);
void shots_update(td_world *w);
int64_t shot_take(td_world *w);

/* wave.c */
void waves_update(td_world *w);
td_refusal wave_call(td_world *w);
void waves_settle(td_world *w);
wave_rec *wave_find(td_world *w, int32_t n);
bool wave_scripted(const td_world *w, int32_t n);
bool waves_left(const td_world *w);

#endif
