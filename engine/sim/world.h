/*
** world.h: one game in progress: towers, enemies, projectiles, effects,
** economy and waves on a map, stepped in fixed ticks by commands.
**
** What. A td_world runs the rules (sim/rules.h) on a map (sim/map.h). It
** keeps its own copy of the map's graph and a route on it (towers block the
** copy, never the caller's map), a crowd that moves the enemies
** (crowd/crowd.h), the towers (one per tower base at most), the enemies, the
** projectiles, gold and lives, the wave schedule and one seeded RNG. The only
** thing that advances it is td_world_step; the player changes it only
** through commands (td_world_command), which are data stamped with the tick
** they apply at, so a replay is map + rules + seed + commands. The mutators
** near the end (give gold, damage, spawn, apply an effect) are for the
** script layer's handlers, called from the hooks during a step.
**
** One step (tick t, TD_WORLD_TICK_HZ per second):
**   1. the events of the last step are dropped;
**   2. queued commands with tick <= t apply, in the order they were queued;
**   3. unless paused or over: the wave clock advances (a wave starts,
**      pending spawn groups whose delay is up spawn), the crowd moves,
**      leaks cost lives, effects tick (damage over time, regeneration,
**      healers), the path queue answers and soldiers walk and fight,
**      towers aim and fire, projectiles fly and hit;
**   4. the game's end is checked (WAVE_ENDED, WON, LOST);
**   5. the tick hook runs, then every event of the step is handed to the
**      event hook in order; events the hooks cause are appended and handed
**      on in the same loop, at most TD_WORLD_HOOK_EVENTS per step;
**   6. killed and leaked enemies are removed (their handles die); t + 1.
** While paused, steps still count ticks and apply commands (so a RESUME
** stamped for a later tick can arrive), but nothing else moves.
**
** Units. Rules are in tiles; the world works in map units (a tile is
** map->tile_w units): ranges, radii, speeds, splash and chain ranges are
** multiplied by tile_w once, at use. Times are seconds; one tick is 1/60 s.
**
** Damage and effects (docs/world.md has the long form).
**   A hit of d points of type t takes td_rules_damage(enemy, d, t) health
**   (resistance, then flat armour, never below TD_RULES_MIN_DAMAGE x d).
**   SLOW: one slow per enemy; a new slow keeps the stronger magnitude and
**     the longer remaining duration (strongest applies, durations refresh
**     to the max). A boss takes half the magnitude. Speed x (1 - slow).
**   DOT: one stack per damage type; a new dot keeps the larger damage per
**     second and the longer duration, and credits the tower that applied
**     the larger one. Damage over time ignores armour and the minimum (it
**     is not a hit): dps x dt x (1 - resist[t]) per tick; it emits no HIT
**     event, but a kill by it emits KILLED crediting that tower.
**   STUN: the longer duration; bosses are immune. A stunned enemy stands.
**   Effects are applied by every hit of a tower with one (splash, chain and
**   pierce hits included) to an enemy that survives the hit.
**   Buffs: a support tower (rate 0) raises the damage and the rate of every
**   other tower whose centre is within its range. Buffs do not stack: of
**   each kind (damage, rate) the strongest support in range applies.
**   Regeneration and healing: every tick, each enemy regains regen x dt,
**   then each healer gives heal_rate x dt to every other enemy within
**   heal_radius but those a soldier holds; healers stack; health never
**   exceeds its maximum.
**
** Targeting. A tower sees enemies whose centre is within its range of its
** centre and that it can hit (hits_ground / hits_air); dying and leaked
** enemies are never seen. FIRST: least route distance left (walkers: the
** route's dist of the node they walk to plus the straight distance to it;
** flyers: straight distance to the nearest goal); LAST: the most; STRONGEST:
** most health (ties: FIRST); CLOSEST: nearest to the tower; SCRIPT: the
** target hook chooses among the candidates, listed in handle-slot order
** (FIRST when no hook is set). Remaining ties go to the lower enemy slot.
** Tower states (seed 002): IDLE (no target) -> AIMING (aim_time counts
** down, the turret turns at turn_rate; a new target restarts the aim) ->
** FIRING (one tick: the shot leaves) -> COOLDOWN (1 / rate, carried over
** exactly so a tower fires at its rate on average) -> the target is chosen
** again: the same one is fired at without aiming again.
**
** Shots. INSTANT hits at once. HOMING flies at shot_speed towards the
** target's current position; if the target dies it flies on to its last
** position. BALLISTIC flies to where the target was when it fired. On
** arrival, with splash > 0 every enemy the tower can hit within splash of
** the point is hit (the target included); without splash a homing shot hits
** its target (if alive), a ballistic one the nearest enemy whose body covers
** the point. CHAIN hits its target, then jumps up to `chain` times to the
** nearest enemy not hit yet within chain_range of the last one hit, damage x
** chain_falloff per jump. PIERCE flies straight towards where the target was,
** for the tower's range, and hits every enemy whose body its path crosses,
** up to `pierce` of them, none twice (it remembers the last
** TD_WORLD_PIERCE_MEMORY it hit). Splash applies to INSTANT, HOMING and
** BALLISTIC shots. Damage is fixed when the shot leaves (buffs included).
**
** Economy. Placing costs the root level's cost, an upgrade the child's; a
** sale gives back floor(sell_refund x the gold spent on that tower). A kill
** pays the enemy's bounty; a leak costs its lives. wave_income is paid at
** the start of every wave; calling the next wave early pays
** floor(early_bonus x seconds skipped).
**
** Waves. Wave 1 starts first_wave_delay after the start (with
** first_wave_waits: after the first tower placed, or at once when called),
** each next one
** wave_interval after the previous wave started (or was called). Its groups
** follow rules.h's formulas; each group spawns delay seconds after the
** wave's start, as one formation per spawn point (per_row, width and
** spacing in tiles). An enemy that splits on death spawns split_count of
** split_into where it died (walkers at the nearer end of their segment),
** with the same health scale, in the same wave. A wave ends when all its
** groups have spawned and none of its enemies is left. The game is won when
** the last wave (wave_count) has started and no enemy and no pending spawn
** is left; it is lost when lives reach 0. Endless mode never wins: waves go
** on past wave_count.
**
** Soldiers (unit.h has the state machine). A barracks (a level with
** soldiers > 0) keeps that many soldiers of its level's soldier type, each
** on a post of its own around its rally point: its centre when built,
** moved by RALLY. Posts: one soldier on the rally point, more on a ring
** round it (radius max(1.2 r / sin(pi / n), 0.35 tiles), the first post
** north), each settled on the nearest ground a post may take: on a grid
** map a point in an open cell (walkable, not blocked by a tower), kept a
** radius inside it, in line of sight of the cell the rally point itself
** settles in; on a waypoint map the road (map.h), kept a radius
** inside its edge where it is wide enough; always with the soldier's disc
** out of every tower's footprint (the barracks' own included). Posts are
** made again whenever the rally point, the level or the ground changes.
** RALLY is refused: NO_BASE, NO_TOWER, NO_SOLDIERS (not a barracks),
** RALLY_RANGE (farther than the level's range from the tower's centre),
** RALLY_GROUND (not finite; inside a tower's footprint; on a grid outside
** the grid or in a closed cell; on a waypoint map off the road); accepted,
** every soldier not fallen (DIE, RESPAWN) lets go of its enemy and walks
** to its new post (MOVE): RALLIED. Soldiers come out of the barracks'
** door: the point next to its footprint (a radius and 0.05 tile off it)
** nearest the middle of its posts, settled on the ground (grid: the nearest
** open cell). Built or upgraded to more soldiers: new ones at the door
** (MOVE); upgraded to another type: the same share of health; to fewer:
** the last posts' soldiers go; sold or destroyed: all go (FREE), letting
** go of their enemies.
**   Walking. On grid maps every walk (to a post, to an enemy) is a least-
** cost path (Jump Point Search, or A* while a cost rule weighs the grid)
** from the soldier's cell to the target's cell from the path queue
** (nav/pathq.h, TD_WORLD_PATH_BUDGET expansions per tick, in request
** order; the soldier stands while it waits), simplified by line of sight,
** then straight to the target; no tick's move ends in a closed cell or in
** a cell out of line of sight of the one it began in. A path a new tower
** cuts (its corners no longer see each other) is asked for again; a tower
** built where a soldier stands puts it on the nearest open cell. On
** waypoint maps a target within 4 tiles whose straight way no footprint
** shuts is walked to straight across the open ground, a farther one along
** the graph (the same queue, unsimplified, from the node nearest the
** soldier to the node nearest the target) then straight; straight legs
** steer round footprints with a fan of rays (nav/fan.h, seed 003). After
** every move the soldier's disc is pushed out of every footprint (on a
** grid not into a cell it may not reach). No soldier stands in a closed
** cell or a tower's footprint. Soldiers pass through each other.
**   Fighting. An IDLE soldier, or a MOVE one within its sight of its post
** (on a grid also in line of sight of it), engages the ground enemy
** (active, on the map, not flying) that no soldier holds nearest its post
** within its sight of it (on a grid also in line of sight of the post;
** ties: the lower enemy slot): ENGAGED; the enemy stops and waits
** (BLOCKED; a sapper at a tower leaves it; a stunned one stays STUNNED
** until the stun ends). The soldier walks to it; when their bodies touch
** (centres within both radii + 0.1 tile) both fight (ATTACK): the soldier
** hits at its rate (its first hit at once), the enemy back with its melee
** (td_rules_soldier_damage) while at hand and not stunned, each cooldown
** carried over. A soldier lets go (ENGAGE -> MOVE) when its enemy stands
** farther than its sight + 0.5 tile from its post, or (grids) when no way
** leads to it or the way is longer than 2 x sight + the straight distance:
** it does not engage that enemy again while it lives. A soldier whose
** enemy dies or leaks walks back (MOVE). At 0 health it falls (DIE,
** SOLDIER_DIED; its enemy walks on), lies TD_SOLDIER_FALL_TIME, waits
** `respawn` seconds at the door (RESPAWN), then walks out with full
** health. IDLE soldiers regain `regen` health per second. Enemies behind
** a held one queue in their lanes and pass where the road is wide enough.
** Flyers are never engaged. A soldier's hit is a hit (resistances and
** armour apply, no effect; source SOLDIER, credited to the barracks).
**   Soldiers and the path queue are state: saved, loaded (a loaded queue
** finishes its search in progress on the same tick), checksummed.
**
** Towers under fire. A tower level may have health (> 0). A sapper (an
** enemy with siege damage) on the map, not held by a soldier and not
** stunned, that comes within siege_range of the footprint of a tower with
** health (its body's edge to the base's rectangle: centre distance <=
** radius + siege_range) stops and attacks it (ATTACK): the nearest such
** tower, ties to the lower base; it keeps that one while it stays in reach
** and damageable. Its attack clock runs only while it attacks (a stun
** holds it): the first hit comes at once, then one every 1 / siege_rate,
** the remainder carried over; each hit takes siege_damage (no armour)
** and emits TOWER_DAMAGED. At 0 health the tower falls: TOWER_DESTROYED
** right after the last TOWER_DAMAGED, the base is free again, what the
** tower blocked is unblocked through the route's incremental update (as a
** sale), enemies re-route, its soldiers are gone; no refund. When a tower
** is sold or falls, every sapper attacking it walks on (a stunned one when
** its stun ends); one upgraded to a level without health is left the next
** step. Health is per level: an upgrade keeps the share of health the
** tower had. REPAIR restores full health for ceil(repair_cost x spent x
** missing / max) gold, a millionth of it forgiven first so that float
** noise (0.3 is 0.30000001) never costs a gold more (refused:
** NOT_DAMAGED, GOLD).
**
** Placement. A tower applies its base's block batch through
** td_route_try_apply; it is refused (CUTS_ROUTE) when a spawn, or a node a
** walking enemy is heading to, would be cut off from every goal. Selling
** unblocks what no other tower still blocks (blocks are counted per edge
** and node). Flyers avoid the rectangles of the bases that have a tower.
**
** Costs. Rules may change what the ground costs (mud, bridges): every edge
** has its own factor (the map's `cost` until a rule sets it) and every node
** one (1 until set: on a grid map a node is a tile), and an edge weighs its
** length x its own factor x the mean of its two nodes' factors (so a tile's
** factor is the cost of crossing it: half of each step that enters or
** leaves it). A change goes through the route like a placement (one
** td_route_try_apply with the same must_reach; a factor never cuts a route)
** and the enemies re-steer. The factors are state: saved, loaded and
** checksummed (a game that never changes one keeps the checksums it had).
**
** Memory: the world borrows the map and the rules (both must outlive it and
** not change) and owns everything else; all allocation goes through td_mem.
** A failed allocation inside a step makes td_world_step return -1: the
** world is then "broken" (it can still be read, saved is refused, and
** destroyed) and every later step returns -1.
** Determinism: no clock, no addresses, no unordered iteration; one RNG
** (PCG32) seeded at creation, used by nothing but its callers (the script
** layer binds math.random to it). Same map, rules, seed, commands and hook
** behaviour: same state bits every tick (td_world_checksum), and a loaded
** save continues exactly as the world that was saved.
*/
#ifndef TD_WORLD_H
#define TD_WORLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "crowd/crowd.h"
#include "nav/blob.h"
#include "nav/pathq.h"
#include "nav/route.h"
#include "sim/event.h"
#include "sim/map.h"
#include "sim/rules.h"
#include "sim/unit.h"

#define TD_WORLD_TICK_HZ 60
#define TD_WORLD_HOOK_EVENTS 65536    /* events handed to the event hook per step, at most */
#define TD_WORLD_PIERCE_MEMORY 16     /* enemies a pierce shot remembers having hit */
#define TD_WORLD_MAX_ENEMIES (1u << 20)
#define TD_WORLD_SAVE_VERSION 3       /* 2: the costs rules set; 3: soldiers, tower health */
#define TD_WORLD_PATH_BUDGET 2048     /* node expansions the path queue spends per tick */
#define TD_WORLD_MAX_COST 1000.0      /* a cost factor is in (0, this], as a path's `cost` */

typedef struct td_world td_world;

/* ---- lifetime ------------------------------------------------------------ */

/* A world at tick 0 (nothing spawned; wave 1 due after first_wave_delay).
** The rules must validate (td_rules_validate) and fit the map: every spawn
** group's spawn names one of the map's spawns; the map needs a spawn, a
** goal and tile_w > 0. NULL with err set otherwise or when out of memory. */
td_world *td_world_create(const td_map *map, const td_rules *rules, uint64_t seed,
                          td_err *err);
void td_world_destroy(td_world *w);

/* Endless mode: waves go on past wave_count, the game is never won. */
void td_world_set_endless(td_world *w, bool endless);

/* Hot reload: the world runs on rules from now on (they must outlive it).
** Refused (-1, err naming what does not fit, nothing changed) unless they
** validate, fit the map, and every index the world holds stays meaningful:
** each tower's level exists and belongs to the same tower type, each
** enemy's type and each pending spawn's group exist. Not from a hook.
** What changed applies from then on (new spawns, new shots, upgrades);
** enemies keep their health; towers keep their share of health (as on an
** upgrade), and an enemy whose type is no longer a sapper leaves its
** tower. */
int td_world_set_rules(td_world *w, const td_rules *rules, td_err *err);
/* td_world_set_rules's checks alone: 0 when rules would be taken. */
int td_world_check_rules(const td_world *w, const td_rules *rules, td_err *err);

/* ---- commands and stepping ----------------------------------------------- */

typedef enum td_command_kind {
  TD_COMMAND_PLACE = 0,  /* base, tower_type */
  TD_COMMAND_UPGRADE,    /* base, upgrade (index into the level's children) */
  TD_COMMAND_SELL,       /* base */
  TD_COMMAND_TARGET,     /* base, mode */
  TD_COMMAND_CALL_WAVE,  /* start the next wave now, for the early bonus */
  TD_COMMAND_PAUSE,
  TD_COMMAND_RESUME,
  TD_COMMAND_RALLY,      /* base (a barracks), x, y: its soldiers' new rally point */
  TD_COMMAND_REPAIR,     /* base: full health for gold (see Towers under fire) */
  TD_COMMAND_KIND_COUNT
} td_command_kind;

typedef struct td_command {
  uint64_t tick;         /* applies at the start of this tick (a past tick: the next) */
  td_command_kind kind;
  int32_t base;          /* index into map->bases */
  int32_t tower_type;    /* index into rules->towers */
  int32_t upgrade;       /* child index, 0 .. TD_RULES_MAX_CHILDREN - 1 */
  td_target_mode mode;
  float x, y;            /* RALLY: the point, map units */
} td_command;

/* Queues a copy. 0, or -1 with err set when out of memory. A command that
** cannot apply is refused when its tick comes (TD_EVENT_REFUSED). */
int td_world_command(td_world *w, const td_command *cmd, td_err *err);

/* Advances one tick (see the top). 0, or -1 with err set when an
** allocation failed (the world is then broken) or when called from a hook. */
int td_world_step(td_world *w, td_err *err);

/* The events of the last step, in order (see event.h). Valid until the next
** step. */
const td_event *td_world_events(const td_world *w, size_t *n);

/* A place command's verdict without changing anything (the UI's ghost).
** reason NONE: it would be placed. CUTS_ROUTE: spawn is the spawn index cut
** off (-1: a node an enemy is heading to), node the node; text is one line
** for a person ("would cut spawn 'north' (object 7) off from every goal"). */
typedef struct td_place_check {
  td_refusal reason;
  int32_t spawn;
  int32_t node;
  char text[160];
} td_place_check;
bool td_world_check_place(td_world *w, int32_t base, int32_t tower_type, td_place_check *out);

/* The route as it would become with a tower of tower_type on base (the
** ghost's preview): writes every node's next (the route's node_count
** entries, as td_route_next) to next_out and returns true; nothing changes
** (the base's block batch is applied to the route, next[] copied, and the
** batch rolled back: dist and next are a function of the blocked flags, so
** the route is as before). Gold is not checked. false, next_out untouched,
** when td_world_check_place would refuse it for another reason than gold
** (game over, no base, occupied, no such type, cuts the route) or when out
** of memory. Not from a hook. */
bool td_world_preview_next(td_world *w, int32_t base, int32_t tower_type, int32_t *next_out);

/* One line for a person about a REFUSED event of this world (for a
** CUTS_ROUTE refusal the event's x, y are the cut node's position and its
** amount the spawn index, -1 for an enemy's node). Writes at most cap bytes. */
void td_world_refusal_message(const td_world *w, const td_event *e, char *buf, size_t cap);

/* ---- hooks for the script layer ------------------------------------------ */

typedef struct td_world_hooks {
  void *ud;
  /* every event of a step, in order, after the step's work (a copy: the
  ** list may grow while the hook runs) */
  void (*event)(void *ud, td_world *w, const td_event *e);
  /* once per step, before the events are handed out (also while paused) */
  void (*tick)(void *ud, td_world *w);
  /* SCRIPT targeting: an index into enemies (handles, in slot order), or -1
  ** for none */
  int32_t (*target)(void *ud, td_world *w, uint32_t tower, const uint32_t *enemies, size_t n);
} td_world_hooks;

/* Copies h (NULL: no hooks). Hooks are not part of the state (not saved). */
void td_world_set_hooks(td_world *w, const td_world_hooks *h);

/* ---- mutators for handlers (any time, typically from a hook) -------------- */

/* Adds amount (may be negative; gold never goes below 0). */
void td_world_give_gold(td_world *w, int32_t amount);

/* A hit of `amount` of damage_type (armour and resistance apply) credited to
** tower (0: none). Returns the health taken; 0 for a dead handle or a bad
** damage type. May kill (KILLED, bounty, split). */
float td_world_damage(td_world *w, uint32_t enemy, float amount, int32_t damage_type,
                      uint32_t tower);

/* An effect under the stacking rules above; damage_type is a DOT's type,
** tower the tower credited. 0, or -1 for a dead handle or a bad effect. */
int td_world_apply_effect(td_world *w, uint32_t enemy, const td_effect *e, int32_t damage_type,
                          uint32_t tower);

typedef struct td_spawn_desc {
  int32_t type;          /* enemy type */
  int32_t spawn;         /* map spawn index, or -1: at node */
  int32_t node;          /* graph node when spawn is -1 */
  float health;          /* 0: the type's */
  float lane, slot;      /* offsets in tiles (crowd.h) */
  int32_t wave;          /* the running wave it belongs to (a wave script's), 0: none */
} td_spawn_desc;

/* Spawns one enemy now (belonging to d->wave when that wave is running,
** else to no wave). Its handle, or 0 with err set (bad type or place, or
** out of memory: then the world is broken). */
uint32_t td_world_spawn_enemy(td_world *w, const td_spawn_desc *d, td_err *err);

/* Waves that a script runs (the mod's td.wave(function)): such a wave
** starts held (as if a batch of it were pending), so it does not end
** before its script has spawned; the script lets it go when it ends
** (td_world_wave_hold -1). waves: any order, copied; it is the mod's
** knowledge, not the world's state (not saved: set it again after a load
** or a reload). 0, or -1 with err set (out of memory, a wave < 1). */
int td_world_set_scripted_waves(td_world *w, const int32_t *waves, size_t n, td_err *err);

/* Holds a running wave open (delta +1) or lets it go (-1): a wave does not
** end while it is held, as while batches of it are pending. The holds are
** part of the wave's record (saved). false when wave n is not running or
** not held (nothing changes). */
bool td_world_wave_hold(td_world *w, int32_t wave, int delta);
/* What td_world_set_cost names: edges of the graph (a path's, say:
** map.h), or nodes (a grid map's tiles: td_grid_node_at). */
typedef enum td_cost_target { TD_COST_EDGE = 0, TD_COST_NODE } td_cost_target;

/* Sets the cost factor of n edges or nodes (ids; repeats are fine) to
** factor, in (0, TD_WORLD_MAX_COST], through one route update (see Costs
** at the top), from a hook or between steps. 0, or -1 with err set and
** nothing changed: a factor out of range or not a number, an unknown id,
** a broken world, out of memory (the world is not broken by it), or
** factors that would make the graph's weights too long in all (graph.h). */
int td_world_set_cost(td_world *w, td_cost_target t, const int32_t *ids, size_t n,
                      double factor, td_err *err);
/* The factor last set for an edge (the map's when no rule set one) or a
** node (1 when none did); -1 for an unknown id. An edge's weight uses
** the product described at the top: td_route_graph(td_world_route(w))->
** edges[e].factor. */
double td_world_cost(const td_world *w, td_cost_target t, int32_t id);

/* The world's RNG (PCG32): 32 random bits; a float in [0, 1) (24 bits); an
** integer in [lo, hi] without bias (hi < lo: lo). */
uint32_t td_world_random(td_world *w);
float td_world_random_float(td_world *w);
int32_t td_world_random_range(td_world *w, int32_t lo, int32_t hi);

/* ---- read access --------------------------------------------------------- */

typedef enum td_game_state { TD_GAME_PLAYING = 0, TD_GAME_WON, TD_GAME_LOST } td_game_state;

int32_t td_world_gold(const td_world *w);
int32_t td_world_lives(const td_world *w);
uint64_t td_world_tick(const td_world *w);         /* steps run */
int32_t td_world_wave(const td_world *w);          /* last wave started, 0: none yet */
/* Ticks until the next wave starts (counting unpaused ticks), -1 when no
** wave is left. */
int64_t td_world_next_wave_ticks(const td_world *w);
td_game_state td_world_state(const td_world *w);
bool td_world_paused(const td_world *w);
/* Wave 1 waits for the player (rules->first_wave_waits): no tower placed
** and no wave called yet. td_world_next_wave_ticks says first_wave_delay
** until then. */
bool td_world_first_wave_waiting(const td_world *w);
bool td_world_endless(const td_world *w);
const td_crowd *td_world_crowd(const td_world *w);
const td_route *td_world_route(const td_world *w);
const td_map *td_world_map(const td_world *w);
const td_rules *td_world_rules(const td_world *w);

/* Next-wave preview: the groups of wave n (n >= 1), one entry per group, in
** the rules' order. Writes at most cap entries; returns how many there are. */
typedef struct td_wave_entry {
  int32_t group;         /* index into rules->groups */
  int32_t enemy;         /* enemy type */
  int32_t count;         /* per spawn point */
  int32_t spawns;        /* spawn points it comes from */
  float health;          /* each */
  float delay;           /* seconds after the wave's start */
} td_wave_entry;
size_t td_world_preview(const td_world *w, int32_t n, td_wave_entry *out, size_t cap);

/* td_enemy_state: sim/unit.h (the state machine's table). */

typedef struct td_enemy_view {
  uint32_t handle;
  td_enemy_state state;
  int32_t type;
  int32_t wave;          /* 0: none */
  float x, y, radius;    /* map units */
  float facing;          /* radians, direction of motion */
  float health, max_health;
  float slow, slow_time; /* magnitude applied, seconds left */
  float stun_time;
  uint32_t dots;         /* bit t: a damage-over-time of type t is active */
  float route_left;      /* map units to a goal (the FIRST key) */
  bool flying, boss;
  bool waiting;          /* at its spawn's gate, not on the map yet: not drawn, no target */
  uint32_t holder;       /* the soldier that holds it (BLOCKED, ATTACK), 0: none */
  int32_t siege;         /* the base whose tower it attacks (ATTACK), -1: none */
  float attack_cooldown; /* seconds to its next hit (melee or siege) */
} td_enemy_view;

/* Enemies by slot, 0 .. td_world_enemy_capacity - 1; false for a free slot. */
size_t td_world_enemy_capacity(const td_world *w);
size_t td_world_enemy_count(const td_world *w);   /* not free */
bool td_world_enemy(const td_world *w, size_t slot, td_enemy_view *out);
/* By handle; false when the handle is dead. */
bool td_world_enemy_get(const td_world *w, uint32_t handle, td_enemy_view *out);

typedef enum td_tower_state {
  TD_TOWER_IDLE = 0,
  TD_TOWER_AIMING,
  TD_TOWER_FIRING,
  TD_TOWER_COOLDOWN
} td_tower_state;

typedef struct td_tower_view {
  uint32_t handle;
  int32_t base;
  int32_t type;          /* tower type */
  int32_t level;         /* tower level (rules->levels) */
  int32_t depth;         /* upgrades bought from the root */
  td_target_mode mode;
  td_tower_state state;
  uint32_t target;       /* enemy handle, 0: none */
  float x, y;            /* centre of its base */
  float facing;          /* turret, radians */
  float cooldown;        /* seconds until it may fire */
  float buff_damage, buff_rate; /* applied (the strongest support's) */
  int32_t spent;         /* gold spent on it */
  float health, max_health; /* max_health 0: it cannot be damaged */
  int32_t soldiers;      /* a barracks: soldiers it keeps (its level's), 0: not one */
  float rally_x, rally_y;/* a barracks: its rally point */
} td_tower_view;

/* What a repair of the tower on base costs now (see Towers under fire), or
** -1 when there is nothing to repair (no tower, full health, cannot be
** damaged). */
int32_t td_world_repair_cost(const td_world *w, int32_t base);

/* A hit of amount on a tower (a script's; sappers hit through the same
** path): emits TOWER_DAMAGED, and TOWER_DESTROYED at 0 health (the base
** reopens at once: from a hook too). Returns the health taken (at most
** what it had); 0, and nothing happens, for a dead handle, a tower that
** cannot be damaged, a broken world, or an amount that is not finite and
** > 0. enemy: the sapper credited in the events, 0 (a handle that is not
** a live enemy is credited as 0). */
float td_world_damage_tower(td_world *w, uint32_t tower, float amount, uint32_t enemy);

/* ---- soldiers (unit.h) ---------------------------------------------------- */

typedef struct td_soldier_view {
  uint32_t handle;
  td_soldier_state state;
  int32_t type;          /* soldier type */
  int32_t base;          /* its barracks' base */
  uint32_t tower;        /* its barracks */
  uint32_t enemy;        /* the enemy it holds (ENGAGE, ATTACK), 0: none */
  float x, y, radius;    /* map units */
  float facing;          /* radians */
  float health, max_health;
  float post_x, post_y;  /* where it stands when IDLE */
  float cooldown;        /* seconds to its next hit */
  float timer;           /* DIE, RESPAWN: seconds left */
  uint32_t request;      /* its path request in the queue, 0: none */
} td_soldier_view;

/* Soldiers by slot, 0 .. td_world_soldier_capacity - 1; false for a free
** slot. */
size_t td_world_soldier_capacity(const td_world *w);
size_t td_world_soldier_count(const td_world *w);    /* not FREE */
bool td_world_soldier(const td_world *w, size_t slot, td_soldier_view *out);
bool td_world_soldier_get(const td_world *w, uint32_t handle, td_soldier_view *out);
/* The way a soldier still has to walk: its position, then every corner of
** its path (map units, x then y), writing at most cap points to xy;
** returns how many there are (0 for a dead handle). */
size_t td_world_soldier_path(const td_world *w, uint32_t handle, float *xy, size_t cap);

/* Where the soldiers of a barracks of tower_type on base would stand with
** their rally point at (x, y): the posts, at most cap (x then y, map
** units). Returns how many (the level's soldiers), or 0 with *why set when a
** RALLY there would be refused (NO_SOLDIERS, RALLY_RANGE, RALLY_GROUND,
** NO_BASE). For the ghost's preview of a rally flag; the tower need not be
** built (its root level is read). */
size_t td_world_rally_posts(const td_world *w, int32_t base, int32_t tower_type, float x,
                            float y, float *xy, size_t cap, td_refusal *why);

/* The path queue the soldiers use (nav/pathq.h): its counters (last tick's
** expansions among them) and the requests not answered yet. */
const td_pathq_stats *td_world_pathq_stats(const td_world *w);
size_t td_world_pathq_pending(const td_world *w);

/* How many times the arrow from -> to of a unit kind's state machine was
** taken since the world was created or loaded (unit.h; not state: not
** saved, not checksummed). For tests of the tables. */
uint64_t td_world_arrows(const td_world *w, td_unit_kind k, int from, int to);

/* Towers by base index, 0 .. map->base_count - 1; false where no tower. */
bool td_world_tower(const td_world *w, size_t base, td_tower_view *out);
bool td_world_tower_get(const td_world *w, uint32_t handle, td_tower_view *out);
size_t td_world_tower_count(const td_world *w);

typedef struct td_shot_view {
  td_shot_kind kind;
  uint32_t tower, target;
  int32_t level;
  float x, y;            /* where it is */
  float tx, ty;          /* where it is going */
} td_shot_view;

size_t td_world_shot_capacity(const td_world *w);
bool td_world_shot(const td_world *w, size_t slot, td_shot_view *out);

/* For soak tests (`td soak`): the number of float fields of the world's
** state that are NaN or infinite: the world's own scalars, every enemy's,
** tower's, shot's, pending spawn's and soldier's, including those the views above
** leave out or clamp (a tower's cooldown, a shot's damage, an enemy's
** damage over time). When there is one, the first found is named in what
** (cap bytes at most; "enemy slot 3: dot[1] is nan"); what may be NULL.
** The crowd's agents are read through td_crowd_view. Reads only. */
size_t td_world_nonfinite(const td_world *w, char *what, size_t cap);

/* ---- checksums and saves ------------------------------------------------- */

/* FNV-1a 64 over every piece of state (the crowd's through
** td_crowd_checksum); hooks are not state. */
uint64_t td_world_checksum(const td_world *w);

/* A hash of the rules' content (what a save is bound to). */
uint64_t td_world_rules_hash(const td_rules *r);

/* Appends the whole state to b (see docs/world.md for the layout): magic
** "TDWS", version, the rules' and the map's hashes, then everything,
** including the pending commands, the RNG and the crowd. Check b->failed. */
void td_world_save(const td_world *w, td_blob *b);

/* A world from a save made with the same map and rules. NULL with err set
** ("save: truncated at byte N", "save: made with other rules", "save: bad
** tower 3: ...") and nothing allocated when the save is refused. */
td_world *td_world_load(const td_map *map, const td_rules *rules, td_blob_reader *r,
                        td_err *err);

#endif
