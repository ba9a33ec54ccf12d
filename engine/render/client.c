/*
** client.c: menus, HUD, input and the fixed-tick loop (see client.h).
*/
#define _POSIX_C_SOURCE 200809L /* opendir */
#include "render/client.h"

#include <dirent.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/ui.h"

#define MAX_MAPS 32
#define MAX_BUTTONS 96
#define TOP_H 48
#define BOTTOM_H 68
#define PANEL_W 270
#define TICK_S (1.0 / TD_WORLD_TICK_HZ)

enum screen { SCREEN_MENU, SCREEN_SETTINGS, SCREEN_GAME, SCREEN_OVER };

enum action {
  A_NONE, A_MAP, A_START, A_SETTINGS, A_QUIT, A_BACK, A_WINSIZE, A_FULLSCREEN, A_VSYNC,
  A_DIFFICULTY, A_VOLUME, A_VOLUME_SET, A_MUTE,
  A_BUILD, A_CALL, A_SPEED, A_PAUSE, A_MENU, A_RESUME, A_RESTART, A_MAINMENU, A_UPGRADE,
  A_SELL, A_TARGET, A_CLOSE_PANEL, A_ERR_CLOSE, A_ERR_COPY, A_RALLY, A_REPAIR
};

typedef struct stats {
  int32_t kills, leaks, built, upgrades, sold, gold_earned, gold_spent, lives_lost;
  uint64_t ticks;
} stats;

struct td_client {
  SDL_Renderer *ren;
  td_atlas *atlas;
  td_batch batch;
  td_scene *scene;
  char assets_dir[512], maps_dir[512];
  char mod_dirs[TD_MOD_MAX_MODS][512]; /* the mods, in load order */
  size_t mod_count;
  char maps[MAX_MAPS][800];
  int nmaps, map_sel;
  uint64_t seed;
  td_game *game;
  char map_path[512];
  char menu_error[512];
  int screen;
  bool pause_menu, quit;
  int w, h;
  td_camera cam;
  bool cam_set;
  double acc, time, over_at;
  double anim;           /* seconds of unpaused play: animations (frozen in pause) */
  int speed;
  /* mouse */
  int mx, my;
  bool ldown, dragging, rdown;
  int down_x, down_y;
  float drag_cx, drag_cy;
  bool keys_pan[4];
  /* building */
  int32_t build_type, selected, hover;
  bool rallying;         /* placing the selected barracks' rally flag */
  int32_t *pnext;
  size_t pnext_cap;
  int32_t p_base, p_type;
  uint64_t p_tick;
  uint32_t p_towers;
  bool p_ok, p_route;
  td_place_check pc;
  bool overlay[TD_OVERLAY_COUNT];
  /* messages */
  char toast[256];
  double toast_until;
  bool toast_bad;
  stats st;
  size_t errors_seen;
  bool show_errors;
  size_t err_index;
  double poll_at;
  td_client_settings set;
  bool set_dirty;
  td_ui_button btn[MAX_BUTTONS];
  int nbtn;
  SDL_Rect r_gold, r_lives, r_wave, r_hud, r_build, r_panel, r_call;
  bool panel_shown;
  double frame_ms;
  td_audio *audio;       /* borrowed; NULL: no sound */
};

static const SDL_Color WHITE = {255, 255, 255, 255};

/* ---- helpers -------------------------------------------------------------- */

static void toast(td_client *c, bool bad, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void toast(td_client *c, bool bad, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->toast, sizeof c->toast, fmt, ap);
  va_end(ap);
  c->toast_until = c->time + 4.0;
  c->toast_bad = bad;
}

static int cmp_str(const void *a, const void *b) { return strcmp((const char *)a, (const char *)b); }

static void list_maps(td_client *c) {
  c->nmaps = 0;
  if (!c->maps_dir[0]) return;
  DIR *d = opendir(c->maps_dir);
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d)) && c->nmaps < MAX_MAPS) {
    size_t n = strlen(e->d_name);
    if (n < 5 || strcmp(e->d_name + n - 4, ".lua") != 0) continue;
    snprintf(c->maps[c->nmaps++], sizeof c->maps[0], "%s/%s", c->maps_dir, e->d_name);
  }
  closedir(d);
  qsort(c->maps, (size_t)c->nmaps, sizeof c->maps[0], cmp_str);
}

static const char *base_name(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

static const td_world *world(const td_client *c) { return c->game ? td_game_world(c->game) : NULL; }

static void sound(td_client *c, td_sound s, float gain);

static void command(td_client *c, td_command cmd) {
  if (!c->game) return;
  td_err err = {{0}};
  cmd.tick = td_world_tick(td_game_world(c->game));
  if (td_game_command(c->game, &cmd, &err) != 0) {
    toast(c, true, "%s", err.msg);
    sound(c, TD_SOUND_REFUSED, 1);
  }
}

/* ---- sound ------------------------------------------------------------------ */

static void sound(td_client *c, td_sound s, float gain) { td_audio_play(c->audio, s, gain, 0); }

/* A sound of the map at (x, y): panned by where it is on screen (never all
** in one ear), and quieter when it is off screen. */
static void sound_at(td_client *c, td_sound s, float gain, float x, float y) {
  if (!c->audio) return;
  float pan = 0;
  if (c->cam_set && c->cam.vw > 0 && c->cam.vh > 0) {
    float sx = td_camera_sx(&c->cam, x), sy = td_camera_sy(&c->cam, y);
    float half = (float)c->cam.vw * 0.5f;
    pan = (sx - (float)c->cam.vx - half) / half;
    pan = 0.6f * (pan < -1 ? -1 : pan > 1 ? 1 : pan);
    if (sx < (float)c->cam.vx || sx >= (float)(c->cam.vx + c->cam.vw) || sy < (float)c->cam.vy ||
        sy >= (float)(c->cam.vy + c->cam.vh))
      gain *= 0.4f;
  }
  td_audio_play(c->audio, s, gain, pan);
}

static void sound_at_base(td_client *c, td_sound s, int32_t base) {
  const td_map *m = c->game ? td_game_map(c->game) : NULL;
  if (!m || base < 0 || (size_t)base >= m->base_count) {
    sound(c, s, 1);
    return;
  }
  const td_tower_base *b = &m->bases[base];
  sound_at(c, s, 1, (float)b->x + (float)b->w / 2, (float)b->y + (float)b->h / 2);
}

/* What a tower level sounds like when it fires, from what its shot does. */
static td_sound fire_sound(const td_tower_level *lv) {
  if (lv->shot == TD_SHOT_CHAIN) return TD_SOUND_ZAP;
  if (lv->effect.kind == TD_EFFECT_SLOW) return TD_SOUND_FROST;
  if (lv->shot == TD_SHOT_BALLISTIC) return TD_SOUND_CANNON;
  if (lv->shot == TD_SHOT_HOMING) return TD_SOUND_FLAK;
  return TD_SOUND_ARROW;
}

static void apply_volume(td_client *c) { td_audio_set_volume(c->audio, c->set.volume, c->set.muted); }

static void set_volume(td_client *c, int v) {
  c->set.volume = v < 0 ? 0 : v > 100 ? 100 : v;
  apply_volume(c);
}

static void toggle_mute(td_client *c) {
  c->set.muted = !c->set.muted;
  apply_volume(c);
  if (c->set.muted) toast(c, false, "Sound off (M)");
  else {
    toast(c, false, "Sound on: volume %d%% (M)", c->set.volume);
    sound(c, TD_SOUND_CLICK, 1);
  }
}

static void fit_camera(td_client *c) {
  const td_map *m = td_game_map(c->game);
  float mw = (float)(m->width * m->tile_w), mh = (float)(m->height * m->tile_h);
  if (mw <= 0 || mh <= 0) {
    mw = 640;
    mh = 480;
  }
  float zx = (float)c->cam.vw / (mw + 32), zy = (float)c->cam.vh / (mh + 32);
  c->cam.zoom = fminf(zx, zy);
  c->cam.cx = mw / 2;
  c->cam.cy = mh / 2;
}

static void layout_viewport(td_client *c) {
  c->cam.vx = 0;
  c->cam.vy = TOP_H;
  c->cam.vw = c->w;
  c->cam.vh = c->h - TOP_H - BOTTOM_H;
  if (c->cam.vh < 50) c->cam.vh = 50;
}

static void clamp_camera(td_client *c) {
  if (!c->game) return;
  const td_map *m = td_game_map(c->game);
  float mw = (float)(m->width * m->tile_w), mh = (float)(m->height * m->tile_h);
  float fit = fminf((float)c->cam.vw / (mw + 32), (float)c->cam.vh / (mh + 32));
  if (c->cam.zoom < fit * 0.5f) c->cam.zoom = fit * 0.5f;
  if (c->cam.zoom > 6) c->cam.zoom = 6;
  if (c->cam.cx < 0) c->cam.cx = 0;
  if (c->cam.cy < 0) c->cam.cy = 0;
  if (c->cam.cx > mw) c->cam.cx = mw;
  if (c->cam.cy > mh) c->cam.cy = mh;
}

static int32_t base_at(const td_client *c, int sx, int sy) {
  if (!c->game || sy < c->cam.vy || sy >= c->cam.vy + c->cam.vh) return -1;
  const td_map *m = td_game_map(c->game);
  float x = td_camera_wx(&c->cam, (float)sx), y = td_camera_wy(&c->cam, (float)sy);
  for (size_t i = 0; i < m->base_count; i++) {
    const td_tower_base *b = &m->bases[i];
    if ((float)x >= (float)b->x && (float)y >= (float)b->y && (float)x < (float)(b->x + b->w) && (float)y < (float)(b->y + b->h)) return (int32_t)i;
  }
  return -1;
}

/* ---- lifetime ------------------------------------------------------------- */

td_client *td_client_create(SDL_Renderer *r, const td_client_options *o, td_err *err) {
  td_client *c = calloc(1, sizeof *c);
  if (!c) {
    td_err_set(err, "client: out of memory");
    return NULL;
  }
  c->ren = r;
  snprintf(c->assets_dir, sizeof c->assets_dir, "%s", o->assets_dir ? o->assets_dir : "assets");
  snprintf(c->maps_dir, sizeof c->maps_dir, "%s", o->maps_dir ? o->maps_dir : "");
  c->mod_count = o->mod_count ? o->mod_count : 1;
  if (c->mod_count > TD_MOD_MAX_MODS) c->mod_count = TD_MOD_MAX_MODS; /* td_game refuses more */
  for (size_t i = 0; i < c->mod_count; i++)
    snprintf(c->mod_dirs[i], sizeof c->mod_dirs[i], "%s",
             o->mod_count ? o->mod_dirs[i] : o->mod_dir ? o->mod_dir : "scripts/base");
  c->seed = o->seed;
  c->atlas = td_atlas_load(r, c->assets_dir, err);
  if (!c->atlas) {
    free(c);
    return NULL;
  }
  td_batch_init(&c->batch, r, c->atlas);
  if (o->surface) td_batch_set_surface(&c->batch, o->surface);
  c->scene = td_scene_create(c->atlas);
  if (!c->scene) {
    td_err_set(err, "client: out of memory");
    td_client_destroy(c);
    return NULL;
  }
  c->speed = 1;
  c->build_type = c->selected = c->hover = c->p_base = -1;
  c->set = (td_client_settings){o->window_w ? o->window_w : 1280, o->window_h ? o->window_h : 720,
                                o->fullscreen, o->vsync, 0, o->muted, o->difficulty};
  c->set.volume = o->volume < 0 ? 0 : o->volume > 100 ? 100 : o->volume;
  c->screen = SCREEN_MENU;
  list_maps(c);
  if (o->map_path) {
    if (td_client_start(c, o->map_path, err) != 0) {
      td_client_destroy(c);
      return NULL;
    }
  }
  for (int i = 0; i < c->nmaps; i++)
    if (o->map_path && !strcmp(base_name(c->maps[i]), base_name(o->map_path))) c->map_sel = i;
  return c;
}

static void end_game(td_client *c) {
  td_game_destroy(c->game);
  c->game = NULL;
  td_scene_reset(c->scene);
}

void td_client_destroy(td_client *c) {
  if (!c) return;
  end_game(c);
  td_scene_destroy(c->scene);
  td_batch_free(&c->batch);
  td_atlas_destroy(c->atlas);
  free(c->pnext);
  free(c);
}

int td_client_start(td_client *c, const char *map_path, td_err *err) {
  end_game(c);
  const char *mods[TD_MOD_MAX_MODS];
  for (size_t i = 0; i < c->mod_count; i++) mods[i] = c->mod_dirs[i];
  td_game_options go = {.map_path = map_path, .mod_dir = mods[0], .mod_dirs = mods,
                        .mod_count = c->mod_count, .seed = c->seed,
                        .difficulty = c->set.difficulty};
  c->game = td_game_create(&go, err);
  if (!c->game) {
    snprintf(c->menu_error, sizeof c->menu_error, "%s", err->msg);
    c->screen = SCREEN_MENU;
    return -1;
  }
  snprintf(c->map_path, sizeof c->map_path, "%s", map_path);
  c->menu_error[0] = 0;
  c->screen = SCREEN_GAME;
  c->pause_menu = false;
  c->acc = 0;
  c->speed = 1;
  c->build_type = c->selected = c->hover = c->p_base = -1;
  memset(&c->st, 0, sizeof c->st);
  c->errors_seen = 0;
  c->show_errors = false;
  c->cam_set = false;
  c->over_at = 0;
  const td_map *m = td_game_map(c->game);
  size_t nn = (size_t)m->graph->node_count;
  if (nn > c->pnext_cap) {
    int32_t *p = realloc(c->pnext, nn * sizeof *p);
    if (!p) {
      end_game(c);
      return td_err_set(err, "client: out of memory");
    }
    c->pnext = p;
    c->pnext_cap = nn;
  }
  td_scene_before_step(c->scene, td_game_world(c->game));
  toast(c, false, "%s: place towers on the pads, then call the first wave (N)", base_name(map_path));
  return 0;
}

bool td_client_quit(const td_client *c) { return c->quit; }
td_game *td_client_game(const td_client *c) { return c->game; }
void td_client_set_overlay(td_client *c, td_overlay o, bool on) {
  if ((unsigned)o < TD_OVERLAY_COUNT) c->overlay[o] = on;
}
void td_client_set_frame_ms(td_client *c, double ms) { c->frame_ms = ms; }
const char *td_client_toast(const td_client *c) { return c->toast; }

bool td_client_settings_changed(td_client *c, td_client_settings *out) {
  if (!c->set_dirty) return false;
  c->set_dirty = false;
  *out = c->set;
  return true;
}

void td_client_get_settings(const td_client *c, td_client_settings *out) { *out = c->set; }

void td_client_set_audio(td_client *c, td_audio *a) {
  c->audio = a;
  apply_volume(c);
}

/* ---- stepping --------------------------------------------------------------- */

/* The step's events: statistics, messages and sounds (read only). */
static void consume_events(td_client *c) {
  const td_world *w = world(c);
  const td_rules *r = td_game_rules(c->game);
  size_t n;
  const td_event *ev = td_world_events(w, &n);
  for (size_t i = 0; i < n; i++) {
    const td_event *e = &ev[i];
    switch (e->kind) {
    case TD_EVENT_SPAWNED:
      if (e->type >= 0 && (size_t)e->type < r->enemy_count && r->enemies[e->type].boss)
        sound(c, TD_SOUND_BOSS, 1);
      break;
    case TD_EVENT_FIRED:
      if (e->type >= 0 && (size_t)e->type < r->level_count)
        sound_at(c, fire_sound(&r->levels[e->type]), 0.7f, e->x, e->y);
      break;
    case TD_EVENT_KILLED:
      c->st.kills++;
      c->st.gold_earned += (int32_t)e->amount;
      sound_at(c, TD_SOUND_KILL, 0.8f, e->x, e->y);
      break;
    case TD_EVENT_LEAKED:
      c->st.leaks++;
      c->st.lives_lost += (int32_t)e->amount;
      sound(c, TD_SOUND_LEAK, 1);
      break;
    case TD_EVENT_PLACED:
      c->st.built++;
      c->st.gold_spent += (int32_t)e->amount;
      sound_at_base(c, TD_SOUND_BUILD, e->base);
      break;
    case TD_EVENT_UPGRADED:
      c->st.upgrades++;
      c->st.gold_spent += (int32_t)e->amount;
      sound(c, TD_SOUND_UPGRADE, 1);
      break;
    case TD_EVENT_SOLD:
      c->st.sold++;
      c->st.gold_earned += (int32_t)e->amount;
      sound_at_base(c, TD_SOUND_SELL, e->base);
      break;
    case TD_EVENT_WAVE_STARTED:
      if (e->amount > 0) toast(c, false, "Wave %d called early: +%d gold", e->wave, (int)e->amount);
      else toast(c, false, "Wave %d", e->wave);
      sound(c, TD_SOUND_WAVE, 1);
      break;
    case TD_EVENT_REFUSED: {
      char msg[200];
      td_world_refusal_message(w, e, msg, sizeof msg);
      toast(c, true, "Refused: %s", msg);
      sound(c, TD_SOUND_REFUSED, 1);
      break;
    }
    case TD_EVENT_WON:
    case TD_EVENT_LOST:
      c->over_at = c->time + 1.5;
      sound(c, e->kind == TD_EVENT_WON ? TD_SOUND_VICTORY : TD_SOUND_DEFEAT, 1);
      break;
    default:
      break;
    }
  }
}

static void step_once(td_client *c) {
  td_world *w = td_game_world(c->game);
  td_scene_before_step(c->scene, w);
  td_err err = {{0}};
  if (td_game_step(c->game, &err) != 0) {
    toast(c, true, "the game broke: %s", err.msg);
    return;
  }
  td_scene_after_step(c->scene, w);
  c->st.ticks++;
  consume_events(c);
}

void td_client_step_ticks(td_client *c, int n) {
  if (!c->game) return;
  /* game time passes as the ticks do: toasts and effects age (td shot) */
  for (int i = 0; i < n; i++) {
    step_once(c);
    c->time += TICK_S;
  }
  c->acc = 0;
}

static void poll_errors(td_client *c) {
  size_t n = td_mod_error_count(td_game_mod(c->game));
  if (n > c->errors_seen) {
    c->show_errors = true;
    c->err_index = n - 1;
  }
  c->errors_seen = n;
}

void td_client_advance(td_client *c, double seconds) {
  c->time += seconds;
  if (!c->game) return;
  /* keyboard panning, in screen pixels per second */
  float pan = (float)(600.0 * seconds) / c->cam.zoom;
  if (c->keys_pan[0]) c->cam.cx -= pan;
  if (c->keys_pan[1]) c->cam.cx += pan;
  if (c->keys_pan[2]) c->cam.cy -= pan;
  if (c->keys_pan[3]) c->cam.cy += pan;
  clamp_camera(c);
  if (c->screen == SCREEN_GAME && !c->pause_menu &&
      td_world_state(td_game_world(c->game)) == TD_GAME_PLAYING) {
    c->acc += seconds * c->speed;
    int cap = 8 * c->speed, k = 0;
    while (c->acc >= TICK_S && k < cap) {
      if (!td_world_paused(td_game_world(c->game))) c->anim += TICK_S;
      step_once(c);
      c->acc -= TICK_S;
      k++;
    }
    if (k == cap && c->acc >= TICK_S) c->acc = fmod(c->acc, TICK_S); /* too slow: drop */
  }
  if (c->screen == SCREEN_GAME && c->over_at > 0 && c->time >= c->over_at) {
    c->screen = SCREEN_OVER;
    c->pause_menu = false;
  }
  /* hot reload: the mod's files are polled about once a second */
  if (c->time >= c->poll_at) {
    c->poll_at = c->time + 1.0;
    td_err err = {{0}};
    int rc = td_game_poll_reload(c->game, &err);
    if (rc == 1) toast(c, false, "scripts changed: reloaded");
    else if (rc < 0) toast(c, true, "reload failed: %s", err.msg);
  }
  poll_errors(c);
}

/* ---- the ghost's preview ----------------------------------------------------- */

static void update_preview(td_client *c) {
  td_world *w = td_game_world(c->game);
  int32_t base = c->build_type >= 0 ? c->hover : -1;
  if (base >= 0) {
    td_tower_view tv;
    if (td_world_tower(w, (size_t)base, &tv)) base = -1;
  }
  if (base < 0) {
    c->p_base = -1;
    return;
  }
  uint64_t tick = td_world_tick(w);
  uint32_t towers = (uint32_t)td_world_tower_count(w);
  /* recomputed when the hovered base, the type, or the world changed (enemies
  ** move: a new tick can change what must stay reachable) */
  if (base == c->p_base && c->build_type == c->p_type && tick == c->p_tick && towers == c->p_towers)
    return;
  c->p_base = base;
  c->p_type = c->build_type;
  c->p_tick = tick;
  c->p_towers = towers;
  td_world_check_place(w, base, c->build_type, &c->pc);
  c->p_ok = c->pc.reason == TD_REFUSAL_NONE || c->pc.reason == TD_REFUSAL_GOLD;
  c->p_route = td_world_preview_next(w, base, c->build_type, c->pnext);
}

/* ---- input ---------------------------------------------------------------------- */

static void select_build(td_client *c, int32_t type) {
  const td_rules *r = td_game_rules(c->game);
  if (type < 0 || (size_t)type >= r->tower_count) return;
  c->build_type = c->build_type == type ? -1 : type;
  c->selected = -1;
}

static void set_pause(td_client *c, bool on) {
  if (td_world_paused(world(c)) == on) return;
  command(c, (td_command){.kind = on ? TD_COMMAND_PAUSE : TD_COMMAND_RESUME});
}

static void upgrade(td_client *c, int child) {
  if (c->selected < 0) return;
  command(c, (td_command){.kind = TD_COMMAND_UPGRADE, .base = c->selected, .upgrade = child});
}

static void sell(td_client *c) {
  if (c->selected < 0) return;
  command(c, (td_command){.kind = TD_COMMAND_SELL, .base = c->selected});
  c->selected = -1;
}

static void cycle_target(td_client *c) {
  td_tower_view tv;
  if (c->selected < 0 || !td_world_tower(world(c), (size_t)c->selected, &tv)) return;
  const td_rules *r = td_game_rules(c->game);
  int n = r->towers[tv.type].script_target ? TD_TARGET_MODE_COUNT : TD_TARGET_SCRIPT;
  td_target_mode m = (td_target_mode)(((int)tv.mode + 1) % n);
  command(c, (td_command){.kind = TD_COMMAND_TARGET, .base = c->selected, .mode = m});
}

static void call_wave(td_client *c) { command(c, (td_command){.kind = TD_COMMAND_CALL_WAVE}); }

/* R: the selected barracks' rally flag follows the pointer until a click
** puts it (or Esc, a right click, R again drop it). */
static void toggle_rally(td_client *c) {
  td_tower_view tv;
  if (c->selected < 0 || !td_world_tower(world(c), (size_t)c->selected, &tv) || tv.soldiers <= 0) {
    c->rallying = false;
    return;
  }
  c->rallying = !c->rallying;
  if (c->rallying) toast(c, false, "click where the soldiers should stand (within the ring)");
}

static void repair(td_client *c) {
  if (c->selected < 0) return;
  if (td_world_repair_cost(world(c), c->selected) < 0) {
    toast(c, false, "the tower is not damaged");
    return;
  }
  command(c, (td_command){.kind = TD_COMMAND_REPAIR, .base = c->selected});
}

static void place_rally(td_client *c, int x, int y) {
  float wx = td_camera_wx(&c->cam, (float)x), wy = td_camera_wy(&c->cam, (float)y);
  td_tower_view tv;
  c->rallying = false;
  if (c->selected < 0 || !td_world_tower(world(c), (size_t)c->selected, &tv)) return;
  td_refusal why = TD_REFUSAL_NONE;
  float xy[2 * TD_RULES_MAX_SOLDIERS];
  if (td_world_rally_posts(world(c), c->selected, tv.type, wx, wy, xy, TD_RULES_MAX_SOLDIERS, &why) == 0) {
    toast(c, true, "Cannot rally there: %s", td_refusal_text(why));
    sound(c, TD_SOUND_REFUSED, 1);
    return;
  }
  command(c, (td_command){.kind = TD_COMMAND_RALLY, .base = c->selected, .x = wx, .y = wy});
}

static void copy_error(td_client *c) {
  td_mod *m = td_game_mod(c->game);
  size_t n = td_mod_error_count(m);
  if (!n) return;
  const td_mod_error *e = td_mod_error_at(m, c->err_index < n ? c->err_index : n - 1);
  char buf[4096];
  snprintf(buf, sizeof buf, "mod %s, %s\n%s: %s\n%s\n", e->mod, e->handler, e->where, e->message,
           e->traceback);
  SDL_SetClipboardText(buf);
  toast(c, false, "Lua error copied to the clipboard");
}

static void reload(td_client *c) {
  td_err err = {{0}};
  if (td_game_reload(c->game, &err) == 0) toast(c, false, "scripts reloaded (F5)");
  else {
    toast(c, true, "reload failed: %s", err.msg);
    poll_errors(c);
  }
}

static void click_world(td_client *c, int x, int y) {
  if (c->rallying) {
    place_rally(c, x, y);
    return;
  }
  int32_t b = base_at(c, x, y);
  if (b < 0) {
    c->selected = -1;
    return;
  }
  td_tower_view tv;
  if (td_world_tower(world(c), (size_t)b, &tv)) {
    c->selected = c->selected == b ? -1 : b;
    c->build_type = -1;
    return;
  }
  if (c->build_type < 0) {
    c->selected = -1;
    toast(c, false, "pick a tower first (buttons below, or keys 1-%zu)",
          td_game_rules(c->game)->tower_count);
    return;
  }
  td_place_check pc;
  if (!td_world_check_place(td_game_world(c->game), b, c->build_type, &pc)) {
    toast(c, true, "Cannot build here: %s", pc.text);
    sound(c, TD_SOUND_REFUSED, 1);
    return;
  }
  command(c, (td_command){.kind = TD_COMMAND_PLACE, .base = b, .tower_type = c->build_type});
  if (!(SDL_GetModState() & KMOD_SHIFT)) c->build_type = -1; /* shift: keep building */
  c->p_base = -1;
}

/* The volume one step of 10 up (dir > 0) or down from v, on the steps. */
static int volume_step(int v, int dir) {
  int k = dir > 0 ? v / 10 + 1 : (v + 9) / 10 - 1;
  return k < 0 ? 0 : k > 10 ? 100 : k * 10;
}

static void do_action(td_client *c, const td_ui_button *b) {
  td_err err = {{0}};
  static const int sizes[][2] = {{1280, 720}, {1600, 900}, {1920, 1080}, {1024, 640}};
  switch (b->action) {
  case A_MAP: c->map_sel = b->arg; break;
  case A_START:
    if (c->nmaps > 0) td_client_start(c, c->maps[c->map_sel], &err);
    else if (c->map_path[0]) td_client_start(c, c->map_path, &err);
    break;
  case A_SETTINGS: c->screen = SCREEN_SETTINGS; break;
  case A_QUIT: c->quit = true; break;
  case A_BACK: c->screen = c->game ? SCREEN_GAME : SCREEN_MENU; break;
  case A_WINSIZE: {
    int k = 0;
    for (int i = 0; i < 4; i++)
      if (sizes[i][0] == c->set.window_w && sizes[i][1] == c->set.window_h) k = (i + 1) % 4;
    c->set.window_w = sizes[k][0];
    c->set.window_h = sizes[k][1];
    c->set_dirty = true;
    break;
  }
  case A_FULLSCREEN: c->set.fullscreen = !c->set.fullscreen; c->set_dirty = true; break;
  case A_VSYNC: c->set.vsync = !c->set.vsync; c->set_dirty = true; break;
  case A_DIFFICULTY: /* easy -> normal -> hard -> easy; the next game started plays it */
    c->set.difficulty = c->set.difficulty == TD_DIFFICULTY_EASY     ? TD_DIFFICULTY_NORMAL
                        : c->set.difficulty == TD_DIFFICULTY_NORMAL ? TD_DIFFICULTY_HARD
                                                                    : TD_DIFFICULTY_EASY;
    break;
  case A_VOLUME: set_volume(c, volume_step(c->set.volume, b->arg)); break;
  case A_VOLUME_SET: set_volume(c, td_ui_slider_level(b, c->mx, 10)); break;
  case A_MUTE: toggle_mute(c); break;
  case A_BUILD: select_build(c, b->arg); break;
  case A_CALL: call_wave(c); break;
  case A_SPEED: c->speed = b->arg; set_pause(c, false); break;
  case A_PAUSE: set_pause(c, !td_world_paused(world(c))); break;
  case A_MENU: c->pause_menu = true; break;
  case A_RESUME: c->pause_menu = false; break;
  case A_RESTART: {
    char path[512];
    snprintf(path, sizeof path, "%s", c->map_path);
    if (td_client_start(c, path, &err) != 0) toast(c, true, "%s", err.msg);
    break;
  }
  case A_MAINMENU: end_game(c); c->screen = SCREEN_MENU; c->pause_menu = false; break;
  case A_UPGRADE: upgrade(c, b->arg); break;
  case A_SELL: sell(c); break;
  case A_TARGET:
    if (c->selected >= 0)
      command(c, (td_command){.kind = TD_COMMAND_TARGET, .base = c->selected, .mode = (td_target_mode)b->arg});
    break;
  case A_CLOSE_PANEL: c->selected = -1; c->rallying = false; break;
  case A_RALLY: toggle_rally(c); break;
  case A_REPAIR: repair(c); break;
  case A_ERR_CLOSE: c->show_errors = false; break;
  case A_ERR_COPY: copy_error(c); break;
  default: break;
  }
}

static void layout(td_client *c);

static bool click_button(td_client *c, int x, int y) {
  for (int i = c->nbtn - 1; i >= 0; i--)
    if (td_ui_hit(&c->btn[i].r, x, y)) {
      td_ui_button b = c->btn[i];
      if (!b.enabled) {
        sound(c, TD_SOUND_REFUSED, 0.6f);
        return true;
      }
      /* the click after the action: a volume change is heard at once */
      do_action(c, &b);
      if (b.action != A_MUTE) sound(c, TD_SOUND_CLICK, 1);
      return true;
    }
  return false;
}

static bool in_hud(const td_client *c, int x, int y) {
  return td_ui_hit(&c->r_hud, x, y) || td_ui_hit(&c->r_build, x, y) ||
         (c->panel_shown && td_ui_hit(&c->r_panel, x, y));
}

static void key_down(td_client *c, const SDL_KeyboardEvent *k) {
  SDL_Keycode sym = k->keysym.sym;
  bool ctrl = (k->keysym.mod & KMOD_CTRL) != 0;
  if (sym == SDLK_m && !ctrl) { /* mute, on every screen */
    toggle_mute(c);
    return;
  }
  if (c->screen != SCREEN_GAME) {
    if (c->screen == SCREEN_SETTINGS && (sym == SDLK_LEFT || sym == SDLK_RIGHT)) {
      set_volume(c, volume_step(c->set.volume, sym == SDLK_RIGHT ? 1 : -1));
      sound(c, TD_SOUND_CLICK, 1);
    } else if (sym == SDLK_ESCAPE) {
      if (c->screen == SCREEN_SETTINGS) c->screen = c->game ? SCREEN_GAME : SCREEN_MENU;
      else if (c->screen == SCREEN_OVER) {
        end_game(c);
        c->screen = SCREEN_MENU;
      } else c->quit = true;
    } else if (c->screen == SCREEN_MENU && (sym == SDLK_RETURN || sym == SDLK_SPACE)) {
      td_ui_button b = {.action = A_START};
      do_action(c, &b);
    } else if (c->screen == SCREEN_MENU && sym == SDLK_DOWN && c->nmaps) {
      c->map_sel = (c->map_sel + 1) % c->nmaps;
      sound(c, TD_SOUND_CLICK, 1);
    } else if (c->screen == SCREEN_MENU && sym == SDLK_UP && c->nmaps) {
      c->map_sel = (c->map_sel + c->nmaps - 1) % c->nmaps;
      sound(c, TD_SOUND_CLICK, 1);
    }
    return;
  }
  if (c->pause_menu) {
    if (sym == SDLK_ESCAPE) c->pause_menu = false;
    return;
  }
  if (ctrl && sym == SDLK_c) {
    copy_error(c);
    return;
  }
  if (sym >= SDLK_1 && sym <= SDLK_9) {
    select_build(c, (int32_t)(sym - SDLK_1));
    sound(c, TD_SOUND_CLICK, 1);
    return;
  }
  switch (sym) {
  case SDLK_ESCAPE:
    if (c->rallying) c->rallying = false;
    else if (c->build_type >= 0 || c->selected >= 0) c->build_type = c->selected = -1;
    else c->pause_menu = true;
    break;
  case SDLK_SPACE:
  case SDLK_p: set_pause(c, !td_world_paused(world(c))); break;
  case SDLK_n: call_wave(c); break;
  case SDLK_f: c->speed = c->speed == 1 ? 2 : c->speed == 2 ? 4 : 1; break;
  case SDLK_u: upgrade(c, (k->keysym.mod & KMOD_SHIFT) ? 1 : 0); break;
  case SDLK_x:
  case SDLK_DELETE:
  case SDLK_BACKSPACE: sell(c); break;
  case SDLK_t: cycle_target(c); break;
  case SDLK_r: toggle_rally(c); break;
  case SDLK_e: repair(c); break;
  case SDLK_LEFT: case SDLK_a: c->keys_pan[0] = true; break;
  case SDLK_RIGHT: case SDLK_d: c->keys_pan[1] = true; break;
  case SDLK_UP: case SDLK_w: c->keys_pan[2] = true; break;
  case SDLK_DOWN: case SDLK_s: c->keys_pan[3] = true; break;
  case SDLK_HOME: fit_camera(c); break;
  case SDLK_F1: c->overlay[TD_OVERLAY_GRAPH] ^= 1; break;
  case SDLK_F2: c->overlay[TD_OVERLAY_LANES] ^= 1; break;
  case SDLK_F3: c->overlay[TD_OVERLAY_SEPARATION] ^= 1; break;
  case SDLK_F4: c->overlay[TD_OVERLAY_HASH] ^= 1; break;
  case SDLK_F5: reload(c); break;
  case SDLK_F6: c->overlay[TD_OVERLAY_GRID] ^= 1; break;
  case SDLK_F7: c->overlay[TD_OVERLAY_FLYERS] ^= 1; break;
  case SDLK_F8: c->overlay[TD_OVERLAY_RANGES] ^= 1; break;
  case SDLK_F9: c->overlay[TD_OVERLAY_STATS] ^= 1; break;
  case SDLK_F10: c->show_errors = !c->show_errors; break;
  case SDLK_F11: c->overlay[TD_OVERLAY_UNITS] ^= 1; break;
  case SDLK_PAGEUP: if (c->err_index > 0) c->err_index--; break;
  case SDLK_PAGEDOWN: c->err_index++; break;
  default: break;
  }
}

static void key_up(td_client *c, SDL_Keycode sym) {
  switch (sym) {
  case SDLK_LEFT: case SDLK_a: c->keys_pan[0] = false; break;
  case SDLK_RIGHT: case SDLK_d: c->keys_pan[1] = false; break;
  case SDLK_UP: case SDLK_w: c->keys_pan[2] = false; break;
  case SDLK_DOWN: case SDLK_s: c->keys_pan[3] = false; break;
  default: break;
  }
}

void td_client_event(td_client *c, const SDL_Event *e) {
  switch (e->type) {
  case SDL_QUIT: c->quit = true; break;
  case SDL_KEYDOWN: key_down(c, &e->key); break;
  case SDL_KEYUP: key_up(c, e->key.keysym.sym); break;
  case SDL_MOUSEMOTION:
    c->mx = e->motion.x;
    c->my = e->motion.y;
    if (c->game && c->screen == SCREEN_GAME) {
      if ((c->ldown || c->rdown) && !c->dragging &&
          abs(c->mx - c->down_x) + abs(c->my - c->down_y) > 6 && !in_hud(c, c->down_x, c->down_y))
        c->dragging = true;
      if (c->dragging) {
        c->cam.cx = c->drag_cx - (float)(c->mx - c->down_x) / c->cam.zoom;
        c->cam.cy = c->drag_cy - (float)(c->my - c->down_y) / c->cam.zoom;
        clamp_camera(c);
      }
      c->hover = in_hud(c, c->mx, c->my) ? -1 : base_at(c, c->mx, c->my);
    }
    break;
  case SDL_MOUSEBUTTONDOWN:
    c->mx = e->button.x;
    c->my = e->button.y;
    c->down_x = c->mx;
    c->down_y = c->my;
    c->drag_cx = c->cam.cx;
    c->drag_cy = c->cam.cy;
    c->dragging = false;
    if (e->button.button == SDL_BUTTON_LEFT) c->ldown = true;
    else c->rdown = true;
    break;
  case SDL_MOUSEBUTTONUP: {
    c->mx = e->button.x;
    c->my = e->button.y;
    bool was_drag = c->dragging;
    c->dragging = false;
    if (e->button.button == SDL_BUTTON_LEFT) c->ldown = false;
    else c->rdown = false;
    if (was_drag) break;
    layout(c);
    if (e->button.button == SDL_BUTTON_LEFT) {
      if (click_button(c, c->mx, c->my)) break;
      if (c->game && c->screen == SCREEN_GAME && !c->pause_menu && !in_hud(c, c->mx, c->my))
        click_world(c, c->mx, c->my);
    } else if (e->button.button == SDL_BUTTON_RIGHT && c->screen == SCREEN_GAME) {
      if (c->rallying) c->rallying = false;
      else c->build_type = c->selected = -1;
    }
    break;
  }
  case SDL_MOUSEWHEEL:
    if (c->game && c->screen == SCREEN_GAME && e->wheel.y != 0) {
      float wx = td_camera_wx(&c->cam, (float)c->mx), wy = td_camera_wy(&c->cam, (float)c->my);
      c->cam.zoom *= e->wheel.y > 0 ? 1.15f : 1 / 1.15f;
      clamp_camera(c);
      /* keep the point under the cursor where it is */
      c->cam.cx = wx - ((float)c->mx - (float)c->cam.vx - (float)c->cam.vw * 0.5f) / c->cam.zoom;
      c->cam.cy = wy - ((float)c->my - (float)c->cam.vy - (float)c->cam.vh * 0.5f) / c->cam.zoom;
      clamp_camera(c);
    }
    break;
  default: break;
  }
}

/* ---- layout ------------------------------------------------------------------------ */

static td_ui_button *add_button(td_client *c, int x, int y, int w, int h, int action, int arg,
                                const char *label) {
  if (c->nbtn >= MAX_BUTTONS) return NULL;
  td_ui_button *b = &c->btn[c->nbtn++];
  memset(b, 0, sizeof *b);
  b->r = (SDL_Rect){x, y, w, h};
  b->action = action;
  b->arg = arg;
  b->enabled = true;
  b->scale = 2;
  snprintf(b->label, sizeof b->label, "%s", label);
  return b;
}

static const char *mode_names[TD_TARGET_MODE_COUNT] = {"First", "Last", "Strong", "Close", "Script"};

static int32_t refund_of(const td_client *c, const td_tower_view *tv) {
  return (int32_t)floor((double)td_game_rules(c->game)->sell_refund * tv->spent);
}

static int32_t early_bonus(const td_client *c) {
  const td_world *w = world(c);
  int64_t t = td_world_next_wave_ticks(w);
  if (t < 0) return 0;
  return (int32_t)floor((double)td_game_rules(c->game)->early_bonus * (double)t / TD_WORLD_TICK_HZ);
}

static void layout_menu(td_client *c) {
  int cx = c->w / 2;
  int y = c->h / 2 - 70;
  for (int i = 0; i < c->nmaps; i++) {
    td_ui_button *b = add_button(c, cx - 200, y + i * 44, 400, 38, A_MAP, i, base_name(c->maps[i]));
    if (b) b->active = i == c->map_sel;
  }
  y += (c->nmaps ? c->nmaps : 1) * 44 + 20;
  add_button(c, cx - 200, y, 400, 44, A_START, 0, "Start");
  add_button(c, cx - 200, y + 52, 195, 40, A_SETTINGS, 0, "Settings");
  add_button(c, cx + 5, y + 52, 195, 40, A_QUIT, 0, "Quit");
}

static void layout_settings(td_client *c) {
  int cx = c->w / 2, y = c->h / 2 - 130;
  char s[64];
  td_ui_button *b;
  snprintf(s, sizeof s, "Window: %dx%d", c->set.window_w, c->set.window_h);
  add_button(c, cx - 200, y, 400, 40, A_WINSIZE, 0, s);
  snprintf(s, sizeof s, "Fullscreen: %s", c->set.fullscreen ? "on" : "off");
  add_button(c, cx - 200, y + 46, 400, 40, A_FULLSCREEN, 0, s);
  snprintf(s, sizeof s, "VSync: %s", c->set.vsync ? "on" : "off");
  add_button(c, cx - 200, y + 92, 400, 40, A_VSYNC, 0, s);
  snprintf(s, sizeof s, "Difficulty: %s%s", td_difficulty_name(c->set.difficulty),
           c->game ? " (next game)" : "");
  add_button(c, cx - 200, y + 138, 400, 40, A_DIFFICULTY, 0, s);
  /* volume: - [slider] +, steps of 10 % (Left/Right too) */
  add_button(c, cx - 200, y + 184, 44, 40, A_VOLUME, -1, "-");
  snprintf(s, sizeof s, "Volume: %d%%", c->set.volume);
  b = add_button(c, cx - 150, y + 184, 300, 40, A_VOLUME_SET, 0, s);
  if (b) {
    b->slider = true;
    b->level = c->set.volume;
    b->enabled = true;
  }
  add_button(c, cx + 156, y + 184, 44, 40, A_VOLUME, 1, "+");
  snprintf(s, sizeof s, "Sound: %s%s", c->set.muted ? "muted" : "on", c->audio ? "" : " (no audio device)");
  b = add_button(c, cx - 200, y + 230, 400, 40, A_MUTE, 0, s);
  if (b) snprintf(b->key, sizeof b->key, "M");
  add_button(c, cx - 200, y + 290, 400, 40, A_BACK, 0, "Back");
}

static void layout_game(td_client *c) {
  const td_world *w = world(c);
  const td_rules *r = td_game_rules(c->game);
  /* top bar, right to left */
  int x = c->w - 8;
  td_ui_button *b;
  x -= 44;
  b = add_button(c, x, 6, 40, 36, A_MENU, 0, "");
  if (b) b->icon = td_atlas_find(c->atlas, "icon_gear");
  x -= 46;
  b = add_button(c, x, 6, 42, 36, A_PAUSE, 0, "");
  if (b) {
    b->icon = td_atlas_find(c->atlas, td_world_paused(w) ? "icon_play" : "icon_pause");
    b->active = td_world_paused(w);
    snprintf(b->key, sizeof b->key, "SPC");
  }
  static const int speeds[3] = {4, 2, 1};
  for (int i = 0; i < 3; i++) {
    char s[8];
    snprintf(s, sizeof s, "%dx", speeds[i]);
    x -= 44;
    b = add_button(c, x, 6, 40, 36, A_SPEED, speeds[i], s);
    if (b) b->active = c->speed == speeds[i] && !td_world_paused(w);
  }
  int64_t nt = td_world_next_wave_ticks(w);
  char s[64];
  if (nt >= 0) snprintf(s, sizeof s, "Call wave +%dg", early_bonus(c));
  else snprintf(s, sizeof s, "No more waves");
  x -= 200;
  b = add_button(c, x, 6, 194, 36, A_CALL, 0, s);
  if (b) {
    b->enabled = nt >= 0 && td_world_state(w) == TD_GAME_PLAYING;
    b->scale = 2;
    snprintf(b->key, sizeof b->key, "N");
    c->r_call = b->r;
  }
  /* bottom bar: one button per tower type */
  int by = c->h - BOTTOM_H + 6;
  int bx = 8;
  size_t nt_bar = r->tower_count < 9 ? r->tower_count : 9;
  /* as wide as 190, narrower when the types would not fit the window */
  int bw = nt_bar ? (c->w - 16) / (int)nt_bar - 6 : 190;
  if (bw > 190) bw = 190;
  if (bw < 90) bw = 90;
  for (size_t t = 0; t < nt_bar; t++) {
    const td_tower_level *root = &r->levels[r->towers[t].root];
    b = add_button(c, bx, by, bw, BOTTOM_H - 12, A_BUILD, (int)t, r->towers[t].name);
    if (!b) break;
    snprintf(b->sub, sizeof b->sub, "%d gold", root->cost);
    snprintf(b->key, sizeof b->key, "%zu", t + 1);
    b->icon_kind = 1;
    b->icon_arg = r->towers[t].root;
    b->enabled = td_world_gold(w) >= root->cost;
    b->active = c->build_type == (int32_t)t;
    if (!b->enabled && b->active) b->enabled = true;
    bx += bw + 6;
  }
  /* the selected tower's panel */
  c->panel_shown = false;
  td_tower_view tv;
  if (c->selected >= 0 && td_world_tower(w, (size_t)c->selected, &tv)) {
    const td_tower_level *lv = &r->levels[tv.level];
    int px = c->w - PANEL_W - 8, py = TOP_H + 8;
    int nch = 0;
    while (nch < TD_RULES_MAX_CHILDREN && lv->children[nch] >= 0) nch++;
    bool damaged = td_world_repair_cost(w, c->selected) >= 0;
    int ph = 150 + 40 + nch * 46 + 50 + (damaged ? 44 : 0);
    c->r_panel = (SDL_Rect){px, py, PANEL_W, ph};
    c->panel_shown = true;
    b = add_button(c, px + PANEL_W - 28, py + 4, 24, 22, A_CLOSE_PANEL, 0, "X");
    if (b) b->scale = 1;
    int ty = py + 146;
    if (tv.soldiers > 0) { /* a barracks: where its soldiers stand */
      b = add_button(c, px + 8, ty, PANEL_W - 16, 30, A_RALLY, 0,
                     c->rallying ? "Click the map..." : "Set rally point");
      if (b) {
        b->scale = 1;
        b->active = c->rallying;
        snprintf(b->key, sizeof b->key, "R");
      }
    } else {
      int nmode = r->towers[tv.type].script_target ? TD_TARGET_MODE_COUNT : TD_TARGET_SCRIPT;
      int mw = (PANEL_W - 16) / nmode;
      for (int m = 0; m < nmode; m++) {
        b = add_button(c, px + 8 + m * mw, ty, mw - 4, 30, A_TARGET, m, mode_names[m]);
        if (b) {
          b->scale = 1;
          b->active = (int)tv.mode == m;
        }
      }
    }
    ty += 40;
    for (int k = 0; k < nch; k++) {
      const td_tower_level *ch = &r->levels[lv->children[k]];
      char lab[64];
      snprintf(lab, sizeof lab, "Upgrade: %s", ch->name);
      b = add_button(c, px + 8, ty, PANEL_W - 16, 40, A_UPGRADE, k, lab);
      if (b) {
        b->scale = 1;
        snprintf(b->sub, sizeof b->sub, "%d gold  dmg %.0f  rng %.1f", ch->cost, (double)ch->damage,
                 (double)ch->range);
        snprintf(b->key, sizeof b->key, k == 0 ? "U" : k == 1 ? "^U" : "");
        b->icon_kind = 1;
        b->icon_arg = lv->children[k];
        b->enabled = td_world_gold(w) >= ch->cost;
      }
      ty += 46;
    }
    char lab[64];
    if (damaged) {
      int32_t cost = td_world_repair_cost(w, c->selected);
      snprintf(lab, sizeof lab, "Repair  -%d gold", (int)cost);
      b = add_button(c, px + 8, ty, PANEL_W - 16, 38, A_REPAIR, 0, lab);
      if (b) {
        b->enabled = td_world_gold(w) >= cost;
        snprintf(b->key, sizeof b->key, "E");
      }
      ty += 44;
    }
    snprintf(lab, sizeof lab, "Sell  +%d gold", refund_of(c, &tv));
    b = add_button(c, px + 8, ty, PANEL_W - 16, 38, A_SELL, 0, lab);
    if (b) {
      b->icon = td_atlas_find(c->atlas, "icon_sell");
      snprintf(b->key, sizeof b->key, "X");
    }
  }
  /* the Lua error overlay */
  if (c->show_errors && td_mod_error_count(td_game_mod(c->game)) > 0) {
    int ew = c->w - 40 > 900 ? 900 : c->w - 40, ex = 20, ey = c->h - BOTTOM_H - 250;
    add_button(c, ex + ew - 150, ey + 6, 70, 24, A_ERR_COPY, 0, "Copy");
    add_button(c, ex + ew - 74, ey + 6, 66, 24, A_ERR_CLOSE, 0, "Hide");
    c->btn[c->nbtn - 1].scale = 1;
    c->btn[c->nbtn - 2].scale = 1;
  }
  if (c->pause_menu) {
    int cx = c->w / 2, y = c->h / 2 - 80;
    add_button(c, cx - 150, y, 300, 40, A_RESUME, 0, "Resume");
    add_button(c, cx - 150, y + 50, 300, 40, A_RESTART, 0, "Restart");
    add_button(c, cx - 150, y + 100, 300, 40, A_SETTINGS, 0, "Settings");
    add_button(c, cx - 150, y + 150, 300, 40, A_MAINMENU, 0, "Main menu");
    add_button(c, cx - 150, y + 200, 300, 40, A_QUIT, 0, "Quit");
  }
}

static void layout_over(td_client *c) {
  int cx = c->w / 2, y = c->h / 2 + 120;
  add_button(c, cx - 205, y, 200, 44, A_RESTART, 0, "Play again");
  add_button(c, cx + 5, y, 200, 44, A_MAINMENU, 0, "Main menu");
}

static void layout(td_client *c) {
  c->nbtn = 0;
  c->panel_shown = false;
  if (c->w <= 0 || c->h <= 0) return;
  c->r_hud = (SDL_Rect){0, 0, c->w, TOP_H};
  c->r_build = (SDL_Rect){0, c->h - BOTTOM_H, c->w, BOTTOM_H};
  switch (c->screen) {
  case SCREEN_MENU: layout_menu(c); break;
  case SCREEN_SETTINGS: layout_settings(c); break;
  case SCREEN_GAME: layout_game(c); break;
  case SCREEN_OVER: layout_over(c); break;
  default: break;
  }
}

/* ---- drawing --------------------------------------------------------------------------- */

static void text_center(td_batch *b, float cx, float y, int scale, const char *s, SDL_Color col) {
  td_batch_text(b, cx - (float)td_text_width(s, scale) / 2, y, scale, s, col, true);
}

static void draw_buttons(td_client *c) {
  td_batch *b = &c->batch;
  const td_rules *r = c->game ? td_game_rules(c->game) : NULL;
  for (int i = 0; i < c->nbtn; i++) {
    const td_ui_button *bt = &c->btn[i];
    bool hover = td_ui_hit(&bt->r, c->mx, c->my);
    td_ui_button_draw(b, bt, hover);
    if (bt->icon_kind == 1 && r) {
      float s = (float)bt->r.h - 8;
      td_scene_tower_icon(c->scene, b, r, bt->icon_arg, (float)bt->r.x + 4 + s / 2,
                          (float)bt->r.y + (float)bt->r.h / 2, s);
    }
  }
}

static void draw_hud(td_client *c) {
  td_batch *b = &c->batch;
  const td_world *w = world(c);
  const td_rules *r = td_game_rules(c->game);
  td_batch_rect(b, 0, 0, (float)c->w, TOP_H, td_color(18, 20, 28, 240));
  td_batch_rect(b, 0, TOP_H - 1, (float)c->w, 1, td_color(90, 96, 130, 255));
  td_batch_rect(b, 0, (float)(c->h - BOTTOM_H), (float)c->w, BOTTOM_H, td_color(18, 20, 28, 240));
  td_batch_rect(b, 0, (float)(c->h - BOTTOM_H), (float)c->w, 1, td_color(90, 96, 130, 255));
  char s[64];
  float x = 10;
  const td_sprite *ic;
  if ((ic = td_atlas_find(c->atlas, "icon_coin"))) td_batch_sprite_rect(b, ic, x, 8, 32, 32, WHITE);
  snprintf(s, sizeof s, "%d", td_world_gold(w));
  int tw = td_batch_text(b, x + 38, 14, 3, s, td_color(255, 215, 80, 255), true);
  c->r_gold = (SDL_Rect){(int)x, 4, 38 + tw, 40};
  x += 38 + (float)(tw > 72 ? tw : 72) + 16;
  if ((ic = td_atlas_find(c->atlas, "icon_heart"))) td_batch_sprite_rect(b, ic, x, 8, 32, 32, WHITE);
  snprintf(s, sizeof s, "%d", td_world_lives(w));
  tw = td_batch_text(b, x + 38, 14, 3, s, td_color(255, 110, 120, 255), true);
  c->r_lives = (SDL_Rect){(int)x, 4, 38 + tw, 40};
  x += 38 + (float)(tw > 54 ? tw : 54) + 16;
  if ((ic = td_atlas_find(c->atlas, "icon_wave"))) td_batch_sprite_rect(b, ic, x, 8, 32, 32, WHITE);
  snprintf(s, sizeof s, "Wave %d/%d", td_world_wave(w), r->wave_count);
  tw = td_batch_text(b, x + 38, 10, 2, s, WHITE, true);
  c->r_wave = (SDL_Rect){(int)x, 4, 38 + tw, 40};
  int64_t nt = td_world_next_wave_ticks(w);
  if (nt >= 0) snprintf(s, sizeof s, "next in %llds", (long long)((nt + TD_WORLD_TICK_HZ - 1) / TD_WORLD_TICK_HZ));
  else snprintf(s, sizeof s, "last wave");
  td_batch_text(b, x + 38, 30, 1, s, td_color(190, 190, 210, 255), true);
  x += 38 + (float)(tw > 110 ? tw : 110) + 18;
  /* the next wave's preview: icons and counts */
  td_wave_entry pv[12];
  int32_t nw = td_world_wave(w) + 1;
  size_t np = nt >= 0 ? td_world_preview(w, nw, pv, 12) : 0;
  if (np > 12) np = 12;
  float limit = (float)c->r_call.x - 8;
  if (np > 0 && x + 60 < limit) {
    td_batch_text(b, x, 18, 1, "NEXT:", td_color(190, 190, 210, 255), true);
    x += 36;
    for (size_t i = 0; i < np && x + 70 < limit; i++) {
      td_scene_enemy_icon(c->scene, b, r, pv[i].enemy, x + 16, 24, 30);
      snprintf(s, sizeof s, "x%d", pv[i].count * pv[i].spawns);
      int t2 = td_batch_text(b, x + 33, 17, 2, s, WHITE, true);
      x += 40 + (float)t2;
    }
  }
  draw_buttons(c);
  /* the selected tower's details */
  td_tower_view tv;
  if (c->panel_shown && td_world_tower(w, (size_t)c->selected, &tv)) {
    SDL_Rect p = c->r_panel;
    const td_tower_level *lv = &r->levels[tv.level];
    td_ui_panel(b, (float)p.x, (float)p.y, (float)p.w, (float)p.h);
    /* re-draw the buttons of the panel above it */
    for (int i = 0; i < c->nbtn; i++)
      if (td_ui_hit(&p, c->btn[i].r.x, c->btn[i].r.y)) {
        td_ui_button_draw(b, &c->btn[i], td_ui_hit(&c->btn[i].r, c->mx, c->my));
        if (c->btn[i].icon_kind == 1) {
          float sz = (float)c->btn[i].r.h - 8;
          td_scene_tower_icon(c->scene, b, r, c->btn[i].icon_arg, (float)c->btn[i].r.x + 4 + sz / 2,
                              (float)c->btn[i].r.y + (float)c->btn[i].r.h / 2, sz);
        }
      }
    td_scene_tower_icon(c->scene, b, r, tv.level, (float)p.x + 30, (float)p.y + 32, 44);
    td_batch_text(b, (float)p.x + 60, (float)p.y + 12, 2, lv->name, WHITE, true);
    snprintf(s, sizeof s, "%s, level %d", r->towers[tv.type].name, tv.depth + 1);
    td_batch_text(b, (float)p.x + 60, (float)p.y + 34, 1, s, td_color(190, 190, 210, 255), true);
    char st[256], hp[48] = "";
    if (tv.max_health > 0)
      snprintf(hp, sizeof hp, "\nHealth %.0f/%.0f", (double)tv.health, (double)tv.max_health);
    if (tv.soldiers > 0 && lv->soldier >= 0 && (size_t)lv->soldier < r->soldier_type_count) {
      const td_soldier_type *so = &r->soldier_types[lv->soldier];
      snprintf(st, sizeof st,
               "Soldiers %d x %s\nEach   %.0f hp, %.0f dmg x %.2f/s\nRally  within %.1f tiles\n"
               "Respawn %.0f s   Spent %d gold%s",
               (int)tv.soldiers, so->name, (double)so->health, (double)so->damage, (double)so->rate,
               (double)lv->range, (double)so->respawn, tv.spent, hp);
    } else {
      float dmg = lv->damage * (1 + tv.buff_damage), rate = lv->rate * (1 + tv.buff_rate);
      snprintf(st, sizeof st,
               "Damage %.0f (%s)\nRate   %.2f/s   DPS %.0f\nRange  %.1f tiles\nShot   %s%s\nSpent  %d gold%s",
               (double)dmg, r->damage_types[lv->damage_type], (double)rate, (double)(dmg * rate),
               (double)lv->range,
               lv->shot == TD_SHOT_HOMING ? "homing" : lv->shot == TD_SHOT_BALLISTIC ? "ballistic"
               : lv->shot == TD_SHOT_CHAIN ? "chain" : lv->shot == TD_SHOT_PIERCE ? "pierce" : "instant",
               lv->effect.kind == TD_EFFECT_SLOW ? " + slow" : lv->effect.kind == TD_EFFECT_STUN ? " + stun"
               : lv->effect.kind == TD_EFFECT_DOT ? " + burn" : "",
               tv.spent, hp);
    }
    td_batch_text(b, (float)p.x + 10, (float)p.y + 62, 1, st, td_color(220, 220, 230, 255), true);
    td_batch_text(b, (float)p.x + 10, (float)p.y + 134, 1, tv.soldiers > 0 ? "Rally point:" : "Target (T):",
                  td_color(190, 190, 210, 255), true);
  }
}

static void draw_errors(td_client *c) {
  td_mod *m = td_game_mod(c->game);
  size_t n = td_mod_error_count(m);
  if (!c->show_errors || n == 0) return;
  if (c->err_index >= n) c->err_index = n - 1;
  const td_mod_error *e = td_mod_error_at(m, c->err_index);
  td_batch *b = &c->batch;
  int ew = c->w - 40 > 900 ? 900 : c->w - 40, ex = 20, ey = c->h - BOTTOM_H - 250;
  td_batch_rect(b, (float)ex, (float)ey, (float)ew, 240, td_color(40, 8, 10, 235));
  td_batch_rect_outline(b, (float)ex, (float)ey, (float)ew, 240, 2, td_color(255, 80, 70, 255));
  const td_sprite *ic = td_atlas_find(c->atlas, "icon_warn");
  if (ic) td_batch_sprite_rect(b, ic, (float)ex + 8, (float)ey + 8, 16, 16, WHITE);
  char s[512];
  snprintf(s, sizeof s, "Lua error %zu/%zu  mod '%s'  %s", c->err_index + 1, n, e->mod, e->handler);
  td_batch_text(b, (float)ex + 30, (float)ey + 10, 1, s, td_color(255, 200, 190, 255), true);
  td_batch_text(b, (float)ex + 10, (float)ey + 32, 2, e->where, td_color(255, 230, 120, 255), true);
  /* the message, wrapped, then the traceback */
  int cols = (ew - 20) / 6;
  char wrapped[4096];
  size_t k = 0;
  int col = 0;
  for (const char *p = e->message; *p && k + 2 < sizeof wrapped; p++) {
    if (col >= cols) {
      wrapped[k++] = '\n';
      col = 0;
    }
    wrapped[k++] = *p;
    col = *p == '\n' ? 0 : col + 1;
  }
  wrapped[k] = 0;
  td_batch_text(b, (float)ex + 10, (float)ey + 56, 1, wrapped, WHITE, true);
  int lines = td_text_height(wrapped, 1) / 9 + 1;
  k = 0;
  int nl = 0;
  for (const char *p = e->traceback; *p && k + 2 < sizeof wrapped && nl < 16 - lines; p++) {
    if (*p == '\n') nl++;
    wrapped[k++] = (char)(*p == '\t' ? ' ' : *p);
  }
  wrapped[k] = 0;
  td_batch_text(b, (float)ex + 10, (float)ey + 62 + (float)lines * 9, 1, wrapped,
                td_color(210, 190, 190, 255), true);
  td_batch_text(b, (float)ex + 10, (float)ey + 226, 1,
                "Ctrl+C copy   F10 hide   PgUp/PgDn older/newer   F5 reload", td_color(200, 160, 160, 255),
                true);
}

static void draw_stats(td_client *c) {
  const td_world *w = world(c);
  char s[512];
  const td_route_stats *rs = td_route_get_stats(td_world_route(w));
  snprintf(s, sizeof s,
           "frame %.2f ms\ntick %llu  speed %dx\nenemies %zu  towers %zu\nsprites+shapes %zu  new frames %zu\n"
           "route: %llu full, %llu incremental\nzoom %.2f",
           c->frame_ms, (unsigned long long)td_world_tick(w), c->speed, td_world_enemy_count(w),
           td_world_tower_count(w), c->batch.quads, c->batch.misses,
           (unsigned long long)rs->full_count, (unsigned long long)rs->incremental_count,
           (double)c->cam.zoom);
  td_ui_panel(&c->batch, 8, TOP_H + 8, 250, 66);
  td_batch_text(&c->batch, 14, TOP_H + 13, 1, s, td_color(200, 255, 200, 255), true);
}

static void draw_game(td_client *c) {
  td_batch *b = &c->batch;
  td_world *w = td_game_world(c->game);
  update_preview(c);
  td_scene_params p;
  memset(&p, 0, sizeof p);
  p.alpha = (float)(c->acc / TICK_S);
  if (p.alpha > 1) p.alpha = 1;
  p.time = c->anim;
  memcpy(p.overlay, c->overlay, sizeof p.overlay);
  p.selected_base = c->selected;
  p.hover_base = c->hover;
  p.rally.base = -1;
  if (c->rallying) {
    td_tower_view tv;
    if (c->selected >= 0 && td_world_tower(w, (size_t)c->selected, &tv)) {
      p.rally.base = c->selected;
      p.rally.x = td_camera_wx(&c->cam, (float)c->mx);
      p.rally.y = td_camera_wy(&c->cam, (float)c->my);
    } else {
      c->rallying = false;
    }
  }
  p.building = c->build_type >= 0;
  p.ghost.base = c->p_base;
  p.ghost.tower_type = c->p_type;
  if (c->p_base >= 0) {
    p.ghost.ok = c->p_ok;
    p.ghost.afford = c->pc.reason != TD_REFUSAL_GOLD;
    p.ghost.next = c->p_route ? c->pnext : NULL;
    p.ghost.reason = c->pc.reason == TD_REFUSAL_NONE ? "" : c->pc.text;
  }
  td_scene_draw(c->scene, b, w, &c->cam, &p);
  /* overlay names in the corner */
  char on[160] = "";
  for (int i = 0; i < TD_OVERLAY_COUNT; i++)
    if (c->overlay[i] && i != TD_OVERLAY_STATS) {
      strncat(on, on[0] ? " " : "overlays: ", sizeof on - strlen(on) - 1);
      strncat(on, td_overlay_name((td_overlay)i), sizeof on - strlen(on) - 1);
    }
  if (on[0]) td_batch_text(b, 10, (float)(c->h - BOTTOM_H - 16), 1, on, td_color(200, 255, 200, 255), true);
  draw_hud(c);
  if (c->overlay[TD_OVERLAY_STATS]) draw_stats(c);
  if (td_world_paused(w) && !c->pause_menu)
    text_center(b, (float)c->w / 2, TOP_H + 14, 3, "PAUSED", td_color(255, 255, 255, 230));
  if (c->toast[0] && c->time < c->toast_until) {
    int tw = td_text_width(c->toast, 2);
    float tx = (float)(c->w - tw) / 2, ty = (float)(c->h - BOTTOM_H - 44);
    td_batch_rect(b, tx - 10, ty - 6, (float)tw + 20, 28, td_color(10, 10, 16, 210));
    td_batch_text(b, tx, ty, 2, c->toast, c->toast_bad ? td_color(255, 120, 100, 255) : WHITE, true);
  }
  draw_errors(c);
  if (c->show_errors && td_mod_error_count(td_game_mod(c->game)) > 0) {
    /* the Copy/Hide buttons sit on the error panel: draw them again on top */
    for (int i = 0; i < c->nbtn; i++)
      if (c->btn[i].action == A_ERR_COPY || c->btn[i].action == A_ERR_CLOSE)
        td_ui_button_draw(b, &c->btn[i], td_ui_hit(&c->btn[i].r, c->mx, c->my));
  }
  if (c->pause_menu) {
    td_batch_rect(b, 0, 0, (float)c->w, (float)c->h, td_color(0, 0, 0, 140));
    td_ui_panel(b, (float)c->w / 2 - 170, (float)c->h / 2 - 140, 340, 300);
    text_center(b, (float)c->w / 2, (float)c->h / 2 - 124, 3, "Paused", WHITE);
    for (int i = 0; i < c->nbtn; i++)
      if ((c->btn[i].action >= A_RESUME && c->btn[i].action <= A_MAINMENU) ||
          c->btn[i].action == A_QUIT || c->btn[i].action == A_SETTINGS)
        td_ui_button_draw(b, &c->btn[i], td_ui_hit(&c->btn[i].r, c->mx, c->my));
  }
}

static void draw_title(td_client *c, const char *sub) {
  td_batch *b = &c->batch;
  /* a backdrop of grass tiles with a dark veil */
  const td_sprite *g = td_atlas_find(c->atlas, "tile_grass");
  const td_sprite *road = td_atlas_find(c->atlas, "tile_road");
  for (int y = 0; y < c->h; y += 64)
    for (int x = 0; x < c->w; x += 64)
      if (g) td_batch_sprite_rect(b, (y / 64) % 4 == 2 && road ? road : g, (float)x, (float)y, 64, 64, WHITE);
  td_batch_rect(b, 0, 0, (float)c->w, (float)c->h, td_color(10, 12, 20, 170));
  text_center(b, (float)c->w / 2, (float)c->h / 2 - 230, 8, "TD", td_color(255, 205, 60, 255));
  text_center(b, (float)c->w / 2, (float)c->h / 2 - 160, 2, sub, td_color(220, 220, 235, 255));
}

static void draw_menu(td_client *c) {
  draw_title(c, "a tower defense - choose a map");
  draw_buttons(c);
  if (c->nmaps == 0)
    text_center(&c->batch, (float)c->w / 2, (float)c->h / 2 - 60, 2, "no maps found", td_color(255, 120, 100, 255));
  if (c->menu_error[0])
    text_center(&c->batch, (float)c->w / 2, (float)c->h - 40, 1, c->menu_error, td_color(255, 120, 100, 255));
  text_center(&c->batch, (float)c->w / 2, (float)c->h - 20, 1,
              "Up/Down pick a map, Enter starts, Esc quits", td_color(170, 170, 190, 255));
}

static void draw_over(td_client *c) {
  td_batch *b = &c->batch;
  const td_world *w = world(c);
  bool won = td_world_state(w) == TD_GAME_WON;
  draw_title(c, "");
  td_ui_panel(b, (float)c->w / 2 - 260, (float)c->h / 2 - 150, 520, 320);
  text_center(b, (float)c->w / 2, (float)c->h / 2 - 135, 5, won ? "Victory!" : "Defeat",
              won ? td_color(255, 215, 80, 255) : td_color(255, 90, 80, 255));
  char s[1024];
  uint64_t secs = c->st.ticks / TD_WORLD_TICK_HZ;
  snprintf(s, sizeof s,
           "Map          %s\nWaves        %d of %d\nLives left   %d\nKilled       %d\nLeaked       %d"
           "\nTowers built %d (upgrades %d, sold %d)\nGold spent   %d\nGold earned  %d\nGame time    %llu:%02llu",
           base_name(c->map_path), td_world_wave(w), td_game_rules(c->game)->wave_count,
           td_world_lives(w), c->st.kills, c->st.leaks, c->st.built, c->st.upgrades, c->st.sold,
           c->st.gold_spent, c->st.gold_earned, (unsigned long long)(secs / 60),
           (unsigned long long)(secs % 60));
  td_batch_text(b, (float)c->w / 2 - 230, (float)c->h / 2 - 70, 2, s, WHITE, true);
  draw_buttons(c);
}

void td_client_draw(td_client *c, int w, int h) {
  if (w != c->w || h != c->h) {
    float oz = c->cam.zoom;
    c->w = w;
    c->h = h;
    layout_viewport(c);
    if (c->cam_set) {
      c->cam.zoom = oz;
      clamp_camera(c);
    }
  }
  if (c->game && !c->cam_set) {
    layout_viewport(c);
    fit_camera(c);
    c->cam_set = true;
  }
  layout(c);
  td_batch_begin(&c->batch, w, h);
  td_batch_clear(&c->batch, td_color(12, 14, 20, 255));
  switch (c->screen) {
  case SCREEN_MENU: draw_menu(c); break;
  case SCREEN_SETTINGS: draw_title(c, "settings"); draw_buttons(c); break;
  case SCREEN_GAME: draw_game(c); break;
  case SCREEN_OVER: draw_over(c); break;
  default: break;
  }
  td_batch_end(&c->batch);
}

bool td_client_base_screen(const td_client *c, int32_t base, int *x, int *y) {
  if (!c->game || base < 0 || (size_t)base >= td_game_map(c->game)->base_count) return false;
  const td_tower_base *b = &td_game_map(c->game)->bases[base];
  *x = (int)lrintf(td_camera_sx(&c->cam, (float)(b->x + b->w / 2)));
  *y = (int)lrintf(td_camera_sy(&c->cam, (float)(b->y + b->h / 2)));
  return true;
}

bool td_client_region(const td_client *c, const char *name, SDL_Rect *out) {
  if (c->screen != SCREEN_GAME) return false;
  if (!strcmp(name, "gold")) *out = c->r_gold;
  else if (!strcmp(name, "lives")) *out = c->r_lives;
  else if (!strcmp(name, "wave")) *out = c->r_wave;
  else if (!strcmp(name, "hud")) *out = c->r_hud;
  else if (!strcmp(name, "build")) *out = c->r_build;
  else if (!strcmp(name, "call")) *out = c->r_call;
  else if (!strcmp(name, "panel") && c->panel_shown) *out = c->r_panel;
  else return false;
  return true;
}

bool td_client_button(const td_client *c, const char *label, int *x, int *y) {
  for (int i = 0; i < c->nbtn; i++)
    if (!strncmp(c->btn[i].label, label, strlen(label))) {
      *x = c->btn[i].r.x + c->btn[i].r.w / 2;
      *y = c->btn[i].r.y + c->btn[i].r.h / 2;
      return true;
    }
  return false;
}
