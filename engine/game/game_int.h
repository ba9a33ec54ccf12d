/*
** game_int.h: the inside of a td_game, shared by game.c (lifetime, hooks,
** reload), game_save.c (the save file) and bind.c (the td.* world
** functions). Not a public header.
*/
#ifndef TD_GAME_INT_H
#define TD_GAME_INT_H

#include "game/game.h"
#include "sim/map.h"

#define GAME_PATH_MAX 512

struct td_game {
  char map_path[GAME_PATH_MAX];
  char mod_dir[GAME_PATH_MAX];   /* the first mod's (mod_dirs[0]) */
  char mod_dirs[TD_MOD_MAX_MODS][GAME_PATH_MAX]; /* the list, in load order */
  size_t mod_count;
  char map_name[GAME_PATH_MAX]; /* td.map_name: td_game_map_name_of(map_path) */
  td_map map;
  bool map_loaded;
  td_mod *mod;
  td_world *world;
  td_rules rules;         /* the mod's with the overrides applied (when overridden) */
  bool overridden;
  td_override overrides[TD_OVERRIDE_MAX];
  size_t noverrides;
  uint64_t seed;
  uint64_t pre_rng;       /* math.random before the world exists */
  bool endless;
  td_difficulty difficulty;
  uint64_t map_hash;      /* the map's content, then its name */
  td_command *cmds;       /* the record */
  size_t ncmd, cmd_cap;
  uint32_t reloads;
  uint32_t step_spawns, step_hits, step_costs, step_tower_hits; /* script calls this step
                                                                 (game.h's limits) */
  int64_t kills, leaks, refused; /* over the whole game (saved) */
  uint8_t *player;        /* td_game_set_player_state's bytes (saved) */
  size_t player_len, player_cap;
  uint64_t (*hook_clock)(void); /* td_game_set_hook_clock; not state */
  uint64_t hook_ns;
};

/* game.c: copies src into dst[cap], cut to fit, always terminated. */
void game_copy_str(char *dst, size_t cap, const char *src);

/* game.c: a game of o's map and mods without a world yet (td_game_create
** and td_game_load make one); binds a new world to the game (hooks, mode,
** the mod's scripted waves). NULL / -1 with err set. */
td_game *game_open(const td_game_options *o, td_err *err);
int game_bind_world(td_game *g, td_err *err);
/* game.c: the rules the world runs on: the mod's, or their overridden copy. */
const td_rules *game_rules(const td_game *g);

/* bind.c: adds the td.* world functions to o (their host pointer: g). */
int game_register_api(td_mod_options *o, td_game *g, td_err *err);

#endif
