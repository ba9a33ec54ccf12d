/*
** cmds.h: the td executable's commands. Each takes the arguments after its
** name (argv[0] is the command name) and returns the process exit status:
** 0 ok, 1 a check failed, 2 bad usage or bad input. Errors go to stderr as
** one line, "td: <file or object>: <what is wrong>".
*/
#ifndef TD_APP_CMDS_H
#define TD_APP_CMDS_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

int td_cmd_route(int argc, char **argv);
int td_cmd_path(int argc, char **argv);
int td_cmd_bench(int argc, char **argv);
int td_cmd_sim(int argc, char **argv);
int td_cmd_api(int argc, char **argv);
int td_cmd_play(int argc, char **argv);
int td_cmd_shot(int argc, char **argv);
int td_cmd_check(int argc, char **argv);
int td_cmd_soak(int argc, char **argv);
int td_cmd_sweep(int argc, char **argv);

/* A decimal number without sign or blanks into *out: 0, or -1. */
int td_app_parse_u64(const char *s, uint64_t *out);

/* An option's whole number in [lo, hi] into *out: 0, or 2 after one line
** naming the option (what, e.g. "shot: --tick"), the value and the range,
** and saying which is wrong: "is out of range (1 .. 100)" for digits
** outside it, "is not a whole number (1 .. 100)" for anything else. */
int td_app_parse_option(const char *what, const char *s, uint64_t lo, uint64_t hi,
                        uint64_t *out);

/* Where td's files are (app_data.c over game/datadir.h; docs/cli.md, "Where
** td finds its files"). td_app_find_dir: DATA/rel ("assets", "maps",
** "scripts/base"), rel itself when td has no data directory. td_app_path:
** a path the user gave (--map, a replay's map), as given when it exists,
** else under the data directory, else under the user's. td_app_mod_path:
** the same for --mod, where a bare NAME is USER/mods/NAME, else
** DATA/scripts/NAME. td_app_data_dir: the data directory (false: none).
** td_app_user_dir: USER/sub ("maps", "mods"; false when there is no home).
** Every answer goes to buf[cap]; the three that return it never fail. */
const char *td_app_find_dir(const char *rel, char *buf, size_t cap);
const char *td_app_path(const char *given, char *buf, size_t cap);
const char *td_app_mod_path(const char *given, char *buf, size_t cap);
bool td_app_data_dir(char *buf, size_t cap);
bool td_app_user_dir(const char *sub, char *buf, size_t cap);

/* "td 0.1.0 (commit abc1234)" (-dirty when built from a changed tree,
** "commit unknown" when not built from git): app_version.c. */
const char *td_app_version(void);

/* Prints "td: <msg>" to stderr as one line, its control characters
** escaped (td_app_escape); returns 2. Every message td prints goes here. */
int td_app_fail(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* The same, for a message that is not a failure (a warning, a refused
** tower): no status. */
void td_app_say(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
void td_app_vsay(const char *fmt, va_list ap);

/* s into out[cap] (cut to fit, always terminated) with every control
** character written as \xHH: bytes below 0x20 (newlines too: a message is
** one line), 0x7f, and the C1 controls U+0080..U+009F (as \xc2\xHH). A
** terminal never sees an escape sequence from a file name. Returns out. */
const char *td_app_escape(const char *s, char *out, size_t cap);

#endif
