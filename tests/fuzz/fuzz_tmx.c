/*
** fuzz_tmx.c: the map loader (script/mapfile.h) on untrusted Tiled XML (.tmx).
**
** The input is a .tmx map's content, loaded as a file of this process's
** temporary directory, where LLVMFuzzerInitialize wrote the external files
** the seeds name (tests/data/maps/tiled: floor.tsx, ground.tsx, spawn.tx, base.tx, flat), so that tileset
** `source`s and object `template`s resolve to real files (and a path out of
** that folder is refused). Otherwise the contract and the checks are
** fuzz_map.c's, which this file includes: refused with one line naming the
** file, or a map whose indices are in range, played for a few seconds, its
** save loading back to the same checksum.
*/
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"

static void write_externals(void) {
  static const char *const files[][2] = {{"floor.tsx", "floor.tsx"}, {"ground.tsx", "ground.tsx"}, {"tpl/spawn.tx", "spawn.tx"}, {"tpl/base.tx", "base.tx"}};
  for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
    char rel[256];
    snprintf(rel, sizeof rel, "tests/data/maps/tiled/%s", files[i][0]);
    FILE *f = fopen(td_fuzz_path(rel), "rb");
    if (!f) td_fuzz_fail("cannot open %s", rel);
    char buf[65536];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    td_fuzz_write(td_fuzz_tmp(files[i][1]), buf, n);
  }
}

#define FUZZ_MAP_NAME td_fuzz_tmp("fuzz-map.tmx")
#define FUZZ_MAP_INIT write_externals
#include "fuzz_map.c"
