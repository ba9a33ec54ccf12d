/*
** main.c: td's command dispatcher.
*/
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/cmds.h"

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
  {"sweep", td_cmd_sweep, "plan, run and report a balance sweep (maps x difficulties x seeds x ...)"},
  {"soak", td_cmd_soak, "play a long endless game under random commands, checking invariants"},
};

int td_app_parse_u64(const char *s, uint64_t *out) {
  if (*s < '0' || *s > '9') return -1; /* no sign, no blank */
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (*end != '\0' || errno == ERANGE) return -1;
  *out = v;
  return 0;
}

const char *td_app_escape(const char *s, char *out, size_t cap) {
  static const char hex[] = "0123456789abcdef";
  size_t n = 0;
  for (const unsigned char *p = (const unsigned char *)s; *p && cap > 0; p++) {
    /* a C1 control is two bytes in UTF-8: 0xc2 0x80..0x9f */
    bool c1 = p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f;
    unsigned char c = c1 ? *++p : *p;
    if (c >= 0x20 && c != 0x7f && !c1) {
      if (n + 1 >= cap) break;
      out[n++] = (char)c;
      continue;
    }
    if (n + (c1 ? 8 : 4) >= cap) break;
    if (c1) out[n++] = '\\', out[n++] = 'x', out[n++] = 'c', out[n++] = '2';
    out[n++] = '\\';
    out[n++] = 'x';
    out[n++] = hex[c >> 4];
    out[n++] = hex[c & 15];
  }
  if (cap > 0) out[n] = '\0';
  return out;
}

void td_app_say(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  td_app_vsay(fmt, ap);
  va_end(ap);
}

void td_app_vsay(const char *fmt, va_list ap) {
  char line[2048], safe[4 * sizeof line];
  va_list copy;
  va_copy(copy, ap);
  int n = vsnprintf(line, sizeof line, fmt, copy);
  va_end(copy);
  char *text = line, *big = NULL;
  if (n >= (int)sizeof line && (big = malloc((size_t)n + 1)) != NULL) {
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    text = big;
  }
  char *esc = big ? malloc(4 * (size_t)n + 1) : NULL;
  if (n >= 0)
    fprintf(stderr, "td: %s\n", esc ? td_app_escape(text, esc, 4 * (size_t)n + 1)
                                     : td_app_escape(text, safe, sizeof safe));
  free(esc);
  free(big);
}

int td_app_parse_option(const char *what, const char *s, uint64_t lo, uint64_t hi,
                        uint64_t *out) {
  uint64_t v;
  if (td_app_parse_u64(s, &v) == 0 && v >= lo && v <= hi) {
    *out = v;
    return 0;
  }
  bool digits = s[0] != '\0' && strspn(s, "0123456789") == strlen(s);
  return td_app_fail("%s: '%s' is %s (%" PRIu64 " .. %" PRIu64 ")", what, s,
                     digits ? "out of range" : "not a whole number", lo, hi);
}

int td_app_fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  td_app_vsay(fmt, ap);
  va_end(ap);
  return 2;
}

static void usage(FILE *out) {
  fputs("usage: td <command> [options]\n\ncommands:\n", out);
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
  fputs("\nEvery command takes --help. td --version prints the version and the\n"
        "build's commit. A path given (--map, --mod) is used as given when it\n"
        "exists, else under td's data directory (maps/, scripts/, assets/; docs/cli.md).\n", out);
}

static int dispatch(int argc, char **argv) {
  if (argc < 2) return td_app_fail("no command given (see td --help)");
  if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
    usage(stdout);
    return 0;
  }
  if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
    printf("%s\n", td_app_version());
    return 0;
  }
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (!strcmp(argv[1], commands[i].name)) return commands[i].run(argc - 1, argv + 1);
  return td_app_fail("unknown command '%s' (see td --help)", argv[1]);
}

/* Whatever a command printed reached stdout to the last byte, or exit 2:
** output lost to a full disk or a closed pipe is never silent. */
static int stdout_done(int status) {
  errno = 0;
  if (fflush(stdout) == 0 && !ferror(stdout)) return status;
  int e = errno;
  return td_app_fail("stdout: write failed%s%s", e ? ": " : "", e ? strerror(e) : "");
}

int main(int argc, char **argv) {
  return stdout_done(dispatch(argc, argv));
}
