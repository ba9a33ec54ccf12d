/*
** client_progress.c: what the client keeps between games (client.h): the
** menu's maps in order (maplist.h; the player's own maps after the bundled
** ones), the player's progress (game/progress.h:
** stars on a win, endless mode's best wave), and one saved game per map
** (DATA/saves/MAP.tds, game.h's save) that the pause menu writes and the
** main menu's Continue loads.
**
** A save is the game's own (td_game_save: the map's and the mods' hashes,
** the commands, the world, checksummed), so a continued game goes on
** exactly as the saved one would have. One that does not load (made by
** another version of td, with another map or other mods, damaged) is
** refused with the loader's reason on the menu and left where it is. A
** save is removed when the game it holds ends (won or lost): there is
** nothing left to continue.
*/
#define _POSIX_C_SOURCE 200809L /* mkdir */
#include "render/client_int.h"

#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

static void progress_path(const td_client *c, char *buf, size_t cap) {
  snprintf(buf, cap, "%s/progress", c->data_dir);
}

/* DATA/saves/NAME.tds of map i; false without a data directory. */
static bool save_path(const td_client *c, const char *map_path, char *buf, size_t cap) {
  if (!c->data_dir[0]) return false;
  char name[64];
  td_game_map_name_of(map_path, name, sizeof name);
  int k = snprintf(buf, cap, "%s/saves/%s.tds", c->data_dir, name);
  return k > 0 && (size_t)k < cap;
}

void client_progress_init(td_client *c, const char *data_dir) {
  snprintf(c->data_dir, sizeof c->data_dir, "%s", data_dir ? data_dir : "");
  td_maplist_load(&c->maplist, c->maps_dir);
  td_maplist_add(&c->maplist, c->user_maps_dir, true); /* the player's own, after */
  c->nmaps = 0;
  for (size_t i = 0; i < c->maplist.count && c->nmaps < MAX_MAPS; i++)
    snprintf(c->maps[c->nmaps++], sizeof c->maps[0], "%s", c->maplist.e[i].path);
  memset(&c->progress, 0, sizeof c->progress);
  c->progress_ok = false;
  if (!c->data_dir[0]) return;
  char path[600];
  td_err err;
  progress_path(c, path, sizeof path);
  int rc = td_progress_load(&c->progress, path, &err);
  c->progress_ok = rc >= 0;
  if (rc != 0) {
    snprintf(c->menu_error, sizeof c->menu_error, "progress: %.480s", err.msg);
    client_toast(c, true, c->menu_error);
  }
}

void client_progress_free(td_client *c) { td_maplist_free(&c->maplist); }

static void progress_write(td_client *c) {
  if (!c->progress_ok || !c->data_dir[0]) return;
  char path[600];
  td_err err;
  progress_path(c, path, sizeof path);
  if (td_progress_save(&c->progress, path, &err) != 0) client_toast(c, true, err.msg);
}

/* The end of a game, a win's stars and endless waves, from the step's
** events. */
void client_progress_events(td_client *c) {
  const td_world *w = client_world(c);
  size_t n;
  const td_event *ev = td_world_events(w, &n);
  char name[64];
  td_game_map_name_of(c->map_path, name, sizeof name);
  td_difficulty d = td_game_difficulty(c->game);
  for (size_t i = 0; i < n; i++) {
    td_err err;
    int rc = 0;
    if (ev[i].kind == TD_EVENT_WAVE_STARTED && td_world_endless(w)) {
      rc = td_progress_wave(&c->progress, name, d, ev[i].wave, &err);
      c->record |= rc > 0;
    } else if (ev[i].kind == TD_EVENT_WON || ev[i].kind == TD_EVENT_LOST) {
      if (ev[i].kind == TD_EVENT_WON) {
        c->stars = td_progress_stars_for(td_world_lives(w), td_game_rules(c->game)->start_lives);
        if (c->stars > 0) rc = td_progress_win(&c->progress, name, d, c->stars, &err);
        c->record |= rc > 0;
      }
      char sp[700];
      if (save_path(c, c->map_path, sp, sizeof sp)) unlink(sp); /* nothing left to continue */
    }
    if (rc < 0) client_toast(c, true, err.msg);
    if (rc > 0) progress_write(c);
  }
}

void client_progress_tutorial_done(td_client *c) {
  if (td_progress_tutorial_done(&c->progress) > 0) progress_write(c);
}

bool client_has_save(const td_client *c, int map) {
  char sp[700];
  struct stat sb;
  if (map < 0 || map >= c->nmaps || !save_path(c, c->maps[map], sp, sizeof sp)) return false;
  return stat(sp, &sb) == 0 && S_ISREG(sb.st_mode);
}

void client_save_game(td_client *c) {
  char sp[700], dir[700];
  td_err err;
  if (!c->game) return;
  if (!save_path(c, c->map_path, sp, sizeof sp)) {
    client_toast(c, true, "Cannot save: no data directory (set XDG_DATA_HOME or HOME)");
    return;
  }
  snprintf(dir, sizeof dir, "%s", c->data_dir);
  for (char *q = dir + 1; *q; q++) /* each level, like mkdir -p */
    if (*q == '/') {
      *q = '\0';
      mkdir(dir, 0755);
      *q = '/';
    }
  mkdir(dir, 0755);
  snprintf(dir, sizeof dir, "%s/saves", c->data_dir);
  if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
    char msg[900];
    snprintf(msg, sizeof msg, "Cannot save: %s: %s", dir, strerror(errno));
    client_toast(c, true, msg);
    return;
  }
  if (td_game_save(c->game, sp, &err) != 0) {
    char msg[600];
    snprintf(msg, sizeof msg, "Cannot save: %s", err.msg);
    client_toast(c, true, msg);
    return;
  }
  char msg[200];
  snprintf(msg, sizeof msg, "Game saved (wave %d): Continue in the main menu",
           td_world_wave(client_world(c)));
  client_toast(c, false, msg);
}

void client_continue(td_client *c) {
  char sp[700];
  if (c->map_sel < 0 || c->map_sel >= c->nmaps || !save_path(c, c->maps[c->map_sel], sp, sizeof sp))
    return;
  const char *mods[TD_MOD_MAX_MODS];
  size_t nmods = client_mods_for_game(c, mods); /* as a new game from the menu */
  td_game_options go = {.map_path = c->maps[c->map_sel], .mod_dir = mods[0], .mod_dirs = mods,
                        .mod_count = nmods};
  td_err err;
  td_game *g = td_game_load(&go, sp, &err);
  if (!g) { /* the save stays as it is: the player may want it back */
    snprintf(c->menu_error, sizeof c->menu_error, "Cannot continue: %.480s", err.msg);
    client_toast(c, true, c->menu_error);
    return;
  }
  c->menu_error[0] = '\0';
  client_begin(c, c->maps[c->map_sel], g);
  if (!c->game) return;
  char msg[200];
  snprintf(msg, sizeof msg, "Continued at wave %d (%s%s)", td_world_wave(td_game_world(g)),
           td_difficulty_name(td_game_difficulty(g)), td_world_endless(td_game_world(g)) ? ", endless" : "");
  client_toast(c, false, msg);
}

int client_next_map(const td_client *c) {
  for (int i = 0; i < c->nmaps; i++)
    if (!strcmp(client_base_name(c->maps[i]), client_base_name(c->map_path)))
      return i + 1 < c->nmaps ? i + 1 : -1;
  return -1;
}
