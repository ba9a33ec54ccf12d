/*
** sweep.h: the pieces of `td sweep` (docs/sweep.md): a balance sweep plays
** every combination of maps, difficulties, players and strategies, rule
** overrides and seeds, one `td sim ... --json` game each.
**
**   sweep_spec.c    loads a spec (a Lua file, run in the sandbox like a
**                   map: no library, memory and instruction caps) into a
**                   sweep_spec, checks it (maps exist, strategies and
**                   override parameters are known, lists are not empty)
**                   and turns a job index into its td sim command line
**   cmd_sweep.c     td sweep plan (the command lines) and run (children
**                   N at a time, progress, results.jsonl, resume)
**   sweep_report.c  td sweep report: the JSON lines into sweep.csv and
**                   report.md (sweep_report.h)
**   sweep_chart.c   report.md's charts, drawn by gnuplot
**
** Jobs. The spec's lists multiply in a fixed order: map, difficulty,
** player (auto with each strategy, then idle), override values (the first
** parameter slowest), seed (fastest). Job i of that order is the same on
** every machine: plan --shard I/N takes jobs I-1, I-1+N, ... (interleaved,
** so each shard gets its share of the long maps). Each job's command ends
** with --tag KEY: KEY names its inputs ("01-crossroads normal auto default
** seed=3 tower.cannon.cost*1.1") and keys its result line.
**
** Errors in a spec are one line "spec.lua:LINE: what is wrong", LINE the
** line the bad value is written on (found in the source), else the line of
** the sweep{...} call. Memory: a sweep_spec is one heap block
** (sweep_spec_free). Determinism: no clock; the order above only.
*/
#ifndef TD_APP_SWEEP_H
#define TD_APP_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "game/game.h"
#include "game/override.h"

#define SWEEP_MAX_MAPS 64
#define SWEEP_MAX_SEEDS 100000
#define SWEEP_MAX_VALUES 64        /* values of one override parameter */
#define SWEEP_MAX_PARAMS 8         /* override parameters swept together */
#define SWEEP_PATH_MAX 4096
#define SWEEP_KEY_MAX 512

/* What a result line may carry beyond the fixed columns (docs/sweep.md). */
enum {
  SWEEP_REC_GOLD_CURVE = 1u << 0,   /* "gold_curve" (td sim --json, with strategies) */
  SWEEP_REC_LIVES_CURVE = 1u << 1,
  SWEEP_REC_KILLS_BY_TOWER = 1u << 2,
  SWEEP_REC_LEAKS_BY_ENEMY = 1u << 3,
  SWEEP_REC_WAVE_GOLD = 1u << 4,    /* gold at each wave's start (wave_starts) */
  SWEEP_REC_WAVE_LIVES = 1u << 5,
  SWEEP_REC_ALL = (1u << 6) - 1
};

typedef struct sweep_param {
  td_override_op op;
  char param[TD_OVERRIDE_PARAM_MAX];
  double values[SWEEP_MAX_VALUES];
  size_t nvalues;
} sweep_param;

typedef struct sweep_player {
  bool idle;
  int strategy;          /* td_auto_strategy_find's index (auto only) */
} sweep_player;

typedef struct sweep_spec {
  char path[SWEEP_PATH_MAX];       /* as given */
  char maps[SWEEP_MAX_MAPS][SWEEP_PATH_MAX]; /* absolute paths */
  char map_names[SWEEP_MAX_MAPS][64];        /* td_game_map_name_of */
  size_t nmaps;
  td_difficulty difficulties[TD_DIFFICULTY_COUNT];
  size_t ndifficulties;
  sweep_player players[1 + 8];     /* auto x strategies, then idle */
  size_t nplayers;
  sweep_param params[SWEEP_MAX_PARAMS];
  size_t nparams;
  uint64_t seeds[SWEEP_MAX_SEEDS];
  size_t nseeds;
  uint64_t ticks;                  /* 0: td sim's default */
  char mods[TD_MOD_MAX_MODS][SWEEP_PATH_MAX]; /* absolute paths; none: td sim's default */
  size_t nmods;
  unsigned record;                 /* SWEEP_REC_* */
  char td[SWEEP_PATH_MAX];         /* the td that runs the games (this one) */
} sweep_spec;

/* Loads and checks path into a new spec. NULL with err "path:LINE: ..."
** (the message without "td: "). */
sweep_spec *sweep_spec_load(const char *path, td_err *err);
void sweep_spec_free(sweep_spec *s);

size_t sweep_job_count(const sweep_spec *s);

/* Job i's td sim arguments: argv[0] is the td, argv[argc] NULL; the
** strings live in buf[cap] (16 KiB is plenty). Returns argc, or -1 when
** buf is too small. key[SWEEP_KEY_MAX] gets its key (its --tag). */
int sweep_job_argv(const sweep_spec *s, size_t i, char **argv, int max_args, char *buf,
                   size_t cap, char *key);

/* Writes argv as one shell command line (every word quoted when it needs
** it) to f. */
void sweep_print_command(FILE *f, char *const *argv);

/* Record names ("gold_curve", ...) and their bits, for the report. */
const char *sweep_record_name(unsigned bit);

/* cmd_sweep.c's subcommands; sweep_report.c's. */
int sweep_report(int argc, char **argv);

#endif
