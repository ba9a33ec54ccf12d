/*
** app_data.c: the td executable's view of game/datadir.h (where its maps,
** scripts and assets are, and where the player's own are), with what the
** build compiled in: the source and build trees, and the data directory's
** place relative to the installed executable.
*/
#include <stdio.h>

#include "app/cmds.h"
#include "game/datadir.h"

#ifndef TD_SOURCE_DIR
#define TD_SOURCE_DIR NULL
#endif
#ifndef TD_BUILD_DIR
#define TD_BUILD_DIR NULL
#endif
#ifndef TD_EXE_TO_DATA
#define TD_EXE_TO_DATA "../share/td"
#endif

typedef struct app_env {
  td_datadir_env env;
  char exe[TD_DATADIR_PATH_MAX];
} app_env;

static void app_env_read(app_env *a) {
  td_datadir_env_from_process(&a->env, a->exe, sizeof a->exe, TD_EXE_TO_DATA, TD_BUILD_DIR,
                              TD_SOURCE_DIR);
}

const char *td_app_find_dir(const char *rel, char *buf, size_t cap) {
  app_env a;
  app_env_read(&a);
  return td_datadir_sub(&a.env, rel, buf, cap);
}

const char *td_app_path(const char *given, char *buf, size_t cap) {
  app_env a;
  app_env_read(&a);
  return td_datadir_resolve(&a.env, given, buf, cap);
}

const char *td_app_mod_path(const char *given, char *buf, size_t cap) {
  app_env a;
  app_env_read(&a);
  return td_datadir_mod(&a.env, given, buf, cap);
}

bool td_app_data_dir(char *buf, size_t cap) {
  app_env a;
  app_env_read(&a);
  return td_datadir_find(&a.env, buf, cap);
}

bool td_app_user_dir(const char *sub, char *buf, size_t cap) {
  app_env a;
  char dir[TD_DATADIR_PATH_MAX];
  app_env_read(&a);
  if (!td_datadir_user(&a.env, dir, sizeof dir)) return false;
  int k = snprintf(buf, cap, "%s/%s", dir, sub);
  return k > 0 && (size_t)k < cap;
}
