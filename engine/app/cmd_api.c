/*
** cmd_api.c: `td api --markdown | --stubs`
**
** Prints the Lua API reference (docs/lua-api.md) or the LuaLS annotation
** stubs (scripts/types/td.lua), generated from the binding and schema
** tables of engine/script; tests/cli/api.sh fails when the committed files
** differ from this output.
*/
#include <stdio.h>
#include <string.h>

#include "app/cmds.h"
#include "game/game.h"
#include "script/mod.h"

static const char usage[] =
  "usage: td api --markdown | --stubs\n"
  "\n"
  "Prints the reference of the Lua API that mods see, generated from the\n"
  "tables the bindings and the validator use.\n"
  "\n"
  "options:\n"
  "  --markdown  the modder's reference (docs/lua-api.md)\n"
  "  --stubs     LuaLS annotations with ---@meta (scripts/types/td.lua)\n"
  "\n"
  "exit status: 0 ok, 2 bad usage\n";

int td_cmd_api(int argc, char **argv) {
  if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
    fputs(usage, stdout);
    return 0;
  }
  if (argc != 2) return td_app_fail("api: expected --markdown or --stubs (see td api --help)");
  td_mod_options o = {0};
  td_err err;
  if (td_game_api(&o, &err) != 0) return td_app_fail("api: %s", err.msg);
  if (!strcmp(argv[1], "--markdown")) td_mod_write_api_markdown(stdout, &o);
  else if (!strcmp(argv[1], "--stubs")) td_mod_write_api_stubs(stdout, &o);
  else return td_app_fail("api: unknown argument '%s' (see td api --help)", argv[1]);
  return 0; /* main checks that stdout took every byte */
}
