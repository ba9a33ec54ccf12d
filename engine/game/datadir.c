/*
** datadir.c: td's data directory, the user's directory, and the paths a
** user gives resolved against them (see datadir.h).
*/
#define _GNU_SOURCE /* readlink, realpath (XSI) */
#include "game/datadir.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DEFAULT_DATA_DIRS "/usr/local/share:/usr/share"

static bool is_set(const char *s) { return s && *s; }

static bool exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

static bool is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* snprintf that reports a cut: true when "a/b" fitted. */
static bool join(char *buf, size_t cap, const char *a, const char *b) {
  int k = snprintf(buf, cap, "%s/%s", a, b);
  return k > 0 && (size_t)k < cap;
}

/* dir holds the bundled mod: it is a data directory. */
static bool holds_data(const char *dir) {
  char p[TD_DATADIR_PATH_MAX];
  return join(p, sizeof p, dir, "scripts/base") && is_dir(p);
}

/* dir into buf: true, or false with buf "" when it does not fit (never a
** cut path). */
static bool take(char *buf, size_t cap, const char *dir) {
  int k = snprintf(buf, cap, "%s", dir);
  if (k >= 0 && (size_t)k < cap) return true;
  if (cap > 0) buf[0] = '\0';
  return false;
}

/* The executable's directory into buf (false when unknown). */
static bool exe_dir(const td_datadir_env *env, char *buf, size_t cap) {
  if (!is_set(env->exe_path) || !take(buf, cap, env->exe_path)) return false;
  char *slash = strrchr(buf, '/');
  if (!slash) return false;
  *(slash == buf ? slash + 1 : slash) = '\0';
  return true;
}

bool td_datadir_same(const char *a, const char *b) {
  char *ra = realpath(a, NULL), *rb = realpath(b, NULL);
  bool same = ra && rb && !strcmp(ra, rb);
  free(ra);
  free(rb);
  return same;
}

void td_datadir_env_from_process(td_datadir_env *env, char *exe_buf, size_t cap,
                                 const char *exe_to_data, const char *build_dir,
                                 const char *source_dir) {
  memset(env, 0, sizeof *env);
  env->td_data_dir = getenv("TD_DATA_DIR");
  env->xdg_data_home = getenv("XDG_DATA_HOME");
  env->home = getenv("HOME");
  env->xdg_data_dirs = getenv("XDG_DATA_DIRS");
  env->exe_to_data = exe_to_data;
  env->build_dir = build_dir;
  env->source_dir = source_dir;
  if (cap > 0) {
    ssize_t n = readlink("/proc/self/exe", exe_buf, cap - 1);
    if (n > 0 && (size_t)n < cap - 1) {
      exe_buf[n] = '\0';
      env->exe_path = exe_buf;
    }
  }
}

bool td_datadir_user(const td_datadir_env *env, char *buf, size_t cap) {
  bool ok = false;
  if (is_set(env->xdg_data_home)) ok = join(buf, cap, env->xdg_data_home, "td");
  else if (is_set(env->home)) ok = join(buf, cap, env->home, ".local/share/td");
  if (!ok && cap > 0) buf[0] = '\0';
  return ok;
}

bool td_datadir_find(const td_datadir_env *env, char *buf, size_t cap) {
  char dir[TD_DATADIR_PATH_MAX], p[TD_DATADIR_PATH_MAX];
  if (is_set(env->td_data_dir)) return take(buf, cap, env->td_data_dir);
  bool have_exe = exe_dir(env, dir, sizeof dir);
  if (have_exe && is_set(env->build_dir) && is_set(env->source_dir) &&
      td_datadir_same(dir, env->build_dir) && holds_data(env->source_dir))
    return take(buf, cap, env->source_dir);
  if (have_exe && is_set(env->exe_to_data) && join(p, sizeof p, dir, env->exe_to_data) &&
      holds_data(p)) {
    char *real = realpath(p, NULL); /* "/opt/td/share/td", not ".../bin/../share/td" */
    bool ok = take(buf, cap, real ? real : p);
    free(real);
    return ok;
  }
  if (td_datadir_user(env, p, sizeof p) && holds_data(p)) return take(buf, cap, p);
  const char *dirs = is_set(env->xdg_data_dirs) ? env->xdg_data_dirs : DEFAULT_DATA_DIRS;
  for (const char *s = dirs; *s;) {
    size_t n = strcspn(s, ":");
    /* the spec: relative entries are ignored */
    if (n > 0 && s[0] == '/' && n < sizeof dir) {
      memcpy(dir, s, n);
      dir[n] = '\0';
      if (join(p, sizeof p, dir, "td") && holds_data(p)) return take(buf, cap, p);
    }
    s += n + (s[n] == ':');
  }
  if (cap > 0) buf[0] = '\0';
  return false;
}

const char *td_datadir_sub(const td_datadir_env *env, const char *rel, char *buf, size_t cap) {
  char data[TD_DATADIR_PATH_MAX];
  /* td run where its data is (./build/td from the source tree) names its
  ** files as before: "scripts/base", not "/home/.../scripts/base" */
  if (!td_datadir_find(env, data, sizeof data) || td_datadir_same(data, ".") ||
      !join(buf, cap, data, rel))
    take(buf, cap, rel);
  return buf;
}

/* base/given into buf when it exists (any kind of file). */
static bool try_under(const char *base, const char *given, char *buf, size_t cap) {
  char p[TD_DATADIR_PATH_MAX];
  return join(p, sizeof p, base, given) && exists(p) && take(buf, cap, p);
}

/* base/sub/name into buf when it is a directory. */
static bool try_dir(const char *base, const char *sub, const char *name, char *buf, size_t cap) {
  char p[TD_DATADIR_PATH_MAX];
  int k = snprintf(p, sizeof p, "%s/%s/%s", base, sub, name);
  return k > 0 && (size_t)k < sizeof p && is_dir(p) && take(buf, cap, p);
}

const char *td_datadir_resolve(const td_datadir_env *env, const char *given, char *buf,
                               size_t cap) {
  char dir[TD_DATADIR_PATH_MAX];
  if (exists(given) || given[0] == '/' || given[0] == '\0') {
    take(buf, cap, given);
    return buf;
  }
  if (td_datadir_find(env, dir, sizeof dir) && try_under(dir, given, buf, cap)) return buf;
  if (td_datadir_user(env, dir, sizeof dir) && try_under(dir, given, buf, cap)) return buf;
  take(buf, cap, given);
  return buf;
}

const char *td_datadir_mod(const td_datadir_env *env, const char *given, char *buf, size_t cap) {
  char dir[TD_DATADIR_PATH_MAX];
  if (given[0] == '\0' || strchr(given, '/') || is_dir(given))
    return td_datadir_resolve(env, given, buf, cap);
  if (td_datadir_user(env, dir, sizeof dir) && try_dir(dir, "mods", given, buf, cap)) return buf;
  if (td_datadir_find(env, dir, sizeof dir) && try_dir(dir, "scripts", given, buf, cap)) return buf;
  take(buf, cap, given);
  return buf;
}
