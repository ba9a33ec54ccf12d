/*
** fuzz_save.c: the save readers on untrusted bytes: td_game_load (a whole
** save, "TDGS", game/game.h) and td_world_load (the world's part, "TDWS",
** sim/world.h, with the crowd's part inside it).
**
** An input that starts with "TDGS" is a game save. Its last 8 bytes are
** replaced by the FNV-1a of the others, so that the fuzzer gets past the
** checksum to the fields behind it (test_game.c tests the checksum itself);
** it is written to a temporary file and loaded with the map and mod the
** seed saves were made with (tests/fuzz/data: frozen copies of
** maps/01-crossroads.tmx and scripts/base, so that the corpus stays valid
** when the bundled content changes). Any other input goes to td_world_load
** on that map and those rules. A refusal
** must be one line naming the file ("save:" for the world's own). A world
** that loads steps for a second (a game's with its Lua handlers), is saved
** and loaded back to the same checksum; a game's commands are also
** written as a replay, as `td sim --load SAVE --record R` does.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "game/game.h"
#include "game/replay.h"
#include "nav/blob.h"
#include "nav/mem.h"
#include "sim/world.h"

#define STEP_TICKS 60

static td_game *game; /* its map and rules are the world loads' */
static char map_path[4096], mod_dir[4096];

static void cleanup(void) { td_game_destroy(game); }

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  snprintf(map_path, sizeof map_path, "%s", td_fuzz_path("tests/fuzz/data/map.lua"));
  snprintf(mod_dir, sizeof mod_dir, "%s", td_fuzz_path("tests/fuzz/data/mod"));
  td_game_options o = {.map_path = map_path, .mod_dir = mod_dir, .seed = 1};
  td_err err;
  game = td_game_create(&o, &err);
  if (!game) td_fuzz_fail("%s", err.msg);
  atexit(cleanup);
  return 0;
}

static void world_input(const uint8_t *data, size_t size) {
  td_blob_reader r = td_blob_read(data, size);
  td_err err = {{0}};
  td_world *w = td_world_load(td_game_map(game), td_game_rules(game), &r, &err);
  if (!w) {
    td_fuzz_check_error(err.msg, "save:");
    return;
  }
  td_fuzz_check_world_save(w);
  for (int t = 0; t < STEP_TICKS; t++)
    if (td_world_step(w, &err) != 0) td_fuzz_fail("a loaded world: step %d: %s", t, err.msg);
  td_fuzz_check_world_save(w);
  td_world_destroy(w);
}

/* As `td sim --load --record`: the loaded game's commands as a replay. */
static void record(const td_game *g) {
  td_replay rec;
  td_replay_init(&rec, g, 0);
  size_t n;
  const td_command *c = td_game_commands(g, &n);
  td_err err = {{0}};
  for (size_t i = 0; i < n; i++)
    if (td_replay_add_command(&rec, g, &c[i], &err) != 0) td_fuzz_check_error(err.msg, "replay");
  td_replay_end(&rec, g);
  const char *out = td_fuzz_tmp("out.replay");
  if (td_replay_write(&rec, out, &err) != 0) td_fuzz_fail("%s", err.msg);
  td_replay back;
  if (td_replay_read(out, &back, &err) != 0) td_fuzz_fail("a replay written is refused: %s", err.msg);
  td_replay_free(&back);
  td_replay_free(&rec);
}

static void game_input(const uint8_t *data, size_t size) {
  uint8_t *buf = malloc(size);
  if (!buf) td_fuzz_fail("out of memory");
  memcpy(buf, data, size);
  if (size >= 12) {
    uint64_t h = td_blob_fnv(TD_BLOB_FNV_SEED, buf, size - 8);
    for (int k = 0; k < 8; k++) buf[size - 8 + (size_t)k] = (uint8_t)(h >> (8 * k));
  }
  char path[1024], again[1024];
  snprintf(path, sizeof path, "%s", td_fuzz_tmp("in.tds"));
  snprintf(again, sizeof again, "%s", td_fuzz_tmp("again.tds"));
  td_fuzz_write(path, buf, size);
  free(buf);
  td_game_options o = {.map_path = map_path, .mod_dir = mod_dir};
  td_err err = {{0}};
  td_game *g = td_game_load(&o, path, &err);
  if (!g) {
    td_fuzz_check_error(err.msg, path);
    return;
  }
  record(g);
  for (int t = 0; t < STEP_TICKS; t++)
    if (td_game_step(g, &err) != 0) td_fuzz_fail("a loaded game: step %d: %s", t, err.msg);
  if (td_game_save(g, again, &err) != 0) td_fuzz_fail("a loaded game cannot be saved: %s", err.msg);
  td_game *h = td_game_load(&o, again, &err);
  if (!h) td_fuzz_fail("a game's own save is refused: %s", err.msg);
  if (td_world_checksum(td_game_world(g)) != td_world_checksum(td_game_world(h)))
    td_fuzz_fail("a loaded save has another checksum than the game saved");
  td_game_destroy(h);
  td_game_destroy(g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size >= 4 && memcmp(data, "TDGS", 4) == 0) game_input(data, size);
  else world_input(data, size);
  return 0;
}
