/*
** fuzz_replay.c: the replay reader (game/replay.h) on untrusted text.
**
** The input is a replay file's content, read from a temporary file. It is
** refused with "FILE:LINE: ..." (or "FILE: ..."), or read; a read replay's
** commands are resolved against a game on tests/fuzz/data/map.lua with
** tests/fuzz/data/mod (refusals name the file), its hashes (records, map,
** mod) are compared with the game's, and it is written back and read again:
** the second reading must equal the first, field by field, and hold the
** records hash of its lines.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "game/game.h"
#include "game/replay.h"

static td_game *game;

static void cleanup(void) { td_game_destroy(game); }

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  static char map[4096], mod[4096];
  snprintf(map, sizeof map, "%s", td_fuzz_path("tests/fuzz/data/map.lua"));
  snprintf(mod, sizeof mod, "%s", td_fuzz_path("tests/fuzz/data/mod"));
  td_game_options o = {.map_path = map, .mod_dir = mod, .seed = 1};
  td_err err;
  game = td_game_create(&o, &err);
  if (!game) td_fuzz_fail("%s", err.msg);
  atexit(cleanup);
  return 0;
}

static void same_replay(const td_replay *a, const td_replay *b) {
  if (strcmp(a->map_path, b->map_path) || strcmp(a->mod_dir, b->mod_dir) ||
      a->map_hash != b->map_hash || a->mod_hash != b->mod_hash || a->seed != b->seed ||
      a->endless != b->endless || a->every != b->every || a->ncmd != b->ncmd ||
      a->ncheck != b->ncheck || a->ended != b->ended)
    td_fuzz_fail("a replay written and read back has another header or size");
  if (a->noverrides != b->noverrides)
    td_fuzz_fail("a replay written and read back has other rule overrides");
  for (size_t i = 0; i < a->noverrides; i++)
    if (a->overrides[i].op != b->overrides[i].op || a->overrides[i].value != b->overrides[i].value ||
        strcmp(a->overrides[i].param, b->overrides[i].param))
      td_fuzz_fail("override %zu differs after writing and reading back", i);
  for (size_t i = 0; i < a->ncmd; i++) {
    const td_replay_cmd *x = &a->cmds[i], *y = &b->cmds[i];
    if (x->tick != y->tick || x->kind != y->kind || x->object != y->object ||
        strcmp(x->name, y->name) || x->arg != y->arg)
      td_fuzz_fail("command %zu differs after writing and reading back", i);
  }
  for (size_t i = 0; i < a->ncheck; i++)
    if (a->checks[i].tick != b->checks[i].tick || a->checks[i].checksum != b->checks[i].checksum)
      td_fuzz_fail("check %zu differs after writing and reading back", i);
  if (a->ended && (a->end_ticks != b->end_ticks || a->result != b->result ||
                   a->lives != b->lives || a->gold != b->gold ||
                   a->end_checksum != b->end_checksum))
    td_fuzz_fail("the end differs after writing and reading back");
  /* the writer writes the records hash of what it writes */
  if (b->end_records != td_replay_records_hash(b) ||
      td_replay_records_hash(a) != td_replay_records_hash(b))
    td_fuzz_fail("the records hash differs after writing and reading back");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char path[1024], out[1024];
  snprintf(path, sizeof path, "%s", td_fuzz_tmp("in.replay"));
  snprintf(out, sizeof out, "%s", td_fuzz_tmp("out.replay"));
  td_fuzz_write(path, data, size);
  td_replay r;
  td_err err = {{0}};
  if (td_replay_read(path, &r, &err) != 0) {
    td_fuzz_check_error(err.msg, path);
    if (r.cmds || r.checks || r.ncmd || r.ncheck) td_fuzz_fail("a refused replay is not zeroed");
    return 0;
  }
  for (size_t i = 0; i < r.ncmd; i++) {
    td_command c;
    err.msg[0] = '\0';
    if (td_replay_command(&r, i, game, &c, &err) != 0) {
      td_fuzz_check_error(err.msg, path);
      continue;
    }
    const td_map *m = td_game_map(game);
    if (c.kind <= TD_COMMAND_TARGET && (c.base < 0 || (size_t)c.base >= m->base_count))
      td_fuzz_fail("command %zu resolved to base %d of %zu", i, (int)c.base, m->base_count);
    if (c.kind == TD_COMMAND_PLACE &&
        (c.tower_type < 0 || (size_t)c.tower_type >= td_game_rules(game)->tower_count))
      td_fuzz_fail("command %zu resolved to tower type %d", i, (int)c.tower_type);
  }
  err.msg[0] = '\0';
  if (td_replay_check_game(&r, game, &err) != 0) td_fuzz_check_error(err.msg, path);
  err.msg[0] = '\0';
  if (td_replay_write(&r, out, &err) != 0) td_fuzz_fail("a replay read cannot be written: %s", err.msg);
  td_replay back;
  if (td_replay_read(out, &back, &err) != 0) td_fuzz_fail("a replay written is refused: %s", err.msg);
  same_replay(&r, &back);
  td_replay_free(&back);
  td_replay_free(&r);
  return 0;
}
