/*
** game_save.c: a game's save file (game.h, "Saves"): what the game was made
** from, the commands so far, the totals, the player's memory, the mod's
** state and the world's, written through game/file.h and read back with
** every field checked.
*/
#include "game/game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/file.h"
#include "game/game_int.h"

#define SAVE_MAGIC "TDGS"
#define SAVE_VERSION 4u /* 2: the difficulty; 3: the map's name in its hash, totals, player,
                           td.state; 4: the mod list (names and hashes) */

/* ---- saves --------------------------------------------------------------- */

/* Layout (little-endian): "TDGS", u32 version, u64 map hash, u32 the
** number of mods and for each in load order: u32 its name's length, the
** name (td_mod_name_at), u64 its files' hash (td_mod_hash_at); u64 seed, u8 endless, u8 difficulty, u32 reloads, u64 command count, the commands (u64
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
  td_blob_u32(&b, (uint32_t)td_mod_count(g->mod));
  for (size_t i = 0; i < td_mod_count(g->mod); i++) {
    const char *name = td_mod_name_at(g->mod, i);
    td_blob_u32(&b, (uint32_t)strlen(name));
    td_blob_bytes(&b, name, strlen(name));
    td_blob_u64(&b, td_mod_hash_at(g->mod, i));
  }
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

/* "a+b" from names[0 .. n) into out. */
static void join_names(char (*names)[64], size_t n, char *out, size_t cap) {
  size_t used = 0;
  out[0] = '\0';
  for (size_t i = 0; i < n && used + 1 < cap; i++)
    used += (size_t)snprintf(out + used, cap - used, "%s%s", i ? "+" : "", names[i]);
}

/* The save's mod list (names and hashes, in order) against the game's:
** -1 with err naming the first difference. */
static int check_mods(const td_game *g, const char *path, char (*names)[64],
                      const uint64_t *hashes, size_t n, td_err *err) {
  size_t have = td_mod_count(g->mod);
  bool same = have == n;
  for (size_t i = 0; same && i < n; i++) same = strcmp(names[i], td_mod_name_at(g->mod, i)) == 0;
  if (!same) {
    char saved[TD_MOD_MAX_MODS * 65];
    join_names(names, n, saved, sizeof saved);
    return td_err_set(err, "%s: made with the mods %s, this game has %s (the same mods in the "
                      "same order are needed)", path, saved, td_mod_name(g->mod));
  }
  for (size_t i = 0; i < n; i++)
    if (hashes[i] != td_mod_hash_at(g->mod, i))
      return td_err_set(err, "%s: made with other scripts than those in %s now (mod '%s')",
                        path, g->mod_dirs[i], names[i]);
  return 0;
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
  uint64_t map_hash = td_blob_get_u64(&r);
  uint32_t nmods = td_blob_get_u32(&r);
  char names[TD_MOD_MAX_MODS][64] = {{0}};
  uint64_t hashes[TD_MOD_MAX_MODS] = {0};
  if (!r.failed && (nmods == 0 || nmods > TD_MOD_MAX_MODS)) {
    td_err_set(err, "%s: %u mods in the header (1 to %d)", path, (unsigned)nmods,
               TD_MOD_MAX_MODS);
    goto out;
  }
  for (uint32_t i = 0; !r.failed && i < nmods; i++) {
    uint32_t n = td_blob_get_u32(&r);
    if (r.failed || n == 0 || n >= sizeof names[i] || !td_blob_get_bytes(&r, names[i], n)) {
      td_err_set(err, "%s: mod %u's name in the header is cut short or too long", path,
                 (unsigned)i + 1);
      goto out;
    }
    names[i][n] = '\0';
    hashes[i] = td_blob_get_u64(&r);
  }
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
  if (check_mods(g, path, names, hashes, nmods, err) != 0) goto fail;
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
  g->world = td_world_load(&g->map, game_rules(g), &wr, &werr);
  if (!g->world) {
    td_err_set(err, "%s: %s", path, werr.msg);
    goto fail;
  }
  if (game_bind_world(g, err) != 0) goto fail;
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
