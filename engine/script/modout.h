/*
** modout.h: a mod's output for headless runs (td sim, td check): the lines
** its `print` wrote and the errors of its stopped handlers, streamed to a
** file as they appear, and the same as JSON.
**
** What. td_modout_flush writes what the mod produced since the last flush:
** each handler error in full (the mod, the handler, the tick, file:line,
** the message and the traceback: the text td play shows) and each log line
** ("print: ..."), every line behind a prefix ("scenario 'x': " for td
** check, "" for td sim).
** The mod keeps its last TD_MOD_LOG_LINES log lines and its first
** TD_MOD_MAX_ERRORS errors: what it dropped between two flushes is said as
** a count. td_modout_json writes `"script_errors":[...],"log":[...]` (the
** kept errors as objects, the kept log lines), for --json.
**
** Memory: a td_modout is plain data (counters), zero-initialised; it does
** not own the mod. Determinism: reads the mod only; writes nothing back.
*/
#ifndef TD_MODOUT_H
#define TD_MODOUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "script/mod.h"

typedef struct td_modout {
  uint64_t errors_seen;  /* errors written so far (kept and dropped) */
  uint64_t lines_seen;   /* log lines written so far (td_mod_log_total) */
  bool quiet;            /* errors only, no log lines */
} td_modout;

/* Writes the new errors and log lines to f, each line after prefix (NULL:
** none). Returns how many new errors there were. */
size_t td_modout_flush(td_modout *o, const td_mod *m, FILE *f, const char *prefix);

/* The number of handler errors so far (kept and dropped). */
uint64_t td_modout_errors(const td_mod *m);

/* `"script_errors":[{"mod":..,"handler":..,"tick":N,"where":..,"message":..},...],
** "script_errors_dropped":N,"log":[...]` (no braces around, no comma after). */
void td_modout_json(const td_mod *m, FILE *f);

/* s as a JSON string, quoted, control characters escaped. */
void td_modout_json_str(FILE *f, const char *s);

#endif
