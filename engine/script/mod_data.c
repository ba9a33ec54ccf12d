/*
** mod_data.c: the data stage of a mod: the schema tables, the declaration
** functions of `td` (td.damage_type, td.enemy, td.soldier, td.tower,
** td.wave, td.group, td.rules), and the build of a td_rules from them.
**
** Design note. One table per declaration kind (mod_field arrays) drives
** three things: the checks, the defaults and the docs (mod_doc.c). A
** declaration is checked when it is made, in a fixed order that never
** depends on pairs(): unknown fields first (the smallest in sorted_pairs
** order is reported, with a "did you mean" when a field name is close),
** then every field in schema order. Values land in C records (the
** mod_build, td_mem blocks stored before the next call that may raise, so
** an error unwinding the C frames leaks nothing); names stay names until
** mod_build_rules resolves them once every declaration is in, so a mod may
** declare in any order. Each record keeps the file:line of its
** declaration for the messages, including those of td_rules_validate.
** Every name, declared or referred to, is an identifier (see "names"
** below): replays, commands and saves carry names as words.
*/
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lauxlib.h>

#include "script/mod_int.h"

/* ---- declaration records -------------------------------------------------- */

typedef struct resist_set {
  int n;
  char name[TD_RULES_MAX_DAMAGE_TYPES][MOD_NAME];
  float v[TD_RULES_MAX_DAMAGE_TYPES];
} resist_set;

typedef struct enemy_decl {
  td_enemy_type t;
  char split_into[MOD_NAME];
  resist_set resist;
  bool replace;          /* replace = true: takes an earlier declaration's place */
  int mod;               /* the mod that declared it (index in the list) */
  char where[MOD_WHERE];
} enemy_decl;

typedef struct soldier_decl {
  td_soldier_type t;
  char damage_type[MOD_NAME];
  bool replace;          /* replace = true: takes an earlier declaration's place */
  int mod;               /* the mod that declared it (index in the list) */
  char where[MOD_WHERE];
} soldier_decl;

typedef struct level_decl {
  td_tower_level l;
  char from[MOD_NAME];
  char damage_type[MOD_NAME];
  char soldier[MOD_NAME]; /* a barracks' soldier type, "" none (inherited like the rest) */
  bool dead;             /* of a tower replaced since (dropped when the rules are built) */
  int32_t moved;         /* its index once the dead are dropped */
  char where[MOD_WHERE];
} level_decl;

typedef struct tower_decl {
  td_tower_type t;
  int target;            /* td_target_mode */
  size_t first, count;   /* its levels in the build's level array */
  bool replace;          /* replace = true: takes an earlier declaration's place */
  int mod;               /* the mod that declared it (index in the list) */
  char where[MOD_WHERE];
} tower_decl;

typedef struct group_decl {
  td_spawn_group g;
  char enemy[MOD_NAME];
  int32_t spawn1;        /* 1-based, 0: every spawn */
  int wave, index;       /* td.wave number and position (0: td.group) */
  char where[MOD_WHERE];
} group_decl;

struct mod_build {
  char damage[TD_RULES_MAX_DAMAGE_TYPES][MOD_NAME];
  char damage_where[TD_RULES_MAX_DAMAGE_TYPES][MOD_WHERE];
  int damage_mod[TD_RULES_MAX_DAMAGE_TYPES];
  int ndamage;
  enemy_decl *enemies;
  size_t ne, ecap;
  soldier_decl *soldiers;
  size_t ns, scap;
  tower_decl *towers;
  size_t nt, tcap;
  level_decl *levels;
  size_t nl, lcap;
  group_decl *groups;
  size_t ng, gcap;
  int waves;             /* td.wave calls so far */
  td_rules rules;        /* the scalars of td.rules */
  bool rules_given;
  int rules_mod;         /* the mod of the last td.rules */
  char rules_where[MOD_WHERE];
};

/* ---- the schemas ------------------------------------------------------------ */

#define BIG 1e9
#define OFF(type, member) offsetof(type, member)

static const mod_field enemy_fields[] = {
  {"name", FT_NAME, FF_REQUIRED, 0, 0, 0, NULL, NULL, OFF(enemy_decl, t.name), "string",
   "Unique among enemy types; waves and events use it."},
  {"health", FT_NUM, FF_REQUIRED | FF_LO_OPEN, 0, BIG, 0, NULL, NULL, OFF(enemy_decl, t.health),
   "number", "Hit points at wave `first` of its group (groups may scale it)."},
  {"speed", FT_NUM, FF_REQUIRED | FF_LO_OPEN, 0, 1000, 0, NULL, NULL, OFF(enemy_decl, t.speed),
   "number", "Tiles per second."},
  {"armour", FT_NUM, 0, 0, BIG, 0, NULL, NULL, OFF(enemy_decl, t.armour), "number",
   "Flat reduction of every hit (a hit always does at least 10% of its damage)."},
  {"resist", FT_RESIST, 0, -1, 0.95, 0, "{}", NULL, OFF(enemy_decl, resist),
   "table<string, number>",
   "Share of damage ignored per damage type name, -1 .. 0.95 (negative: a weakness)."},
  {"radius", FT_NUM, 0, 0.001, 100, 0.3, NULL, NULL, OFF(enemy_decl, t.radius), "number",
   "Body radius in tiles."},
  {"bounty", FT_INT, 0, 0, INT32_MAX, 1, NULL, NULL, OFF(enemy_decl, t.bounty), "integer",
   "Gold for a kill."},
  {"lives", FT_INT, 0, 0, INT32_MAX, 1, NULL, NULL, OFF(enemy_decl, t.lives), "integer",
   "Lives lost when it reaches a goal."},
  {"flying", FT_BOOL, 0, 0, 0, 0, NULL, NULL, OFF(enemy_decl, t.flying), "boolean",
   "Flies (only towers with hits_air reach it)."},
  {"boss", FT_BOOL, 0, 0, 0, 0, NULL, NULL, OFF(enemy_decl, t.boss), "boolean",
   "Immune to stun; slows on it are halved."},
  {"regen", FT_NUM, 0, 0, BIG, 0, NULL, NULL, OFF(enemy_decl, t.regen), "number",
   "Own health regained per second."},
  {"heal_radius", FT_NUM, 0, 0, 1000, 0, NULL, NULL, OFF(enemy_decl, t.heal_radius), "number",
   "Heals other enemies within this many tiles (0: none)."},
  {"heal_rate", FT_NUM, 0, 0, BIG, 0, NULL, NULL, OFF(enemy_decl, t.heal_rate), "number",
   "Their health per second."},
  {"split_into", FT_REF, 0, 0, 0, 0, "none", "enemy", OFF(enemy_decl, split_into), "string",
   "Enemy type spawned when it dies."},
  {"split_count", FT_INT, 0, 1, 64, 2, NULL, NULL, OFF(enemy_decl, t.split_count), "integer",
   "How many (with split_into)."},
  {"melee", FT_MELEE, 0, 0, 0, 0, "none", NULL, OFF(enemy_decl, t), "td.melee",
   "Fights back against the soldier that holds it (without: it only waits to be killed)."},
  {"siege", FT_SIEGE, 0, 0, 0, 0, "none", NULL, OFF(enemy_decl, t), "td.siege",
   "A sapper: it stops at towers that have `health` and hits them until they fall."},
  {"title", FT_TEXT, 0, 1, TD_RULES_TITLE_MAX, 0, "from `name`", NULL,
   OFF(enemy_decl, t.title), "string",
   "The name a player reads for this enemy (UTF-8, one line). Without it the game "
   "makes one from `name` (td_mod_title_from_name: words split at `_`, `-`, `.`, "
   "capitalised, a last number in Roman numerals: `arrow_2` reads Arrow II)."},
  {"description", FT_TEXT, 0, 0, TD_RULES_TEXT_MAX, 0, "`\"\"`", NULL,
   OFF(enemy_decl, t.description), "string",
   "One line for a player about this enemy (UTF-8), shown on its card."},
  {"replace", FT_BOOL, 0, 0, 0, 0, NULL, NULL, OFF(enemy_decl, replace), "boolean",
   "Replaces the enemy of this name declared earlier (by this mod or one before it in the "
   "list) in its place: a whole new declaration, nothing is kept. Without it, a name "
   "declared again is an error."},
};

/* melee and siege: offsets into the enemy's td_enemy_type */
static const mod_field melee_fields[] = {
  {"damage", FT_NUM, FF_REQUIRED | FF_LO_OPEN, 0, BIG, 0, NULL, NULL,
   OFF(td_enemy_type, melee_damage), "number",
   "Per hit on the soldier at hand (its armour applies; a hit always does at least 10%)."},
  {"rate", FT_NUM, FF_REQUIRED | FF_LO_OPEN, 0, 1000, 0, NULL, NULL,
   OFF(td_enemy_type, melee_rate), "number", "Hits per second."},
};

static const mod_field siege_fields[] = {
  {"damage", FT_NUM, FF_REQUIRED | FF_LO_OPEN, 0, BIG, 0, NULL, NULL,
   OFF(td_enemy_type, siege_damage), "number", "Per hit on a tower (its `health`)."},
  {"rate", FT_NUM, FF_REQUIRED | FF_LO_OPEN, 0, 1000, 0, NULL, NULL,
   OFF(td_enemy_type, siege_rate), "number", "Hits per second."},
  {"range", FT_NUM, FF_REQUIRED, 0, 1000, 0, NULL, NULL, OFF(td_enemy_type, siege_range),
   "number",
   "Tiles from the edge of its body to a tower's footprint: a tower with health this near "
   "stops it (0: it must touch the footprint)."},
};

static const mod_field soldier_fields[] = {
  {"name", FT_NAME, FF_REQUIRED, 0, 0, 0, NULL, NULL, OFF(soldier_decl, t.name), "string",
   "Unique among soldier types; a barracks level names it in `soldier`."},
  {"health", FT_NUM, FF_REQUIRED | FF_LO_OPEN, 0, BIG, 0, NULL, NULL,
   OFF(soldier_decl, t.health), "number", "Hit points."},
  {"armour", FT_NUM, 0, 0, BIG, 0, NULL, NULL, OFF(soldier_decl, t.armour), "number",
   "Flat reduction of every enemy hit (a hit always does at least 10% of its damage)."},
  {"damage", FT_NUM, FF_REQUIRED, 0, BIG, 0, NULL, NULL, OFF(soldier_decl, t.damage), "number",
   "Per hit on the enemy it fights (the enemy's resistance and armour apply, as to a "
   "tower's hit; credited to its barracks)."},
  {"damage_type", FT_REF, 0, 0, 0, 0, "the first damage type", "damage type",
   OFF(soldier_decl, damage_type), "string", "A name declared with td.damage_type."},
  {"rate", FT_NUM, FF_REQUIRED | FF_LO_OPEN, 0, 1000, 0, NULL, NULL, OFF(soldier_decl, t.rate),
   "number", "Hits per second."},
  {"speed", FT_NUM, FF_REQUIRED | FF_LO_OPEN, 0, 1000, 0, NULL, NULL,
   OFF(soldier_decl, t.speed), "number", "Tiles per second."},
  {"radius", FT_NUM, 0, 0.001, 10, 0.3, NULL, NULL, OFF(soldier_decl, t.radius), "number",
   "Body radius in tiles."},
  {"respawn", FT_NUM, 0, 0, 10000, 10, NULL, NULL, OFF(soldier_decl, t.respawn), "number",
   "Seconds from its fall to the next soldier walking out of the barracks."},
  {"sight", FT_NUM, FF_LO_OPEN, 0, 1000, 2, NULL, NULL, OFF(soldier_decl, t.sight), "number",
   "Tiles: it engages ground enemies this near its post (flyers never)."},
  {"regen", FT_NUM, 0, 0, BIG, 0, NULL, NULL, OFF(soldier_decl, t.regen), "number",
   "Health regained per second while it stands at its post."},
  {"title", FT_TEXT, 0, 1, TD_RULES_TITLE_MAX, 0, "from `name`", NULL,
   OFF(soldier_decl, t.title), "string",
   "The name a player reads for this soldier (UTF-8, one line). Without it the game "
   "makes one from `name` (td_mod_title_from_name: words split at `_`, `-`, `.`, "
   "capitalised, a last number in Roman numerals: `arrow_2` reads Arrow II)."},
  {"description", FT_TEXT, 0, 0, TD_RULES_TEXT_MAX, 0, "`\"\"`", NULL,
   OFF(soldier_decl, t.description), "string",
   "One line for a player about this soldier (UTF-8), shown on its card."},
  {"replace", FT_BOOL, 0, 0, 0, 0, NULL, NULL, OFF(soldier_decl, replace), "boolean",
   "Replaces the soldier type of this name declared earlier (by this mod or one before it "
   "in the list) in its place: a whole new declaration, nothing is kept. Without it, a name "
   "declared again is an error."},
};

static const mod_field effect_fields[] = {
  {"kind", FT_ENUM, FF_REQUIRED, 0, 0, 0, NULL, "none|slow|dot|stun", OFF(td_effect, kind),
   "\"none\"|\"slow\"|\"dot\"|\"stun\"",
   "slow: speed reduced by magnitude (a share); dot: magnitude damage per second of the "
   "tower's damage type; stun: stops the enemy (not bosses)."},
  {"magnitude", FT_NUM, 0, 0, BIG, 0, NULL, NULL, OFF(td_effect, magnitude), "number",
   "Slow: 0 .. 0.9; dot: damage per second; stun: unused."},
  {"duration", FT_NUM, FF_LO_OPEN, 0, 10000, 1, NULL, NULL, OFF(td_effect, duration), "number",
   "Seconds."},
};

static const mod_field level_fields[] = {
  {"name", FT_NAME, FF_REQUIRED, 0, 0, 0, NULL, NULL, OFF(level_decl, l.name), "string",
   "Unique within the tower; events name the level."},
  {"from", FT_REF, 0, 0, 0, 0, "the previous level", "level", OFF(level_decl, from), "string",
   "The level this one upgrades from (an earlier level of the same tower). Not allowed on "
   "the first level, which is the one built. An upgrade starts as a copy of its parent: "
   "fields it does not give are inherited."},
  {"cost", FT_INT, FF_REQUIRED, 0, INT32_MAX, 0, NULL, NULL, OFF(level_decl, l.cost), "integer",
   "Gold to build (first level) or to upgrade into."},
  {"range", FT_NUM, FF_ROOT_REQUIRED | FF_LO_OPEN, 0, 1000, 0, NULL, NULL,
   OFF(level_decl, l.range), "number", "Tiles (a support tower: its aura)."},
  {"rate", FT_NUM, 0, 0, 1000, 1, "`1`; `0` on a barracks (see `soldiers`)", NULL,
   OFF(level_decl, l.rate), "number", "Shots per second (0: never fires)."},
  {"damage", FT_NUM, 0, 0, BIG, 0, NULL, NULL, OFF(level_decl, l.damage), "number",
   "Per hit."},
  {"damage_type", FT_REF, 0, 0, 0, 0, "the first damage type", "damage type",
   OFF(level_decl, damage_type), "string", "A name declared with td.damage_type."},
  {"shot", FT_ENUM, 0, 0, 0, 0, NULL, "instant|homing|ballistic|chain|pierce",
   OFF(level_decl, l.shot), "\"instant\"|\"homing\"|\"ballistic\"|\"chain\"|\"pierce\"",
   "instant: hits at once; homing: follows its target; ballistic: lands where the target "
   "was, with splash; chain: jumps to `chain` more enemies; pierce: passes through "
   "`pierce` enemies."},
  {"shot_speed", FT_NUM, FF_LO_OPEN, 0, 10000, 10, NULL, NULL, OFF(level_decl, l.shot_speed),
   "number", "Tiles per second (homing, ballistic, pierce)."},
  {"splash", FT_NUM, 0, 0, 1000, 0, NULL, NULL, OFF(level_decl, l.splash), "number",
   "Splash radius in tiles (0: none)."},
  {"chain", FT_INT, 0, 0, 64, 0, NULL, NULL, OFF(level_decl, l.chain), "integer",
   "Chain: extra enemies after the first."},
  {"chain_range", FT_NUM, FF_LO_OPEN, 0, 1000, 2, NULL, NULL, OFF(level_decl, l.chain_range),
   "number", "Chain: longest jump in tiles."},
  {"chain_falloff", FT_NUM, 0, 0, 1, 0.7, NULL, NULL, OFF(level_decl, l.chain_falloff),
   "number", "Chain: damage multiplier per jump."},
  {"pierce", FT_INT, 0, 1, 1000, 1, NULL, NULL, OFF(level_decl, l.pierce), "integer",
   "Pierce: enemies one shot passes through."},
  {"effect", FT_EFFECT, 0, 0, 0, 0, "none", NULL, OFF(level_decl, l.effect), "td.effect",
   "A status effect applied on every hit."},
  {"hits_ground", FT_BOOL, 0, 0, 0, 1, NULL, NULL, OFF(level_decl, l.hits_ground), "boolean",
   "Can target ground enemies."},
  {"hits_air", FT_BOOL, 0, 0, 0, 1, NULL, NULL, OFF(level_decl, l.hits_air), "boolean",
   "Can target flying enemies."},
  {"aim_time", FT_NUM, 0, 0, 60, 0, NULL, NULL, OFF(level_decl, l.aim_time), "number",
   "Seconds from acquiring a target to the first shot."},
  {"turn_rate", FT_NUM, 0, 0, 1000, 0, NULL, NULL, OFF(level_decl, l.turn_rate), "number",
   "Turret turn rate, radians per second (0: instant)."},
  {"buff_damage", FT_NUM, 0, 0, 100, 0, NULL, NULL, OFF(level_decl, l.buff_damage), "number",
   "Support: damage multiplier - 1 for towers in range."},
  {"buff_rate", FT_NUM, 0, 0, 100, 0, NULL, NULL, OFF(level_decl, l.buff_rate), "number",
   "Support: rate multiplier - 1 for towers in range."},
  {"health", FT_NUM, 0, 0, BIG, 0, NULL, NULL, OFF(level_decl, l.health), "number",
   "Hit points against sappers (enemies with `siege`); 0: it cannot be damaged. At 0 health "
   "the tower is destroyed (no refund) and its base is free again. An upgrade keeps the share "
   "of health the tower had."},
  {"soldier", FT_REF, 0, 0, 0, 0, "none", "soldier type", OFF(level_decl, soldier), "string",
   "A barracks' soldier type, declared with td.soldier (required with `soldiers`)."},
  {"soldiers", FT_INT, 0, 0, TD_RULES_MAX_SOLDIERS, 0, NULL, NULL, OFF(level_decl, l.soldiers),
   "integer",
   "A barracks: it keeps this many soldiers of type `soldier` (0: not a barracks), on posts "
   "round a rally point that the player may move within its `range` of the tower. A "
   "barracks level that gives no `rate` does not shoot (rate 0), unless it upgrades from a "
   "barracks: then it inherits that level's rate, as every other field."},
  {"title", FT_TEXT, 0, 1, TD_RULES_TITLE_MAX, 0, "from `name`", NULL,
   OFF(level_decl, l.title), "string",
   "The name a player reads for this level, on its upgrade button and the tower's panel; "
   "not inherited (UTF-8, one line). Without it the game makes one from `name` "
   "(td_mod_title_from_name: words split at `_`, `-`, `.`, capitalised, a last number in "
   "Roman numerals: `arrow_2` reads Arrow II)."},
  {"description", FT_TEXT, 0, 0, TD_RULES_TEXT_MAX, 0, "`\"\"`", NULL,
   OFF(level_decl, l.description), "string",
   "One line for a player about this level (UTF-8; not inherited), shown on its card."},
};

static const mod_field tower_fields[] = {
  {"name", FT_NAME, FF_REQUIRED, 0, 0, 0, NULL, NULL, OFF(tower_decl, t.name), "string",
   "Unique among tower types."},
  {"target", FT_TARGET, 0, 0, 0, 0, "\"first\"", "first|last|strongest|closest",
   OFF(tower_decl, target),
   "\"first\"|\"last\"|\"strongest\"|\"closest\"|fun(tower: integer, candidates: integer[]): integer?",
   "The default targeting mode, or a function choosing among the enemy handles in range "
   "(an array, in the world's order): it returns a position in that array, or nil for none."},
  {"levels", FT_LEVELS, FF_REQUIRED, 0, 0, 0, NULL, NULL, OFF(tower_decl, first),
   "td.level[]",
   "The upgrade tree: the first level is what is built; each other level upgrades from "
   "`from` (default: the level before it in the list). At most 4 upgrades per level."},
  {"title", FT_TEXT, 0, 1, TD_RULES_TITLE_MAX, 0, "from `name`", NULL,
   OFF(tower_decl, t.title), "string",
   "The name a player reads for the tower type, on its build button (UTF-8, one line). "
   "Without it the game makes one from `name` (td_mod_title_from_name: words split "
   "at `_`, `-`, `.`, capitalised, a last number in Roman numerals: `arrow_2` reads "
   "Arrow II)."},
  {"description", FT_TEXT, 0, 0, TD_RULES_TEXT_MAX, 0, "`\"\"`", NULL,
   OFF(tower_decl, t.description), "string",
   "One line for a player about the tower type (UTF-8), shown on its card."},
  {"replace", FT_BOOL, 0, 0, 0, 0, NULL, NULL, OFF(tower_decl, replace), "boolean",
   "Replaces the tower of this name declared earlier (by this mod or one before it in the "
   "list) in its place, levels and targeting function included: nothing is kept. Without "
   "it, a name declared again is an error."},
};

static const mod_field group_fields[] = {
  {"enemy", FT_REF, FF_REQUIRED, 0, 0, 0, NULL, "enemy", OFF(group_decl, enemy), "string",
   "The enemy type."},
  {"first", FT_INT, FF_NOT_IN_WAVE, 1, 100000, 1, NULL, NULL, OFF(group_decl, g.begin),
   "integer", "First wave it spawns in (rules.h: begin)."},
  {"last", FT_INT, FF_NOT_IN_WAVE, 0, 100000, 0, NULL, NULL, OFF(group_decl, g.end), "integer",
   "Last wave (0: no end; rules.h: end)."},
  {"every", FT_INT, FF_NOT_IN_WAVE, 1, 100000, 1, NULL, NULL, OFF(group_decl, g.every),
   "integer", "Spawns every this many waves from `first`."},
  {"count", FT_INT, 0, 1, 100000, 1, NULL, NULL, OFF(group_decl, g.count), "integer",
   "Enemies in wave `first`."},
  {"count_growth", FT_NUM, 0, 0, 10000, 0, NULL, NULL, OFF(group_decl, g.count_growth),
   "number", "More enemies per wave after `first` (floored)."},
  {"max_count", FT_INT, 0, 1, 100000, 100000, NULL, NULL, OFF(group_decl, g.max_count),
   "integer", "Cap on the count (>= count)."},
  {"health_growth", FT_NUM, 0, 0, 1000, 0, NULL, NULL, OFF(group_decl, g.health_growth),
   "number", "Health scale per wave after `first`: health * (1 + health_growth * (n - first))."},
  {"spawn", FT_SPAWN, 0, 1, 1000, 0, "every spawn", NULL, OFF(group_decl, spawn1), "integer",
   "1-based index of the map's spawn (in map order)."},
  {"delay", FT_NUM, 0, 0, 100000, 0, NULL, NULL, OFF(group_decl, g.delay), "number",
   "Seconds after the wave starts."},
  {"per_row", FT_INT, 0, 1, 1000, 1, NULL, NULL, OFF(group_decl, g.per_row), "integer",
   "Formation: enemies side by side."},
  {"width", FT_NUM, 0, 0, 1000, 0, NULL, NULL, OFF(group_decl, g.width), "number",
   "Formation: lateral extent in tiles."},
  {"spacing", FT_NUM, 0, 0, 1000, 1, NULL, NULL, OFF(group_decl, g.spacing), "number",
   "Formation: tiles between rows."},
};

static const mod_field rules_fields[] = {
  {"wave_count", FT_INT, 0, 1, 100000, 0, "the last wave declared", NULL,
   OFF(td_rules, wave_count), "integer",
   "Waves to clear to win (default: the number of td.wave calls, or the highest first/last "
   "of td.group)."},
  {"first_wave_delay", FT_NUM, 0, 0, 100000, 10, NULL, NULL, OFF(td_rules, first_wave_delay),
   "number", "Seconds before wave 1."},
  {"wave_interval", FT_NUM, FF_LO_OPEN, 0, 100000, 30, NULL, NULL,
   OFF(td_rules, wave_interval), "number", "Seconds from a wave's start to the next's."},
  {"start_gold", FT_INT, 0, 0, INT32_MAX, 100, NULL, NULL, OFF(td_rules, start_gold),
   "integer", "Gold at the start."},
  {"start_lives", FT_INT, 0, 1, INT32_MAX, 20, NULL, NULL, OFF(td_rules, start_lives),
   "integer", "Lives at the start."},
  {"wave_income", FT_INT, 0, 0, INT32_MAX, 0, NULL, NULL, OFF(td_rules, wave_income),
   "integer", "Gold at the start of every wave."},
  {"sell_refund", FT_NUM, 0, 0, 1, 0.75, NULL, NULL, OFF(td_rules, sell_refund), "number",
   "Share of the gold spent on a tower given back when it is sold."},
  {"early_bonus", FT_NUM, 0, 0, 1e6, 1, NULL, NULL, OFF(td_rules, early_bonus), "number",
   "Gold per second of the interval skipped by calling a wave early."},
  {"endless_health_growth", FT_NUM, 0, 0, 1000, 0.1, NULL, NULL,
   OFF(td_rules, endless_health_growth), "number",
   "Endless mode: health * (1 + this * (n - wave_count)) past the last wave."},
  {"first_wave_waits", FT_BOOL, 0, 0, 0, 0, NULL, NULL, OFF(td_rules, first_wave_waits),
   "boolean",
   "Wave 1 waits for the player: its countdown (first_wave_delay) starts at the first tower "
   "placed, or the player calls it. false: it starts with the game."},
  {"repair_cost", FT_NUM, 0, 0, 10, 0.5, NULL, NULL, OFF(td_rules, repair_cost), "number",
   "A full repair of a tower at 0 health costs this share of the gold spent on it (less "
   "damage, less: rounded up)."},
};

#define N(a) (sizeof(a) / sizeof((a)[0]))
const mod_schema mod_enemy_schema = {"enemy", "td.enemy_decl",
                                     "The table given to td.enemy.", enemy_fields,
                                     N(enemy_fields)};
const mod_schema mod_melee_schema = {"melee", "td.melee",
                                     "An enemy's `melee`: how it fights the soldier holding it.",
                                     melee_fields, N(melee_fields)};
const mod_schema mod_siege_schema = {"siege", "td.siege",
                                     "An enemy's `siege`: it makes the enemy a sapper.",
                                     siege_fields, N(siege_fields)};
const mod_schema mod_soldier_schema = {"soldier", "td.soldier_decl",
                                       "The table given to td.soldier.", soldier_fields,
                                       N(soldier_fields)};
const mod_schema mod_effect_schema = {"effect", "td.effect", "A level's status effect.",
                                      effect_fields, N(effect_fields)};
const mod_schema mod_level_schema = {"level", "td.level", "One level of a tower's upgrade tree.",
                                     level_fields, N(level_fields)};
const mod_schema mod_tower_schema = {"tower", "td.tower_decl", "The table given to td.tower.",
                                     tower_fields, N(tower_fields)};
const mod_schema mod_group_schema = {"group", "td.group_decl",
                                     "A spawn group (after Mindustry's SpawnGroup), given to "
                                     "td.group or listed in td.wave.",
                                     group_fields, N(group_fields)};
const mod_schema mod_rules_schema = {"rules", "td.rules_decl", "The table given to td.rules.",
                                     rules_fields, N(rules_fields)};

/* ---- events (for dispatch and the docs) -------------------------------------- */

const mod_event mod_events[] = {
  {TD_EVENT_SPAWNED, "spawn", "An enemy entered the map.", EVF_ENEMY | EVF_ENEMY_TYPE | EVF_XY,
   NULL, NULL},
  {TD_EVENT_FIRED, "fire", "A tower fired at an enemy.",
   EVF_TOWER | EVF_ENEMY | EVF_LEVEL | EVF_XY, NULL, NULL},
  {TD_EVENT_HIT, "hit",
   "An enemy was hit: by a tower's shot (`source` \"tower\"), by a soldier (`source` "
   "\"soldier\", `soldier` its handle; `tower` is its barracks), or by a script's `td.damage` "
   "(`source` \"script\"; `tower`, `level` and `tower_type` say whom it credits, if anyone). "
   "A handler that answers hits with `td.damage` skips `source == \"script\"`, or it would "
   "answer its own hits.",
   EVF_ENEMY | EVF_TOWER | EVF_ENEMY_TYPE | EVF_SOURCE | EVF_XY, "damage",
   "Health taken."},
  {TD_EVENT_KILLED, "kill", "An enemy died.", EVF_ENEMY | EVF_TOWER | EVF_ENEMY_TYPE | EVF_XY,
   "bounty", "Gold given for it."},
  {TD_EVENT_LEAKED, "leak", "An enemy reached a goal.", EVF_ENEMY | EVF_ENEMY_TYPE, "lives",
   "Lives lost."},
  {TD_EVENT_WAVE_STARTED, "wave_start", "A wave started.", EVF_WAVE, "bonus",
   "Gold of the early-call bonus (0 when on time)."},
  {TD_EVENT_WAVE_ENDED, "wave_end", "A wave's last enemy was killed or leaked.", EVF_WAVE, NULL,
   NULL},
  {TD_EVENT_PLACED, "place", "A tower was built.", EVF_TOWER | EVF_LEVEL | EVF_BASE, "cost",
   "Gold spent."},
  {TD_EVENT_UPGRADED, "upgrade", "A tower was upgraded.", EVF_TOWER | EVF_LEVEL, "cost",
   "Gold spent."},
  {TD_EVENT_SOLD, "sell", "A tower was sold.", EVF_TOWER | EVF_LEVEL | EVF_BASE, "refund",
   "Gold given back."},
  {TD_EVENT_REFUSED, "refuse", "The world refused a command.", EVF_REASON | EVF_BASE, NULL, NULL},
  {TD_EVENT_WON, "win", "The last wave was cleared.", EVF_WAVE, NULL, NULL},
  {TD_EVENT_LOST, "lose", "Lives reached zero.", EVF_WAVE, NULL, NULL},
  {TD_EVENT_ENGAGED, "engage",
   "A soldier engaged an enemy (`x`, `y`: the enemy's), which stops and waits for it; "
   "`tower` is the soldier's barracks.",
   EVF_SOLDIER | EVF_TOWER | EVF_ENEMY | EVF_ENEMY_TYPE | EVF_XY, NULL, NULL},
  {TD_EVENT_SOLDIER_DIED, "soldier_death",
   "A soldier fell (`tower`: its barracks, 0 when that is gone; `enemy`: the enemy that "
   "killed it, 0: none). It walks out again after its `respawn` time.",
   EVF_SOLDIER | EVF_SOLDIER_TYPE | EVF_TOWER | EVF_ENEMY | EVF_XY, NULL, NULL},
  {TD_EVENT_TOWER_DAMAGED, "tower_damaged",
   "A tower lost health: to a sapper (`enemy`), or to a script's `td.damage_tower` (`enemy` "
   "0). `x`, `y`: the tower's.",
   EVF_TOWER | EVF_LEVEL | EVF_BASE | EVF_ENEMY | EVF_XY, "damage", "Health taken."},
  {TD_EVENT_TOWER_DESTROYED, "tower_destroyed",
   "A tower fell to 0 health (`enemy`: the sapper, 0: a script): it is gone, no refund, its "
   "base is free again and the route reopens.",
   EVF_TOWER | EVF_LEVEL | EVF_BASE | EVF_ENEMY | EVF_XY, NULL, NULL},
  {TD_EVENT_REPAIRED, "repaired", "A tower was repaired to full health.",
   EVF_TOWER | EVF_LEVEL | EVF_BASE, "cost", "Gold spent."},
  {TD_EVENT_RALLIED, "rallied", "A barracks' rally point moved (`x`, `y`: the new point).",
   EVF_TOWER | EVF_BASE | EVF_XY, NULL, NULL},
};
const size_t mod_event_count = N(mod_events);

const mod_event *mod_event_by_kind(td_event_kind k) {
  for (size_t i = 0; i < mod_event_count; i++)
    if (mod_events[i].kind == k) return &mod_events[i];
  return NULL;
}

const char *mod_refusal_name(td_refusal r) {
  static const char *const names[TD_REFUSAL_COUNT] = {
      "none",        "no_base",      "occupied",   "no_tower",
      "gold",        "cuts_route",   "no_upgrade", "no_wave",
      "game_over",   "bad_command",  "no_soldiers", "rally_range",
      "rally_ground", "not_damaged"};
  _Static_assert(TD_REFUSAL_COUNT == 14, "a refusal without a name for mods");
  return (unsigned)r < TD_REFUSAL_COUNT ? names[r] : "unknown";
}

/* ---- the build ----------------------------------------------------------------- */

static void apply_defaults(const mod_schema *s, void *rec) {
  for (size_t i = 0; i < s->count; i++) {
    const mod_field *f = &s->fields[i];
    char *p = (char *)rec + f->off;
    switch (f->type) {
    case FT_INT: *(int32_t *)p = (int32_t)f->def; break;
    case FT_NUM: *(float *)p = (float)f->def; break;
    case FT_BOOL: *(bool *)p = f->def != 0; break;
    case FT_ENUM: *(int *)p = (int)f->def; break;
    default: break; /* names, refs, tables: zeroed already */
    }
  }
}

mod_build *mod_build_new(void) {
  mod_build *b = td_mem_calloc(1, sizeof *b);
  if (b) apply_defaults(&mod_rules_schema, &b->rules);
  return b;
}

void mod_build_free(mod_build *b) {
  if (!b) return;
  td_mem_free(b->enemies, b->ecap * sizeof *b->enemies);
  td_mem_free(b->soldiers, b->scap * sizeof *b->soldiers);
  td_mem_free(b->towers, b->tcap * sizeof *b->towers);
  td_mem_free(b->levels, b->lcap * sizeof *b->levels);
  td_mem_free(b->groups, b->gcap * sizeof *b->groups);
  td_mem_free(b, sizeof *b);
}

/* ---- checked reads ---------------------------------------------------------- */

typedef struct rd {
  lua_State *L;
  mod_version *v;
  char where[MOD_WHERE]; /* file:line of the declaration */
  char obj[200];         /* "enemy 'runner'" */
  const char *prefix;    /* of field names: "effect." in an effect */
  bool root;             /* a tower's first level */
  bool in_wave;          /* a group inside td.wave */
} rd;

static void rfail(rd *r, const char *fmt, ...) MOD_NORETURN_PRINTF(2, 3);
static void rfail(rd *r, const char *fmt, ...) {
  char msg[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  lua_pushfstring(r->L, "%s: %s: %s", r->where, r->obj, msg);
  lua_error(r->L);
  abort(); /* not reached */
}

/* " (did you mean 'x'?)" for the closest of the '|'-separated choices, or "". */
static const char *suggest_in(const char *got, const char *choices, char *buf, size_t size) {
  int best = 3;
  char name[64], pick[64] = "";
  size_t glen = strlen(got);
  for (const char *p = choices; *p;) {
    size_t n = strcspn(p, "|");
    if (n < sizeof name) {
      memcpy(name, p, n);
      name[n] = '\0';
      int d = mod_distance(got, name);
      if (d < best && (size_t)d < (glen > n ? glen : n)) {
        best = d;
        memcpy(pick, name, n + 1);
      }
    }
    p += n;
    if (*p == '|') p++;
  }
  if (pick[0]) snprintf(buf, size, " (did you mean '%s'?)", pick);
  else buf[0] = '\0';
  return buf;
}

/* The field names of a schema as "a|b|c". */
static void schema_names(const mod_schema *s, char *buf, size_t size) {
  size_t k = 0;
  buf[0] = '\0';
  for (size_t i = 0; i < s->count && k + 1 < size; i++)
    k += (size_t)snprintf(buf + k, size - k, "%s%s", i ? "|" : "", s->fields[i].name);
}

static const mod_field *find_field(const mod_schema *s, const char *name) {
  for (size_t i = 0; i < s->count; i++)
    if (strcmp(s->fields[i].name, name) == 0) return &s->fields[i];
  return NULL;
}

/* sorted_pairs order on keys: numbers, then strings; < 0 when a before b. */
static int key_order(lua_State *L, int a, int b) {
  int ta = lua_type(L, a), tb = lua_type(L, b);
  if (ta != tb) return ta == LUA_TNUMBER ? -1 : tb == LUA_TNUMBER ? 1 : ta - tb;
  if (ta == LUA_TNUMBER) return lua_compare(L, a, b, LUA_OPLT) ? -1 : 1;
  if (ta == LUA_TSTRING) {
    size_t la, lb;
    const char *sa = lua_tolstring(L, a, &la), *sb = lua_tolstring(L, b, &lb);
    int c = memcmp(sa, sb, la < lb ? la : lb);
    return c ? c : (la > lb) - (la < lb);
  }
  return 0;
}

/* Refuses keys the schema does not know; the first in key order is
** reported (pairs order varies between runs). [-0, +0] */
static void check_unknown(rd *r, int t, const mod_schema *s) {
  lua_State *L = r->L;
  luaL_checkstack(L, 4, "declaration");
  lua_pushnil(L); /* the smallest unknown key so far */
  int best = lua_gettop(L);
  lua_pushnil(L);
  while (lua_next(L, t)) {
    lua_pop(L, 1);
    if (lua_type(L, -1) == LUA_TSTRING && find_field(s, lua_tostring(L, -1))) continue;
    if (lua_isnil(L, best) || key_order(L, -1, best) < 0) {
      lua_pushvalue(L, -1);
      lua_replace(L, best);
    }
  }
  if (lua_isnil(L, best)) {
    lua_pop(L, 1);
    return;
  }
  if (lua_type(L, best) == LUA_TSTRING) {
    char names[400], hint[96];
    schema_names(s, names, sizeof names);
    rfail(r, "unknown field '%s%s'%s", r->prefix, lua_tostring(L, best),
          suggest_in(lua_tostring(L, best), names, hint, sizeof hint));
  }
  if (lua_type(L, best) == LUA_TNUMBER)
    rfail(r, "unexpected value at [%s] (%s takes named fields)", lua_tostring(L, best), s->what);
  rfail(r, "unexpected key of type %s", luaL_typename(L, best));
}

/* Pushes t[key] without metamethods (a declaration table may have a
** metatable; its __index must not supply fields). [-0, +1] */
static int rawfield(lua_State *L, int t, const char *key) {
  lua_pushstring(L, key);
  return lua_rawget(L, t);
}

static const char *expect_text(const mod_field *f) {
  switch (f->type) {
  case FT_NAME: case FT_REF: case FT_TEXT: return "a string";
  case FT_INT: case FT_SPAWN: return "an integer";
  case FT_NUM: return "a number";
  case FT_BOOL: return "a boolean";
  case FT_ENUM: return "a string";
  case FT_TARGET: return "a targeting mode name or a function";
  case FT_LEVELS: return "an array of levels";
  default: return "a table";
  }
}

static void check_range(rd *r, const mod_field *f, double v) {
  bool open = (f->flags & FF_LO_OPEN) != 0;
  if (!isfinite(v)) rfail(r, "%s%s must be a finite number, got %.14g", r->prefix, f->name, v);
  if (open ? !(v > f->lo) : !(v >= f->lo))
    rfail(r, "%s%s must be %s %.14g, got %.14g", r->prefix, f->name, open ? ">" : ">=", f->lo, v);
  if (v > f->hi) rfail(r, "%s%s must be <= %.14g, got %.14g", r->prefix, f->name, f->hi, v);
}

/* ---- names ---------------------------------------------------------------- */

/* Every name a mod declares or refers to (damage types, enemies, towers and
** their levels) is an identifier: a replay writes a tower type as one word
** of a line split on blanks, commands, saves, scenarios and the td.*
** functions look names up, events and messages quote them. So a name is 1
** to MOD_NAME - 1 bytes (the engine's name buffers: TD_RULES_NAME_MAX with
** its zero) of ASCII letters, digits, '_', '-' and '.' (td_rules_name_char,
** which td_rules_validate applies too, to rules built in C). */

/* A name as given, quoted for a message: at most MOD_NAME - 1 bytes of it
** (then "..."), each byte outside printable ASCII, the quote and the
** backslash escaped (\t \n \r \' \\ \xNN), so a message stays one line
** and says which byte is wrong. */
#define NAME_QUOTED (4 * (MOD_NAME - 1) + 6) /* '...' and the zero */

static void quote_name(char out[NAME_QUOTED], const char *s, size_t len) {
  size_t k = 0, shown = len < MOD_NAME ? len : MOD_NAME - 1;
  out[k++] = '\'';
  for (size_t i = 0; i < shown; i++) {
    unsigned char c = (unsigned char)s[i];
    const char *e = c == '\t' ? "\\t" : c == '\n' ? "\\n" : c == '\r' ? "\\r"
                  : c == '\'' ? "\\'" : c == '\\' ? "\\\\" : NULL;
    if (e) {
      memcpy(out + k, e, 2);
      k += 2;
    } else if (c < 0x20 || c >= 0x7f) {
      static const char hex[] = "0123456789abcdef";
      out[k++] = '\\';
      out[k++] = 'x';
      out[k++] = hex[c >> 4];
      out[k++] = hex[c & 15];
    } else {
      out[k++] = (char)c;
    }
  }
  if (shown < len) {
    memcpy(out + k, "...", 3);
    k += 3;
  }
  out[k++] = '\'';
  out[k] = '\0';
}

/* r->obj names the object by the name it was given: "tower #3" (the part
** from '#') or kind alone becomes "tower 'ar row'". [-0, +0] */
static void name_obj(rd *r, const char *kind, const char *s, size_t len) {
  char q[NAME_QUOTED];
  quote_name(q, s, len);
  char *hash = kind ? NULL : strchr(r->obj, '#');
  if (kind) mod_fmt(r->obj, sizeof r->obj, "%s %s", kind, q);
  else if (hash) mod_fmt(hash, sizeof r->obj - (size_t)(hash - r->obj), "%s", q);
}

/* Refuses s[0 .. len) unless it is a name (see above). field: NULL when it
** is the object's own name (r->obj quotes it), else the field that refers
** to a name, quoted after it. */
static void check_name(rd *r, const char *field, const char *s, size_t len) {
  char why[96];
  if (len == 0) {
    snprintf(why, sizeof why, "a name must not be empty");
  } else if (len >= MOD_NAME) {
    snprintf(why, sizeof why, "a name must be at most %d bytes long, got %zu", MOD_NAME - 1,
             len);
  } else {
    size_t i = 0;
    while (i < len && td_rules_name_char((unsigned char)s[i])) i++;
    if (i == len) return;
    snprintf(why, sizeof why, "a name may hold only letters, digits, '_', '-' and '.'");
  }
  if (!field) rfail(r, "%s", why);
  char q[NAME_QUOTED];
  quote_name(q, s, len);
  rfail(r, "%s%s %s: %s", r->prefix, field, q, why);
}

/* The string at the top as a name into out (char[MOD_NAME]). */
static void read_name(rd *r, const mod_field *f, char *out) {
  size_t len;
  const char *s = lua_tolstring(r->L, -1, &len);
  check_name(r, f->type == FT_NAME ? NULL : f->name, s, len);
  memcpy(out, s, len + 1);
}

/* The string at the top as text a player reads into out (char[f->hi]):
** f->lo .. f->hi - 1 bytes of well-formed UTF-8 (no overlong forms, no
** surrogates), no control characters (C0, DEL, C1): one line on a card. */
static void read_text(rd *r, const mod_field *f, char *out) {
  size_t len, cap = (size_t)f->hi;
  const unsigned char *s = (const unsigned char *)lua_tolstring(r->L, -1, &len);
  if (len < (size_t)f->lo) rfail(r, "%s%s must not be empty", r->prefix, f->name);
  if (len >= cap)
    rfail(r, "%s%s must be at most %zu bytes long, got %zu", r->prefix, f->name, cap - 1, len);
  for (size_t i = 0; i < len;) {
    unsigned c = s[i];
    size_t n = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3
             : (c & 0xf8) == 0xf0 ? 4 : 0;
    uint32_t cp = n == 1 ? c : n == 2 ? c & 0x1f : n == 3 ? c & 0x0f : c & 0x07;
    bool ok = n > 0 && i + n <= len;
    for (size_t k = 1; ok && k < n; k++) {
      ok = (s[i + k] & 0xc0) == 0x80;
      cp = cp << 6 | (s[i + k] & 0x3fu);
    }
    if (ok && n > 1)
      ok = cp >= (n == 2 ? 0x80u : n == 3 ? 0x800u : 0x10000u) && cp <= 0x10ffff &&
           !(cp >= 0xd800 && cp <= 0xdfff);
    if (!ok) rfail(r, "%s%s is not UTF-8 (byte %zu)", r->prefix, f->name, i + 1);
    if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0))
      rfail(r, "%s%s must be one line without control characters (byte %zu)", r->prefix, f->name,
            i + 1);
    i += n;
  }
  memcpy(out, s, len + 1);
}

/* An enum value: the index of the string among f->choices. */
static int read_enum(rd *r, const mod_field *f, const char *choices) {
  const char *got = lua_tostring(r->L, -1);
  int idx = 0;
  for (const char *p = choices; *p; idx++) {
    size_t n = strcspn(p, "|");
    if (strlen(got) == n && memcmp(got, p, n) == 0) return idx;
    p += n;
    if (*p == '|') p++;
  }
  char list[200], hint[96];
  snprintf(list, sizeof list, "%s", choices);
  for (char *p = list; *p; p++)
    if (*p == '|') *p = '/';
  rfail(r, "%s%s must be one of %s%s, got '%s'%s", r->prefix, f->name, list,
        f->type == FT_TARGET ? " or a function" : "", got,
        suggest_in(got, choices, hint, sizeof hint));
}

static void read_fields(rd *r, int t, const mod_schema *s, void *rec);

typedef struct str_key {
  const char *s;
  size_t len;
} str_key;

static int cmp_key(const void *a, const void *b) {
  const str_key *x = a, *y = b;
  int c = memcmp(x->s, y->s, x->len < y->len ? x->len : y->len);
  return c ? c : (x->len > y->len) - (x->len < y->len);
}

static void read_resist(rd *r, const mod_field *f, resist_set *rs) {
  lua_State *L = r->L;
  int t = lua_gettop(L);
  str_key keys[TD_RULES_MAX_DAMAGE_TYPES];
  int n = 0;
  lua_pushnil(L);
  while (lua_next(L, t)) {
    lua_pop(L, 1);
    if (lua_type(L, -1) != LUA_TSTRING)
      rfail(r, "%s keys must be damage type names, got a %s", f->name, luaL_typename(L, -1));
    if (n == TD_RULES_MAX_DAMAGE_TYPES)
      rfail(r, "%s has more than %d entries", f->name, TD_RULES_MAX_DAMAGE_TYPES);
    keys[n].s = lua_tolstring(L, -1, &keys[n].len); /* the table anchors its keys */
    n++;
  }
  qsort(keys, (size_t)n, sizeof *keys, cmp_key);
  rs->n = 0;
  for (int i = 0; i < n; i++) {
    check_name(r, f->name, keys[i].s, keys[i].len); /* in key order, whatever pairs() does */
    const char *key = keys[i].s;
    rawfield(L, t, key);
    if (lua_type(L, -1) != LUA_TNUMBER)
      rfail(r, "%s.%s must be a number, got %s", f->name, key, luaL_typename(L, -1));
    double v = lua_tonumber(L, -1);
    if (!(v >= f->lo && v <= f->hi))
      rfail(r, "%s.%s must be in %g .. %g, got %.14g", f->name, key, f->lo, f->hi, v);
    lua_pop(L, 1);
    memcpy(rs->name[rs->n], key, keys[i].len + 1);
    rs->v[rs->n++] = (float)v;
  }
}

static void read_effect(rd *r, const mod_field *f, td_effect *e) {
  td_effect fresh;
  memset(&fresh, 0, sizeof fresh);
  apply_defaults(&mod_effect_schema, &fresh);
  const char *saved = r->prefix;
  r->prefix = "effect.";
  read_fields(r, lua_gettop(r->L), &mod_effect_schema, &fresh);
  r->prefix = saved;
  if (fresh.kind == TD_EFFECT_SLOW && fresh.magnitude > 0.9f)
    rfail(r, "%s.magnitude of a slow must be <= 0.9, got %.14g", f->name,
          (double)fresh.magnitude);
  *e = fresh;
}

/* A table of named fields inside a declaration (an enemy's melee, siege):
** its fields in messages as "siege.rate". rec: what the sub-schema's
** offsets are into. */
static void read_sub(rd *r, const mod_field *f, const mod_schema *s, void *rec) {
  char prefix[40];
  const char *saved = r->prefix;
  mod_fmt(prefix, sizeof prefix, "%s%s.", saved, f->name);
  r->prefix = prefix;
  read_fields(r, lua_gettop(r->L), s, rec);
  r->prefix = saved;
}

/* Reads every field of s present in table t into rec, in schema order.
** FT_TARGET and FT_LEVELS are left to the caller. [-0, +0] */
static void read_fields(rd *r, int t, const mod_schema *s, void *rec) {
  lua_State *L = r->L;
  if (strchr(r->obj, '#') && !r->prefix[0] && s->fields[0].type == FT_NAME) {
    /* name the object in every message, even one about a field before it
    ** or about the name itself ("enemy #3" becomes "enemy 'runner'") */
    if (rawfield(L, t, "name") == LUA_TSTRING) {
      size_t len;
      const char *name = lua_tolstring(L, -1, &len);
      name_obj(r, NULL, name, len);
    }
    lua_pop(L, 1);
  }
  check_unknown(r, t, s);
  for (size_t i = 0; i < s->count; i++) {
    const mod_field *f = &s->fields[i];
    if (f->type == FT_TARGET || f->type == FT_LEVELS) continue;
    char *p = (char *)rec + f->off;
    int ty = rawfield(L, t, f->name);
    if (ty == LUA_TNIL) {
      lua_pop(L, 1);
      if ((f->flags & FF_REQUIRED) || ((f->flags & FF_ROOT_REQUIRED) && r->root))
        rfail(r, "%s%s is missing (%s)", r->prefix, f->name, expect_text(f));
      continue;
    }
    if ((f->flags & FF_NOT_IN_WAVE) && r->in_wave)
      rfail(r, "%s is not allowed in td.wave (the group spawns in that wave)", f->name);
    bool ok;
    switch (f->type) {
    case FT_NAME: case FT_REF: case FT_ENUM: case FT_TEXT: ok = ty == LUA_TSTRING; break;
    case FT_INT: case FT_NUM: case FT_SPAWN: ok = ty == LUA_TNUMBER; break;
    case FT_BOOL: ok = ty == LUA_TBOOLEAN; break;
    default: ok = ty == LUA_TTABLE; break;
    }
    if (!ok)
      rfail(r, "%s%s must be %s, got %s", r->prefix, f->name, expect_text(f), lua_typename(L, ty));
    switch (f->type) {
    case FT_NAME: case FT_REF: read_name(r, f, p); break;
    case FT_TEXT: read_text(r, f, p); break;
    case FT_INT: case FT_SPAWN: {
      int isint = 0;
      lua_Integer v = lua_tointegerx(L, -1, &isint);
      if (!isint)
        rfail(r, "%s%s must be an integer, got %.14g", r->prefix, f->name, lua_tonumber(L, -1));
      if (v < (lua_Integer)f->lo || v > (lua_Integer)f->hi)
        check_range(r, f, (double)v);
      *(int32_t *)p = (int32_t)v;
      break;
    }
    case FT_NUM: {
      double v = lua_tonumber(L, -1);
      check_range(r, f, v);
      *(float *)p = (float)v;
      break;
    }
    case FT_BOOL: *(bool *)p = lua_toboolean(L, -1); break;
    case FT_ENUM: *(int *)p = read_enum(r, f, f->choices); break;
    case FT_RESIST: read_resist(r, f, (resist_set *)(void *)p); break;
    case FT_EFFECT: read_effect(r, f, (td_effect *)(void *)p); break;
    case FT_MELEE: read_sub(r, f, &mod_melee_schema, p); break;
    case FT_SIEGE: read_sub(r, f, &mod_siege_schema, p); break;
    default: break;
    }
    lua_pop(L, 1);
  }
}

/* ---- declarations ---------------------------------------------------------- */

static mod_build *building(lua_State *L, mod_version *v, const char *fn) {
  if (!v->loading || !v->b)
    mod_raise(L, "td.%s: declarations are only allowed while the mod loads", fn);
  mod_check_api_version(L, v);
  return v->b;
}

static void *grow(lua_State *L, void *p, size_t *cap, size_t need, size_t elem) {
  void *q = td_mem_grow(p, cap, need, elem);
  if (!q) luaL_error(L, "out of memory");
  return q;
}

static void arg_table(lua_State *L, const char *fn) {
  if (lua_gettop(L) != 1 || lua_type(L, 1) != LUA_TTABLE)
    mod_raise(L, "td.%s expects one table, got %s", fn,
              lua_gettop(L) ? luaL_typename(L, 1) : "nothing");
}

static void rd_init(rd *r, lua_State *L, mod_version *v, const char *obj) {
  memset(r, 0, sizeof *r);
  r->L = L;
  r->v = v;
  r->prefix = "";
  mod_where(L, r->where, sizeof r->where);
  snprintf(r->obj, sizeof r->obj, "%s", obj);
}

int mod_l_damage_type(lua_State *L) {
  mod_version *v = mod_version_of(L);
  mod_build *b = building(L, v, "damage_type");
  if (lua_gettop(L) != 1 || lua_type(L, 1) != LUA_TSTRING)
    mod_raise(L, "td.damage_type expects a name (a string), got %s",
              lua_gettop(L) ? luaL_typename(L, 1) : "nothing");
  rd r;
  char obj[64];
  snprintf(obj, sizeof obj, "damage type #%d", b->ndamage + 1);
  rd_init(&r, L, v, obj);
  static const mod_field name_field = {"name", FT_NAME, 0, 0, 0, 0, NULL, NULL, 0, "string", ""};
  char name[MOD_NAME];
  lua_settop(L, 1);
  size_t len;
  const char *given = lua_tolstring(L, 1, &len);
  name_obj(&r, "damage type", given, len);
  read_name(&r, &name_field, name);
  for (int i = 0; i < b->ndamage; i++)
    if (strcmp(b->damage[i], name) == 0) {
      if (b->damage_mod[i] == v->at) rfail(&r, "declared twice (first at %s)", b->damage_where[i]);
      rfail(&r, "mod '%s' declares it again: mod '%s' declared it at %s (a damage type is "
            "only a name: use it as it is)", mod_name_at(v, v->at),
            mod_name_at(v, b->damage_mod[i]), b->damage_where[i]);
    }
  if (b->ndamage == TD_RULES_MAX_DAMAGE_TYPES)
    rfail(&r, "at most %d damage types", TD_RULES_MAX_DAMAGE_TYPES);
  memcpy(b->damage[b->ndamage], name, sizeof name);
  snprintf(b->damage_where[b->ndamage], MOD_WHERE, "%s", r.where);
  b->damage_mod[b->ndamage] = v->at;
  b->ndamage++;
  return 0;
}

/* A declaration of a name that exists (found, declared by mod `by` at
** `where`) needs replace = true, and replace = true needs one that exists.
** Raises naming both mods. */
static void check_redeclared(rd *r, const char *what, bool found, bool replace, int by,
                             const char *where) {
  const mod_version *v = r->v;
  if (found && !replace) {
    if (by == v->at) rfail(r, "declared twice (first at %s)", where);
    rfail(r, "declared twice: mod '%s' declared it at %s; to change it, mod '%s' declares it "
          "with replace = true", mod_name_at(v, by), where, mod_name_at(v, v->at));
  }
  if (!found && replace)
    rfail(r, "replace = true, but no %s of this name was declared before (by mod '%s' or a "
          "mod before it)", what, mod_name_at(v, v->at));
}

int mod_l_enemy(lua_State *L) {
  mod_version *v = mod_version_of(L);
  mod_build *b = building(L, v, "enemy");
  arg_table(L, "enemy");
  rd r;
  char obj[64];
  snprintf(obj, sizeof obj, "enemy #%zu", b->ne + 1);
  rd_init(&r, L, v, obj);
  b->enemies = grow(L, b->enemies, &b->ecap, b->ne + 1, sizeof *b->enemies);
  enemy_decl *e = &b->enemies[b->ne];
  memset(e, 0, sizeof *e);
  apply_defaults(&mod_enemy_schema, e);
  e->t.split_into = -1;
  read_fields(&r, 1, &mod_enemy_schema, e);
  e->mod = v->at;
  snprintf(e->where, sizeof e->where, "%s", r.where);
  size_t i = 0;
  while (i < b->ne && strcmp(b->enemies[i].t.name, e->t.name) != 0) i++;
  check_redeclared(&r, "enemy", i < b->ne, e->replace, i < b->ne ? b->enemies[i].mod : 0,
                   i < b->ne ? b->enemies[i].where : "");
  if (i < b->ne) b->enemies[i] = *e; /* replace = true: in its place */
  else b->ne++;
  return 0;
}

int mod_l_soldier(lua_State *L) {
  mod_version *v = mod_version_of(L);
  mod_build *b = building(L, v, "soldier");
  arg_table(L, "soldier");
  rd r;
  char obj[64];
  snprintf(obj, sizeof obj, "soldier #%zu", b->ns + 1);
  rd_init(&r, L, v, obj);
  b->soldiers = grow(L, b->soldiers, &b->scap, b->ns + 1, sizeof *b->soldiers);
  soldier_decl *s = &b->soldiers[b->ns];
  memset(s, 0, sizeof *s);
  apply_defaults(&mod_soldier_schema, s);
  read_fields(&r, 1, &mod_soldier_schema, s);
  s->mod = v->at;
  snprintf(s->where, sizeof s->where, "%s", r.where);
  size_t i = 0;
  while (i < b->ns && strcmp(b->soldiers[i].t.name, s->t.name) != 0) i++;
  check_redeclared(&r, "soldier", i < b->ns, s->replace, i < b->ns ? b->soldiers[i].mod : 0,
                   i < b->ns ? b->soldiers[i].where : "");
  if (i < b->ns) b->soldiers[i] = *s; /* replace = true: in its place */
  else b->ns++;
  return 0;
}

/* The tower's level named `name` among levels[first .. first+count), or -1. */
static long find_level(const mod_build *b, size_t first, size_t count, const char *name) {
  for (size_t i = first; i < first + count; i++)
    if (strcmp(b->levels[i].l.name, name) == 0) return (long)i;
  return -1;
}

static void read_level(rd *r, mod_build *b, size_t tower, size_t first, size_t k) {
  lua_State *L = r->L;
  int t = lua_gettop(L);
  char owner[200];
  snprintf(owner, sizeof owner, "%s", r->obj);
  b->levels = grow(L, b->levels, &b->lcap, b->nl + 1, sizeof *b->levels);
  level_decl *lv = &b->levels[b->nl];
  memset(lv, 0, sizeof *lv);
  /* name and from first (schema order), to know what to inherit; the
  ** level's name (or number) in every message, unknown fields included */
  char kind[sizeof owner + 8];
  mod_fmt(kind, sizeof kind, "%s level", owner);
  mod_fmt(r->obj, sizeof r->obj, "%s #%zu", kind, k);
  rawfield(L, t, "name");
  if (lua_type(L, -1) == LUA_TSTRING) {
    size_t len;
    const char *given = lua_tolstring(L, -1, &len);
    name_obj(r, kind, given, len);
  }
  check_unknown(r, t, &mod_level_schema);
  if (lua_isnil(L, -1)) rfail(r, "name is missing (a string)");
  if (lua_type(L, -1) != LUA_TSTRING) rfail(r, "name must be a string, got %s", luaL_typename(L, -1));
  char name[MOD_NAME], from[MOD_NAME] = "";
  read_name(r, &level_fields[0], name);
  lua_pop(L, 1);
  mod_fmt(r->obj, sizeof r->obj, "%s level '%s'", owner, name);
  if (find_level(b, first, b->nl - first, name) >= 0) rfail(r, "declared twice in this tower");
  int ty = rawfield(L, t, "from");
  if (ty != LUA_TNIL) {
    if (ty != LUA_TSTRING) rfail(r, "from must be a string, got %s", lua_typename(L, ty));
    if (k == 1) rfail(r, "the first level is the one built: it upgrades from nothing");
    read_name(r, &level_fields[1], from);
  }
  lua_pop(L, 1);
  long parent = -1;
  if (k > 1) {
    parent = from[0] ? find_level(b, first, b->nl - first, from) : (long)b->nl - 1;
    if (parent < 0) {
      char names[400] = "", hint[96];
      size_t used = 0;
      for (size_t i = first; i < b->nl && used + 1 < sizeof names; i++)
        used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", i > first ? "|" : "",
                                 b->levels[i].l.name);
      rfail(r, "from '%s' names no earlier level of this tower%s", from,
            suggest_in(from, names, hint, sizeof hint));
    }
    *lv = b->levels[parent]; /* inherit, but not what a player reads */
    lv->from[0] = '\0';
    lv->l.title[0] = lv->l.description[0] = '\0';
  } else {
    apply_defaults(&mod_level_schema, lv);
  }
  r->root = k == 1;
  read_fields(r, t, &mod_level_schema, lv);
  /* a barracks: a soldier type to keep, and no shots unless it says so
  ** (a level that becomes a barracks does not inherit a shooter's rate) */
  bool gave_soldier = rawfield(L, t, "soldier") != LUA_TNIL;
  bool gave_rate = rawfield(L, t, "rate") != LUA_TNIL;
  lua_pop(L, 2);
  if (lv->l.soldiers > 0 && !lv->soldier[0])
    rfail(r, "soldiers = %d needs soldier, the soldier type it keeps (declared with "
          "td.soldier)", (int)lv->l.soldiers);
  if (gave_soldier && lv->l.soldiers == 0)
    rfail(r, "soldier '%s' is given but soldiers is 0: a barracks keeps 1 .. %d soldiers",
          lv->soldier, TD_RULES_MAX_SOLDIERS);
  if (lv->l.soldiers > 0 && !gave_rate && (parent < 0 || b->levels[parent].l.soldiers == 0))
    lv->l.rate = 0.0f;
  memcpy(lv->l.name, name, sizeof name);
  lv->l.tower = (int32_t)tower;
  lv->l.parent = (int32_t)parent;
  for (int c = 0; c < TD_RULES_MAX_CHILDREN; c++) lv->l.children[c] = -1;
  if (parent >= 0) {
    td_tower_level *p = &b->levels[parent].l;
    int c = 0;
    while (c < TD_RULES_MAX_CHILDREN && p->children[c] != -1) c++;
    if (c == TD_RULES_MAX_CHILDREN)
      rfail(r, "'%s' already has %d upgrades (at most %d)", p->name, c, TD_RULES_MAX_CHILDREN);
    p->children[c] = (int32_t)b->nl;
  }
  snprintf(lv->where, sizeof lv->where, "%s", r->where);
  b->nl++;
  snprintf(r->obj, sizeof r->obj, "%s", owner);
}

int mod_l_tower(lua_State *L) {
  mod_version *v = mod_version_of(L);
  mod_build *b = building(L, v, "tower");
  arg_table(L, "tower");
  rd r;
  char obj[64];
  snprintf(obj, sizeof obj, "tower #%zu", b->nt + 1);
  rd_init(&r, L, v, obj);
  b->towers = grow(L, b->towers, &b->tcap, b->nt + 1, sizeof *b->towers);
  tower_decl *tw = &b->towers[b->nt];
  memset(tw, 0, sizeof *tw);
  read_fields(&r, 1, &mod_tower_schema, tw);
  size_t ti = 0; /* its index: an earlier one's with replace = true */
  while (ti < b->nt && strcmp(b->towers[ti].t.name, tw->t.name) != 0) ti++;
  check_redeclared(&r, "tower", ti < b->nt, tw->replace, ti < b->nt ? b->towers[ti].mod : 0,
                   ti < b->nt ? b->towers[ti].where : "");
  /* target */
  int ty = rawfield(L, 1, "target");
  tw->target = TD_TARGET_FIRST;
  if (ty == LUA_TSTRING) {
    tw->target = read_enum(&r, &tower_fields[1], tower_fields[1].choices);
  } else if (ty == LUA_TFUNCTION) {
    tw->target = TD_TARGET_SCRIPT;
    tw->t.script_target = true;
  } else if (ty != LUA_TNIL) {
    rfail(&r, "target must be %s, got %s", expect_text(&tower_fields[1]), lua_typename(L, ty));
  }
  /* levels */
  if (rawfield(L, 1, "levels") != LUA_TTABLE)
    rfail(&r, "levels %s", lua_isnil(L, -1) ? "is missing (an array of levels)"
                                           : "must be an array of levels");
  int lt = lua_gettop(L);
  size_t n = (size_t)lua_rawlen(L, lt), keys = 0;
  lua_pushnil(L);
  while (lua_next(L, lt)) {
    lua_pop(L, 1);
    keys++;
  }
  if (n == 0 || keys != n) rfail(&r, "levels must be a non-empty array of level tables");
  if (n > 256) rfail(&r, "at most 256 levels");
  size_t first = b->nl;
  tw->first = first;
  for (size_t k = 1; k <= n; k++) {
    if (lua_rawgeti(L, lt, (lua_Integer)k) != LUA_TTABLE)
      rfail(&r, "levels[%zu] must be a table, got %s", k, luaL_typename(L, -1));
    read_level(&r, b, ti, first, k);
    lua_pop(L, 1);
    tw = &b->towers[b->nt];
  }
  lua_pop(L, 1);
  tw->count = n;
  tw->t.root = (int32_t)first;
  tw->t.default_target = (td_target_mode)tw->target;
  tw->mod = v->at;
  snprintf(tw->where, sizeof tw->where, "%s", r.where);
  if (ti < b->nt) { /* replace = true: the old one's levels and targeting function go */
    const tower_decl *old = &b->towers[ti];
    for (size_t k = old->first; k < old->first + old->count; k++) b->levels[k].dead = true;
    for (size_t k = 0; k < v->hn; k++)
      if (v->h[k].kind == H_TARGET && v->h[k].tower == (int32_t)ti) v->h[k].tower = -1;
  }
  if (ty == LUA_TFUNCTION) {
    mod_handler *h = mod_add_handler(L, v, 2, H_TARGET);
    h->tower = (int32_t)ti;
  }
  if (ti < b->nt) b->towers[ti] = *tw;
  else b->nt++;
  return 0;
}

static void read_group(rd *r, mod_build *b, int t, int wave, int index) {
  lua_State *L = r->L;
  b->groups = grow(L, b->groups, &b->gcap, b->ng + 1, sizeof *b->groups);
  group_decl *g = &b->groups[b->ng];
  memset(g, 0, sizeof *g);
  apply_defaults(&mod_group_schema, g);
  r->in_wave = wave > 0;
  read_fields(r, t, &mod_group_schema, g);
  if (wave > 0) g->g.begin = g->g.end = wave;
  if (g->g.max_count < g->g.count)
    rfail(r, "max_count must be >= count (%d), got %d", (int)g->g.count, (int)g->g.max_count);
  if (g->g.end != 0 && g->g.end < g->g.begin)
    rfail(r, "last must be 0 (no end) or >= first (%d), got %d", (int)g->g.begin, (int)g->g.end);
  g->wave = wave;
  g->index = index;
  snprintf(g->where, sizeof g->where, "%s", r->where);
  b->ng++;
}

int mod_l_group(lua_State *L) {
  mod_version *v = mod_version_of(L);
  mod_build *b = building(L, v, "group");
  arg_table(L, "group");
  rd r;
  char obj[64];
  snprintf(obj, sizeof obj, "group #%zu", b->ng + 1);
  rd_init(&r, L, v, obj);
  read_group(&r, b, 1, 0, 0);
  return 0;
}

int mod_l_wave(lua_State *L) {
  mod_version *v = mod_version_of(L);
  mod_build *b = building(L, v, "wave");
  if (lua_type(L, 1) == LUA_TFUNCTION) { /* a wave script (mod_wave.c) */
    if (b->waves >= 100000) mod_raise(L, "td.wave: too many waves");
    b->waves++;
    mod_add_handler(L, v, 1, H_WAVE)->wave = b->waves;
    return 0;
  }
  arg_table(L, "wave");
  rd r;
  char obj[64];
  snprintf(obj, sizeof obj, "wave %d", b->waves + 1);
  rd_init(&r, L, v, obj);
  size_t n = (size_t)lua_rawlen(L, 1), keys = 0;
  lua_pushnil(L);
  while (lua_next(L, 1)) {
    lua_pop(L, 1);
    keys++;
  }
  if (keys != n) rfail(&r, "td.wave takes an array of groups: { { enemy = ... }, ... }");
  if (b->waves >= 100000) rfail(&r, "too many waves");
  b->waves++;
  for (size_t k = 1; k <= n; k++) {
    snprintf(r.obj, sizeof r.obj, "wave %d group %zu", b->waves, k);
    if (lua_rawgeti(L, 1, (lua_Integer)k) != LUA_TTABLE)
      rfail(&r, "must be a table, got %s", luaL_typename(L, -1));
    read_group(&r, b, lua_gettop(L), b->waves, (int)k);
    lua_pop(L, 1);
  }
  return 0;
}

int mod_l_rules(lua_State *L) {
  mod_version *v = mod_version_of(L);
  mod_build *b = building(L, v, "rules");
  arg_table(L, "rules");
  rd r;
  rd_init(&r, L, v, "rules");
  if (b->rules_given && b->rules_mod == v->at)
    rfail(&r, "td.rules given twice (first at %s)", b->rules_where);
  read_fields(&r, 1, &mod_rules_schema, &b->rules); /* only the fields given */
  b->rules_given = true;
  b->rules_mod = v->at;
  snprintf(b->rules_where, sizeof b->rules_where, "%s", r.where);
  return 0;
}

/* ---- names to indices ---------------------------------------------------------- */

static int bfail(td_err *err, const char *where, const char *obj, const char *fmt, ...)
    MOD_PRINTF(4, 5);
static int bfail(td_err *err, const char *where, const char *obj, const char *fmt, ...) {
  char msg[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return td_err_set(err, "%s: %s: %s", where, obj, msg);
}

static int damage_index(const mod_build *b, const char *name) {
  for (int i = 0; i < b->ndamage; i++)
    if (strcmp(b->damage[i], name) == 0) return i;
  return -1;
}

static long enemy_index(const mod_build *b, const char *name) {
  for (size_t i = 0; i < b->ne; i++)
    if (strcmp(b->enemies[i].t.name, name) == 0) return (long)i;
  return -1;
}

static long soldier_index(const mod_build *b, const char *name) {
  for (size_t i = 0; i < b->ns; i++)
    if (strcmp(b->soldiers[i].t.name, name) == 0) return (long)i;
  return -1;
}

static const char *damage_hint(const mod_build *b, const char *got, char *buf, size_t size) {
  char names[TD_RULES_MAX_DAMAGE_TYPES * MOD_NAME + 8] = "";
  size_t used = 0;
  for (int i = 0; i < b->ndamage; i++)
    used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", i ? "|" : "", b->damage[i]);
  return suggest_in(got, names, buf, size);
}

/* " (did you mean 'x'?)" for the closest of count names, each at the start
** of a record of stride bytes (enemy_decl and soldier_decl open with their
** type, which opens with its name), or "". */
static const char *closest_hint(const char *got, const void *base, size_t count, size_t stride,
                                char *buf, size_t size) {
  int best = 3;
  const char *pick = NULL;
  for (size_t i = 0; i < count; i++) {
    const char *name = (const char *)base + i * stride;
    int d = mod_distance(got, name);
    if (d < best) {
      best = d;
      pick = name;
    }
  }
  if (pick) snprintf(buf, size, " (did you mean '%s'?)", pick);
  else buf[0] = '\0';
  return buf;
}

_Static_assert(offsetof(enemy_decl, t.name) == 0 && offsetof(soldier_decl, t.name) == 0,
               "closest_hint reads names at the start of the records");

static const char *enemy_hint(const mod_build *b, const char *got, char *buf, size_t size) {
  return closest_hint(got, b->enemies, b->ne, sizeof *b->enemies, buf, size);
}

static const char *soldier_hint(const mod_build *b, const char *got, char *buf, size_t size) {
  return closest_hint(got, b->soldiers, b->ns, sizeof *b->soldiers, buf, size);
}

/* Prefixes a td_rules_validate message with the file:line of the object it
** names. */
static int map_validate(const mod_version *v, td_err *err) {
  const mod_build *b = v->b;
  char name[MOD_NAME + 1], msg[sizeof err->msg];
  snprintf(msg, sizeof msg, "%s", err->msg);
  const char *where = v->mod->entry;
  size_t gi;
  if (sscanf(msg, "enemy '%32[^']'", name) == 1) {
    long i = enemy_index(b, name);
    if (i >= 0) where = b->enemies[i].where;
  } else if (sscanf(msg, "soldier '%32[^']'", name) == 1) {
    long i = soldier_index(b, name);
    if (i >= 0) where = b->soldiers[i].where;
  } else if (sscanf(msg, "tower level '%32[^']'", name) == 1) {
    for (size_t i = 0; i < b->nl; i++)
      if (strcmp(b->levels[i].l.name, name) == 0) {
        where = b->levels[i].where;
        break;
      }
  } else if (sscanf(msg, "tower '%32[^']'", name) == 1) {
    for (size_t i = 0; i < b->nt; i++)
      if (strcmp(b->towers[i].t.name, name) == 0) where = b->towers[i].where;
  } else if (sscanf(msg, "spawn group %zu", &gi) == 1 && gi >= 1 && gi <= b->ng) {
    where = b->groups[gi - 1].where;
  } else if (strncmp(msg, "rules:", 6) == 0 && b->rules_given) {
    where = b->rules_where;
  }
  return td_err_set(err, "%s: %s", where, msg);
}

/* Drops the levels of replaced towers, renumbering the others. */
static void drop_dead_levels(mod_build *b) {
  size_t n = 0;
  for (size_t i = 0; i < b->nl; i++)
    if (!b->levels[i].dead) b->levels[i].moved = (int32_t)n++;
  if (n == b->nl) return;
  for (size_t i = 0; i < b->nl; i++) {
    td_tower_level *l = &b->levels[i].l;
    if (b->levels[i].dead) continue;
    if (l->parent >= 0) l->parent = b->levels[l->parent].moved;
    for (int c = 0; c < TD_RULES_MAX_CHILDREN; c++)
      if (l->children[c] >= 0) l->children[c] = b->levels[l->children[c]].moved;
  }
  for (size_t t = 0; t < b->nt; t++) {
    tower_decl *tw = &b->towers[t];
    tw->first = (size_t)b->levels[tw->first].moved;
    tw->t.root = (int32_t)tw->first;
  }
  for (size_t i = 0; i < b->nl; i++) /* moved <= i: forward copies are safe */
    if (!b->levels[i].dead) b->levels[b->levels[i].moved] = b->levels[i];
  b->nl = n;
}

int mod_build_rules(mod_version *v, td_err *err) {
  mod_build *b = v->b;
  td_rules *R = &v->rules;
  char hint[96];
  const char *entry = v->mod->entry;
  drop_dead_levels(b);
  if (b->ndamage == 0)
    return td_err_set(err, "%s: no damage type declared: a mod declares at least one "
                           "(td.damage_type \"name\"; the first is the default)", entry);
  *R = b->rules;
  R->enemies = NULL;
  R->soldier_types = NULL;
  R->towers = NULL;
  R->levels = NULL;
  R->groups = NULL;
  R->enemy_count = R->soldier_type_count = R->tower_count = R->level_count = R->group_count = 0;
  R->api_version = TD_RULES_API_VERSION;
  R->damage_type_count = b->ndamage;
  memcpy(R->damage_types, b->damage, sizeof b->damage);
  /* checks by name, before anything is allocated */
  for (size_t i = 0; i < b->ne; i++) {
    const enemy_decl *e = &b->enemies[i];
    char obj[80];
    snprintf(obj, sizeof obj, "enemy '%s'", e->t.name);
    for (int k = 0; k < e->resist.n; k++)
      if (damage_index(b, e->resist.name[k]) < 0)
        return bfail(err, e->where, obj, "resist: unknown damage type '%s'%s", e->resist.name[k],
                     damage_hint(b, e->resist.name[k], hint, sizeof hint));
    if (e->split_into[0] && enemy_index(b, e->split_into) < 0)
      return bfail(err, e->where, obj, "split_into: unknown enemy '%s'%s", e->split_into,
                   enemy_hint(b, e->split_into, hint, sizeof hint));
  }
  for (size_t i = 0; i < b->ns; i++) {
    const soldier_decl *sd = &b->soldiers[i];
    if (sd->damage_type[0] && damage_index(b, sd->damage_type) < 0) {
      char obj[80];
      snprintf(obj, sizeof obj, "soldier '%s'", sd->t.name);
      return bfail(err, sd->where, obj, "unknown damage type '%s'%s", sd->damage_type,
                   damage_hint(b, sd->damage_type, hint, sizeof hint));
    }
  }
  for (size_t i = 0; i < b->nl; i++) {
    const level_decl *l = &b->levels[i];
    char obj[120];
    snprintf(obj, sizeof obj, "tower '%s' level '%s'", b->towers[l->l.tower].t.name, l->l.name);
    if (l->damage_type[0] && damage_index(b, l->damage_type) < 0)
      return bfail(err, l->where, obj, "unknown damage type '%s'%s", l->damage_type,
                   damage_hint(b, l->damage_type, hint, sizeof hint));
    if (l->soldier[0] && soldier_index(b, l->soldier) < 0)
      return bfail(err, l->where, obj, "unknown soldier '%s'%s", l->soldier,
                   soldier_hint(b, l->soldier, hint, sizeof hint));
  }
  int32_t last_wave = b->waves;
  for (size_t i = 0; i < b->ng; i++) {
    const group_decl *g = &b->groups[i];
    if (enemy_index(b, g->enemy) < 0) {
      char obj[80];
      if (g->wave) snprintf(obj, sizeof obj, "wave %d group %d", g->wave, g->index);
      else snprintf(obj, sizeof obj, "group #%zu", i + 1);
      return bfail(err, g->where, obj, "unknown enemy '%s'%s", g->enemy,
                   enemy_hint(b, g->enemy, hint, sizeof hint));
    }
    if (g->g.begin > last_wave) last_wave = g->g.begin;
    if (g->g.end > last_wave) last_wave = g->g.end;
  }
  if (R->wave_count == 0) R->wave_count = last_wave;
  if (R->wave_count == 0)
    return td_err_set(err, "%s: no waves: declare td.wave { ... } or td.rules { wave_count = N }",
                      entry);
  /* the arrays */
  if ((b->ne && !(R->enemies = td_mem_calloc(b->ne, sizeof *R->enemies))) ||
      (b->ns && !(R->soldier_types = td_mem_calloc(b->ns, sizeof *R->soldier_types))) ||
      (b->nt && !(R->towers = td_mem_calloc(b->nt, sizeof *R->towers))) ||
      (b->nl && !(R->levels = td_mem_calloc(b->nl, sizeof *R->levels))) ||
      (b->ng && !(R->groups = td_mem_calloc(b->ng, sizeof *R->groups)))) {
    R->enemy_count = R->enemies ? b->ne : 0;
    R->soldier_type_count = R->soldier_types ? b->ns : 0;
    R->tower_count = R->towers ? b->nt : 0;
    R->level_count = R->levels ? b->nl : 0;
    td_rules_free(R);
    return td_err_set(err, "%s: out of memory", entry);
  }
  R->enemy_count = b->ne;
  R->soldier_type_count = b->ns;
  R->tower_count = b->nt;
  R->level_count = b->nl;
  R->group_count = b->ng;
  for (size_t i = 0; i < b->ne; i++) {
    const enemy_decl *e = &b->enemies[i];
    R->enemies[i] = e->t;
    for (int k = 0; k < e->resist.n; k++)
      R->enemies[i].resist[damage_index(b, e->resist.name[k])] = e->resist.v[k];
    R->enemies[i].split_into = e->split_into[0] ? (int32_t)enemy_index(b, e->split_into) : -1;
    if (R->enemies[i].split_into < 0) R->enemies[i].split_count = 0;
  }
  for (size_t i = 0; i < b->ns; i++) {
    R->soldier_types[i] = b->soldiers[i].t;
    const char *dt = b->soldiers[i].damage_type;
    R->soldier_types[i].damage_type = dt[0] ? damage_index(b, dt) : 0;
  }
  for (size_t i = 0; i < b->nt; i++) R->towers[i] = b->towers[i].t;
  for (size_t i = 0; i < b->nl; i++) {
    R->levels[i] = b->levels[i].l;
    const char *dt = b->levels[i].damage_type, *sd = b->levels[i].soldier;
    R->levels[i].damage_type = dt[0] ? damage_index(b, dt) : 0;
    R->levels[i].soldier = sd[0] ? (int32_t)soldier_index(b, sd) : -1;
  }
  /* a title for everything a player reads about (rules.h: display names) */
  for (size_t i = 0; i < b->ne; i++)
    if (!R->enemies[i].title[0])
      td_mod_title_from_name(R->enemies[i].name, R->enemies[i].title, TD_RULES_TITLE_MAX);
  for (size_t i = 0; i < b->ns; i++)
    if (!R->soldier_types[i].title[0])
      td_mod_title_from_name(R->soldier_types[i].name, R->soldier_types[i].title,
                             TD_RULES_TITLE_MAX);
  for (size_t i = 0; i < b->nt; i++)
    if (!R->towers[i].title[0])
      td_mod_title_from_name(R->towers[i].name, R->towers[i].title, TD_RULES_TITLE_MAX);
  for (size_t i = 0; i < b->nl; i++)
    if (!R->levels[i].title[0])
      td_mod_title_from_name(R->levels[i].name, R->levels[i].title, TD_RULES_TITLE_MAX);
  for (size_t i = 0; i < b->ng; i++) {
    R->groups[i] = b->groups[i].g;
    R->groups[i].enemy = (int32_t)enemy_index(b, b->groups[i].enemy);
    R->groups[i].spawn = b->groups[i].spawn1 > 0 ? b->groups[i].spawn1 - 1 : -1;
  }
  if (td_rules_validate(R, err) != 0) {
    map_validate(v, err);
    td_rules_free(R);
    return -1;
  }
  return 0;
}
