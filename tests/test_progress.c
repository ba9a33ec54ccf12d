/*
** test_progress.c: the player's progress (engine/game/progress.h): the star
** thresholds, records that only improve, a file written and read back, its
** directory made, and a damaged file: its good lines kept, the bad one named
** (file:line), and the bytes kept in PATH.bad; the tutorial's record.
*/
#define _POSIX_C_SOURCE 200809L /* setenv */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/progress.h"

static void put(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  fputs(text, f);
  assert_int_equal(fclose(f), 0);
}

static const char *get(const char *path) {
  static char buf[1 << 14];
  FILE *f = fopen(path, "rb");
  if (!f) fail_msg("%s: cannot open", path);
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  return buf;
}

static void test_stars(void **state) {
  (void)state;
  assert_int_equal(td_progress_stars_for(30, 30), 3);
  assert_int_equal(td_progress_stars_for(27, 30), 3); /* 90 % */
  assert_int_equal(td_progress_stars_for(26, 30), 2);
  assert_int_equal(td_progress_stars_for(15, 30), 2); /* 50 % */
  assert_int_equal(td_progress_stars_for(14, 30), 1);
  assert_int_equal(td_progress_stars_for(1, 30), 1);
  assert_int_equal(td_progress_stars_for(0, 30), 0); /* lost */
  assert_int_equal(td_progress_stars_for(9, 10), 3);
  assert_int_equal(td_progress_stars_for(8, 10), 2);
}

static void test_records(void **state) {
  (void)state;
  static td_progress p;
  td_err err;
  memset(&p, 0, sizeof p);
  assert_int_equal(td_progress_win(&p, "02-grid", TD_DIFFICULTY_NORMAL, 2, &err), 1);
  assert_int_equal(td_progress_win(&p, "02-grid", TD_DIFFICULTY_NORMAL, 1, &err), 0); /* worse */
  assert_int_equal(td_progress_win(&p, "02-grid", TD_DIFFICULTY_NORMAL, 3, &err), 1);
  assert_int_equal(td_progress_wave(&p, "02-grid", TD_DIFFICULTY_HARD, 12, &err), 1);
  assert_int_equal(td_progress_wave(&p, "02-grid", TD_DIFFICULTY_HARD, 11, &err), 0);
  const td_progress_entry *e = td_progress_find(&p, "02-grid");
  assert_non_null(e);
  assert_int_equal(e->stars[TD_DIFFICULTY_NORMAL], 3);
  assert_int_equal(e->stars[TD_DIFFICULTY_EASY], 0);
  assert_int_equal(e->wave[TD_DIFFICULTY_HARD], 12);
  assert_null(td_progress_find(&p, "03-serpent"));
  assert_int_equal(td_progress_win(&p, "my map", TD_DIFFICULTY_NORMAL, 1, &err), -1);
  assert_non_null(strstr(err.msg, "my map"));
  assert_int_equal(td_progress_win(&p, "x", TD_DIFFICULTY_NORMAL, 4, &err), -1);
}

static void test_file(void **state) {
  (void)state;
  static td_progress p, q;
  td_err err;
  memset(&p, 0, sizeof p);
  const char *path = td_test_tmp("data/td/progress");
  char keep[512];
  snprintf(keep, sizeof keep, "%s", path);
  /* missing: empty, no error */
  assert_int_equal(td_progress_load(&q, keep, &err), 0);
  assert_int_equal(q.count, 0);
  assert_int_equal(td_progress_win(&p, "02-grid", TD_DIFFICULTY_EASY, 3, &err), 1);
  assert_int_equal(td_progress_win(&p, "05-twin", TD_DIFFICULTY_HARD, 1, &err), 1);
  assert_int_equal(td_progress_wave(&p, "05-twin", TD_DIFFICULTY_NORMAL, 41, &err), 1);
  assert_int_equal(td_progress_save(&p, keep, &err), 0); /* makes data/td */
  const char *text = get(keep);
  assert_non_null(strstr(text, "td-progress 1\n"));
  assert_non_null(strstr(text, "stars 02-grid easy 3\n"));
  assert_non_null(strstr(text, "stars 05-twin hard 1\n"));
  assert_non_null(strstr(text, "wave 05-twin normal 41\n"));
  assert_int_equal(td_progress_load(&q, keep, &err), 0);
  assert_int_equal(q.count, 2);
  assert_int_equal(td_progress_find(&q, "05-twin")->wave[TD_DIFFICULTY_NORMAL], 41);
  assert_int_equal(td_progress_find(&q, "02-grid")->stars[TD_DIFFICULTY_EASY], 3);
}

static void test_damaged(void **state) {
  (void)state;
  static td_progress q;
  td_err err;
  char path[512], bad[600];
  snprintf(path, sizeof path, "%s", td_test_tmp("damaged"));
  snprintf(bad, sizeof bad, "%s.bad", path);
  const char *text = "td-progress 1\n# fine\nstars 02-grid normal 2\nstars 03-serpent normal 7\n"
                     "wave 02-grid easy 9\r\ngarbage\n";
  put(path, text);
  assert_int_equal(td_progress_load(&q, path, &err), 1);
  assert_non_null(strstr(err.msg, "damaged:4: stars must be 1, 2 or 3"));
  assert_non_null(strstr(err.msg, "2 bad lines skipped"));
  assert_non_null(strstr(err.msg, "damaged.bad"));
  assert_string_equal(get(bad), text); /* kept as it was */
  assert_int_equal(td_progress_find(&q, "02-grid")->stars[TD_DIFFICULTY_NORMAL], 2);
  assert_int_equal(td_progress_find(&q, "02-grid")->wave[TD_DIFFICULTY_EASY], 9);
  assert_null(td_progress_find(&q, "03-serpent"));
  /* a file of another version, or none */
  put(path, "td-progress 2\nstars 02-grid normal 2\n");
  assert_int_equal(td_progress_load(&q, path, &err), 1);
  assert_non_null(strstr(err.msg, "damaged:1: written by another version"));
  put(path, "\x01\x02 binary junk");
  assert_int_equal(td_progress_load(&q, path, &err), 1);
  assert_non_null(strstr(err.msg, "damaged:1: expected the header"));
  assert_int_equal(q.count, 0);
  /* a directory where the file should be: cannot be read */
  assert_int_equal(td_progress_load(&q, td_test_tmp_dir(), &err), -1);
}

/* `tutorial done`: recorded once, written, read back; only alone with
** `done` after it; a file with nothing else holds it too. */
static void test_tutorial(void **state) {
  (void)state;
  static td_progress p, q;
  td_err err;
  char path[512];
  snprintf(path, sizeof path, "%s", td_test_tmp("tutorial/progress"));
  memset(&p, 0, sizeof p);
  assert_false(p.tutorial_done);
  assert_int_equal(td_progress_tutorial_done(&p), 1);
  assert_int_equal(td_progress_tutorial_done(&p), 0);
  assert_int_equal(td_progress_save(&p, path, &err), 0); /* no map: the line alone */
  assert_non_null(strstr(get(path), "td-progress 1\ntutorial done\n"));
  assert_int_equal(td_progress_load(&q, path, &err), 0);
  assert_true(q.tutorial_done);
  assert_int_equal(q.count, 0);
  put(path, "td-progress 1\nstars 02-grid normal 2\n");
  assert_int_equal(td_progress_load(&q, path, &err), 0);
  assert_false(q.tutorial_done);
  put(path, "td-progress 1\ntutorial maybe\n");
  assert_int_equal(td_progress_load(&q, path, &err), 1);
  assert_non_null(strstr(err.msg, "progress:2: expected 'tutorial done'"));
  assert_false(q.tutorial_done);
}

static void test_dir(void **state) {
  (void)state;
  char buf[512];
  setenv("XDG_DATA_HOME", "/x/data", 1);
  assert_true(td_progress_dir(buf, sizeof buf));
  assert_string_equal(buf, "/x/data/td");
  setenv("XDG_DATA_HOME", "", 1);
  setenv("HOME", "/home/p", 1);
  assert_true(td_progress_dir(buf, sizeof buf));
  assert_string_equal(buf, "/home/p/.local/share/td");
  unsetenv("HOME");
  unsetenv("XDG_DATA_HOME");
  assert_false(td_progress_dir(buf, sizeof buf));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_stars),   cmocka_unit_test(test_records), cmocka_unit_test(test_file),
      cmocka_unit_test(test_damaged), cmocka_unit_test(test_dir), cmocka_unit_test(test_tutorial),
  };
  return cmocka_run_group_tests(tests, td_test_dir_setup, td_test_dir_teardown);
}
