/*
** fuzz.h: what the fuzz harnesses of tests/fuzz share.
**
** Every harness (fuzz_<target>.c) defines LLVMFuzzerInitialize, which sets
** up what all inputs share (a game, rules), and LLVMFuzzerTestOneInput,
** which runs one input through a loader of untrusted files and checks its
** contract: the input is taken or refused with one line naming the file (an
** oracle that fails calls td_fuzz_fail, which aborts so that libFuzzer and
** the gcc driver both report the input). Built with clang and -DTD_FUZZ=ON
** they link libFuzzer; with gcc, driver.c runs every file of a corpus.
**
** Memory: everything an input allocates is freed before the harness
** returns (driver.c counts td_mem blocks around each input; ASan checks the
** rest). What LLVMFuzzerInitialize makes lives until the process exits.
** Determinism: an input gives the same run every time (the fuzzer relies
** on it): no clock, fixed seeds; the only outside state is this process's
** temporary directory.
*/
#ifndef TD_FUZZ_H
#define TD_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/world.h"

/* The two entry points libFuzzer calls (and driver.c). */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Absolute path of a file of the source tree ("maps/01-crossroads.tmx"):
** under $TD_SOURCE_DIR, else the tree the harness was built from. The
** buffer is static, overwritten by the next call. */
const char *td_fuzz_path(const char *relative);

/* This process's temporary directory (made on first use, removed at exit
** with the files td_fuzz_tmp named in it). */
const char *td_fuzz_tmp_dir(void);

/* A file name in this process's temporary directory (made on first use,
** removed with what td_fuzz_write put in it at exit). Static buffer, four
** in rotation. */
const char *td_fuzz_tmp(const char *name);

/* Writes size bytes to path (replacing it); aborts when it cannot. */
void td_fuzz_write(const char *path, const void *data, size_t size);

/* A broken contract: prints "fuzz: <what>" and aborts. */
void td_fuzz_fail(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((noreturn, format(printf, 1, 2)))
#endif
    ;

/* The contract of every refusal: a non-empty message of one line (no
** control character) that contains `name` (the file, or "save:" for a
** world's own load). Fails otherwise. With TD_FUZZ_VERBOSE set in the
** environment it prints every refusal to stderr (to see what a corpus
** file tests). */
void td_fuzz_check_error(const char *msg, const char *name);

/* A world's save (td_world_save) loads back (td_world_load, same map and
** rules) to the same checksum. Fails otherwise. */
void td_fuzz_check_world_save(const td_world *w);

#endif
