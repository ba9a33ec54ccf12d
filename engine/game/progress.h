/*
** progress.h: a player's progress between games: the stars won on each map
** at each difficulty, and endless mode's best wave there; kept in a small
** text file in the user's data directory.
**
** What. Stars measure a win by the lives kept (td_progress_stars_for):
** 3 stars keep at least 90 % of the lives the game started with, 2 at
** least 50 %, 1 any other win; a loss earns none. Endless mode never wins;
** its record is the highest wave reached (started). A map is named as a
** mod reads it (game.h, td_game_map_name_of: "02-grid"); a record only
** ever improves.
**
** The file (docs/game.md, "Progress"): UTF-8 text, one record a line,
** '#' comments, the first other line "td-progress 1":
**     td-progress 1
**     stars 02-grid normal 3
**     wave 02-grid hard 17
**     tutorial done
** (the last: the first map's tutorial was finished or skipped, so it is
** not shown again; render/tutorial.h).
** td_progress_save writes it whole through game/file.h (a temporary and a
** rename: an interrupted write leaves the old file). td_progress_load takes
** every good line; when a line is not one (a damaged file, or one written by
** a newer td) it keeps the file's bytes in PATH.bad, skips the line, and
** says so (file:line and what is wrong): nothing is lost silently.
**
** Where. td_progress_dir: $XDG_DATA_HOME/td, else $HOME/.local/share/td
** (the game keeps its saves there too); tests point XDG_DATA_HOME at a
** directory of their own.
**
** Memory: a td_progress is a plain value (fixed arrays, no allocation).
** Errors: one line naming the file. Determinism: not part of the
** simulation; nothing here reads a clock.
*/
#ifndef TD_GAME_PROGRESS_H
#define TD_GAME_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game/game.h"

#define TD_PROGRESS_MAX_MAPS 256                /* maps with a record */
#define TD_PROGRESS_MAX_BYTES ((size_t)256 << 10) /* largest file read */
#define TD_PROGRESS_NAME_MAX 64                 /* a map's name, with its NUL */

typedef struct td_progress_entry {
  char map[TD_PROGRESS_NAME_MAX];       /* "02-grid" */
  uint8_t stars[TD_DIFFICULTY_COUNT];   /* 0..3 by td_difficulty: the best win */
  int32_t wave[TD_DIFFICULTY_COUNT];    /* endless: the highest wave reached; 0 none */
} td_progress_entry;

typedef struct td_progress {
  td_progress_entry maps[TD_PROGRESS_MAX_MAPS];
  size_t count;
  bool tutorial_done;                   /* the line `tutorial done` */
} td_progress;

/* The user's data directory into buf ("$XDG_DATA_HOME/td" or
** "$HOME/.local/share/td"); false when neither variable is set or it does
** not fit. */
bool td_progress_dir(char *buf, size_t cap);

/* Stars for a win that kept lives of start_lives (0 when lives <= 0). */
int td_progress_stars_for(int32_t lives, int32_t start_lives);

/* Empties p, then reads path into it. 0: read (a missing file is an empty
** progress); 1: read, but a line was bad: err says which and what is wrong,
** and the file's bytes are in PATH.bad; -1 with err set: the file cannot be
** read (p stays empty; the caller should not write over it). */
int td_progress_load(td_progress *p, const char *path, td_err *err);

/* Writes p to path, making its directory (and parents) when missing.
** 0, or -1 with err set (the old file then stays). */
int td_progress_save(const td_progress *p, const char *path, td_err *err);

/* The record of a map, or NULL. */
const td_progress_entry *td_progress_find(const td_progress *p, const char *map);

/* Records a win of stars (1..3) on map at d / an endless wave reached.
** 1 when the record improved, 0 when it did not, -1 with err set when the
** map cannot be recorded (its name is empty, too long or has a space or a
** control character; TD_PROGRESS_MAX_MAPS maps have records). */
int td_progress_win(td_progress *p, const char *map, td_difficulty d, int stars, td_err *err);
int td_progress_wave(td_progress *p, const char *map, td_difficulty d, int32_t wave, td_err *err);
/* Records that the tutorial was finished or skipped: 1 when it was not
** yet, 0 when it already was. */
int td_progress_tutorial_done(td_progress *p);

#endif
