/*
** fuzz_map.c: the map loader (script/mapfile.h) on untrusted text.
**
** The input is a map file's content. td_mapfile_load_buffer either refuses
** it with one line naming the file, or returns a map whose indices are all
** in range, within the C-side budgets and with unique object ids (a layer
** that shares its tiles shares an earlier layer's); such a map is then
** played for a few seconds with the bundled rules (tests/fuzz/data/mod: a
** wave called at once, a tower offered on every base, one sold), since a
** map a stranger drew must not crash the simulation either, and the world's
** save must load back to the same checksum.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "script/mapfile.h"
#include "script/mod.h"
#include "sim/world.h"

/* fuzz_tmx.c and fuzz_tmj.c include this file with their own name (a file
** in the temporary directory, where their external files lie) and setup. */
#ifndef FUZZ_MAP_NAME
#define FUZZ_MAP_NAME "fuzz-map.lua"
#endif
#define PLAY_TICKS 240
#define MAX_TOWERS 16

static td_mod *rules_mod; /* tests/fuzz/data/mod: the rules maps are played with */

static void cleanup(void) { td_mod_destroy(rules_mod); }

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  td_err err;
#ifdef FUZZ_MAP_INIT
  FUZZ_MAP_INIT();
#endif
  rules_mod = td_mod_load(td_fuzz_path("tests/fuzz/data/mod"), NULL, &err);
  if (!rules_mod) td_fuzz_fail("%s", err.msg);
  atexit(cleanup);
  return 0;
}

/* What the loader promises about a map it returns. */
static void check_map(const td_map *m) {
  const td_graph *g = m->graph;
  if (!g || g->node_count <= 0) td_fuzz_fail("a map without nodes was accepted");
  if (!m->spawn_count || !m->goal_count) td_fuzz_fail("a map without a spawn or goal");
  for (size_t i = 0; i < m->spawn_count; i++)
    if (m->spawns[i].node < 0 || m->spawns[i].node >= g->node_count)
      td_fuzz_fail("spawn %zu: node %d of %d", i, (int)m->spawns[i].node, (int)g->node_count);
  for (size_t i = 0; i < m->goal_count; i++)
    if (m->goals[i].node < 0 || m->goals[i].node >= g->node_count)
      td_fuzz_fail("goal %zu: node %d of %d", i, (int)m->goals[i].node, (int)g->node_count);
  for (size_t b = 0; b < m->base_count; b++) {
    const td_tower_base *tb = &m->bases[b];
    if (!tb->block_count && tb->block) /* a pad (blocking = false) blocks nothing */
      td_fuzz_fail("base %zu: a block list of no change", b);
    for (size_t k = 0; k < tb->block_count; k++) {
      int32_t id = tb->block[k].id;
      int32_t n = tb->block[k].kind == TD_CHANGE_BLOCK_EDGE ? g->edge_count : g->node_count;
      if (id < 0 || id >= n) td_fuzz_fail("base %zu: change %zu: id %d of %d", b, k, (int)id, (int)n);
    }
  }
  for (size_t l = 0; l < m->layer_count; l++) {
    if (m->layers[l].width != m->width || m->layers[l].height != m->height)
      td_fuzz_fail("layer %zu: size differs from the map's", l);
    if (m->layers[l].shared) { /* an earlier layer owns its gids */
      size_t k = 0;
      while (k < l && (m->layers[k].shared || m->layers[k].gids != m->layers[l].gids)) k++;
      if (k == l) td_fuzz_fail("layer %zu: shared, but no earlier layer owns its gids", l);
    }
  }
  /* the C-side budgets (mapfile.h), and unique ids */
  if (m->spawn_count > TD_MAPFILE_MAX_SPAWNS || m->goal_count > TD_MAPFILE_MAX_GOALS)
    td_fuzz_fail("%zu spawns and %zu goals accepted", m->spawn_count, m->goal_count);
  for (size_t i = 0; i < m->base_count; i++) {
    int32_t id = m->bases[i].object_id;
    for (size_t k = 0; k < i; k++)
      if (m->bases[k].object_id == id) td_fuzz_fail("two bases with id %d", (int)id);
    for (size_t k = 0; k < m->spawn_count; k++)
      if (m->spawns[k].object_id == id) td_fuzz_fail("a base and a spawn with id %d", (int)id);
    for (size_t k = 0; k < m->goal_count; k++)
      if (m->goals[k].object_id == id) td_fuzz_fail("a base and a goal with id %d", (int)id);
  }
}

static void play(const td_map *m) {
  const td_rules *r = td_mod_rules(rules_mod);
  td_err err = {{0}};
  td_world *w = td_world_create(m, r, 1, &err);
  if (!w) { /* the rules may not fit the map (a spawn group's spawn) */
    td_fuzz_check_error(err.msg, "");
    return;
  }
  td_world_give_gold(w, 1000000);
  td_command c = {.tick = 0, .kind = TD_COMMAND_CALL_WAVE};
  if (td_world_command(w, &c, &err) != 0) td_fuzz_fail("command: %s", err.msg);
  for (size_t b = 0; b < m->base_count && b < MAX_TOWERS; b++) {
    c = (td_command){.tick = b, .kind = TD_COMMAND_PLACE, .base = (int32_t)b,
                     .tower_type = (int32_t)(b % r->tower_count)};
    if (td_world_command(w, &c, &err) != 0) td_fuzz_fail("command: %s", err.msg);
  }
  c = (td_command){.tick = PLAY_TICKS / 2, .kind = TD_COMMAND_SELL, .base = 0};
  if (td_world_command(w, &c, &err) != 0) td_fuzz_fail("command: %s", err.msg);
  for (int t = 0; t < PLAY_TICKS; t++)
    if (td_world_step(w, &err) != 0) td_fuzz_fail("step %d: %s", t, err.msg);
  td_fuzz_check_world_save(w);
  td_world_destroy(w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  td_map m;
  td_err err = {{0}};
  char name[512];
  snprintf(name, sizeof name, "%s", FUZZ_MAP_NAME);
  if (td_mapfile_load_buffer(name, (const char *)data, size, &m, &err) != 0) {
    td_fuzz_check_error(err.msg, name);
    for (const char *p = (const char *)&m; p < (const char *)(&m + 1); p++)
      if (*p) td_fuzz_fail("a refused map is not left zeroed");
    return 0;
  }
  check_map(&m);
  play(&m);
  td_map_free(&m);
  return 0;
}
