/*
** scenario.h: behaviour scenarios, the data behind `td check`
** (docs/check.md): a map, a mod, a seed, player commands at ticks, and
** expectations on what the game measured when it stopped.
**
** What. td_scenario_load runs a scenario file in a Lua sandbox
** (script/lsandbox.h: empty environment but for the `scenario` function,
** text only, TD_SCENARIO_MEMORY bytes, TD_SCENARIO_INSTRUCTIONS
** instructions) and checks every field of every `scenario { ... }` call:
** what can be checked without the map and the mod (types, ranges, unknown
** fields with a "did you mean", operators, metric names) is checked there.
** td_scenario_check then loads the map and the mod and resolves the names
** (tower types, tower bases by Tiled object id, upgrade levels, targeting
** modes); td_scenario_run does the same and plays the game headless, with
** the crowd's metrics on, until the game is won or lost (or to the tick
** limit), and fills a td_scenario_measure. td_scenario_holds judges one
** expectation against it.
**
** Errors are one line naming the file and the line of the scenario's
** `scenario {` call, the scenario and the field:
** "tests/scenarios/x.lua:12: scenario 'lanes': towers[2]: unknown field
** 'bse' (did you mean 'base'?)". Syntax errors and the sandbox's limits keep
** Lua's own "file:line: ..." form.
**
** Paths. `map` and `mod` are relative to the directory of the scenario file
** (absolute ones are taken as they are), like #include "x.h" in C, so a
** scenario runs from any working directory; they are stored resolved and
** lexically normalised ("tests/scenarios/../../maps/a.lua" is
** "maps/a.lua").
**
** Memory: a td_scenario_file owns its scenarios and their arrays (td_mem);
** td_scenario_file_free releases them and leaves it zeroed. A run owns its
** game and destroys it before returning.
** Determinism: nothing depends on Lua's pairs() order (field names are
** sorted before they are read, expectations are kept in the order of
** td_scenario_key, then as written in a list); commands go to the game in
** tick order, stable; the game is deterministic (game.h); nothing reads a
** clock.
*/
#ifndef TD_SCENARIO_H
#define TD_SCENARIO_H

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>

#include "crowd/crowd.h"
#include "nav/mem.h"
#include "sim/rules.h"
#include "sim/world.h"
#include "script/mod.h" /* TD_MOD_MAX_MODS */

#define TD_SCENARIO_MEMORY ((size_t)16 << 20)          /* Lua memory per file */
#define TD_SCENARIO_INSTRUCTIONS ((uint64_t)10000000)  /* Lua instructions per file */
#define TD_SCENARIO_FILE_MAX ((size_t)1 << 20)        /* bytes per file */
#define TD_SCENARIO_DEFAULT_TICKS ((uint64_t)36000)   /* ten minutes of game */
#define TD_SCENARIO_MAX_TICKS ((uint64_t)60 * 3600 * 24) /* a day of game time */
#define TD_SCENARIO_PATH_MAX 512
#define TD_SCENARIO_NAME_MAX 96

/* What an expectation measures; also the order they are reported in. */
typedef enum td_scenario_key {
  TD_SCENARIO_RESULT = 0,  /* playing | won | lost */
  TD_SCENARIO_LIVES,
  TD_SCENARIO_GOLD,
  TD_SCENARIO_WAVE,        /* last wave started */
  TD_SCENARIO_TICKS,       /* ticks run */
  TD_SCENARIO_SPAWNED,     /* SPAWNED events */
  TD_SCENARIO_KILLS,       /* KILLED events */
  TD_SCENARIO_LEAKS,       /* LEAKED events */
  TD_SCENARIO_REFUSED,     /* REFUSED events: commands the world refused */
  TD_SCENARIO_SCRIPT_ERRORS, /* handlers the mod stopped, failed reloads */
  TD_SCENARIO_MIN_GAP,     /* the crowd's metrics (crowd.h) from here on */
  TD_SCENARIO_LANE_ERROR,
  TD_SCENARIO_LANE_SWAPS,
  TD_SCENARIO_GROUP_SPREAD,
  TD_SCENARIO_JITTER,
  TD_SCENARIO_ORBITS,
  TD_SCENARIO_OFF_ROAD,      /* ground agent-ticks off the walkable area */
  TD_SCENARIO_OFF_ROAD_DEPTH,
  /* soldiers and sappers (sim/unit.h) */
  TD_SCENARIO_FIRST_LEAK,    /* seconds of game to the first leak (inf: none) */
  TD_SCENARIO_HELD,          /* enemy-seconds held by soldiers (blocked or fighting one) */
  TD_SCENARIO_ENGAGED,       /* ENGAGED events */
  TD_SCENARIO_SOLDIER_DEATHS,/* SOLDIER_DIED events */
  TD_SCENARIO_TOWERS_DESTROYED, /* TOWER_DESTROYED events */
  TD_SCENARIO_ROUTE_UPDATES, /* route updates applied during the run (placements, sales,
                                fallen towers, cost changes) */
  TD_SCENARIO_KEY_COUNT
} td_scenario_key;

typedef enum td_scenario_op {
  TD_SCENARIO_LT = 0, TD_SCENARIO_LE, TD_SCENARIO_GT, TD_SCENARIO_GE, TD_SCENARIO_EQ,
  TD_SCENARIO_NE
} td_scenario_op;

typedef struct td_scenario_expect {
  td_scenario_key key;
  td_scenario_op op;
  double value;          /* for RESULT: a td_game_state */
  char text[64];         /* "min_gap > 0", for the report */
} td_scenario_expect;

typedef enum td_scenario_action_kind {
  TD_SCENARIO_PLACE = 0, /* base, name: tower type */
  TD_SCENARIO_UPGRADE,   /* base, name: the level to upgrade into ("": the first upgrade) */
  TD_SCENARIO_SELL,      /* base */
  TD_SCENARIO_TARGET,    /* base, name: targeting mode */
  TD_SCENARIO_CALL_WAVE,
  TD_SCENARIO_RALLY,     /* base, x, y: a barracks' rally point (map units) */
  TD_SCENARIO_REPAIR     /* base */
} td_scenario_action_kind;

typedef struct td_scenario_action {
  td_scenario_action_kind kind;
  uint64_t tick;
  int64_t base_id;       /* Tiled object id of the tower base */
  char name[TD_RULES_NAME_MAX];
  float x, y;            /* rally */
  char field[32];        /* "towers[3]", "call_wave[1]": for messages */
} td_scenario_action;

typedef struct td_scenario {
  char name[TD_SCENARIO_NAME_MAX];
  int line;              /* of its `scenario {` call */
  char map[TD_SCENARIO_PATH_MAX];  /* resolved (see Paths above) */
  char mod[TD_SCENARIO_PATH_MAX];  /* the first mod's (mods[0]) */
  char mods[TD_MOD_MAX_MODS][TD_SCENARIO_PATH_MAX]; /* mod = "dir" or { "a", "b" }: in order */
  size_t nmods;
  uint64_t seed;
  uint64_t ticks;        /* the tick limit */
  bool until_end;        /* stop = "end": stop when won or lost (else run every tick) */
  bool endless;
  td_scenario_action *actions;     /* by tick, stable (towers, then call_wave) */
  size_t action_count;
  td_scenario_expect *expects;     /* by key, then as written */
  size_t expect_count;
} td_scenario;

typedef struct td_scenario_file {
  char path[TD_SCENARIO_PATH_MAX];
  td_scenario *items;    /* in file order */
  size_t count;
  size_t cap;            /* items allocated */
} td_scenario_file;

/* Reads and checks path (see the top). 0, or -1 with err set and f zeroed. */
int td_scenario_load(const char *path, td_scenario_file *f, td_err *err);
void td_scenario_file_free(td_scenario_file *f);

/* What a run measured when it stopped. */
typedef struct td_scenario_measure {
  td_game_state result;
  int32_t lives, gold, wave;
  uint64_t ticks;
  int64_t spawned, kills, leaks, refused, script_errors;
  double first_leak;     /* seconds, INFINITY: none */
  int64_t held_ticks, engaged, soldier_deaths, towers_destroyed, route_updates;
  td_crowd_metrics crowd;
  char first_refusal[192]; /* "tick 0: base 12: ..." for the first REFUSED, "" none */
} td_scenario_measure;

/* Loads the map and the mod and resolves the scenario's names; nothing
** runs. 0, or -1 with err set ("file:line: scenario 'x': towers[1]: unknown
** tower 'arow' (did you mean 'arrow'?)", or the loader's message). */
int td_scenario_check(const td_scenario_file *f, const td_scenario *s, td_err *err);

/* Checks, then plays the scenario and fills m. The mod's print lines and
** handler errors go to mod_out as they happen (script/modout.h), each line
** after "scenario 'NAME': "; NULL: nowhere. 0, or -1 with err set (as
** td_scenario_check, or the game broke). */
int td_scenario_run(const td_scenario_file *f, const td_scenario *s, td_scenario_measure *m,
                    FILE *mod_out, td_err *err);

/* The measured value behind key (RESULT: the td_game_state). */
double td_scenario_value(const td_scenario_measure *m, td_scenario_key key);
bool td_scenario_holds(const td_scenario_expect *e, const td_scenario_measure *m);
/* The measured value of key as text ("0.412", "3", "won", "inf"). */
void td_scenario_format(const td_scenario_measure *m, td_scenario_key key, char *buf, size_t cap);

const char *td_scenario_key_name(td_scenario_key key);
const char *td_scenario_op_name(td_scenario_op op);

#endif
