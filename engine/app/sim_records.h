/*
** sim_records.h: what `td sim --json` records of a whole game for a balance
** sweep (docs/cli.md, "Records"): the gold and lives curves, sampled every
** `every` ticks from the run's first tick (and the end's value last), the
** kills by the tower type credited with them and the leaks by enemy type.
**
** The kills: a KILLED event names its tower (a soldier's kill names its
** barracks); the type is that tower's, or, when the tower is gone by then
** (sold in the same tick), that of the level the enemy's last hit of the
** tick names; a kill no tower is credited with (a script's damage naming
** none, the burn of a tower sold since) counts as "none". So the kills sum
** to the events', and over a fresh game to td_game_totals's.
**
** Like the other per-run counts of td sim they start when the run does (a
** loaded game's at its load). Memory: the arrays are the record's
** (sim_records_free). Determinism: read from the game's events and state
** only; keys are printed in the rules' order.
*/
#ifndef TD_APP_SIM_RECORDS_H
#define TD_APP_SIM_RECORDS_H

#include <stdint.h>
#include <stdio.h>

#include "game/game.h"

#define SIM_CURVE_EVERY 600 /* ticks between the curves' samples */

typedef struct sim_records {
  uint64_t every, from;      /* the curves: period, and the first sample's tick */
  uint64_t last;             /* the tick of the last sample */
  int32_t *gold, *lives;     /* n samples each */
  size_t n, gcap, lcap;
  int64_t *kills;            /* per tower type, then one more: "none" */
  size_t towers;
  int64_t *leaks;            /* per enemy type */
  size_t enemies;
  bool failed;               /* out of memory: sim_records_json prints nothing */
} sim_records;

/* Starts the records of a game about to run (its first sample). */
void sim_records_init(sim_records *s, const td_game *g);
/* After every step: the step's events, and a sample when one is due. */
void sim_records_step(sim_records *s, const td_game *g);
/* At the end: the last sample (unless the last step took it). */
void sim_records_end(sim_records *s, const td_game *g);
/* The JSON members, each closed by a comma: "curve_every":N,"curve_from":T,
** "gold_curve":[...],"lives_curve":[...],"kills_by_tower":{...},
** "leaks_by_enemy":{...}, */
void sim_records_json(const sim_records *s, const td_game *g, FILE *out);
void sim_records_free(sim_records *s);

#endif
