/*
** client.c: a client's lifetime, the fixed-tick loop, input and the
** commands it gives (see client.h; client_ui.c lays out and draws).
*/
#include "render/client_int.h"

#include <stdarg.h>


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

void client_toast(td_client *c, bool bad, const char *msg) { toast(c, bad, "%s", msg); }

const char *client_base_name(const char *p) {
  const char *s = strrchr(p, '/');
  return s ? s + 1 : p;
}

const td_world *client_world(const td_client *c) { return c->game ? td_game_world(c->game) : NULL; }

/* Every text drawn, one a line, for tests (td_client_drawn_text). */
static void record_text(void *ud, const char *s) {
  td_client *c = ud;
  size_t n = strlen(s);
  if (c->ndrawn + n + 2 > sizeof c->drawn) return;
  memcpy(c->drawn + c->ndrawn, s, n);
  c->ndrawn += n;
  c->drawn[c->ndrawn++] = '\n';
  c->drawn[c->ndrawn] = '\0';
}

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

static void apply_volume(td_client *c) {
  td_audio_set_volume(c->audio, c->set.volume, c->set.muted);
  td_audio_set_music_volume(c->audio, c->set.music);
}

static void set_music(td_client *c, int v) {
  c->set.music = v < 0 ? 0 : v > 100 ? 100 : v;
  c->set.changed |= TD_SETTING_MUSIC;
  apply_volume(c);
}

/* The music for the screen: the menu's loop, or the game's, intense while
** enemies are on the map. */
static void update_music(td_client *c) {
  bool game = c->game && (c->screen == SCREEN_GAME || c->screen == SCREEN_OVER);
  const td_world *w = game ? client_world(c) : NULL;
  bool wave = w && td_world_state(w) == TD_GAME_PLAYING && td_world_enemy_count(w) > 0;
  td_audio_music(c->audio, game ? TD_MUSIC_PLAY : TD_MUSIC_MENU, wave ? 1.0f : 0.0f);
}

static void set_volume(td_client *c, int v) {
  c->set.volume = v < 0 ? 0 : v > 100 ? 100 : v;
  c->set.changed |= TD_SETTING_VOLUME;
  apply_volume(c);
}

static void toggle_mute(td_client *c) {
  c->set.muted = !c->set.muted;
  c->set.changed |= TD_SETTING_MUTED;
  apply_volume(c);
  if (c->set.muted) toast(c, false, "Sound off (M)");
  else {
    toast(c, false, "Sound on: volume %d%% (M)", c->set.volume);
    sound(c, TD_SOUND_CLICK, 1);
  }
}

void client_fit_camera(td_client *c) {
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

void client_layout_viewport(td_client *c) {
  /* the map between the bars, in pixels */
  int top = (int)lrintf((float)TOP_H * c->ui), bottom = (int)lrintf((float)BOTTOM_H * c->ui);
  c->cam.vx = 0;
  c->cam.vy = top;
  c->cam.vw = c->pw;
  c->cam.vh = c->ph - top - bottom;
  if (c->cam.vh < 50) c->cam.vh = 50;
}

void client_clamp_camera(td_client *c) {
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
  snprintf(c->user_maps_dir, sizeof c->user_maps_dir, "%s", o->user_maps_dir ? o->user_maps_dir : "");
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
  c->batch.on_text = record_text;
  c->batch.text_ud = c;
  c->cards.off = o->no_cards;
  client_cards_reset(c);
  if (o->surface) td_batch_set_surface(&c->batch, o->surface);
  c->scene = td_scene_create(c->atlas);
  if (!c->scene) {
    td_err_set(err, "client: out of memory");
    td_client_destroy(c);
    return NULL;
  }
  c->speed = 1;
  c->ui = 1;
  c->build_type = c->selected = c->hover = c->p_base = -1;
  c->set = (td_client_settings){o->window_w ? o->window_w : 1280, o->window_h ? o->window_h : 720,
                                o->fullscreen, o->vsync, 0, o->muted, o->difficulty, o->ui_scale, 0, 0, 0, {0}};
  c->set.volume = o->volume < 0 ? 0 : o->volume > 100 ? 100 : o->volume;
  c->set.music = o->music < 0 ? 0 : o->music > 100 ? 100 : o->music;
  c->set.palette = (unsigned)o->palette < TD_PALETTE_COUNT ? o->palette : TD_PALETTE_STANDARD;
  c->pad_dir = -1;
  c->screen = SCREEN_MENU;
  client_progress_init(c, o->data_dir); /* the maps in order, the player's progress */
  client_mods_init(c, o->user_mods_dir, o->user_mods_on); /* the player's mods */
  if (o->map_path) {
    if (td_client_start(c, o->map_path, err) != 0) {
      td_client_destroy(c);
      return NULL;
    }
  }
  for (int i = 0; i < c->nmaps; i++)
    if (o->map_path && !strcmp(client_base_name(c->maps[i]), client_base_name(o->map_path))) c->map_sel = i;
  return c;
}

static void end_game(td_client *c) {
  td_tutorial_free(&c->tut);
  c->help = false;
  td_game_destroy(c->game);
  c->game = NULL;
  td_scene_reset(c->scene);
}

void td_client_destroy(td_client *c) {
  if (!c) return;
  end_game(c);
  client_progress_free(c);
  td_scene_destroy(c->scene);
  td_batch_free(&c->batch);
  td_atlas_destroy(c->atlas);
  free(c->pnext);
  free(c);
}

int td_client_start(td_client *c, const char *map_path, td_err *err) {
  end_game(c);
  const char *mods[TD_MOD_MAX_MODS];
  size_t nmods = client_mods_for_game(c, mods); /* the client's, then the player's enabled */
  td_game_options go = {.map_path = map_path, .mod_dir = mods[0], .mod_dirs = mods,
                        .mod_count = nmods, .seed = c->seed,
                        .difficulty = c->set.difficulty, .endless = c->endless};
  td_game *g = td_game_create(&go, err);
  if (!g) {
    snprintf(c->menu_error, sizeof c->menu_error, "%s", err->msg);
    c->screen = SCREEN_MENU;
    return -1;
  }
  client_begin(c, map_path, g);
  if (!c->game) return td_err_set(err, "client: out of memory");
  client_tutorial_begin(c); /* a new game of the menu's first map, once */
  char title[TD_RULES_TITLE_MAX];
  toast(c, false, "%s: place towers on the pads, then call the first wave (N)",
        client_game_title(c, title, sizeof title));
  return 0;
}

/* Puts g (a new or a loaded game) on screen: the client owns it from here
** (on failure, out of memory, it is destroyed and c->game stays NULL). */
void client_begin(td_client *c, const char *map_path, td_game *g) {
  c->game = g;
  snprintf(c->map_path, sizeof c->map_path, "%s", map_path);
  c->menu_error[0] = 0;
  c->screen = SCREEN_GAME;
  c->pause_menu = c->help = false;
  c->confirm = A_NONE;
  td_tutorial_free(&c->tut);
  c->t_wave[0] = '\0';
  c->acc = 0;
  c->speed = 1;
  c->build_type = c->selected = c->hover = c->p_base = -1;
  memset(&c->st, 0, sizeof c->st);
  int64_t kills = 0, leaks = 0; /* a loaded game's totals so far */
  td_game_totals(g, &kills, &leaks, NULL);
  c->st.kills = (int32_t)kills;
  c->st.leaks = (int32_t)leaks;
  c->stars = 0;
  c->record = false;
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
      c->screen = SCREEN_MENU;
      return;
    }
    c->pnext = p;
    c->pnext_cap = nn;
  }
  td_scene_before_step(c->scene, td_game_world(c->game));
  client_cards_reset(c);
}

bool td_client_quit(const td_client *c) { return c->quit; }
td_game *td_client_game(const td_client *c) { return c->game; }
void td_client_set_overlay(td_client *c, td_overlay o, bool on) {
  if ((unsigned)o < TD_OVERLAY_COUNT) c->overlay[o] = on;
}
void td_client_set_frame_ms(td_client *c, double ms) { c->frame_ms = ms; }
const char *td_client_toast(const td_client *c) { return c->toast; }
const char *td_client_drawn_text(const td_client *c) { return c->drawn; }

bool td_client_enemy_screen(const td_client *c, uint32_t handle, int *x, int *y) {
  td_enemy_view v;
  if (!c->game || !td_world_enemy_get(client_world(c), handle, &v) || v.waiting) return false;
  *x = (int)lrintf(td_camera_sx(&c->cam, v.x));
  *y = (int)lrintf(td_camera_sy(&c->cam, v.y));
  return true;
}

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
  const td_world *w = client_world(c);
  const td_rules *r = td_game_rules(c->game);
  size_t n;
  const td_event *ev = td_world_events(w, &n);
  for (size_t i = 0; i < n; i++) {
    const td_event *e = &ev[i];
    client_cards_event(c, e);
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
      sound_at_base(c, TD_SOUND_SELL, e->base);
      break;
    case TD_EVENT_WAVE_STARTED:
      if (e->amount > 0) toast(c, false, "Wave %d called early: +%d gold", e->wave, (int)e->amount);
      else toast(c, false, "Wave %d", e->wave);
      sound(c, TD_SOUND_WAVE, 1);
      break;
    case TD_EVENT_REFUSED: {
      const char *why = td_cards_refusal(e->reason, (int32_t)e->amount);
      toast(c, true, "%c%s", why[0] >= 'a' && why[0] <= 'z' ? why[0] - 'a' + 'A' : why[0], why + 1);
      sound(c, TD_SOUND_REFUSED, 1);
      break;
    }
    case TD_EVENT_REPAIRED:
      c->st.gold_spent += (int32_t)e->amount;
      break;
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
  int32_t gold = td_world_gold(w), spent = c->st.gold_spent;
  if (td_game_step(c->game, &err) != 0) {
    toast(c, true, "the game broke: %s", err.msg);
    return;
  }
  td_scene_after_step(c->scene, w);
  c->st.ticks++;
  consume_events(c);
  client_progress_events(c);
  client_tutorial_events(c);
  /* gold earned: every gain (bounties, sales, wave income, early-call
  ** bonuses, what scripts give), as the tick's change in gold plus what
  ** the tick spent (placing, upgrading, repairing) */
  int32_t gain = td_world_gold(w) - gold + (c->st.gold_spent - spent);
  if (gain > 0) c->st.gold_earned += gain;
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
  client_pad_advance(c, seconds);
  update_music(c);
  if (!c->game) return;
  /* keyboard panning, in screen pixels per second */
  float pan = (float)(600.0 * seconds) / c->cam.zoom;
  if (c->keys_pan[0]) c->cam.cx -= pan;
  if (c->keys_pan[1]) c->cam.cx += pan;
  if (c->keys_pan[2]) c->cam.cy -= pan;
  if (c->keys_pan[3]) c->cam.cy += pan;
  client_clamp_camera(c);
  if (c->screen == SCREEN_GAME && !c->pause_menu && !c->help &&
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

void client_update_preview(td_client *c) {
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
  if (td_world_paused(client_world(c)) == on) return;
  command(c, (td_command){.kind = on ? TD_COMMAND_PAUSE : TD_COMMAND_RESUME});
}

static void upgrade(td_client *c, int child) {
  td_tower_view tv;
  if (c->selected < 0 || !td_world_tower(client_world(c), (size_t)c->selected, &tv)) return;
  const td_tower_level *lv = &td_game_rules(c->game)->levels[tv.level];
  if (child < 0 || child >= TD_RULES_MAX_CHILDREN || lv->children[child] < 0) {
    toast(c, false, lv->children[0] < 0 ? "Fully upgraded" : "No second upgrade here");
    return;
  }
  command(c, (td_command){.kind = TD_COMMAND_UPGRADE, .base = c->selected, .upgrade = child});
}

static void sell(td_client *c) {
  if (c->selected < 0) return;
  command(c, (td_command){.kind = TD_COMMAND_SELL, .base = c->selected});
  c->selected = -1;
}

static void cycle_target(td_client *c) {
  td_tower_view tv;
  if (c->selected < 0 || !td_world_tower(client_world(c), (size_t)c->selected, &tv)) return;
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
  if (c->selected < 0 || !td_world_tower(client_world(c), (size_t)c->selected, &tv) || tv.soldiers <= 0) {
    c->rallying = false;
    return;
  }
  c->rallying = !c->rallying;
  if (c->rallying) toast(c, false, "click where the soldiers should stand (within the ring)");
}

static void repair(td_client *c) {
  if (c->selected < 0) return;
  if (td_world_repair_cost(client_world(c), c->selected) < 0) {
    toast(c, false, "the tower is not damaged");
    return;
  }
  command(c, (td_command){.kind = TD_COMMAND_REPAIR, .base = c->selected});
}

static void place_rally(td_client *c, int x, int y) {
  float wx = td_camera_wx(&c->cam, (float)x), wy = td_camera_wy(&c->cam, (float)y);
  td_tower_view tv;
  c->rallying = false;
  if (c->selected < 0 || !td_world_tower(client_world(c), (size_t)c->selected, &tv)) return;
  td_refusal why = TD_REFUSAL_NONE;
  float xy[2 * TD_RULES_MAX_SOLDIERS];
  if (td_world_rally_posts(client_world(c), c->selected, tv.type, wx, wy, xy, TD_RULES_MAX_SOLDIERS, &why) == 0) {
    toast(c, true, "Cannot rally there: %s", td_cards_refusal(why, -1));
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
  /* an enemy under the pointer (when not building): its card */
  if (c->build_type < 0 && client_cards_click(c, x, y)) return;
  int32_t b = base_at(c, x, y);
  if (b < 0) {
    c->selected = -1;
    return;
  }
  td_tower_view tv;
  if (td_world_tower(client_world(c), (size_t)b, &tv)) {
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
    toast(c, true, "Cannot build here: %s", td_cards_refusal(pc.reason, pc.spawn));
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

static void restart(td_client *c) {
  td_err err = {{0}};
  char path[512];
  snprintf(path, sizeof path, "%s", c->map_path);
  if (c->game) c->endless = td_world_endless(client_world(c)); /* the same mode again */
  if (td_client_start(c, path, &err) != 0) toast(c, true, "%s", err.msg);
}

static void to_main_menu(td_client *c) {
  end_game(c);
  c->screen = SCREEN_MENU;
  c->pause_menu = false;
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
  case A_USER_MOD: client_mods_toggle(c, b->arg); break;
  case A_QUIT:
    if (c->game && c->screen == SCREEN_GAME && td_world_state(client_world(c)) == TD_GAME_PLAYING)
      c->confirm = A_QUIT; /* a game on: ask first */
    else c->quit = true;
    break;
  case A_BACK: c->screen = c->game ? SCREEN_GAME : SCREEN_MENU; break;
  case A_WINSIZE: {
    int k = 0;
    for (int i = 0; i < 4; i++)
      if (sizes[i][0] == c->set.window_w && sizes[i][1] == c->set.window_h) k = (i + 1) % 4;
    c->set.window_w = sizes[k][0];
    c->set.window_h = sizes[k][1];
    c->set.changed |= TD_SETTING_WINDOW;
    c->set_dirty = true;
    break;
  }
  case A_FULLSCREEN:
    c->set.fullscreen = !c->set.fullscreen;
    c->set.changed |= TD_SETTING_FULLSCREEN;
    c->set_dirty = true;
    break;
  case A_VSYNC:
    c->set.vsync = !c->set.vsync;
    c->set.changed |= TD_SETTING_VSYNC;
    c->set_dirty = true;
    break;
  case A_DIFFICULTY: /* easy -> normal -> hard -> easy; the next game started plays it */
    c->set.difficulty = c->set.difficulty == TD_DIFFICULTY_EASY     ? TD_DIFFICULTY_NORMAL
                        : c->set.difficulty == TD_DIFFICULTY_NORMAL ? TD_DIFFICULTY_HARD
                                                                    : TD_DIFFICULTY_EASY;
    c->set.changed |= TD_SETTING_DIFFICULTY;
    break;
  case A_VOLUME: set_volume(c, volume_step(c->set.volume, b->arg)); break;
  case A_VOLUME_SET: set_volume(c, td_ui_slider_level(b, c->ux, 10)); break;
  case A_MUTE: toggle_mute(c); break;
  case A_MUSIC: set_music(c, volume_step(c->set.music, b->arg)); break;
  case A_MUSIC_SET: set_music(c, td_ui_slider_level(b, c->ux, 10)); break;
  case A_PALETTE:
    c->set.palette = (c->set.palette + 1) % TD_PALETTE_COUNT;
    c->set.changed |= TD_SETTING_PALETTE;
    break;
  case A_BUILD: select_build(c, b->arg); break;
  case A_CALL: call_wave(c); break;
  case A_SPEED: c->speed = b->arg; set_pause(c, false); break;
  case A_PAUSE: set_pause(c, !td_world_paused(client_world(c))); break;
  case A_MENU: c->pause_menu = true; break;
  case A_RESUME: c->pause_menu = false; break;
  case A_RESTART:
    if (c->screen == SCREEN_GAME) {
      c->confirm = A_RESTART;
      break;
    }
    restart(c);
    break;
  case A_MAINMENU:
    if (c->screen == SCREEN_GAME) {
      c->confirm = A_MAINMENU;
      break;
    }
    to_main_menu(c);
    break;
  case A_CANCEL: c->confirm = A_NONE; break;
  case A_CONFIRM:
    c->confirm = A_NONE;
    if (b->arg == A_RESTART) restart(c);
    else if (b->arg == A_MAINMENU) to_main_menu(c);
    else if (b->arg == A_QUIT) c->quit = true;
    break;
  case A_UI_SCALE:
    c->set.ui_scale = c->set.ui_scale == 0 ? 100 : c->set.ui_scale == 100 ? 150 : c->set.ui_scale == 150 ? 200 : 0;
    c->set.changed |= TD_SETTING_UI_SCALE;
    break;
  case A_TUTORIAL_NEXT: client_tutorial_next(c); break;
  case A_TUTORIAL_SKIP: client_tutorial_skip(c); break;
  case A_HELP: c->help = !c->help; break;
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
  case A_ENDLESS: c->endless = !c->endless; break;
  case A_CONTINUE: client_continue(c); break;
  case A_SAVE: client_save_game(c); break;
  case A_NEXT_MAP: {
    int next = client_next_map(c);
    if (next >= 0) {
      c->map_sel = next;
      td_client_start(c, c->maps[next], &err);
    }
    break;
  }
  default: break;
  }
}

/* (x, y): pixels, as every mouse position the client keeps; the buttons
** are laid out in UI units. */
static bool click_button(td_client *c, int x, int y) {
  x = (int)((float)x / c->ui);
  y = (int)((float)y / c->ui);
  for (int i = c->nbtn - 1; i >= 0; i--)
    if (td_ui_hit(&c->btn[i].r, x, y) && (!c->help || c->btn[i].action == A_HELP)) {
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
  x = (int)((float)x / c->ui);
  y = (int)((float)y / c->ui);
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
  if (c->confirm != A_NONE) { /* the dialog: Esc cancels, Enter confirms */
    if (sym == SDLK_ESCAPE) c->confirm = A_NONE;
    else if (sym == SDLK_RETURN || sym == SDLK_KP_ENTER) {
      td_ui_button b = {.action = A_CONFIRM, .arg = c->confirm};
      do_action(c, &b);
    }
    return;
  }
  if (c->pause_menu) {
    if (sym == SDLK_ESCAPE) c->pause_menu = false;
    return;
  }
  bool help_key = sym == SDLK_h || sym == SDLK_QUESTION || (sym == SDLK_SLASH && (k->keysym.mod & KMOD_SHIFT));
  if (c->help) { /* the controls screen: H, ? or Esc closes it */
    if (help_key || sym == SDLK_ESCAPE) c->help = false;
    return;
  }
  if (help_key) {
    c->help = true;
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
    else if (!client_tutorial_skip(c)) c->pause_menu = true; /* a tutorial showing: skipped */
    break;
  case SDLK_SPACE:
  case SDLK_p: set_pause(c, !td_world_paused(client_world(c))); break;
  case SDLK_n: call_wave(c); break;
  case SDLK_f: /* the next speed, and play (as the speed buttons do) */
    c->speed = c->speed == 1 ? 2 : c->speed == 2 ? 4 : 1;
    set_pause(c, false);
    break;
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
  case SDLK_HOME: client_fit_camera(c); break;
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

/* The mouse at (x, y) pixels: kept in pixels (the map) and in UI units. */
static void set_mouse(td_client *c, int x, int y) {
  c->mx = x;
  c->my = y;
  c->ux = (int)((float)x / c->ui);
  c->uy = (int)((float)y / c->ui);
}

void td_client_event(td_client *c, const SDL_Event *e) {
  switch (e->type) {
  case SDL_QUIT: /* the window closed: with a game on, ask first */
    if (c->game && c->screen == SCREEN_GAME && td_world_state(client_world(c)) == TD_GAME_PLAYING &&
        c->confirm == A_NONE) {
      c->pause_menu = true;
      c->confirm = A_QUIT;
    } else c->quit = true;
    break;
  case SDL_CONTROLLERBUTTONDOWN:
  case SDL_CONTROLLERBUTTONUP:
  case SDL_CONTROLLERAXISMOTION: client_pad_event(c, e); break;
  case SDL_KEYDOWN: key_down(c, &e->key); break;
  case SDL_KEYUP: key_up(c, e->key.keysym.sym); break;
  case SDL_MOUSEMOTION:
    if (e->motion.which != CLIENT_PAD_MOUSE) c->pad_on = false; /* a mouse, not the pad's pointer */
    set_mouse(c, e->motion.x, e->motion.y);
    if (c->game && c->screen == SCREEN_GAME) {
      if ((c->ldown || c->rdown) && !c->dragging &&
          abs(c->mx - c->down_x) + abs(c->my - c->down_y) > 6 && !in_hud(c, c->down_x, c->down_y))
        c->dragging = true;
      if (c->dragging) {
        c->cam.cx = c->drag_cx - (float)(c->mx - c->down_x) / c->cam.zoom;
        c->cam.cy = c->drag_cy - (float)(c->my - c->down_y) / c->cam.zoom;
        client_clamp_camera(c);
      }
      c->hover = in_hud(c, c->mx, c->my) ? -1 : base_at(c, c->mx, c->my);
    }
    break;
  case SDL_MOUSEBUTTONDOWN:
    set_mouse(c, e->button.x, e->button.y);
    c->down_x = c->mx;
    c->down_y = c->my;
    c->drag_cx = c->cam.cx;
    c->drag_cy = c->cam.cy;
    c->dragging = false;
    if (e->button.button == SDL_BUTTON_LEFT) c->ldown = true;
    else c->rdown = true;
    break;
  case SDL_MOUSEBUTTONUP: {
    set_mouse(c, e->button.x, e->button.y);
    bool was_drag = c->dragging;
    c->dragging = false;
    if (e->button.button == SDL_BUTTON_LEFT) c->ldown = false;
    else c->rdown = false;
    if (was_drag) break;
    client_layout(c);
    if (e->button.button == SDL_BUTTON_LEFT) {
      if (click_button(c, c->mx, c->my)) break;
      if (c->game && c->screen == SCREEN_GAME && !c->pause_menu && !c->help && !in_hud(c, c->mx, c->my))
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
      client_clamp_camera(c);
      /* keep the point under the cursor where it is */
      c->cam.cx = wx - ((float)c->mx - (float)c->cam.vx - (float)c->cam.vw * 0.5f) / c->cam.zoom;
      c->cam.cy = wy - ((float)c->my - (float)c->cam.vy - (float)c->cam.vh * 0.5f) / c->cam.zoom;
      client_clamp_camera(c);
    }
    break;
  default: break;
  }
}

void td_client_mouse_to_output(int win_w, int win_h, int out_w, int out_h, int x, int y, int *ox,
                               int *oy) {
  if (win_w <= 0 || win_h <= 0 || out_w <= 0 || out_h <= 0) {
    *ox = x;
    *oy = y;
    return;
  }
  *ox = (int)((long long)x * out_w / win_w);
  *oy = (int)((long long)y * out_h / win_h);
}
