/*
** game.c: a map, a mod and a world bound together (game.h): lifetime, the
** hooks from the world into the mod, commands and their record, hot
** reload. The save file is game_save.c's, the td.* world functions bind.c's.
*/
#include "game/game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/file.h"
#include "game/game_int.h"
#include "script/mapfile.h"

/* A wave script lets its wave go when it ends (script/mod_wave.c). */
static void game_wave_hold(void *ud, int32_t wave, int delta) {
  td_game *g = ud;
  if (g->world) td_world_wave_hold(g->world, wave, delta);
}

/* ---- math.random before the world exists (the data stage) ----------------- */

static uint32_t game_random(void *ud) {
  td_game *g = ud;
  if (g->world) return td_world_random(g->world);
  /* splitmix64 over the seed: the data stage's draws depend on it only */
  uint64_t z = (g->pre_rng += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return (uint32_t)((z ^ (z >> 31)) >> 32);
}

/* ---- hooks: the world calls the mod -------------------------------------- */

/* The benchmark's timing (td_game_set_hook_clock): 0 when off. */
static uint64_t hook_start(const td_game *g) { return g->hook_clock ? g->hook_clock() : 0; }
static void hook_stop(td_game *g, uint64_t t0) {
  if (g->hook_clock) g->hook_ns += g->hook_clock() - t0;
}

static void hook_event(void *ud, td_world *w, const td_event *e) {
  (void)w;
  td_game *g = ud;
  uint64_t t0 = hook_start(g);
  td_mod_dispatch(g->mod, e);
  hook_stop(g, t0);
}

static void hook_tick(void *ud, td_world *w) {
  td_game *g = ud;
  uint64_t t0 = hook_start(g);
  td_mod_tick(g->mod, td_world_tick(w));
  hook_stop(g, t0);
}

/* A tower in SCRIPT mode whose type has no working targeting function (none
** declared, or disabled after an error) falls back to FIRST. */
static int32_t hook_target(void *ud, td_world *w, uint32_t tower, const uint32_t *enemies,
                           size_t n) {
  td_game *g = ud;
  td_tower_view tv;
  if (!td_world_tower_get(w, tower, &tv)) return -1;
  const td_rules *r = td_world_rules(w);
  uint64_t t0 = hook_start(g);
  int32_t k = td_mod_target(g->mod, r->levels[tv.level].tower, tower, enemies, n);
  hook_stop(g, t0);
  if (k != TD_MOD_TARGET_DEFAULT) return k;
  int32_t best = -1;
  float best_left = 0;
  for (size_t i = 0; i < n; i++) {
    td_enemy_view ev;
    if (!td_world_enemy_get(w, enemies[i], &ev)) continue;
    if (best < 0 || ev.route_left < best_left) best = (int32_t)i, best_left = ev.route_left;
  }
  return best;
}

/* Tells the world which waves the mod's scripts run. 0, or -1 with err. */
static int tell_scripts(td_game *g, td_err *err) {
  size_t n = td_mod_script_waves(g->mod, NULL, 0);
  int32_t *waves = n ? td_mem_alloc(n * sizeof *waves) : NULL;
  if (n && !waves) return td_err_set(err, "game: out of memory");
  td_mod_script_waves(g->mod, waves, n);
  int rc = td_world_set_scripted_waves(g->world, waves, n, err);
  td_mem_free(waves, n * sizeof *waves);
  return rc;
}

int game_bind_world(td_game *g, td_err *err) {
  td_world_hooks h = {.ud = g, .event = hook_event, .tick = hook_tick, .target = hook_target};
  td_world_set_hooks(g->world, &h);
  td_world_set_endless(g->world, g->endless);
  return tell_scripts(g, err);
}

/* ---- lifetime ------------------------------------------------------------ */

/* The map file, read once: its content hash is of the very bytes loaded,
** under the loader's own size limit and message. */
static int load_map_file(td_game *g, td_err *err) {
  char *buf;
  size_t len, cap;
  if (td_mem_read_file(g->map_path, TD_MAPFILE_MAX_BYTES, &buf, &len, &cap, err) != 0)
    return -1;
  g->map_hash = td_blob_fnv(TD_BLOB_FNV_SEED, buf, len);
  int rc = td_mapfile_load_buffer(g->map_path, buf, len, &g->map, err);
  td_mem_free(buf, cap);
  return rc;
}

void game_copy_str(char *dst, size_t cap, const char *src) {
  size_t n = strlen(src);
  if (n >= cap) n = cap - 1;
  memcpy(dst, src, n);
  dst[n] = '\0';
}

/* Everything but the world. */
td_game *game_open(const td_game_options *o, td_err *err) {
  const char *mod_dir = o->mod_dir ? o->mod_dir : "scripts/base";
  const char *const *dirs = o->mod_count ? o->mod_dirs : &mod_dir;
  size_t ndirs = o->mod_count ? o->mod_count : 1;
  if (ndirs > TD_MOD_MAX_MODS) {
    td_err_set(err, "game: %zu mods, at most %d", ndirs, TD_MOD_MAX_MODS);
    return NULL;
  }
  for (size_t i = 0; i < ndirs; i++)
    if (strlen(dirs[i]) >= GAME_PATH_MAX) {
      td_err_set(err, "game: path too long");
      return NULL;
    }
  if ((unsigned)o->difficulty >= TD_DIFFICULTY_COUNT) {
    td_err_set(err, "game: difficulty %d is none of normal, easy, hard", (int)o->difficulty);
    return NULL;
  }
  if (strlen(o->map_path) >= GAME_PATH_MAX || strlen(mod_dir) >= GAME_PATH_MAX) {
    td_err_set(err, "game: path too long");
    return NULL;
  }
  td_game *g = td_mem_calloc(1, sizeof *g);
  if (!g) {
    td_err_set(err, "game: out of memory");
    return NULL;
  }
  game_copy_str(g->map_path, sizeof g->map_path, o->map_path);
  for (size_t i = 0; i < ndirs; i++)
    game_copy_str(g->mod_dirs[i], sizeof g->mod_dirs[i], dirs[i]);
  g->mod_count = ndirs;
  game_copy_str(g->mod_dir, sizeof g->mod_dir, dirs[0]);
  g->seed = o->seed;
  g->pre_rng = o->seed;
  g->endless = o->endless;
  g->difficulty = o->difficulty;
  if (o->map_source) {
    g->map_hash = td_blob_fnv(TD_BLOB_FNV_SEED, o->map_source, o->map_source_len);
    if (td_mapfile_load_buffer(g->map_path, o->map_source, o->map_source_len, &g->map, err) != 0)
      goto fail;
  } else {
    if (load_map_file(g, err) != 0) goto fail;
  }
  /* a Tiled map's external tilesets and templates are part of it too (0
  ** for a map that names none: every such map's hash stays the file's) */
  if (g->map.deps_hash) {
    unsigned char le[8];
    for (int i = 0; i < 8; i++) le[i] = (unsigned char)(g->map.deps_hash >> (8 * i));
    g->map_hash = td_blob_fnv(g->map_hash, le, sizeof le);
  }
  /* the name is part of the map's identity: a mod may read it */
  td_game_map_name_of(g->map_path, g->map_name, sizeof g->map_name);
  g->map_hash = td_blob_fnv(g->map_hash, "", 1);
  g->map_hash = td_blob_fnv(g->map_hash, g->map_name, strlen(g->map_name));
  g->map_loaded = true;
  td_mod_options mo = {0};
  mo.random = game_random;
  mo.random_ud = g;
  mo.wave_hold = game_wave_hold;
  mo.wave_ud = g;
  mo.memory = o->mod_memory;
  mo.load_instructions = o->load_instructions;
  mo.call_instructions = o->call_instructions;
  if (game_register_api(&mo, g, err) != 0) goto fail;
  const char *list[TD_MOD_MAX_MODS];
  for (size_t i = 0; i < ndirs; i++) list[i] = g->mod_dirs[i];
  g->mod = td_mod_load_list(list, ndirs, &mo, err);
  if (!g->mod) goto fail;
  if (o->override_count) {
    if (o->override_count > TD_OVERRIDE_MAX) {
      td_err_set(err, "game: %zu rule overrides, at most %d", o->override_count, TD_OVERRIDE_MAX);
      goto fail;
    }
    memcpy(g->overrides, o->overrides, o->override_count * sizeof *o->overrides);
    g->noverrides = o->override_count;
    if (td_override_apply(g->overrides, g->noverrides, td_mod_rules(g->mod), &g->rules, err) != 0)
      goto fail;
    g->overridden = true;
  }
  return g;
fail:
  td_game_destroy(g);
  return NULL;
}

td_game *td_game_create(const td_game_options *o, td_err *err) {
  td_game *g = game_open(o, err);
  if (!g) return NULL;
  g->world = td_world_create(&g->map, game_rules(g), g->seed, err);
  if (!g->world) {
    char msg[sizeof err->msg];
    memcpy(msg, err->msg, sizeof msg);
    td_err_set(err, "%s with %s: %s", g->map_path, g->mod_dir, msg);
    td_game_destroy(g);
    return NULL;
  }
  if (game_bind_world(g, err) != 0) {
    td_game_destroy(g);
    return NULL;
  }
  return g;
}

void td_game_destroy(td_game *g) {
  if (!g) return;
  td_world_destroy(g->world);
  if (g->overridden) td_rules_free(&g->rules);
  td_mod_destroy(g->mod);
  if (g->map_loaded) td_map_free(&g->map);
  td_mem_free(g->cmds, g->cmd_cap * sizeof *g->cmds);
  td_mem_free(g->player, g->player_cap);
  td_mem_free(g, sizeof *g);
}

/* ---- commands, steps, reload --------------------------------------------- */

int td_game_command(td_game *g, const td_command *cmd, td_err *err) {
  td_command *c = td_mem_grow(g->cmds, &g->cmd_cap, g->ncmd + 1, sizeof *c);
  if (!c) return td_err_set(err, "game: out of memory");
  g->cmds = c;
  if (td_world_command(g->world, cmd, err) != 0) return -1;
  c[g->ncmd] = *cmd;
  if (c[g->ncmd].tick < td_world_tick(g->world)) c[g->ncmd].tick = td_world_tick(g->world);
  g->ncmd++;
  return 0;
}

int td_game_step(td_game *g, td_err *err) {
  const td_rules *next = td_mod_pending_rules(g->mod);
  if (next) {
    td_err serr;
    /* checked by td_game_reload too, but the world has moved on since */
    if (td_world_set_rules(g->world, next, &serr) == 0) {
      td_mod_swap(g->mod);
      g->reloads++;
      if (tell_scripts(g, err) != 0) return -1;
    } else {
      td_err why;
      td_err_set(&why, "%s: not swapped in: %s", g->mod_dir, serr.msg);
      td_mod_discard(g->mod, why.msg);
    }
  }
  g->step_spawns = g->step_hits = g->step_costs = g->step_tower_hits = 0;
  if (td_world_step(g->world, err) != 0) return -1;
  size_t n;
  const td_event *e = td_world_events(g->world, &n);
  for (size_t i = 0; i < n; i++) {
    g->kills += e[i].kind == TD_EVENT_KILLED;
    g->leaks += e[i].kind == TD_EVENT_LEAKED;
    g->refused += e[i].kind == TD_EVENT_REFUSED;
  }
  return 0;
}

void td_game_totals(const td_game *g, int64_t *kills, int64_t *leaks, int64_t *refused) {
  if (kills) *kills = g->kills;
  if (leaks) *leaks = g->leaks;
  if (refused) *refused = g->refused;
}

int td_game_set_player_state(td_game *g, const void *data, size_t len, td_err *err) {
  if (len > g->player_cap) {
    uint8_t *p = td_mem_realloc(g->player, g->player_cap, len);
    if (!p) return td_err_set(err, "game: out of memory");
    g->player = p;
    g->player_cap = len;
  }
  if (len) memcpy(g->player, data, len);
  g->player_len = len;
  return 0;
}

const void *td_game_player_state(const td_game *g, size_t *len) {
  *len = g->player_len;
  return g->player;
}

int td_game_reload(td_game *g, td_err *err) {
  if (g->overridden) /* the overrides would be lost, or need applying again mid-game */
    return td_err_set(err, "%s: a game with rule overrides is not reloaded", g->mod_dir);
  if (td_mod_reload(g->mod, err) != 0) return -1;
  td_err cerr;
  if (td_world_check_rules(g->world, td_mod_pending_rules(g->mod), &cerr) != 0) {
    td_err_set(err, "%s: the new version does not fit the game in progress: %s", g->mod_dir,
               cerr.msg);
    td_mod_discard(g->mod, err->msg);
    return -1;
  }
  return 0;
}

int td_game_poll_reload(td_game *g, td_err *err) {
  if (!td_mod_changed(g->mod)) return 0;
  return td_game_reload(g, err) == 0 ? 1 : -1;
}

uint32_t td_game_reloads(const td_game *g) { return g->reloads; }

void td_game_set_hook_clock(td_game *g, uint64_t (*clock_ns)(void)) { g->hook_clock = clock_ns; }

uint64_t td_game_hook_ns(const td_game *g) { return g->hook_ns; }

/* ---- read access --------------------------------------------------------- */

const td_rules *game_rules(const td_game *g) {
  return g->overridden ? &g->rules : td_mod_rules(g->mod);
}

const td_override *td_game_overrides(const td_game *g, size_t *n) {
  *n = g->noverrides;
  return g->overrides;
}

td_world *td_game_world(const td_game *g) { return g->world; }
td_mod *td_game_mod(const td_game *g) { return g->mod; }
const td_map *td_game_map(const td_game *g) { return &g->map; }
const td_rules *td_game_rules(const td_game *g) { return td_world_rules(g->world); }
uint64_t td_game_seed(const td_game *g) { return g->seed; }
td_difficulty td_game_difficulty(const td_game *g) { return g->difficulty; }

static const char *const difficulty_names[TD_DIFFICULTY_COUNT] = {"normal", "easy", "hard"};

const char *td_difficulty_name(td_difficulty d) {
  return (unsigned)d < TD_DIFFICULTY_COUNT ? difficulty_names[d] : "?";
}

int td_difficulty_parse(const char *name, td_difficulty *out) {
  for (int i = 0; i < TD_DIFFICULTY_COUNT; i++)
    if (strcmp(name, difficulty_names[i]) == 0) {
      *out = (td_difficulty)i;
      return 0;
    }
  return -1;
}
const char *td_game_map_path(const td_game *g) { return g->map_path; }
const char *td_game_map_name(const td_game *g) { return g->map_name; }

void td_game_map_name_of(const char *map_path, char *out, size_t cap) {
  const char *base = strrchr(map_path, '/');
  base = base ? base + 1 : map_path;
  size_t n = strcspn(base, ".");
  if (cap == 0) return;
  if (n >= cap) n = cap - 1;
  memcpy(out, base, n);
  out[n] = '\0';
}
const char *td_game_mod_dir(const td_game *g) { return g->mod_dir; }
size_t td_game_mod_count(const td_game *g) { return g->mod_count; }
const char *td_game_mod_dir_at(const td_game *g, size_t i) {
  return i < g->mod_count ? g->mod_dirs[i] : NULL;
}
uint64_t td_game_mod_hash_at(const td_game *g, size_t i) { return td_mod_hash_at(g->mod, i); }
uint64_t td_game_map_hash(const td_game *g) { return g->map_hash; }
uint64_t td_game_mod_hash(const td_game *g) { return td_mod_hash(g->mod); }

const td_command *td_game_commands(const td_game *g, size_t *n) {
  *n = g->ncmd;
  return g->cmds;
}
