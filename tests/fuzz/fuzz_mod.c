/*
** fuzz_mod.c: the mod loader (script/mod.h) on an untrusted script.
**
** A mod is a directory; the input becomes the mod.lua of this process's
** temporary directory (td_mod_load has no entry that takes a buffer, and
** include must find its files on disk anyway). The mod loads under small
** limits (the fuzzer's time is better spent elsewhere than in a 50M
** instruction loop); a refusal must be one line naming the mod's
** directory. A mod that loads is played: a game on tests/fuzz/data/map.lua
** with it (its handlers run on every event), a wave called, towers of its
** types offered on every base, 5 s of ticks, a save loaded back to the
** same checksum half-way, then a hot reload from the same file.
*/
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "game/game.h"
#include "script/mod.h"

#define MOD_MEMORY ((size_t)16 << 20)
#define PLAY_TICKS 300
#define MAX_TOWERS 16

static char map_path[4096], dir[1024];

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  snprintf(map_path, sizeof map_path, "%s", td_fuzz_path("tests/fuzz/data/map.lua"));
  snprintf(dir, sizeof dir, "%s", td_fuzz_tmp_dir());
  return 0;
}

static void play(void) {
  td_game_options o = {.map_path = map_path, .mod_dir = dir, .seed = 1,
                       .mod_memory = MOD_MEMORY, .load_instructions = 2000000,
                       .call_instructions = 200000};
  td_err err = {{0}};
  td_game *g = td_game_create(&o, &err);
  if (!g) { /* the rules may not fit the map (a spawn group's spawn) */
    td_fuzz_check_error(err.msg, dir);
    return;
  }
  td_world *w = td_game_world(g);
  const td_map *m = td_game_map(g);
  const td_rules *r = td_game_rules(g);
  td_world_give_gold(w, 1000000);
  td_command c = {.tick = 0, .kind = TD_COMMAND_CALL_WAVE};
  if (td_game_command(g, &c, &err) != 0) td_fuzz_fail("command: %s", err.msg);
  for (size_t b = 0; b < m->base_count && b < MAX_TOWERS && r->tower_count; b++) {
    c = (td_command){.tick = b, .kind = TD_COMMAND_PLACE, .base = (int32_t)b,
                     .tower_type = (int32_t)(b % r->tower_count)};
    if (td_game_command(g, &c, &err) != 0) td_fuzz_fail("command: %s", err.msg);
  }
  for (int t = 0; t < PLAY_TICKS / 2; t++)
    if (td_game_step(g, &err) != 0) td_fuzz_fail("step %d: %s", t, err.msg);
  const char *save = td_fuzz_tmp("game.tds");
  if (td_game_save(g, save, &err) != 0) td_fuzz_fail("cannot save: %s", err.msg);
  td_game *h = td_game_load(&o, save, &err);
  if (!h) td_fuzz_fail("the game's own save is refused: %s", err.msg);
  if (td_world_checksum(td_game_world(h)) != td_world_checksum(w))
    td_fuzz_fail("a loaded save has another checksum than the game saved");
  td_game_destroy(h);
  /* the data stage may draw from math.random (the world's RNG now), so
  ** the same files can make rules that no longer fit: refused cleanly */
  bool reloaded = td_game_reload(g, &err) == 0;
  if (!reloaded) td_fuzz_check_error(err.msg, dir);
  for (int t = PLAY_TICKS / 2; t < PLAY_TICKS; t++)
    if (td_game_step(g, &err) != 0) td_fuzz_fail("step %d: %s", t, err.msg);
  if (td_game_reloads(g) != (reloaded ? 1u : 0u))
    td_fuzz_fail("a reload that was taken was not swapped in, or the other way");
  td_game_destroy(g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  td_fuzz_write(td_fuzz_tmp("mod.lua"), data, size);
  td_mod_options o = {.memory = MOD_MEMORY, .load_instructions = 2000000,
                      .call_instructions = 200000};
  td_err err = {{0}};
  td_mod *m = td_mod_load(dir, &o, &err);
  if (!m) {
    td_fuzz_check_error(err.msg, dir);
    return 0;
  }
  td_mod_destroy(m);
  play();
  return 0;
}
