/*
** override.h: rule overrides, `td sim --set PARAM=VALUE` and `--scale
** PARAM=FACTOR`: a named number of the rules (sim/rules.h) set to a value
** or multiplied by a factor after the mods have built the rules and before
** the world starts (docs/cli.md#rule-overrides). A balance sweep
** (docs/sweep.md) plays the same game with a tower's cost x 0.9, 1.0, 1.1.
**
** Parameters, by kind, a name and a field:
**   tower.NAME.FIELD   every level of tower type NAME  (tower.cannon.cost)
**   level.NAME.FIELD   one tower level                 (level.cannon_2.damage)
**   enemy.NAME.FIELD   an enemy type                   (enemy.runner.speed)
**   soldier.NAME.FIELD a soldier type                  (soldier.guard.health)
**   rules.FIELD        the game's own numbers          (rules.start_gold)
** FIELD is one of the numeric fields of that struct (td_override_fields
** lists them). A whole-number field takes the result rounded half away
** from zero (cost 25 x 1.1 = 27.5: 28). The rules then go through
** td_rules_validate like a mod's: a value the rules refuse is refused
** ("--set enemy.runner.speed=0: enemy 'runner': speed must be > 0").
**
** Errors are one line, "--scale tower.canon.cost: no tower type 'canon'
** (arrow, cannon, ...)"; the caller adds its own prefix ("sim: ").
**
** Overrides apply in the order given (a --set then a --scale of the same
** field scales the value set). They change the rules, so the rules' hash
** (td_world_rules_hash) too: a save is bound to them, a replay records
** them (game/replay.h, `override` lines).
**
** Memory: td_override_apply fills a td_rules that owns its arrays
** (td_rules_free). Determinism: plain arithmetic on the values given.
*/
#ifndef TD_OVERRIDE_H
#define TD_OVERRIDE_H

#include <stdbool.h>
#include <stddef.h>

#include "nav/mem.h"
#include "sim/rules.h"

#define TD_OVERRIDE_MAX 32         /* overrides in one game */
#define TD_OVERRIDE_PARAM_MAX 80   /* a parameter's text, with the zero */

typedef enum td_override_op { TD_OVERRIDE_SET = 0, TD_OVERRIDE_SCALE } td_override_op;

typedef struct td_override {
  td_override_op op;
  char param[TD_OVERRIDE_PARAM_MAX]; /* "tower.cannon.cost" */
  double value;                      /* the value set, or the factor */
} td_override;

/* "set" or "scale" (the word of a replay's override line, and of the flag). */
const char *td_override_op_name(td_override_op op);

/* Parses "PARAM=VALUE" (a flag's argument) into out: the parameter's syntax
** (a known kind, a known field, names of name characters) and a finite
** value. Whether NAME exists is for td_override_apply (it needs the
** rules). 0, or -1 with err "--scale tower.cannon.cost: ..." */
int td_override_parse(td_override_op op, const char *arg, td_override *out, td_err *err);

/* Writes "--scale tower.cannon.cost=1.1" into buf[cap]; returns buf. The
** value as td_override_number writes it. */
const char *td_override_text(const td_override *o, char *buf, size_t cap);

/* dst = a deep copy of src with the n overrides applied in order, then
** validated. 0; or -1 with err naming the override that failed and dst
** zeroed. */
int td_override_apply(const td_override *list, size_t n, const td_rules *src, td_rules *dst,
                      td_err *err);

/* The shortest of %.15g and %.17g that reads back as v exactly ("1.1",
** not "1.1000000000000001"), into buf[cap] (32 bytes are enough). */
void td_override_number(double v, char *buf, size_t cap);

/* The fields a kind ("tower", "level", "enemy", "soldier", "rules")
** offers, comma-separated, into out[cap] (640 bytes hold any); returns out,
** or NULL for another kind. */
const char *td_override_fields(const char *kind, char *out, size_t cap);

#endif
