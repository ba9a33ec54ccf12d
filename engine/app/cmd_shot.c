/*
** cmd_shot.c: `td shot --map M [--replay R] [--tick T] [--overlay NAME]...
** [--build TYPE --hover ID] [--select ID] [--size WxH] OUT.png`: one frame of
** the game, drawn without a window (SDL's software renderer on a surface).
**
** The game is stepped to tick T: by the replay's commands at their ticks
** with --replay, else by the built-in player (game/auto.h) unless --idle.
** --build and --hover show the building ghost on a base (its range, and the
** route as it would become, or the refusal); --select opens a tower's
** panel. The picture is the game screen with its HUD, as td play draws it
** (with the enemy cards and the boss bar, render/cards.h, unless
** --no-cards: the map alone under the HUD, for tests of what it shows),
** in the standard palette or, --palette safe, the colour-blind safe one
** (render/palette.h).
*/
#include <errno.h>
#include <stdbool.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/cmds.h"
#include "app/play.h"
#include "game/auto.h"
#include "game/replay.h"

#define SHOT_MAX_TICK 10000000

static const char usage[] =
  "usage: td shot --map FILE [options] OUT.png\n"
  "\n"
  "Renders one frame of the game without a window.\n"
  "\n"
  "  --map FILE        the map (with --replay: the replay's map by default)\n"
  "  --mod DIR         the rules mod (default scripts/base; with --replay: the\n"
  "                    replay's); repeat it to load several mods, in order\n"
  "  --seed N          the world's seed (default 1)\n"
  "  --difficulty D    normal (default), easy or hard (with --replay: the replay's)\n"
  "  --replay FILE     play this replay's commands (engine/game/replay.h)\n"
  "  --tick T          step to tick T first (default 0)\n"
  "  --idle            no built-in player (without --replay it builds towers); a\n"
  "                    first wave that waits for the player is called at once\n"
  "  --no-cards        no enemy cards or boss bar over the map\n"
  "  --palette P       standard (default) or safe: colours safe for red-green colour\n"
  "                    blindness (as td play's Settings > Palette)\n"
  "  --overlay NAME    a debug overlay: graph lanes separation hash grid flyers ranges stats\n"
  "                    (repeatable)\n"
  "  --build TYPE      pick tower type TYPE (its name) ...\n"
  "  --hover ID        ... and hover tower base object ID: the ghost and its route\n"
  "  --select ID       open the panel of the tower on base object ID\n"
  "  --zoom Z          camera zoom (default: the map fits)\n"
  "  --size WxH        picture size (default 1280x720)\n";

int td_cmd_shot(int argc, char **argv) {
  const char *map = NULL, *replay = NULL, *out = NULL, *build = NULL;
  const char *mods[TD_MOD_MAX_MODS];
  size_t nmods = 0;
  uint64_t seed = 1, tick = 0;
  int64_t hover = -1, select = -1;
  bool idle = false, no_cards = false;
  int palette = TD_PALETTE_STANDARD;
  td_difficulty difficulty = TD_DIFFICULTY_NORMAL;
  bool seed_set = false, difficulty_set = false;
  int w = 1280, h = 720;
  double zoom = 0;
  bool overlays[TD_OVERLAY_COUNT] = {false};
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(usage, stdout);
      return 0;
    } else if (!strcmp(a, "--idle")) {
      idle = true;
    } else if (!strcmp(a, "--no-cards")) {
      no_cards = true;
    } else if (a[0] == '-' && a[1] == '-') {
      if (i + 1 >= argc) return td_app_fail("shot: %s needs a value (see td shot --help)", a);
      const char *v = argv[++i];
      uint64_t u;
      if (!strcmp(a, "--map")) map = v;
      else if (!strcmp(a, "--mod")) {
        if (nmods == TD_MOD_MAX_MODS) return td_app_fail("shot: more than %d --mod", TD_MOD_MAX_MODS);
        mods[nmods++] = v;
      }
      else if (!strcmp(a, "--replay")) replay = v;
      else if (!strcmp(a, "--build")) build = v;
      else if (!strcmp(a, "--palette")) {
        if ((palette = td_palette_parse(v)) < 0)
          return td_app_fail("shot: --palette: expected standard or safe, got '%s'", v);
      }
      else if (!strcmp(a, "--difficulty")) {
        if (td_difficulty_parse(v, &difficulty))
          return td_app_fail("shot: --difficulty: expected normal, easy or hard, got '%s'", v);
        difficulty_set = true;
      } else if (!strcmp(a, "--seed")) {
        if (td_app_parse_option("shot: --seed", v, 0, UINT64_MAX, &seed)) return 2;
        seed_set = true;
      } else if (!strcmp(a, "--tick")) {
        if (td_app_parse_option("shot: --tick", v, 0, SHOT_MAX_TICK, &tick)) return 2;
      } else if (!strcmp(a, "--hover")) {
        if (td_app_parse_u64(v, &u)) return td_app_fail("shot: --hover: '%s' is not an object id", v);
        hover = (int64_t)u;
      } else if (!strcmp(a, "--select")) {
        if (td_app_parse_u64(v, &u)) return td_app_fail("shot: --select: '%s' is not an object id", v);
        select = (int64_t)u;
      } else if (!strcmp(a, "--zoom")) {
        zoom = atof(v);
        if (!(zoom > 0.05 && zoom < 20)) return td_app_fail("shot: --zoom: '%s' is not a zoom", v);
      } else if (!strcmp(a, "--size")) {
        if (sscanf(v, "%dx%d", &w, &h) != 2 || w < 320 || h < 240 || w > 8192 || h > 8192)
          return td_app_fail("shot: --size: '%s' is not WxH (320x240 .. 8192x8192)", v);
      } else if (!strcmp(a, "--overlay")) {
        int o = td_overlay_find(v);
        if (o < 0)
          return td_app_fail("shot: --overlay: no overlay '%s' (graph lanes separation hash grid flyers ranges stats)", v);
        overlays[o] = true;
      } else {
        return td_app_fail("shot: unknown option '%s' (see td shot --help)", a);
      }
    } else if (!out) {
      out = a;
    } else {
      return td_app_fail("shot: unexpected argument '%s' (see td shot --help)", a);
    }
  }
  td_replay rp;
  memset(&rp, 0, sizeof rp);
  td_err err = {{0}};
  if (replay) {
    if (td_replay_read(replay, &rp, &err) != 0) return td_app_fail("%s", err.msg);
    if (!map) map = rp.map_path;
    if (!nmods) /* the replay's mods */
      for (; nmods < rp.nmods; nmods++) mods[nmods] = rp.mod_dirs[nmods];
    /* what the replay fixes, an option may repeat but not change */
    if ((seed_set && seed != rp.seed) || (difficulty_set && difficulty != rp.difficulty)) {
      int rc = seed_set && seed != rp.seed
                   ? td_app_fail("%s: played with seed %" PRIu64 ", not %" PRIu64, replay,
                                 rp.seed, seed)
                   : td_app_fail("%s: played on %s, not %s", replay,
                                 td_difficulty_name(rp.difficulty),
                                 td_difficulty_name(difficulty));
      td_replay_free(&rp);
      return rc;
    }
    seed = rp.seed;
    difficulty = rp.difficulty;
  }
  if (!map || !out) {
    td_replay_free(&rp);
    return td_app_fail("shot: %s is required (see td shot --help)", !map ? "--map FILE" : "OUT.png");
  }
  SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_ARGB8888);
  SDL_Renderer *ren = surf ? SDL_CreateSoftwareRenderer(surf) : NULL;
  if (!ren) {
    td_replay_free(&rp);
    if (surf) SDL_FreeSurface(surf);
    return td_app_fail("shot: no software renderer: %s", SDL_GetError());
  }
  /* a path given (or a replay's) as is, else under the data directory */
  char assets[1024], mod_buf[1024], map_buf[1024], mod_bufs[TD_MOD_MAX_MODS][1024];
  map = td_app_path(map, map_buf, sizeof map_buf);
  for (size_t k = 0; k < nmods; k++) mods[k] = td_app_mod_path(mods[k], mod_bufs[k], sizeof mod_bufs[k]);
  td_client_options o = {.assets_dir = td_app_find_dir("assets", assets, sizeof assets),
                         .surface = surf,
                         .map_path = map,
                         .mod_dir = nmods ? mods[0] : td_app_find_dir("scripts/base", mod_buf, sizeof mod_buf),
                         .mod_dirs = mods, .mod_count = nmods,
                         .seed = seed, .difficulty = difficulty, .no_cards = no_cards,
                         .palette = palette};
  int status = 0;
  td_client *c = td_client_create(ren, &o, &err);
  td_auto *bot = NULL;
  if (!c) {
    status = td_app_fail("%s", err.msg);
    goto done;
  }
  td_game *g = td_client_game(c);
  if (replay && td_replay_check_game(&rp, g, &err) != 0) {
    status = td_app_fail("%s", err.msg);
    goto done;
  }
  if (!replay && !idle) {
    bot = td_auto_create(&err);
    if (!bot) {
      status = td_app_fail("shot: %s", err.msg);
      goto done;
    }
  }
  size_t next_cmd = 0;
  for (uint64_t t = 0; t < tick; t++) {
    td_world *wd = td_game_world(g);
    if (td_world_state(wd) != TD_GAME_PLAYING) break;
    while (replay && next_cmd < rp.ncmd && rp.cmds[next_cmd].tick <= td_world_tick(wd)) {
      td_command cmd;
      if (td_replay_command(&rp, next_cmd, g, &cmd, &err) != 0 || td_game_command(g, &cmd, &err) != 0) {
        status = td_app_fail("%s", err.msg);
        goto done;
      }
      next_cmd++;
    }
    if (bot && td_auto_play(bot, g, &err) != 0) {
      status = td_app_fail("shot: %s", err.msg);
      goto done;
    }
    /* nobody builds: a first wave that waits for the player is called */
    if (!bot && !replay && td_world_first_wave_waiting(wd) &&
        td_game_command(g, &(td_command){.tick = td_world_tick(wd), .kind = TD_COMMAND_CALL_WAVE},
                        &err) != 0) {
      status = td_app_fail("shot: %s", err.msg);
      goto done;
    }
    td_client_step_ticks(c, 1);
  }
  for (int i = 0; i < TD_OVERLAY_COUNT; i++) td_client_set_overlay(c, (td_overlay)i, overlays[i]);
  td_client_draw(c, w, h); /* lays out the camera */
  if (zoom > 0) {
    /* a zoom in: wheel notches about the centre */
    int notches = 0;
    double z = 1;
    while (z * 1.15 <= zoom / 1.0 && notches < 40) {
      z *= 1.15;
      notches++;
    }
    td_app_move(c, w / 2, h / 2);
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_MOUSEWHEEL;
    e.wheel.y = 1;
    for (int k = 0; k < notches; k++) td_client_event(c, &e);
  }
  if (build) {
    const td_rules *r = td_game_rules(g);
    size_t t = 0;
    while (t < r->tower_count && strcmp(r->towers[t].name, build) != 0) t++;
    if (t == r->tower_count || t >= 9) {
      status = td_app_fail("shot: --build: no tower type '%s'", build);
      goto done;
    }
    char key[4];
    snprintf(key, sizeof key, "%zu", t + 1);
    td_app_key(c, key);
  }
  if (select >= 0 || hover >= 0) {
    int64_t id = select >= 0 ? select : hover;
    int32_t b = td_app_base_index(g, id);
    int x, y;
    if (b < 0 || !td_client_base_screen(c, b, &x, &y)) {
      status = td_app_fail("shot: no tower base with object id %lld", (long long)id);
      goto done;
    }
    if (select >= 0) td_app_click(c, x, y, SDL_BUTTON_LEFT);
    if (hover >= 0) {
      b = td_app_base_index(g, hover);
      if (b < 0 || !td_client_base_screen(c, b, &x, &y)) {
        status = td_app_fail("shot: no tower base with object id %lld", (long long)hover);
        goto done;
      }
      td_app_move(c, x, y);
    }
  }
  td_client_advance(c, 0);
  td_client_draw(c, w, h);
  char name[1024];
  if (td_app_save_png(ren, w, h, out, &err) != 0) status = td_app_fail("%s", err.msg);
  else printf("%s: %dx%d, tick %llu\n", td_app_escape(out, name, sizeof name), w, h,
              (unsigned long long)td_world_tick(td_game_world(g)));
done:
  td_auto_destroy(bot);
  td_client_destroy(c);
  SDL_DestroyRenderer(ren);
  SDL_FreeSurface(surf);
  td_replay_free(&rp);
  return status;
}
