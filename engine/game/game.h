/*
** game.h: one game as a player (or a headless run) has it: a map file, a
** mod and the world they make, bound together.
**
** What. td_game loads the map (script/mapfile.h) and the mod, or a list
** of mods loaded in order as one (script/mod.h, td_mod_load_list), creates the world (sim/world.h) on the mod's rules and
** binds them:
**   - the world's events go to the mod's handlers (td.on), its tick to
**     td.on("tick") and td.every, SCRIPT targeting to the towers' Lua
**     targeting functions;
**   - math.random in the mod draws from the world's RNG, so a script's
**     randomness is part of the replayable state;
**   - the runtime td.* functions (td.gold, td.enemies, td.damage, ...; see
**     docs/lua-api.md, "Game functions") read and change the world through
**     its mutators, only while the world steps (a handler) - they raise
**     elsewhere;
**   - every command given through td_game_command is recorded with its tick
**     (the replay's command stream, replay.h).
**
** Hot reload. td_game_reload (F5, or td_game_poll_reload when a file of the
** mod changed) rebuilds the mod from its files; when that succeeds and the
** new rules fit the running world (td_world_set_rules), the next
** td_game_step swaps them in before it steps, at a tick boundary; on any
** failure the old version keeps running and the error is in the mod's error
** list. A reload changes the rules mid-game, so it marks the recording:
** td_game_reloads counts them (td sim reports it: such a game cannot be
** replayed from its first files).
**
** Limits a mod cannot talk past. In one step, the handlers together may
** spawn TD_GAME_STEP_SPAWNS enemies (td.spawn) and make TD_GAME_STEP_HITS
** calls that hit or affect enemies (td.damage, td.slow, td.stun, td.burn)
** and TD_GAME_STEP_COSTS cost changes (td.set_cost: each a route update)
** and TD_GAME_STEP_TOWER_HITS hits on towers (td.damage_tower), and
** td.spawn stops at TD_GAME_LIVE_ENEMIES living enemies. The call past
** a bound stops its handler with "td.spawn: more than 256 spawns in one
** step", stickily like the instruction limit (td_lsandbox_raise_limit): the
** handler's error is recorded and it is disabled; the game goes on.
**
** Saves. td_game_save writes the world's save (sim/world.h) wrapped with
** what it was made from (the map's content hash, each mod's name and
** content hash in load order, the seed, the commands so far), the mod's td.state (script/mod.h: refused, naming
** the value, when it holds what cannot be saved), the player's memory
** (td_game_set_player_state) and the game's totals through game/file.h: a
** temporary file of a unique name in the same directory, synced and
** renamed over the target, so an interrupted or failed save never damages
** the previous one. td_game_load makes a game from the same map and mods and
** continues the saved world: same checksums as the game that was saved.
**
** Memory: a td_game owns its map, mod, world and recording (td_mem, and
** Lua's allocator inside the mod). Errors: every function that can fail
** returns -1 or NULL with err set to one line naming the file.
** Determinism: with the same map, mod files, seed and commands, a game
** goes through the same states (td_world_checksum); nothing here reads a
** clock (td_game_poll_reload stats files, which only the app calls).
*/
#ifndef TD_GAME_H
#define TD_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game/override.h"
#include "script/mod.h"
#include "sim/world.h"

typedef struct td_game td_game;

/* The player's choice of difficulty. The engine only hands it to the mod
** (td.difficulty()) and records it in replays and saves; what it changes is
** the mod's to decide (scripts/base/maps.lua scales health, gold and lives). */
typedef enum td_difficulty {
  TD_DIFFICULTY_NORMAL = 0, /* the default: a zeroed options struct plays normal */
  TD_DIFFICULTY_EASY,
  TD_DIFFICULTY_HARD
} td_difficulty;
#define TD_DIFFICULTY_COUNT 3

#define TD_GAME_STEP_SPAWNS 256      /* td.spawn calls per step, all handlers */
#define TD_GAME_STEP_HITS 16384      /* td.damage/slow/stun/burn calls per step */
#define TD_GAME_LIVE_ENEMIES 8192    /* td.spawn refuses past this many living */
#define TD_GAME_STEP_COSTS 64        /* td.set_cost calls per step (route updates) */
#define TD_GAME_STEP_TOWER_HITS 1024 /* td.damage_tower calls per step */

/* "normal", "easy", "hard"; and back: 0, or -1 for another name. */
const char *td_difficulty_name(td_difficulty d);
int td_difficulty_parse(const char *name, td_difficulty *out);

typedef struct td_game_options {
  const char *map_path;   /* a map file (docs/map-format.md) */
  const char *map_source; /* or its text (map_path then names it in messages) */
  size_t map_source_len;
  const char *mod_dir;    /* a mod directory; NULL: "scripts/base" */
  const char *const *mod_dirs; /* or several, loaded in order (mod.h: td_mod_load_list) */
  size_t mod_count;       /* 1 .. TD_MOD_MAX_MODS; 0: mod_dir alone */
  uint64_t seed;
  bool endless;
  td_difficulty difficulty;
  /* The mod's sandbox (script/mod.h, td_mod_options); also for its reloads. */
  size_t mod_memory;          /* bytes; 0: TD_MOD_DEFAULT_MEMORY */
  uint64_t load_instructions; /* the whole data stage; 0: TD_MOD_DEFAULT_LOAD_INSTRUCTIONS */
  uint64_t call_instructions; /* one handler call; 0: TD_MOD_DEFAULT_CALL_INSTRUCTIONS */
  /* Rule overrides (game/override.h), applied in order to the mods' rules
  ** before the world starts; at most TD_OVERRIDE_MAX. A game with
  ** overrides refuses hot reload (td_game_reload). */
  const td_override *overrides;
  size_t override_count;
} td_game_options;

/* Loads the map and the mod and starts a world at tick 0. NULL with err
** set ("maps/x.lua:12: ...", "scripts/base/enemies.lua:3: ...", "world:
** spawn group 2: ..."). */
td_game *td_game_create(const td_game_options *o, td_err *err);
void td_game_destroy(td_game *g);                       /* NULL is a no-op */

/* Queues cmd (its tick: when it applies; a past tick applies at the next
** step) and records it. 0, or -1 with err set (out of memory). */
int td_game_command(td_game *g, const td_command *cmd, td_err *err);

/* Swaps in a pending reload, then steps the world once (its hooks run the
** mod's handlers). 0, or -1 with err set when the world broke. */
int td_game_step(td_game *g, td_err *err);

td_world *td_game_world(const td_game *g);
td_mod *td_game_mod(const td_game *g);
const td_map *td_game_map(const td_game *g);
const td_rules *td_game_rules(const td_game *g);        /* the world's current rules */
uint64_t td_game_seed(const td_game *g);
td_difficulty td_game_difficulty(const td_game *g);
const char *td_game_map_path(const td_game *g);
const char *td_game_mod_dir(const td_game *g);          /* the first mod's */
size_t td_game_mod_count(const td_game *g);             /* the mods, in load order */
const char *td_game_mod_dir_at(const td_game *g, size_t i);
/* The map's name as a mod reads it (td.map_name): the file name without
** its directory and from its first '.' on ("maps/01-crossroads.tmx":
** "01-crossroads"); td_game_map_name_of derives it from a path, cut to
** fit out[cap]. */
const char *td_game_map_name(const td_game *g);
void td_game_map_name_of(const char *map_path, char *out, size_t cap);

/* The rule overrides the game was made with (game/override.h). */
const td_override *td_game_overrides(const td_game *g, size_t *n);

/* Content hashes (FNV-1a 64): of the map file and its name (a mod may read
** the name, td.map_name, so a copy of a map under another name may play
** another game), and of every file the mod read, in the order it read
** them; a replay and a save are bound to them. */
uint64_t td_game_map_hash(const td_game *g);
uint64_t td_game_mod_hash(const td_game *g);
uint64_t td_game_mod_hash_at(const td_game *g, size_t i); /* of mod i's files only */

/* The commands given so far, in the order given. */
const td_command *td_game_commands(const td_game *g, size_t *n);

/* Enemies killed and leaked and commands refused over the whole game (a
** loaded one included: saves carry them). Any pointer may be NULL. */
void td_game_totals(const td_game *g, int64_t *kills, int64_t *leaks, int64_t *refused);

/* The player's memory, for saves: the app hands the bytes of its player
** (the built-in one's: td_auto_save) before td_game_save, which writes
** them; after td_game_load, td_game_player_state returns what the save
** held (len 0: nothing). The game copies them and never reads them.
** 0, or -1 with err set (out of memory). */
int td_game_set_player_state(td_game *g, const void *data, size_t len, td_err *err);
const void *td_game_player_state(const td_game *g, size_t *len);

/* Starts a reload of the mod's files (see the top). 0 when the new version
** loaded and fits (it is swapped in at the next step); -1 with err set
** otherwise (the running version stays). */
int td_game_reload(td_game *g, td_err *err);
/* Reloads when a file the mod read changed since (td_mod_changed): 1 when
** it reloaded, 0 when nothing changed, -1 with err set when the reload
** failed. For the app's loop (it stats files). */
int td_game_poll_reload(td_game *g, td_err *err);
/* Reloads swapped in so far. */
uint32_t td_game_reloads(const td_game *g);

/* Benchmarks only (`td bench sim`): with a clock set, the time spent in the
** hooks into the mod (events, ticks, targeting: the Lua side of a step)
** accumulates in a counter. The clock is the caller's (nanoseconds); the
** game never reads one itself, and the counter is not state (not saved,
** not in the checksum). NULL turns it off. */
void td_game_set_hook_clock(td_game *g, uint64_t (*clock_ns)(void));
uint64_t td_game_hook_ns(const td_game *g); /* accumulated so far */

/* Adds the world functions' table to o, for documentation (`td api`):
** they raise if called, as no game is behind them. */
int td_game_api(td_mod_options *o, td_err *err);

/* The save: see the top and docs/world.md. 0, or -1 with err set (the
** previous file at path is then untouched). */
int td_game_save(const td_game *g, const char *path, td_err *err);
/* A game from o (map and mod as when saved) continuing the save at path.
** NULL with err set: "save.tds: made with another map", "save.tds:
** truncated at byte 812", ... */
td_game *td_game_load(const td_game_options *o, const char *path, td_err *err);

#endif
