/*
** cmds.h: the td executable's commands. Each takes the arguments after its
** name (argv[0] is the command name) and returns the process exit status:
** 0 ok, 1 a check failed, 2 bad usage or bad input. Errors go to stderr as
** one line, "td: <file or object>: <what is wrong>".
*/
#ifndef TD_APP_CMDS_H
#define TD_APP_CMDS_H

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

/* A decimal number without sign or blanks into *out: 0, or -1. */
int td_app_parse_u64(const char *s, uint64_t *out);

/* rel ("assets", "maps", "scripts/base", "tests") under the working directory, or
** else under the source tree td was built from; buf holds the answer. */
const char *td_app_find_dir(const char *rel, char *buf, size_t cap);

/* Prints "td: <msg>" to stderr; returns 2. */
int td_app_fail(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

#endif
