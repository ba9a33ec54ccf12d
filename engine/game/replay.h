/*
** replay.h: a whole game as data: the map and scripts it was played with
** (paths and content hashes), the seed, the player's commands stamped with
** their ticks, the state checksums it went through, and how it ended.
**
** The file is text, one record a line, so a person can read it:
**
**   td-replay 2
**   map maps/01-crossroads.tmx 8c3f0e2a91d4b7c6   the map's hash covers its name
**   mod scripts/base 1f00aa7be4c3d290  one line per mod, in load order
**   mod mods/extra 77aa01b2c3d4e5f6     (the hash covers that mod's files)
**   seed 1
**   endless 0
**   difficulty normal            normal|easy|hard (absent: normal)
**   every 600
**   override scale tower.cannon.cost 1.1   a rule override (game/override.h),
**                                one line each, in the order applied (version 4)
**   cmd 120 place 9 arrow        tick, then: place BASE TOWER_TYPE
**   cmd 300 upgrade 9 1          upgrade BASE CHILD (1-based child of its level)
**   cmd 400 target 9 strongest   target BASE first|last|strongest|closest|script
**   cmd 500 sell 9               sell BASE
**   cmd 600 call_wave            call_wave | pause | resume
**   check 600 0c1d2e3f40516273   the world's checksum when 600 ticks have run
**   end 5400 won 18 250 3a2b1c0d4e5f6071 9f8e7d6c5b4a3921
**                                ticks run, result, lives, gold, checksum, and
**                                the hash of every cmd and check before it
**
** BASE is the tower base's Tiled object id (what `td route` prints), a
** tower type is named; `#` starts a comment; blank lines are skipped. A
** word with a blank, '#' or '"' in it (a path "maps/my map.lua") is written
** quoted, with \" and \\ for '"' and '\' inside; no word holds a control
** character (a tab or CR included). Hashes and checksums are 16 hex
** digits. Commands are in tick order, those of one tick in the order they
** were given (the order the world applies them in); checks go up, from
** tick 1; no cmd or check is after the end.
**
** A replay proves the whole game: the `end` record is required, is the
** last, and td sim compares all of it with the game's end; its records
** hash binds every cmd and check line (td_replay_check_game), so a line
** moved, changed or removed is caught even where the game would converge.
** The records hash (td_replay_records_hash) is FNV-1a 64 over the number
** of commands, each one's tick, kind, base, argument and tower type, the
** number of checks, each one's tick and checksum (integers as 8 bytes,
** little-endian). The header is not in it: a changed seed or difficulty
** plays another game, which parts from the checks or the end.
** A file cut short is refused as such: it must end with a newline after
** its `end` record ("r.replay:10: no 'end' record: the replay stops after
** line 10 (cut short, or not a whole game)", "r.replay:14: cut short: the
** file ends inside line 14, without a newline"). Version 1 files (no gold,
** no records hash, the end optional) are refused: re-record them.
**
** Reading checks every line and refuses the file at the first bad one with
** "FILE:LINE: what is wrong"; names and ids are resolved against the game
** when it plays (td_replay_command), so an unknown tower type is reported
** with its line too.
**
** Memory: a td_replay owns its arrays (td_mem). Determinism: playing the
** commands at their ticks on a game made from the same map, scripts and
** seed gives the same checksums and the same end. The hashes are FNV-1a:
** they catch damage and mistakes, not forgery.
*/
#ifndef TD_REPLAY_H
#define TD_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game/game.h"

#define TD_REPLAY_VERSION 4 /* 2: the end required, with gold and a records hash;
                              3: several mod lines (2, with its one, is read too);
                              4: override lines (a game without overrides is still
                              written as version 3) */
#define TD_REPLAY_DEFAULT_EVERY 600   /* ticks between checksums: 10 s */

typedef struct td_replay_cmd {
  uint64_t tick;
  td_command_kind kind;
  int64_t object;        /* base object id (place, upgrade, sell, target, rally, repair) */
  char name[32];         /* place: tower type */
  int32_t arg;           /* upgrade: 1-based child; target: td_target_mode */
  float x, y;            /* rally: the point, map units (written with 9 digits: exact) */
  int line;              /* in the file read, 0 when recorded */
} td_replay_cmd;

typedef struct td_replay_check {
  uint64_t tick;         /* ticks run (td_world_tick) when it was taken */
  uint64_t checksum;
  int line;              /* in the file read, 0 when recorded */
} td_replay_check;

typedef struct td_replay {
  char path[512];        /* the file read ("" when recorded) */
  char map_path[512];
  char mod_dir[512];      /* the first mod's (mod_dirs[0]) */
  uint64_t map_hash, mod_hash, seed; /* mod_hash: the first mod's (mod_hashes[0]) */
  char mod_dirs[TD_MOD_MAX_MODS][512]; /* the mods in load order */
  uint64_t mod_hashes[TD_MOD_MAX_MODS];
  size_t nmods;
  bool endless;
  td_difficulty difficulty;
  uint32_t every;
  td_override overrides[TD_OVERRIDE_MAX]; /* rule overrides, in the order applied */
  size_t noverrides;
  td_replay_cmd *cmds;
  size_t ncmd, cmd_cap;
  td_replay_check *checks;
  size_t ncheck, check_cap;
  bool ended;
  uint64_t end_ticks;    /* steps run */
  td_game_state result;
  int32_t lives, gold;
  uint64_t end_checksum;
  uint64_t end_records;  /* the hash the end record holds (read; written: computed) */
  int end_line;          /* in the file read */
} td_replay;

/* A replay of a game about to be played (or just created): header from g,
** no commands. every 0: TD_REPLAY_DEFAULT_EVERY. */
void td_replay_init(td_replay *r, const td_game *g, uint32_t every);
void td_replay_free(td_replay *r);                     /* leaves it zeroed */

/* Appends a command given to g (converted to ids and names) or a check.
** 0, or -1 with err set (out of memory, or a base or type g lacks). */
int td_replay_add_command(td_replay *r, const td_game *g, const td_command *c, td_err *err);
int td_replay_add_check(td_replay *r, uint64_t tick, uint64_t checksum, td_err *err);
/* Records the end: ticks run, the state, lives, gold and checksum of g. */
void td_replay_end(td_replay *r, const td_game *g);
/* The hash of r's commands and checks, as the end record holds it. */
uint64_t td_replay_records_hash(const td_replay *r);

/* Reads a file. 0, or -1 with err "FILE:LINE: ..." and r zeroed. A game
** played from it must be made with its overrides (td_replay_check_game
** compares them). */
int td_replay_read(const char *path, td_replay *r, td_err *err);
/* Whether r's words (paths, tower types) can be written: no control
** characters, paths that fit. 0, or -1 with err naming path and the word;
** td sim asks before it plays a game it records. */
int td_replay_check_writable(const td_replay *r, const char *path, td_err *err);
/* Writes it (atomically, through a temporary file) with its records hash;
** it must have ended (td_replay_end). 0 or -1 with err. */
int td_replay_write(const td_replay *r, const char *path, td_err *err);

/* Command i as the world takes it, resolved against g's map and rules.
** 0, or -1 with err "FILE:LINE: no tower base with object id 99". */
int td_replay_command(const td_replay *r, size_t i, const td_game *g, td_command *out,
                      td_err *err);

/* Whether r (when read from a file) holds the records hash of its lines,
** and g was made from what it names: 0, or -1 with err saying what
** differs: the records hash ("r.replay:23: the end's records hash ... is
** not that of the cmd and check lines"), the map's name, the map's or the
** mod's content ("r.replay: made with other scripts than scripts/base"). */
int td_replay_check_game(const td_replay *r, const td_game *g, td_err *err);

#endif
