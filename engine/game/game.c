/*
** game.c: a map, a mod and a world bound together (game.h): lifetime, the
** hooks from the world into the mod, commands and their record, hot
** reload, and the save file. The td.* world functions are in bind.c.
*/
#include "game/game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/file.h"
#include "game/game_int.h"
#include "script/mapfile.h"

#define SAVE_MAGIC "TDGS"
#define SAVE_VERSION 3u /* 2: the difficulty; 3: the map's name in its hash, totals, player, td.state */

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

static void bind_world(td_game *g) {
  td_world_hooks h = {.ud = g, .event = hook_event, .tick = hook_tick, .target = hook_target};
  td_world_set_hooks(g->world, &h);
  td_world_set_endless(g->world, g->endless);
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
static td_game *game_open(const td_game_options *o, td_err *err) {
  const char *mod_dir = o->mod_dir ? o->mod_dir : "scripts/base";
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
  game_copy_str(g->mod_dir, sizeof g->mod_dir, mod_dir);
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
  /* the name is part of the map's identity: a mod may read it */
  td_game_map_name_of(g->map_path, g->map_name, sizeof g->map_name);
  g->map_hash = td_blob_fnv(g->map_hash, "", 1);
  g->map_hash = td_blob_fnv(g->map_hash, g->map_name, strlen(g->map_name));
  g->map_loaded = true;
  td_mod_options mo = {0};
  mo.random = game_random;
  mo.random_ud = g;
  mo.memory = o->mod_memory;
  mo.load_instructions = o->load_instructions;
  mo.call_instructions = o->call_instructions;
  if (game_register_api(&mo, g, err) != 0) goto fail;
  g->mod = td_mod_load(g->mod_dir, &mo, err);
  if (!g->mod) goto fail;
  return g;
fail:
  td_game_destroy(g);
  return NULL;
}

td_game *td_game_create(const td_game_options *o, td_err *err) {
  td_game *g = game_open(o, err);
  if (!g) return NULL;
  g->world = td_world_create(&g->map, td_mod_rules(g->mod), g->seed, err);
  if (!g->world) {
    char msg[sizeof err->msg];
    memcpy(msg, err->msg, sizeof msg);
    td_err_set(err, "%s with %s: %s", g->map_path, g->mod_dir, msg);
    td_game_destroy(g);
    return NULL;
  }
  bind_world(g);
  return g;
}

void td_game_destroy(td_game *g) {
  if (!g) return;
  td_world_destroy(g->world);
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
    } else {
      td_err why;
      td_err_set(&why, "%s: not swapped in: %s", g->mod_dir, serr.msg);
      td_mod_discard(g->mod, why.msg);
    }
  }
  g->step_spawns = g->step_hits = g->step_costs = 0;
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
uint64_t td_game_map_hash(const td_game *g) { return g->map_hash; }
uint64_t td_game_mod_hash(const td_game *g) { return td_mod_hash(g->mod); }

const td_command *td_game_commands(const td_game *g, size_t *n) {
  *n = g->ncmd;
  return g->cmds;
}

/* ---- saves --------------------------------------------------------------- */

/* Layout (little-endian): "TDGS", u32 version, u64 map hash, u64 mod hash,
** u64 seed, u8 endless, u8 difficulty, u32 reloads, u64 command count, the commands (u64
** tick, u32 kind, i32 base, i32 tower_type, i32 upgrade, u32 mode), u64
** kills, u64 leaks, u64 refused, u64 the player's length and bytes, u64 td.state's
** length and bytes (script/mod_state.c), u64 the world's save length, the
** world's save (sim/world.h), u64 FNV-1a of all the bytes before. */
static void put_command(td_blob *b, const td_command *c) {
  td_blob_u64(b, c->tick);
  td_blob_u32(b, (uint32_t)c->kind);
  td_blob_i32(b, c->base);
  td_blob_i32(b, c->tower_type);
  td_blob_i32(b, c->upgrade);
  td_blob_u32(b, (uint32_t)c->mode);
}

int td_game_save(const td_game *g, const char *path, td_err *err) {
  td_blob b = {0};
  td_blob_bytes(&b, SAVE_MAGIC, 4);
  td_blob_u32(&b, SAVE_VERSION);
  td_blob_u64(&b, g->map_hash);
  td_blob_u64(&b, td_mod_hash(g->mod));
  td_blob_u64(&b, g->seed);
  td_blob_u8(&b, g->endless ? 1 : 0);
  td_blob_u8(&b, (uint8_t)g->difficulty);
  td_blob_u32(&b, g->reloads);
  td_blob_u64(&b, g->ncmd);
  for (size_t i = 0; i < g->ncmd; i++) put_command(&b, &g->cmds[i]);
  td_blob_u64(&b, (uint64_t)g->kills);
  td_blob_u64(&b, (uint64_t)g->leaks);
  td_blob_u64(&b, (uint64_t)g->refused);
  td_blob_u64(&b, g->player_len);
  td_blob_bytes(&b, g->player, g->player_len);
  td_blob st = {0};
  td_err serr;
  if (td_mod_state_save(g->mod, &st, &serr) != 0) {
    td_blob_free(&st);
    td_blob_free(&b);
    return td_err_set(err, "%s: cannot save: %s", path, serr.msg);
  }
  td_blob_u64(&b, st.len);
  td_blob_bytes(&b, st.data, st.len);
  td_blob_free(&st);
  td_blob w = {0};
  td_world_save(g->world, &w);
  td_blob_u64(&b, w.len);
  if (!w.failed) td_blob_bytes(&b, w.data, w.len);
  bool failed = w.failed;
  td_blob_free(&w);
  if (!failed && !b.failed) td_blob_u64(&b, td_blob_fnv(TD_BLOB_FNV_SEED, b.data, b.len));
  if (failed || b.failed) {
    td_blob_free(&b);
    return td_err_set(err, "%s: cannot save: %s", path,
                      failed ? "the world is broken or out of memory" : "out of memory");
  }
  int rc = td_file_write(path, b.data, b.len, err);
  td_blob_free(&b);
  return rc;
}

td_game *td_game_load(const td_game_options *o, const char *path, td_err *err) {
  char *buf;
  size_t len, cap;
  if (td_mem_read_file(path, (size_t)1 << 30, &buf, &len, &cap, err) != 0) return NULL;
  td_game *g = NULL;
  td_blob_reader r = td_blob_read(buf, len);
  char magic[4];
  if (!td_blob_get_bytes(&r, magic, 4) || memcmp(magic, SAVE_MAGIC, 4) != 0) {
    td_err_set(err, "%s: not a td save (no TDGS at the start)", path);
    goto out;
  }
  uint32_t version = td_blob_get_u32(&r);
  if (!r.failed && version != SAVE_VERSION) {
    td_err_set(err, "%s: save version %u, this td reads version %u", path, version,
               SAVE_VERSION);
    goto out;
  }
  if (len < 12 || td_blob_fnv(TD_BLOB_FNV_SEED, buf, len - 8) !=
                      td_blob_get_u64(&(td_blob_reader){.data = (const uint8_t *)buf + len - 8, .len = 8})) {
    td_err_set(err, "%s: corrupt or truncated (%zu bytes, the checksum does not match)", path,
               len);
    goto out;
  }
  uint64_t map_hash = td_blob_get_u64(&r), mod_hash = td_blob_get_u64(&r);
  uint64_t seed = td_blob_get_u64(&r);
  bool endless = td_blob_get_u8(&r) != 0;
  uint8_t difficulty = td_blob_get_u8(&r);
  uint32_t reloads = td_blob_get_u32(&r);
  uint64_t ncmd = td_blob_get_u64(&r);
  if (r.failed || ncmd > (len - r.pos) / 28) {
    td_err_set(err, "%s: truncated in the header", path);
    goto out;
  }
  if (difficulty >= TD_DIFFICULTY_COUNT) {
    td_err_set(err, "%s: difficulty %u in the header is none of normal, easy, hard", path,
               (unsigned)difficulty);
    goto out;
  }
  td_game_options lo = *o;
  lo.seed = seed;
  lo.endless = endless;
  lo.difficulty = (td_difficulty)difficulty;
  g = game_open(&lo, err);
  if (!g) goto out;
  if (g->map_hash != map_hash) {
    td_err_set(err, "%s: made with another map than %s (its content or its name '%s', which a "
               "mod may read)", path, g->map_path, g->map_name);
    goto fail;
  }
  if (td_mod_hash(g->mod) != mod_hash) {
    td_err_set(err, "%s: made with other scripts than those in %s now", path, g->mod_dir);
    goto fail;
  }
  g->reloads = reloads;
  g->cmds = td_mem_alloc((size_t)(ncmd ? ncmd : 1) * sizeof *g->cmds);
  if (!g->cmds) {
    td_err_set(err, "%s: out of memory", path);
    goto fail;
  }
  g->cmd_cap = (size_t)(ncmd ? ncmd : 1);
  for (uint64_t i = 0; i < ncmd; i++) {
    td_command *c = &g->cmds[i];
    c->tick = td_blob_get_u64(&r);
    c->kind = (td_command_kind)td_blob_get_u32(&r);
    c->base = td_blob_get_i32(&r);
    c->tower_type = td_blob_get_i32(&r);
    c->upgrade = td_blob_get_i32(&r);
    c->mode = (td_target_mode)td_blob_get_u32(&r);
  }
  g->ncmd = (size_t)ncmd;
  g->kills = (int64_t)td_blob_get_u64(&r);
  g->leaks = (int64_t)td_blob_get_u64(&r);
  g->refused = (int64_t)td_blob_get_u64(&r);
  uint64_t plen = td_blob_get_u64(&r);
  if (r.failed || plen > len - r.pos) {
    td_err_set(err, "%s: the player's part is cut short", path);
    goto fail;
  }
  if (td_game_set_player_state(g, buf + r.pos, (size_t)plen, err) != 0) goto fail;
  r.pos += (size_t)plen;
  uint64_t slen = td_blob_get_u64(&r);
  if (r.failed || slen > len - r.pos) {
    td_err_set(err, "%s: td.state's part is cut short", path);
    goto fail;
  }
  const char *state = buf + r.pos;
  r.pos += (size_t)slen;
  uint64_t wlen = td_blob_get_u64(&r);
  if (r.failed || wlen != len - r.pos - 8) {
    td_err_set(err, "%s: the world's part is cut short", path);
    goto fail;
  }
  td_blob_reader wr = td_blob_read((const uint8_t *)buf + r.pos, (size_t)wlen);
  td_err werr;
  g->world = td_world_load(&g->map, td_mod_rules(g->mod), &wr, &werr);
  if (!g->world) {
    td_err_set(err, "%s: %s", path, werr.msg);
    goto fail;
  }
  bind_world(g);
  td_err serr;
  if (td_mod_state_load(g->mod, state, (size_t)slen, &serr) != 0) {
    td_err_set(err, "%s: %s", path, serr.msg);
    goto fail;
  }
  goto out;
fail:
  td_game_destroy(g);
  g = NULL;
out:
  td_mem_free(buf, cap);
  return g;
}
