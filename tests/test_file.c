/*
** test_file.c: td's output writer (engine/game/file.h) and the reader's
** refusal of what is not a regular file (td_mem_read_file, nav/mem.h).
**
** The writer: a planted PATH.tmp link is neither followed nor turned into
** the file; two writers (and eight processes) to one file never mix their
** bytes; a full disk (/dev/full, and a file size limit on a regular file)
** is an error naming the file that leaves the old file and no temporary; a
** new file has the mode the umask gives; a link has its target replaced; a
** directory is refused. The reader: a FIFO, a directory and a device are
** refused at once, naming the file.
*/
#define _XOPEN_SOURCE 700 /* mkfifo, symlink, fork */
#include "support.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "game/file.h"

static const char *tmp(const char *name) { return td_test_tmp(name); }

static void put(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  fputs(text, f);
  assert_int_equal(fclose(f), 0);
}

/* The whole file (small), as a string. */
static const char *get(const char *path) {
  static char buf[1 << 16];
  FILE *f = fopen(path, "rb");
  if (!f) fail_msg("%s: %s", path, strerror(errno));
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  return buf;
}

static int temporaries(void) { return td_test_tmp_count(".tmp"); }

/* A PATH.tmp link planted towards another file: that file stays as it
** was, and PATH becomes a regular file holding the new bytes. */
static void test_planted_link(void **state) {
  (void)state;
  const char *path = tmp("save.tds"), *victim = tmp("victim");
  put(victim, "precious");
  put(path, "old");
  assert_int_equal(symlink(victim, tmp("save.tds.tmp")), 0);
  td_err err;
  if (td_file_write(path, "new", 3, &err) != 0) fail_msg("%s", err.msg);
  assert_string_equal(get(victim), "precious");
  struct stat st;
  assert_int_equal(lstat(path, &st), 0);
  assert_true(S_ISREG(st.st_mode));
  assert_string_equal(get(path), "new");
  assert_int_equal(lstat(tmp("save.tds.tmp"), &st), 0); /* not ours: left alone */
  assert_true(S_ISLNK(st.st_mode));
  assert_int_equal(unlink(tmp("save.tds.tmp")), 0);
  assert_int_equal(temporaries(), 0);
}

/* Two writers to one file at once: each its own temporary; the last
** commit wins whole. Then eight processes, each replacing one file 50 times
** with 64 KiB of its own byte: the file is always one writer's, whole. */
static void test_two_writers(void **state) {
  (void)state;
  const char *path = tmp("shared");
  td_file_out a, b;
  td_err err;
  assert_int_equal(td_file_begin(&a, path, &err), 0);
  assert_int_equal(td_file_begin(&b, path, &err), 0);
  assert_string_not_equal(a.tmp, b.tmp);
  assert_int_equal(temporaries(), 2);
  fputs("first writer", a.f);
  fputs("second", b.f);
  assert_int_equal(td_file_commit(&a, &err), 0);
  assert_string_equal(get(path), "first writer");
  assert_int_equal(td_file_commit(&b, &err), 0);
  assert_string_equal(get(path), "second");
  assert_int_equal(temporaries(), 0);

  enum { WRITERS = 8, ROUNDS = 50, SIZE = 1 << 16 };
  pid_t pids[WRITERS];
  for (int w = 0; w < WRITERS; w++) {
    pids[w] = fork();
    assert_true(pids[w] >= 0);
    if (pids[w] == 0) {
      static char data[SIZE];
      memset(data, 'a' + w, sizeof data);
      td_err e;
      for (int r = 0; r < ROUNDS; r++)
        if (td_file_write(path, data, sizeof data, &e) != 0) _exit(1);
      _exit(0);
    }
  }
  int bad = 0;
  for (int r = 0; r < 200; r++) { /* read while they write */
    FILE *f = fopen(path, "rb");
    if (!f) continue;
    static char got[SIZE + 1];
    size_t n = fread(got, 1, sizeof got, f);
    fclose(f);
    bool whole = n == SIZE; /* a writer's, or still "second" */
    for (size_t i = 1; whole && i < n; i++) whole = got[i] == got[0];
    bad += !whole && !(n == 6 && !memcmp(got, "second", 6));
  }
  for (int w = 0; w < WRITERS; w++) {
    int st;
    assert_int_equal(waitpid(pids[w], &st, 0), pids[w]);
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  }
  if (bad) fail_msg("%d reads saw a file that was not one writer's whole", bad);
  assert_int_equal(temporaries(), 0);
}

/* A full disk: on a device written in place (/dev/full), and on a regular
** file (a file size limit of 100 bytes): one error naming the file; the old
** file as it was; no temporary. */
static void test_full_disk(void **state) {
  (void)state;
  static char data[1 << 16];
  memset(data, 'x', sizeof data);
  td_err err;
  if (access("/dev/full", W_OK) == 0) {
    assert_int_equal(td_file_write("/dev/full", "x", 1, &err), -1);
    assert_string_equal(err.msg, "/dev/full: write failed: No space left on device");
    assert_int_equal(td_file_write("/dev/full", data, sizeof data, &err), -1);
    assert_string_equal(err.msg, "/dev/full: write failed: No space left on device");
  }
  const char *path = tmp("big");
  put(path, "old");
  td_test_disk_full(100);
  int small_rc = td_file_write(path, data, 50, &err); /* fits */
  int big_rc = td_file_write(path, data, sizeof data, &err);
  td_test_disk_full(-1);
  assert_int_equal(small_rc, 0);
  assert_int_equal(big_rc, -1);
  if (!strstr(err.msg, "big: write failed: File too large")) fail_msg("%s", err.msg);
  assert_int_equal(strlen(get(path)), 50);
  assert_int_equal(temporaries(), 0);
}

/* A new file's mode is 0666 less the umask, as fopen's would be. */
static void test_mode(void **state) {
  (void)state;
  td_err err;
  struct stat st;
  mode_t old = umask(022);
  assert_int_equal(td_file_write(tmp("m644"), "x", 1, &err), 0);
  umask(077);
  assert_int_equal(td_file_write(tmp("m600"), "x", 1, &err), 0);
  umask(old);
  assert_int_equal(stat(tmp("m644"), &st), 0);
  assert_int_equal(st.st_mode & 0777, 0644);
  assert_int_equal(stat(tmp("m600"), &st), 0);
  assert_int_equal(st.st_mode & 0777, 0600);
}

/* A link has the file it names replaced, and stays a link; a directory, a
** missing directory, an empty name: refused, naming the path; an aborted
** write leaves the old file and no temporary. */
static void test_links_and_refusals(void **state) {
  (void)state;
  td_err err;
  put(tmp("real"), "old");
  assert_int_equal(symlink("real", tmp("link")), 0);
  assert_int_equal(td_file_write(tmp("link"), "new", 3, &err), 0);
  struct stat st;
  assert_int_equal(lstat(tmp("link"), &st), 0);
  assert_true(S_ISLNK(st.st_mode));
  assert_string_equal(get(tmp("real")), "new");

  assert_int_equal(td_file_write(td_test_tmp_dir(), "x", 1, &err), -1);
  assert_non_null(strstr(err.msg, ": is a directory"));
  assert_int_equal(td_file_write(tmp("no/such"), "x", 1, &err), -1);
  if (!strstr(err.msg, "no/such: cannot write: No such file or directory")) fail_msg("%s", err.msg);
  assert_int_equal(td_file_write("", "x", 1, &err), -1);

  td_file_out o;
  assert_int_equal(td_file_begin(&o, tmp("real"), &err), 0);
  fputs("half", o.f);
  td_file_abort(&o);
  assert_string_equal(get(tmp("real")), "new");
  assert_int_equal(temporaries(), 0);
}

static void on_alarm(int sig) {
  (void)sig;
  fail_msg("td_mem_read_file blocked");
}

/* The reader: what is not a regular file is refused at once (a FIFO
** without a writer would block an open for ever), and a file larger than
** the limit before a byte is read. */
static void test_read_refuses(void **state) {
  (void)state;
  signal(SIGALRM, on_alarm);
  alarm(10);
  char *buf;
  size_t len, cap;
  td_err err;
  assert_int_equal(mkfifo(tmp("fifo"), 0600), 0);
  assert_int_equal(td_mem_read_file(tmp("fifo"), 1024, &buf, &len, &cap, &err), -1);
  if (!strstr(err.msg, "fifo: not a regular file (a FIFO)")) fail_msg("%s", err.msg);
  assert_null(buf);
  assert_int_equal(td_mem_read_file(td_test_tmp_dir(), 1024, &buf, &len, &cap, &err), -1);
  assert_non_null(strstr(err.msg, ": not a regular file (a directory)"));
  assert_int_equal(td_mem_read_file("/dev/zero", 1024, &buf, &len, &cap, &err), -1);
  assert_string_equal(err.msg, "/dev/zero: not a regular file (a character device)");
  alarm(0);
  put(tmp("five"), "12345");
  assert_int_equal(td_mem_read_file(tmp("five"), 4, &buf, &len, &cap, &err), -1);
  assert_non_null(strstr(err.msg, "five: file is larger than 4 bytes"));
  assert_int_equal(td_mem_read_file(tmp("five"), 5, &buf, &len, &cap, &err), 0);
  assert_int_equal(len, 5);
  td_mem_free(buf, cap);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_planted_link),
      cmocka_unit_test(test_two_writers),
      cmocka_unit_test(test_full_disk),
      cmocka_unit_test(test_mode),
      cmocka_unit_test(test_links_and_refusals),
      cmocka_unit_test(test_read_refuses),
  };
  return cmocka_run_group_tests(tests, td_test_dir_setup, td_test_dir_teardown);
}
