/*
** main.c: td's command dispatcher.
*/
#define _POSIX_C_SOURCE 200809L /* stat */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "app/cmds.h"

#ifndef TD_SOURCE_DIR
#define TD_SOURCE_DIR "."
#endif

typedef struct command {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *summary;
} command;

static const command commands[] = {
  {"route", td_cmd_route, "print every node's distance and next waypoint on a map"},
  {"sim", td_cmd_sim, "run waves of agents headless: metrics, checksum, trace, picture"},
  {"check", td_cmd_check, "run behaviour scenarios (Lua files) and check their expectations"},
  {"path", td_cmd_path, "solve MovingAI scenarios with A* and compare lengths"},
  {"bench", td_cmd_bench, "run a benchmark (route, crowd, sim, render)"},
  {"api", td_cmd_api, "print the Lua API reference (--markdown) or LuaLS stubs (--stubs)"},
  {"play", td_cmd_play, "play the game in a window (main menu, or --map to start at once)"},
  {"shot", td_cmd_shot, "render one frame of the game to a PNG, without a window"},
  {"soak", td_cmd_soak, "play a long endless game under random commands, checking invariants"},
};

const char *td_app_find_dir(const char *rel, char *buf, size_t cap) {
  struct stat st;
  if (stat(rel, &st) == 0 && S_ISDIR(st.st_mode)) {
    snprintf(buf, cap, "%s", rel);
    return buf;
  }
  snprintf(buf, cap, "%s/%s", TD_SOURCE_DIR, rel);
  if (stat(buf, &st) == 0 && S_ISDIR(st.st_mode)) return buf;
  snprintf(buf, cap, "%s", rel);
  return buf;
}

int td_app_parse_u64(const char *s, uint64_t *out) {
  if (*s < '0' || *s > '9') return -1; /* no sign, no blank */
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (*end != '\0' || errno == ERANGE) return -1;
  *out = v;
  return 0;
}

int td_app_fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("td: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  return 2;
}

static void usage(FILE *out) {
  fputs("usage: td <command> [options]\n\ncommands:\n", out);
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
  fputs("\nEvery command takes --help.\n", out);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
    usage(stdout);
    return 0;
  }
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (!strcmp(argv[1], commands[i].name)) return commands[i].run(argc - 1, argv + 1);
  return td_app_fail("unknown command '%s' (try td --help)", argv[1]);
}
