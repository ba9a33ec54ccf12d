/*
** test_datadir.c: where td finds its files (engine/game/datadir.h), in a
** scratch tree laid out as a source tree with its build directory, an
** install under a prefix, a user's home and XDG data dirs: the order of the
** candidates, the scripts/base check, the user directory, and the paths a
** user gives (maps, mods by path and by bare name) resolved against them.
*/
#define _GNU_SOURCE /* setenv, mkdir, realpath (XSI) */
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "game/datadir.h"

/* The scratch directory's path of rel (one of 32 static buffers, reused in turn). */
static const char *at(const char *rel) {
  static char buf[32][TD_DATADIR_PATH_MAX];
  static int k;
  k = (k + 1) % 32;
  snprintf(buf[k], sizeof buf[k], "%s/%s", td_test_tmp_dir(), rel);
  return buf[k];
}

/* mkdir -p of a path under the scratch directory. */
static void dirs(const char *rel) {
  char p[TD_DATADIR_PATH_MAX];
  snprintf(p, sizeof p, "%s", at(rel));
  for (char *s = p + strlen(td_test_tmp_dir()) + 1; *s; s++)
    if (*s == '/') {
      *s = '\0';
      mkdir(p, 0755);
      *s = '/';
    }
  mkdir(p, 0755);
}

static void file(const char *rel) {
  FILE *f = fopen(at(rel), "wb");
  assert_non_null(f);
  fputs("-- test\n", f);
  assert_int_equal(fclose(f), 0);
}

/* The tree every test reads (made once, by the group's setup). */
static int setup(void **state) {
  if (td_test_dir_setup(state) != 0) return -1;
  dirs("src/scripts/base");
  dirs("src/maps");
  file("src/maps/01-a.lua");
  dirs("build");
  file("build/td");
  dirs("prefix/bin");
  file("prefix/bin/td");
  dirs("prefix/share/td/scripts/base");
  dirs("prefix/share/td/scripts/tutorial");
  dirs("prefix/share/td/maps");
  file("prefix/share/td/maps/01-a.lua");
  dirs("home/.local/share/td/maps");
  file("home/.local/share/td/maps/07-mine.lua");
  dirs("home/.local/share/td/mods/mine");
  dirs("home/.local/share/td/mods/tutorial"); /* shadows the bundled one */
  dirs("xdg1/td/maps");                       /* no scripts/base: not data */
  dirs("xdg2/td/scripts/base");
  dirs("lost/bin");
  file("lost/bin/td");
  dirs("cwd"); /* the tests run in an empty directory: nothing exists "as given" by chance */
  return chdir(at("cwd"));
}

static int teardown(void **state) {
  if (chdir("/") != 0) return -1;
  return td_test_dir_teardown(state);
}

/* An install under prefix/, its user in home/. */
static td_datadir_env installed(void) {
  static char exe[TD_DATADIR_PATH_MAX], build[TD_DATADIR_PATH_MAX], src[TD_DATADIR_PATH_MAX],
      home[TD_DATADIR_PATH_MAX]; /* at()'s buffers are reused */
  snprintf(exe, sizeof exe, "%s", at("prefix/bin/td"));
  snprintf(build, sizeof build, "%s", at("build"));
  snprintf(src, sizeof src, "%s", at("src"));
  snprintf(home, sizeof home, "%s", at("home"));
  td_datadir_env e = {.exe_path = exe, .exe_to_data = "../share/td", .build_dir = build,
                      .source_dir = src, .home = home};
  return e;
}

static void test_order(void **state) {
  (void)state;
  char buf[TD_DATADIR_PATH_MAX];
  /* run from the build directory: the source tree */
  td_datadir_env e = installed();
  e.exe_path = at("build/td");
  assert_true(td_datadir_find(&e, buf, sizeof buf));
  assert_string_equal(buf, at("src"));
  /* the same directory under another spelling */
  e.build_dir = at("build/../build/.");
  assert_true(td_datadir_find(&e, buf, sizeof buf));
  assert_string_equal(buf, at("src"));
  /* installed: beside the executable, ../share/td without the ".." */
  e = installed();
  assert_true(td_datadir_find(&e, buf, sizeof buf));
  char *want = realpath(at("prefix/share/td"), NULL);
  assert_non_null(want);
  assert_string_equal(buf, want);
  free(want);
  /* TD_DATA_DIR first, taken as given */
  e.td_data_dir = at("nowhere");
  assert_true(td_datadir_find(&e, buf, sizeof buf));
  assert_string_equal(buf, at("nowhere"));
  /* an executable with nothing beside it: the XDG data dirs, in order,
  ** skipping a relative entry and one without scripts/base */
  e = installed();
  e.exe_path = at("lost/bin/td");
  char list[3 * TD_DATADIR_PATH_MAX];
  snprintf(list, sizeof list, "xdg2:%s:%s", at("xdg1"), at("xdg2"));
  e.xdg_data_dirs = list;
  assert_true(td_datadir_find(&e, buf, sizeof buf));
  assert_string_equal(buf, at("xdg2/td"));
  /* ... after $XDG_DATA_HOME/td when that holds the data */
  e.xdg_data_home = at("prefix/share");
  assert_true(td_datadir_find(&e, buf, sizeof buf));
  assert_string_equal(buf, at("prefix/share/td"));
  /* nothing anywhere: false, and DATA/rel falls back to rel */
  e = installed();
  e.exe_path = at("lost/bin/td");
  e.xdg_data_dirs = at("xdg1");
  assert_false(td_datadir_find(&e, buf, sizeof buf));
  assert_string_equal(buf, "");
  assert_string_equal(td_datadir_sub(&e, "assets", buf, sizeof buf), "assets");
  e.exe_path = NULL; /* /proc unreadable */
  assert_false(td_datadir_find(&e, buf, sizeof buf));
  /* a buffer too small for the answer: false, not a cut path */
  e = installed();
  e.exe_path = at("build/td");
  char tiny[8];
  assert_false(td_datadir_find(&e, tiny, sizeof tiny));
}

static void test_user(void **state) {
  (void)state;
  char buf[TD_DATADIR_PATH_MAX];
  td_datadir_env e = installed();
  assert_true(td_datadir_user(&e, buf, sizeof buf));
  assert_string_equal(buf, at("home/.local/share/td"));
  e.xdg_data_home = "/x/data";
  assert_true(td_datadir_user(&e, buf, sizeof buf));
  assert_string_equal(buf, "/x/data/td");
  e.xdg_data_home = "";
  e.home = NULL;
  assert_false(td_datadir_user(&e, buf, sizeof buf));
  assert_string_equal(buf, "");
}

static void test_resolve(void **state) {
  (void)state;
  char buf[TD_DATADIR_PATH_MAX], data[TD_DATADIR_PATH_MAX];
  td_datadir_env e = installed();
  assert_true(td_datadir_find(&e, data, sizeof data));
  char want[2 * TD_DATADIR_PATH_MAX];
  /* a bundled map by its path under the data directory */
  snprintf(want, sizeof want, "%s/maps/01-a.lua", data);
  assert_string_equal(td_datadir_resolve(&e, "maps/01-a.lua", buf, sizeof buf), want);
  /* a path that exists is taken as given */
  assert_string_equal(td_datadir_resolve(&e, at("src/maps/01-a.lua"), buf, sizeof buf),
                      at("src/maps/01-a.lua"));
  /* one of the user's maps */
  assert_string_equal(td_datadir_resolve(&e, "maps/07-mine.lua", buf, sizeof buf),
                      at("home/.local/share/td/maps/07-mine.lua"));
  /* nowhere: as given, for the loader's message */
  assert_string_equal(td_datadir_resolve(&e, "maps/99-none.lua", buf, sizeof buf), "maps/99-none.lua");
  assert_string_equal(td_datadir_resolve(&e, "/nonexistent/x.lua", buf, sizeof buf),
                      "/nonexistent/x.lua");
  assert_string_equal(td_datadir_resolve(&e, "", buf, sizeof buf), "");
  /* the same path where td runs wins over the data directory's */
  dirs("cwd/maps");
  file("cwd/maps/01-a.lua");
  assert_string_equal(td_datadir_resolve(&e, "maps/01-a.lua", buf, sizeof buf), "maps/01-a.lua");
  /* DATA/rel; rel itself where td runs in its data directory */
  snprintf(want, sizeof want, "%s/assets", data);
  assert_string_equal(td_datadir_sub(&e, "assets", buf, sizeof buf), want);
  assert_int_equal(chdir(data), 0);
  assert_string_equal(td_datadir_sub(&e, "assets", buf, sizeof buf), "assets");
  assert_int_equal(chdir(at("cwd")), 0);
}

static void test_mod(void **state) {
  (void)state;
  char buf[TD_DATADIR_PATH_MAX], data[TD_DATADIR_PATH_MAX];
  td_datadir_env e = installed();
  assert_true(td_datadir_find(&e, data, sizeof data));
  char want[2 * TD_DATADIR_PATH_MAX];
  /* a bare name: the user's mods first, then the data directory's scripts */
  assert_string_equal(td_datadir_mod(&e, "mine", buf, sizeof buf), at("home/.local/share/td/mods/mine"));
  assert_string_equal(td_datadir_mod(&e, "tutorial", buf, sizeof buf),
                      at("home/.local/share/td/mods/tutorial"));
  snprintf(want, sizeof want, "%s/scripts/base", data);
  assert_string_equal(td_datadir_mod(&e, "base", buf, sizeof buf), want);
  /* a path: as given, else under the data directory */
  snprintf(want, sizeof want, "%s/scripts/tutorial", data);
  assert_string_equal(td_datadir_mod(&e, "scripts/tutorial", buf, sizeof buf), want);
  assert_string_equal(td_datadir_mod(&e, at("xdg2/td/scripts/base"), buf, sizeof buf),
                      at("xdg2/td/scripts/base"));
  /* unknown: as given */
  assert_string_equal(td_datadir_mod(&e, "nope", buf, sizeof buf), "nope");
  assert_string_equal(td_datadir_mod(&e, "my/nope", buf, sizeof buf), "my/nope");
  /* a bare name that is a file, not a mod directory, in the user's mods */
  file("home/.local/share/td/mods/plain");
  assert_string_equal(td_datadir_mod(&e, "plain", buf, sizeof buf), "plain");
}

static void test_same(void **state) {
  (void)state;
  assert_true(td_datadir_same(at("prefix/share/td"), at("prefix/bin/../share/td/.")));
  assert_false(td_datadir_same(at("prefix/share/td"), at("src")));
  assert_false(td_datadir_same(at("nowhere"), at("nowhere"))); /* missing: not the same */
}

static void test_process(void **state) {
  (void)state;
  char exe[TD_DATADIR_PATH_MAX];
  td_datadir_env e;
  assert_int_equal(setenv("TD_DATA_DIR", "/some/data", 1), 0);
  assert_int_equal(setenv("XDG_DATA_DIRS", "/a:/b", 1), 0);
  td_datadir_env_from_process(&e, exe, sizeof exe, "../share/td", "/b", "/s");
  assert_string_equal(e.td_data_dir, "/some/data");
  assert_string_equal(e.xdg_data_dirs, "/a:/b");
  assert_string_equal(e.exe_to_data, "../share/td");
  assert_string_equal(e.build_dir, "/b");
  assert_string_equal(e.source_dir, "/s");
  assert_non_null(e.exe_path);
  const char *base = strrchr(e.exe_path, '/');
  assert_non_null(base);
  assert_string_equal(base, "/test_datadir");
  /* no room for the executable's path: unknown, not cut */
  char small[4];
  td_datadir_env_from_process(&e, small, sizeof small, NULL, NULL, NULL);
  assert_null(e.exe_path);
  unsetenv("TD_DATA_DIR");
  unsetenv("XDG_DATA_DIRS");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_order),   cmocka_unit_test(test_user),    cmocka_unit_test(test_resolve),
      cmocka_unit_test(test_mod),     cmocka_unit_test(test_same),    cmocka_unit_test(test_process),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
