/*
** rules.h: the game's rules as plain data: damage types, enemy types, tower
** types with their upgrade trees, and waves made of spawn groups.
**
** A mod's data stage (script/mod.h) fills a td_rules from Lua; tests and
** benchmarks may fill one in code. The world (sim/world.h) only reads it.
** Sizes and distances are in tiles (a map's tile_w map units), speeds in
** tiles per second, times in seconds, rates in shots per second: the same
** rules play on maps drawn at any tile size.
**
** Damage. A hit of d points of damage type t on an enemy takes
**   max(d * (1 - resist[t]) - armour, d * TD_RULES_MIN_DAMAGE)
** off its health (resist may be negative: a weakness; armour is flat).
**
** Waves (after Mindustry's SpawnGroup). Wave n (1-based) spawns every group
** g with g.begin <= n, (g.end == 0 or n <= g.end) and (n - g.begin) % g.every
** == 0, with
**   count  = min(g.count + floor(g.count_growth * (n - g.begin)), g.max_count)
**   health = enemy health * (1 + g.health_growth * (n - g.begin))
** The game is won when wave `wave_count` is cleared; in endless mode waves go
** on past it with the same formulas (groups with end == 0 keep spawning),
** every enemy's health further multiplied by
** (1 + endless_health_growth * (n - wave_count)).
**
** Soldiers and sappers (sim/unit.h has their state machines). A tower level
** with soldiers > 0 is a barracks: it keeps that many soldiers of its
** soldier type near a rally point within its range. An enemy type may fight
** back (melee) against a soldier holding it, and may be a sapper (siege)
** that attacks towers with health > 0; at 0 health a tower is destroyed.
**
** Display names. Enemy types, soldier types, tower types and tower levels
** carry a title (the name a player reads: "Arrow II") and a one-line
** description, both UTF-8 without control characters. The simulation never
** reads them, and they are not part of td_world_rules_hash: a mod may
** reword them without invalidating replays or saves. A mod's data stage
** fills every title (from the name when the mod gives none:
** td_mod_title_from_name); rules built in C may leave them empty.
**
** Upgrades. A tower type is a tree of levels in td_rules.levels: its root is
** what is built, every other level names its parent and is bought from it.
** A level is complete (it lists every stat, not a change).
**
** Memory: a td_rules owns its arrays; td_rules_free releases them and leaves
** a zeroed struct. Determinism: plain data; the order of every array is the
** order of declaration, which is part of the rules (ids are indices).
*/
#ifndef TD_RULES_H
#define TD_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nav/mem.h"

#define TD_RULES_API_VERSION 1
#define TD_RULES_NAME_MAX 32        /* names, with the terminating zero */
#define TD_RULES_TITLE_MAX 40       /* display names (UTF-8), with the zero */
#define TD_RULES_TEXT_MAX 160       /* descriptions (one line of UTF-8), with the zero */
#define TD_RULES_MAX_DAMAGE_TYPES 8
#define TD_RULES_MAX_CHILDREN 4     /* upgrades offered by one level */
#define TD_RULES_MIN_DAMAGE 0.1f    /* a hit always does this share of its damage */
#define TD_RULES_MAX_SOLDIERS 8     /* soldiers one barracks keeps */

typedef enum td_effect_kind {
  TD_EFFECT_NONE = 0,
  TD_EFFECT_SLOW,        /* magnitude: share of speed removed, 0 .. 0.9 */
  TD_EFFECT_DOT,         /* magnitude: damage per second, of the tower's damage type */
  TD_EFFECT_STUN         /* magnitude unused */
} td_effect_kind;

typedef struct td_effect {
  td_effect_kind kind;
  float magnitude;
  float duration;        /* seconds, > 0 unless kind is NONE */
} td_effect;

typedef enum td_shot_kind {
  TD_SHOT_INSTANT = 0,   /* hits at once (a beam, a bullet too fast to see) */
  TD_SHOT_HOMING,        /* a projectile that follows its target */
  TD_SHOT_BALLISTIC,     /* flies to where the target was; splash on landing */
  TD_SHOT_CHAIN,         /* hits, then jumps to `chain` more enemies nearby */
  TD_SHOT_PIERCE         /* a straight projectile through up to `pierce` enemies */
} td_shot_kind;

typedef enum td_target_mode {
  TD_TARGET_FIRST = 0,   /* closest to a goal along the route */
  TD_TARGET_LAST,        /* farthest from a goal */
  TD_TARGET_STRONGEST,   /* most health */
  TD_TARGET_CLOSEST,     /* nearest to the tower */
  TD_TARGET_SCRIPT,      /* the tower type's Lua targeting function */
  TD_TARGET_MODE_COUNT
} td_target_mode;

typedef struct td_enemy_type {
  char name[TD_RULES_NAME_MAX];
  char title[TD_RULES_TITLE_MAX];       /* display name; not hashed */
  char description[TD_RULES_TEXT_MAX];  /* one line, "" none; not hashed */
  float health;          /* > 0 */
  float armour;          /* flat reduction per hit, >= 0 */
  float resist[TD_RULES_MAX_DAMAGE_TYPES]; /* share of damage ignored, -1 .. 0.95 */
  float speed;           /* tiles per second, > 0 */
  float radius;          /* tiles, > 0 */
  int32_t bounty;        /* gold when killed, >= 0 */
  int32_t lives;         /* lives lost when it leaks, >= 0 */
  bool flying;
  bool boss;             /* immune to stun; slows on it are halved */
  float regen;           /* own health per second, >= 0 */
  float heal_radius;     /* heals other enemies within (tiles), 0: none */
  float heal_rate;       /* their health per second */
  int32_t split_into;    /* enemy type spawned on death, -1: none */
  int32_t split_count;   /* how many */
  /* fighting (unit.h): against the soldier that holds it, and a sapper's
  ** siege against towers (0 damage: none; ranges from its body's edge) */
  float melee_damage;    /* per hit on the soldier at hand, >= 0 */
  float melee_rate;      /* hits per second, >= 0 (0: it does not fight back) */
  float siege_damage;    /* per hit on a tower, >= 0 (0: not a sapper) */
  float siege_rate;      /* hits per second, > 0 when siege_damage > 0 */
  float siege_range;     /* tiles from its body to the tower's footprint, >= 0 */
} td_enemy_type;

/* A soldier (unit.h), kept by a barracks: a tower level with soldiers > 0. */
typedef struct td_soldier_type {
  char name[TD_RULES_NAME_MAX];
  char title[TD_RULES_TITLE_MAX];       /* display name; not hashed */
  char description[TD_RULES_TEXT_MAX];  /* one line, "" none; not hashed */
  float health;          /* > 0 */
  float armour;          /* flat reduction per enemy hit, >= 0 (never below the minimum) */
  float damage;          /* per hit, >= 0 */
  int32_t damage_type;   /* index into td_rules.damage_types */
  float rate;            /* hits per second, > 0 */
  float speed;           /* tiles per second, > 0 */
  float radius;          /* tiles, > 0 */
  float respawn;         /* seconds from its fall to the next soldier walking out, >= 0 */
  float sight;           /* tiles: it engages ground enemies this near its post, > 0 */
  float regen;           /* health per second while IDLE, >= 0 */
} td_soldier_type;

typedef struct td_tower_level {
  char name[TD_RULES_NAME_MAX];
  char title[TD_RULES_TITLE_MAX];       /* display name; not hashed */
  char description[TD_RULES_TEXT_MAX];  /* one line, "" none; not hashed */
  int32_t tower;         /* the td_tower_type it belongs to */
  int32_t parent;        /* the level it upgrades from, -1: the root */
  int32_t cost;          /* gold to build (root) or to upgrade into, >= 0 */
  float range;           /* tiles, > 0 (a support tower: its aura's range) */
  float rate;            /* shots per second, >= 0 (0: never fires) */
  float damage;          /* per hit, >= 0 */
  int32_t damage_type;   /* index into td_rules.damage_types */
  td_shot_kind shot;
  float shot_speed;      /* tiles per second (homing, ballistic, pierce) */
  float splash;          /* radius of the splash, tiles (0: none) */
  int32_t chain;         /* chain: extra enemies after the first */
  float chain_range;     /* chain: largest jump, tiles */
  float chain_falloff;   /* chain: damage multiplier per jump, 0 .. 1 */
  int32_t pierce;        /* pierce: enemies it passes through, >= 1 */
  td_effect effect;      /* applied on every hit */
  bool hits_ground, hits_air;
  float aim_time;        /* seconds from acquiring a target to the first shot */
  float turn_rate;       /* turret, radians per second (0: instant) */
  float buff_damage;     /* support: damage multiplier - 1 for towers in range */
  float buff_rate;       /* support: rate multiplier - 1 for towers in range */
  float health;          /* hit points against sappers, >= 0 (0: cannot be damaged) */
  int32_t soldier;       /* barracks: its soldier type (read only when soldiers > 0) */
  int32_t soldiers;      /* barracks: soldiers kept, 0 .. TD_RULES_MAX_SOLDIERS (0: none);
                            range is then how far from the tower its rally point may be */
  int32_t children[TD_RULES_MAX_CHILDREN]; /* upgrades, -1 past the last */
} td_tower_level;

typedef struct td_tower_type {
  char name[TD_RULES_NAME_MAX];
  char title[TD_RULES_TITLE_MAX];       /* display name; not hashed */
  char description[TD_RULES_TEXT_MAX];  /* one line, "" none; not hashed */
  int32_t root;          /* its first level in td_rules.levels */
  td_target_mode default_target;
  bool script_target;    /* the mod gave it a targeting function */
} td_tower_type;

typedef struct td_spawn_group {
  int32_t enemy;         /* index into td_rules.enemies */
  int32_t begin;         /* first wave, >= 1 */
  int32_t end;           /* last wave (0: no end) */
  int32_t every;         /* spawns every `every` waves, >= 1 */
  int32_t count;         /* enemies in wave `begin`, >= 1 */
  float count_growth;    /* more per wave after begin, >= 0 */
  int32_t max_count;     /* cap, >= count */
  float health_growth;   /* health scale per wave after begin, >= 0 */
  int32_t spawn;         /* map spawn index, -1: each spawn gets the group */
  float delay;           /* seconds after the wave starts, >= 0 */
  int32_t per_row;       /* formation: enemies side by side, >= 1 */
  float width;           /* formation: lateral extent, tiles */
  float spacing;         /* formation: between rows, tiles */
} td_spawn_group;

typedef struct td_rules {
  int32_t api_version;   /* TD_RULES_API_VERSION */
  char damage_types[TD_RULES_MAX_DAMAGE_TYPES][TD_RULES_NAME_MAX];
  int32_t damage_type_count; /* >= 1 */
  td_enemy_type *enemies;
  size_t enemy_count;
  td_tower_type *towers;
  size_t tower_count;
  td_soldier_type *soldier_types;
  size_t soldier_type_count;
  td_tower_level *levels;
  size_t level_count;
  td_spawn_group *groups;
  size_t group_count;
  int32_t wave_count;        /* waves to clear to win, >= 1 */
  float first_wave_delay;    /* seconds before wave 1 */
  float wave_interval;       /* seconds from a wave's start to the next's */
  int32_t start_gold, start_lives;
  int32_t wave_income;       /* gold at the start of every wave */
  float sell_refund;         /* share of the gold spent on a tower given back, 0 .. 1 */
  float early_bonus;         /* gold per second of the interval skipped by calling early */
  float endless_health_growth;
  bool first_wave_waits;     /* wave 1's countdown (first_wave_delay) starts only at the
                                first tower placed, or when the player calls it */
  float repair_cost;         /* a full repair of a tower at 0 health costs this share of the
                                gold spent on it (less damage: less, rounded up), 0 .. 10 */
} td_rules;

void td_rules_free(td_rules *r);

/* Checks what the types cannot say: every index in range, every level's
** parent and children agree, no cycle, names unique per kind and each an
** identifier (td_rules_name_char), numbers in the ranges above. 0, or -1
** with err naming the object ("enemy 'runner': speed must be > 0"; a bad
** name by its index: "tower 2: a name may hold only ..."). */
int td_rules_validate(const td_rules *r, td_err *err);

/* Whether c may be part of a name (of a damage type, enemy, tower or tower
** level): ASCII letters, digits, '_', '-' and '.', no locale. A name is 1
** to TD_RULES_NAME_MAX - 1 of them, so that replays and messages can write
** it as one word. */
bool td_rules_name_char(unsigned char c);

/* The spawn groups of wave n (1-based; n > wave_count in endless mode):
** writes the indices of the groups that spawn to out (at most group_count)
** and returns how many; the count and health scale of each follow the
** formulas above. */
size_t td_rules_wave_groups(const td_rules *r, int32_t n, int32_t *out);
int32_t td_rules_group_count(const td_rules *r, const td_spawn_group *g, int32_t n);
float td_rules_group_health(const td_rules *r, const td_spawn_group *g, int32_t n);

/* Damage after resistance and armour (the formula above). */
float td_rules_damage(const td_enemy_type *e, float damage, int32_t damage_type);
/* An enemy's hit on a soldier: max(damage - armour, damage * TD_RULES_MIN_DAMAGE). */
float td_rules_soldier_damage(const td_soldier_type *s, float damage);

#endif
