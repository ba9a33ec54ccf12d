/*
** replay.h: a whole game as data: the map and scripts it was played with
** (paths and content hashes), the seed, the player's commands stamped with
** their ticks, and the state checksums it went through.
**
** The file is text, one record a line, so a person can read and edit it:
**
**   td-replay 1
**   map maps/01-crossroads.lua 8c3f0e2a91d4b7c6
**   mod scripts/base 1f00aa7be4c3d290
**   seed 1
**   endless 0
**   difficulty normal            normal|easy|hard (absent: normal)
**   every 600
**   cmd 120 place 9 arrow        tick, then: place BASE TOWER_TYPE
**   cmd 300 upgrade 9 1          upgrade BASE CHILD (1-based child of its level)
**   cmd 400 target 9 strongest   target BASE first|last|strongest|closest|script
**   cmd 500 sell 9               sell BASE
**   cmd 600 call_wave            call_wave | pause | resume
**   check 600 0c1d2e3f40516273   the world's checksum when 600 ticks have run
**   end 5400 won 18 3a2b1c0d4e5f6071   ticks run, result, lives, checksum
**
** BASE is the tower base's Tiled object id (what `td route` prints), a
** tower type is named; `#` starts a comment; blank lines are skipped.
** Commands are in tick order, those of one tick in the order they were
** given (the order the world applies them in).
** Reading checks every line and refuses the file at the first bad one with
** "FILE:LINE: what is wrong"; names and ids are resolved against the game
** when it plays (td_replay_command), so an unknown tower type is reported
** with its line too.
**
** Memory: a td_replay owns its arrays (td_mem). Determinism: playing the
** commands at their ticks on a game made from the same map, scripts and
** seed gives the same checksums; td_replay_verify says where they part.
*/
#ifndef TD_REPLAY_H
#define TD_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game/game.h"

#define TD_REPLAY_VERSION 1
#define TD_REPLAY_DEFAULT_EVERY 600   /* ticks between checksums: 10 s */

typedef struct td_replay_cmd {
  uint64_t tick;
  td_command_kind kind;
  int64_t object;        /* base object id (place, upgrade, sell, target) */
  char name[32];         /* place: tower type */
  int32_t arg;           /* upgrade: 1-based child; target: td_target_mode */
  int line;              /* in the file read, 0 when recorded */
} td_replay_cmd;

typedef struct td_replay_check {
  uint64_t tick;         /* ticks run (td_world_tick) when it was taken */
  uint64_t checksum;
} td_replay_check;

typedef struct td_replay {
  char path[512];        /* the file read ("" when recorded) */
  char map_path[512];
  char mod_dir[512];
  uint64_t map_hash, mod_hash, seed;
  bool endless;
  td_difficulty difficulty;
  uint32_t every;
  td_replay_cmd *cmds;
  size_t ncmd, cmd_cap;
  td_replay_check *checks;
  size_t ncheck, check_cap;
  bool ended;
  uint64_t end_ticks;    /* steps run */
  td_game_state result;
  int32_t lives;
  uint64_t end_checksum;
} td_replay;

/* A replay of a game about to be played (or just created): header from g,
** no commands. every 0: TD_REPLAY_DEFAULT_EVERY. */
void td_replay_init(td_replay *r, const td_game *g, uint32_t every);
void td_replay_free(td_replay *r);                     /* leaves it zeroed */

/* Appends a command given to g (converted to ids and names) or a check.
** 0, or -1 with err set (out of memory, or a base or type g lacks). */
int td_replay_add_command(td_replay *r, const td_game *g, const td_command *c, td_err *err);
int td_replay_add_check(td_replay *r, uint64_t tick, uint64_t checksum, td_err *err);
/* Records the end: ticks run, the state, lives and checksum of g. */
void td_replay_end(td_replay *r, const td_game *g);

/* Reads a file. 0, or -1 with err "FILE:LINE: ..." and r zeroed. */
int td_replay_read(const char *path, td_replay *r, td_err *err);
/* Writes it (atomically, through a temporary file). 0 or -1 with err. */
int td_replay_write(const td_replay *r, const char *path, td_err *err);

/* Command i as the world takes it, resolved against g's map and rules.
** 0, or -1 with err "FILE:LINE: no tower base with object id 99". */
int td_replay_command(const td_replay *r, size_t i, const td_game *g, td_command *out,
                      td_err *err);

/* Whether g was made from what r names: 0, or -1 with err saying which
** hash differs ("replay.txt: made with other scripts than scripts/base"). */
int td_replay_check_game(const td_replay *r, const td_game *g, td_err *err);

#endif
