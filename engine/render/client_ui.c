/*
** client_ui.c: the layout of every screen's buttons and the drawing of the
** menus, the game's HUD and panels, and the end screen (see client.h).
*/
#include "render/client_int.h"

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

td_ui_button *client_add_button(td_client *c, int x, int y, int w, int h, int action, int arg,
                                const char *label) {
  return add_button(c, x, y, w, h, action, arg, label);
}

static const char *mode_names[TD_TARGET_MODE_COUNT] = {"First", "Last", "Strong", "Close", "Script"};

static int32_t refund_of(const td_client *c, const td_tower_view *tv) {
  return (int32_t)floor((double)td_game_rules(c->game)->sell_refund * tv->spent);
}

static int32_t early_bonus(const td_client *c) {
  const td_world *w = client_world(c);
  int64_t t = td_world_next_wave_ticks(w);
  if (t < 0) return 0;
  return (int32_t)floor((double)td_game_rules(c->game)->early_bonus * (double)t / TD_WORLD_TICK_HZ);
}

/* The pause menu's panel: at the left under the top bar. */
static SDL_Rect pause_panel(const td_client *c) {
  int h = c->h - TOP_H - BOTTOM_H - 32;
  return (SDL_Rect){16, TOP_H + 16, 300, h < 380 ? h : 380};
}

static const char *confirm_question(int action) {
  return action == A_RESTART    ? "Restart this game? Progress is lost."
         : action == A_MAINMENU ? "Leave for the main menu? Progress is lost."
                                : "Quit the game? Progress is lost.";
}

static const char *confirm_verb(int action) {
  return action == A_RESTART ? "Restart" : action == A_MAINMENU ? "Main menu" : "Quit";
}

/* The confirm dialog's panel: centred, as wide as its question. */
static SDL_Rect confirm_panel(const td_client *c) {
  int w = td_text_width(confirm_question(c->confirm), 2) + 60;
  if (w < 420) w = 420;
  return (SDL_Rect){(c->w - w) / 2, c->h / 2 - 70, w, 140};
}

static void layout_confirm(td_client *c) {
  SDL_Rect p = confirm_panel(c);
  add_button(c, p.x + p.w / 2 - 190, p.y + 80, 180, 40, A_CONFIRM, c->confirm, confirm_verb(c->confirm));
  add_button(c, p.x + p.w / 2 + 10, p.y + 80, 180, 40, A_CANCEL, 0, "Cancel");
}

/* The main menu: the maps in order on the left (thumbnail, title,
** description, stars at the chosen difficulty), the chosen map's details on
** the right with Start and Continue, then the mode, Settings and Quit. */
#define MENU_ROW 50
#define MENU_ROWS 7 /* rows shown; more maps scroll with the choice */

static int menu_top(const td_client *c) { return c->h / 2 - 130; }

static int menu_first_row(const td_client *c) {
  int first = c->map_sel - MENU_ROWS + 1;
  return first < 0 ? 0 : first;
}

static void layout_menu(td_client *c) {
  int cx = c->w / 2, top = menu_top(c);
  int rows = c->nmaps < MENU_ROWS ? c->nmaps : MENU_ROWS, first = menu_first_row(c);
  for (int k = 0; k < rows; k++) {
    int i = first + k;
    char title[TD_RULES_TITLE_MAX];
    const td_maplist_entry *e = (size_t)i < c->maplist.count ? &c->maplist.e[i] : NULL;
    td_ui_button *b = add_button(c, cx - 430, top + k * (MENU_ROW + 4), 420, MENU_ROW, A_MAP, i,
                                 e ? e->title : client_map_title(c->maps[i], title, sizeof title));
    if (!b) break;
    b->active = i == c->map_sel;
    b->icon_kind = 3; /* the thumbnail, drawn by draw_menu */
    snprintf(b->sub, sizeof b->sub, " ");
  }
  int by = top + 280;
  add_button(c, cx + 20, by, 200, 44, A_START, 0, c->endless ? "Start endless" : "Start");
  td_ui_button *b = add_button(c, cx + 230, by, 200, 44, A_CONTINUE, 0, "Continue");
  if (b) b->enabled = client_has_save(c, c->map_sel);
  int y = top + (rows * (MENU_ROW + 4) > 334 ? rows * (MENU_ROW + 4) : 334) + 12;
  int mh = client_mods_height(c); /* the player's mods under the details panel */
  if (mh > 0) {
    client_mods_layout(c, cx + 10, top + 338, 430);
    if (y < top + 338 + mh + 8) y = top + 338 + mh + 8;
  }
  b = add_button(c, cx - 430, y, 280, 40, A_ENDLESS, 0, c->endless ? "Mode: endless" : "Mode: campaign");
  if (b) b->active = c->endless;
  add_button(c, cx - 140, y, 280, 40, A_SETTINGS, 0, "Settings");
  add_button(c, cx + 150, y, 280, 40, A_QUIT, 0, "Quit");
  c->menu_bottom = y + 40;
}

static void layout_settings(td_client *c) {
  int cx = c->w / 2, y = c->h / 2 - 136;
  const int step = 42, bh = 36; /* ten rows fit 600 units */
  char s[64];
  td_ui_button *b;
  snprintf(s, sizeof s, "Window: %dx%d", c->set.window_w, c->set.window_h);
  add_button(c, cx - 200, y, 400, bh, A_WINSIZE, 0, s);
  snprintf(s, sizeof s, "Fullscreen: %s", c->set.fullscreen ? "on" : "off");
  add_button(c, cx - 200, y + step, 400, bh, A_FULLSCREEN, 0, s);
  snprintf(s, sizeof s, "VSync: %s", c->set.vsync ? "on" : "off");
  add_button(c, cx - 200, y + 2 * step, 400, bh, A_VSYNC, 0, s);
  snprintf(s, sizeof s, "Difficulty: %s%s", td_difficulty_name(c->set.difficulty),
           c->game ? " (next game)" : "");
  add_button(c, cx - 200, y + 3 * step, 400, bh, A_DIFFICULTY, 0, s);
  /* volume and music: - [slider] +, steps of 10 % (Left/Right: the volume) */
  for (int k = 0; k < 2; k++) {
    int ry = y + (4 + k) * step, v = k ? c->set.music : c->set.volume;
    add_button(c, cx - 200, ry, 44, bh, k ? A_MUSIC : A_VOLUME, -1, "-");
    snprintf(s, sizeof s, k ? "Music: %d%%" : "Volume: %d%%", v);
    b = add_button(c, cx - 150, ry, 300, bh, k ? A_MUSIC_SET : A_VOLUME_SET, 0, s);
    if (b) {
      b->slider = true;
      b->level = v;
      b->enabled = true;
    }
    add_button(c, cx + 156, ry, 44, bh, k ? A_MUSIC : A_VOLUME, 1, "+");
  }
  snprintf(s, sizeof s, "Sound: %s%s", c->set.muted ? "muted" : "on", c->audio ? "" : " (no audio device)");
  b = add_button(c, cx - 200, y + 6 * step, 400, bh, A_MUTE, 0, s);
  if (b) snprintf(b->key, sizeof b->key, "M");
  if (c->set.ui_scale > 0) snprintf(s, sizeof s, "UI scale: %g x", (double)c->set.ui_scale / 100);
  else snprintf(s, sizeof s, "UI scale: Auto (%g x)", (double)c->ui);
  add_button(c, cx - 200, y + 7 * step, 400, bh, A_UI_SCALE, 0, s);
  snprintf(s, sizeof s, "Palette: %s", td_palette_title((td_palette_kind)c->set.palette));
  add_button(c, cx - 200, y + 8 * step, 400, bh, A_PALETTE, 0, s);
  add_button(c, cx - 200, y + 9 * step + 14, 400, bh, A_BACK, 0, "Back");
}

static void layout_game(td_client *c) {
  const td_world *w = client_world(c);
  const td_rules *r = td_game_rules(c->game);
  /* top bar, right to left */
  int x = c->w - 8;
  td_ui_button *b;
  x -= 44;
  b = add_button(c, x, 6, 40, 36, A_MENU, 0, "");
  if (b) b->icon = td_atlas_find(c->atlas, "icon_gear");
  x -= 44;
  b = add_button(c, x, 6, 40, 36, A_HELP, 0, "?"); /* the controls screen */
  if (b) snprintf(b->key, sizeof b->key, "H");
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
  else if (td_world_state(w) == TD_GAME_PLAYING && td_world_wave(w) >= r->wave_count)
    snprintf(s, sizeof s, "No more waves");
  else snprintf(s, sizeof s, "Call wave");
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
    char title[TD_RULES_TITLE_MAX];
    b = add_button(c, bx, by, bw, BOTTOM_H - 12, A_BUILD, (int)t,
                   td_cards_tower_title(r, (int32_t)t, title));
    if (!b) break;
    snprintf(b->sub, sizeof b->sub, "%d gold", root->cost);
    snprintf(b->key, sizeof b->key, "%zu", t + 1);
    if (td_text_width(b->label, 2) > bw - b->r.h - 10) b->scale = 1; /* a long title */
    b->icon_kind = 1;
    b->icon_arg = r->towers[t].root;
    if (td_ui_button_need_w(b) > bw) b->scale = 1; /* a long name in a narrow bar */
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
    int ph = 150 + 40 + (nch ? nch * 46 : 24) + 50 + (damaged ? 44 : 0); /* or "Fully upgraded" */
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
    if (nch == 0) ty += 24; /* "Fully upgraded" (drawn by draw_hud) */
    for (int k = 0; k < nch; k++) {
      const td_tower_level *ch = &r->levels[lv->children[k]];
      char lab[64], title[TD_RULES_TITLE_MAX];
      snprintf(lab, sizeof lab, "Upgrade: %s", td_cards_level_title(r, lv->children[k], title));
      b = add_button(c, px + 8, ty, PANEL_W - 16, 40, A_UPGRADE, k, lab);
      if (b) {
        b->scale = 1;
        if (ch->soldiers > 0 && ch->soldier >= 0 && (size_t)ch->soldier < r->soldier_type_count)
          snprintf(b->sub, sizeof b->sub, "%d gold  %d x %.16s", ch->cost, (int)ch->soldiers,
                   r->soldier_types[ch->soldier].title[0] ? r->soldier_types[ch->soldier].title
                                                          : r->soldier_types[ch->soldier].name);
        else
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
  if (c->pause_menu && c->confirm == A_NONE) {
    /* at the left, away from the map's middle where one clicks to build */
    SDL_Rect p = pause_panel(c);
    int mx = p.x + 20, my = p.y + 56, mw = p.w - 40;
    add_button(c, mx, my, mw, 40, A_RESUME, 0, "Resume");
    add_button(c, mx, my + 50, mw, 40, A_SAVE, 0, "Save game");
    add_button(c, mx, my + 100, mw, 40, A_SETTINGS, 0, "Settings");
    add_button(c, mx, my + 170, mw, 40, A_RESTART, 0, "Restart");
    add_button(c, mx, my + 220, mw, 40, A_MAINMENU, 0, "Main menu");
    add_button(c, mx, my + 270, mw, 40, A_QUIT, 0, "Quit");
  }
  if (c->confirm != A_NONE) layout_confirm(c);
  if (c->help) client_help_layout(c);
  client_tutorial_layout(c);
}

static void layout_over(td_client *c) {
  int cx = c->w / 2, y = c->h / 2 + 120;
  bool next = td_world_state(client_world(c)) == TD_GAME_WON && client_next_map(c) >= 0;
  int x = next ? cx - 250 : cx - 205;
  add_button(c, x, y, 160, 44, A_RESTART, 0, "Play again");
  if (next) add_button(c, x + 170, y, 160, 44, A_NEXT_MAP, 0, "Next map");
  add_button(c, next ? x + 340 : cx + 5, y, next ? 160 : 200, 44, A_MAINMENU, 0, "Main menu");
}

void client_layout(td_client *c) {
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
    bool hover = td_ui_hit(&bt->r, c->ux, c->uy);
    td_ui_button_draw(b, bt, hover);
    if (bt->icon_kind == 1 && r) {
      float s = (float)bt->r.h - 8;
      td_scene_tower_icon(c->scene, b, r, bt->icon_arg, (float)bt->r.x + 4 + s / 2,
                          (float)bt->r.y + (float)bt->r.h / 2, s);
    }
  }
}

/* Draws again, on top, the buttons whose action is in [lo, hi] or one of a, b. */
static void draw_buttons_of(td_client *c, int lo, int hi, int a, int b) {
  for (int i = 0; i < c->nbtn; i++) {
    int act = c->btn[i].action;
    if ((act >= lo && act <= hi) || act == a || act == b)
      td_ui_button_draw(&c->batch, &c->btn[i], td_ui_hit(&c->btn[i].r, c->ux, c->uy));
  }
}

static void draw_confirm(td_client *c) {
  td_batch *b = &c->batch;
  SDL_Rect p = confirm_panel(c);
  td_batch_rect(b, 0, 0, (float)c->w, (float)c->h, td_color(0, 0, 0, 120));
  td_ui_panel(b, (float)p.x, (float)p.y, (float)p.w, (float)p.h);
  text_center(b, (float)p.x + (float)p.w / 2.0f, (float)p.y + 30, 2, confirm_question(c->confirm), WHITE);
  draw_buttons_of(c, A_CONFIRM, A_CANCEL, A_CONFIRM, A_CANCEL);
}

static void draw_hud(td_client *c) {
  td_batch *b = &c->batch;
  const td_world *w = client_world(c);
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
  td_game_state gs = td_world_state(w);
  if (gs == TD_GAME_LOST) snprintf(s, sizeof s, "defeat");
  else if (gs == TD_GAME_WON) snprintf(s, sizeof s, "victory");
  else if (td_world_first_wave_waiting(w)) snprintf(s, sizeof s, "waits: build, or N");
  else if (nt >= 0) snprintf(s, sizeof s, "next in %llds", (long long)((nt + TD_WORLD_TICK_HZ - 1) / TD_WORLD_TICK_HZ));
  else if (td_world_wave(w) >= r->wave_count) snprintf(s, sizeof s, "last wave");
  else snprintf(s, sizeof s, "next after this one");
  int sw = td_batch_text(b, x + 38, 30, 1, s, td_color(190, 190, 210, 255), true);
  if (sw > tw) c->r_wave.w = 38 + sw;
  snprintf(c->t_wave, sizeof c->t_wave, "Wave %d/%d %s", td_world_wave(w), r->wave_count, s);
  x += 38 + (float)(tw > 110 ? tw : 110) + 18;
  /* the next wave's preview: icons and counts */
  td_wave_entry pv[12];
  int32_t nw = td_world_wave(w) + 1;
  size_t np = nt >= 0 ? td_world_preview(w, nw, pv, 12) : 0;
  if (np > 12) np = 12;
  float limit = (float)c->r_call.x - 8;
  c->r_preview = (SDL_Rect){0, 0, 0, 0};
  if (np > 0 && x + 60 < limit) {
    float x0 = x;
    td_batch_text(b, x, 18, 1, "NEXT:", td_color(190, 190, 210, 255), true);
    x += 36;
    for (size_t i = 0; i < np && x + 70 < limit; i++) {
      td_scene_enemy_icon(c->scene, b, r, pv[i].enemy, x + 16, 24, 30);
      snprintf(s, sizeof s, "x%d", pv[i].count * pv[i].spawns);
      int t2 = td_batch_text(b, x + 33, 17, 2, s, WHITE, true);
      x += 40 + (float)t2;
    }
    c->r_preview = (SDL_Rect){(int)x0, 6, (int)(x - x0), 36};
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
        td_ui_button_draw(b, &c->btn[i], td_ui_hit(&c->btn[i].r, c->ux, c->uy));
        if (c->btn[i].icon_kind == 1) {
          float sz = (float)c->btn[i].r.h - 8;
          td_scene_tower_icon(c->scene, b, r, c->btn[i].icon_arg, (float)c->btn[i].r.x + 4 + sz / 2,
                              (float)c->btn[i].r.y + (float)c->btn[i].r.h / 2, sz);
        }
      }
    td_scene_tower_icon(c->scene, b, r, tv.level, (float)p.x + 30, (float)p.y + 32, 44);
    char t1[TD_RULES_TITLE_MAX], t2[TD_RULES_TITLE_MAX];
    td_batch_text(b, (float)p.x + 60, (float)p.y + 12, 2, td_cards_level_title(r, tv.level, t1), WHITE,
                  true);
    snprintf(s, sizeof s, "%s, level %d", td_cards_tower_title(r, tv.type, t2), tv.depth + 1);
    td_batch_text(b, (float)p.x + 60, (float)p.y + 34, 1, s, td_color(190, 190, 210, 255), true);
    char st[256], hp[48] = "";
    if (tv.max_health > 0)
      snprintf(hp, sizeof hp, "\nHealth %.0f/%.0f", (double)tv.health, (double)tv.max_health);
    if (tv.soldiers > 0 && lv->soldier >= 0 && (size_t)lv->soldier < r->soldier_type_count) {
      const td_soldier_type *so = &r->soldier_types[lv->soldier];
      snprintf(st, sizeof st,
               "Soldiers %d x %s\nEach   %.0f hp, %.0f dmg x %.2f/s\nRally  within %.1f tiles\n"
               "Respawn %.0f s   Spent %d gold%s",
               (int)tv.soldiers, td_cards_soldier_title(r, lv->soldier, t1), (double)so->health, (double)so->damage, (double)so->rate,
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
    if (lv->children[0] < 0)
      td_batch_text(b, (float)p.x + 10, (float)p.y + 190, 2, "Fully upgraded", td_color(150, 230, 160, 255),
                    true);
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
  const td_world *w = client_world(c);
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
  client_update_preview(c);
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
    const char *why = td_cards_refusal(c->pc.reason, c->pc.spawn);
    snprintf(c->ghost_why, sizeof c->ghost_why, "%c%s",
             why[0] >= 'a' && why[0] <= 'z' ? why[0] - 'a' + 'A' : why[0], why[0] ? why + 1 : "");
    p.ghost.reason = c->ghost_why;
  }
  td_batch_set_scale(b, 1);
  td_scene_set_palette(c->scene, (td_palette_kind)c->set.palette);
  td_scene_draw(c->scene, b, w, &c->cam, &p);
  td_batch_set_scale(b, c->ui);
  c->r_toast = (SDL_Rect){0, 0, 0, 0};
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
  if (td_world_paused(w) && !c->pause_menu) /* under the boss bar when one shows */
    text_center(b, (float)c->w / 2, c->cards.r_boss.w > 0 ? TOP_H + 50 : TOP_H + 14, 3, "PAUSED",
                td_color(255, 255, 255, 230));
  if (c->toast[0] && c->time < c->toast_until) {
    int tw = td_text_width(c->toast, 2);
    float tx = (float)(c->w - tw) / 2, ty = (float)(c->h - BOTTOM_H - 44);
    td_batch_rect(b, tx - 10, ty - 6, (float)tw + 20, 28, td_color(10, 10, 16, 210));
    c->r_toast = (SDL_Rect){(int)tx - 10, (int)ty - 6, tw + 20, 28};
    td_batch_text(b, tx, ty, 2, c->toast,
                  c->toast_bad ? td_palette_get((td_palette_kind)c->set.palette)->refused_text : WHITE, true);
  }
  client_tutorial_draw(c);
  draw_errors(c);
  if (c->show_errors && td_mod_error_count(td_game_mod(c->game)) > 0) {
    /* the Copy/Hide buttons sit on the error panel: draw them again on top */
    for (int i = 0; i < c->nbtn; i++)
      if (c->btn[i].action == A_ERR_COPY || c->btn[i].action == A_ERR_CLOSE)
        td_ui_button_draw(b, &c->btn[i], td_ui_hit(&c->btn[i].r, c->ux, c->uy));
  }
  if (c->pause_menu) {
    td_batch_rect(b, 0, 0, (float)c->w, (float)c->h, td_color(0, 0, 0, 140));
    SDL_Rect pp = pause_panel(c);
    td_ui_panel(b, (float)pp.x, (float)pp.y, (float)pp.w, (float)pp.h);
    text_center(b, (float)pp.x + (float)pp.w / 2.0f, (float)pp.y + 16, 3, "Paused", WHITE);
    if (c->confirm == A_NONE) {
      draw_buttons_of(c, A_RESUME, A_MAINMENU, A_QUIT, A_SETTINGS);
      draw_buttons_of(c, A_SAVE, A_SAVE, A_SAVE, A_SAVE);
    }
  }
  if (c->confirm != A_NONE) draw_confirm(c);
  if (c->help) client_help_draw(c);
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

/* A five-pointed star, filled or an empty slot. */
static void draw_star(td_batch *b, float cx, float cy, float r, bool filled) {
  SDL_Color col = filled ? td_color(255, 205, 60, 255) : td_color(70, 72, 90, 255);
  float px[10], py[10];
  for (int i = 0; i < 10; i++) {
    float a = (float)(-3.14159265 / 2 + i * 3.14159265 / 5), rr = i % 2 ? r * 0.45f : r;
    px[i] = cx + rr * cosf(a);
    py[i] = cy + rr * sinf(a);
  }
  for (int i = 0; i < 10; i++) td_batch_tri(b, cx, cy, px[i], py[i], px[(i + 1) % 10], py[(i + 1) % 10], col);
}

static void draw_stars(td_batch *b, float x, float cy, float r, int n) {
  for (int i = 0; i < 3; i++) draw_star(b, x + r + (float)i * (2 * r + 3), cy, r, i < n);
}

static const td_progress_entry *progress_of(const td_client *c, int map) {
  char name[64];
  if (map < 0 || map >= c->nmaps) return NULL;
  td_game_map_name_of(c->maps[map], name, sizeof name);
  return td_progress_find(&c->progress, name);
}

/* The chosen map's details: a big thumbnail, its words, stars at every
** difficulty, endless mode's best wave. */
static void draw_menu_details(td_client *c) {
  td_batch *b = &c->batch;
  int cx = c->w / 2, top = menu_top(c);
  float px = (float)cx + 10, pw = 430;
  td_ui_panel(b, px, (float)top, pw, 334);
  if (c->map_sel < 0 || (size_t)c->map_sel >= c->maplist.count) return;
  const td_maplist_entry *e = &c->maplist.e[c->map_sel];
  const td_progress_entry *pe = progress_of(c, c->map_sel);
  td_maplist_draw_thumb(b, e, px + 10, (float)top + 10, pw - 20, 170);
  td_batch_text(b, px + 12, (float)top + 188, 2, e->title, WHITE, true);
  if (e->user)
    td_batch_text(b, px + pw - 76, (float)top + 192, 1, "user map", td_color(140, 210, 160, 255), true);
  td_batch_text(b, px + 12, (float)top + 208, 1, e->error[0] ? e->error : e->description,
                e->error[0] ? td_color(255, 120, 100, 255) : td_color(200, 200, 215, 255), true);
  static const td_difficulty order[3] = {TD_DIFFICULTY_EASY, TD_DIFFICULTY_NORMAL, TD_DIFFICULTY_HARD};
  for (int i = 0; i < 3; i++) {
    float x = px + 12 + (float)i * 140;
    bool cur = order[i] == c->set.difficulty;
    td_batch_text(b, x, (float)top + 226, 1, td_difficulty_name(order[i]),
                  cur ? WHITE : td_color(150, 150, 170, 255), true);
    draw_stars(b, x, (float)top + 246, 8, pe ? pe->stars[order[i]] : 0);
  }
  char s[96];
  int32_t best = pe ? pe->wave[c->set.difficulty] : 0;
  if (best > 0) snprintf(s, sizeof s, "Endless, %s: best wave %d", td_difficulty_name(c->set.difficulty), (int)best);
  else snprintf(s, sizeof s, "Endless, %s: not played yet", td_difficulty_name(c->set.difficulty));
  td_batch_text(b, px + 12, (float)top + 262, 1, s, td_color(190, 190, 210, 255), true);
}

static void draw_menu(td_client *c) {
  draw_title(c, "a tower defense - choose a map");
  draw_menu_details(c);
  draw_buttons(c);
  client_mods_draw(c);
  for (int i = 0; i < c->nbtn; i++) { /* the rows' thumbnails, descriptions and stars */
    const td_ui_button *bt = &c->btn[i];
    if (bt->action != A_MAP || bt->arg < 0 || (size_t)bt->arg >= c->maplist.count) continue;
    const td_maplist_entry *e = &c->maplist.e[bt->arg];
    const td_progress_entry *pe = progress_of(c, bt->arg);
    float x = (float)bt->r.x, y = (float)bt->r.y, h = (float)bt->r.h;
    td_maplist_draw_thumb(&c->batch, e, x + 4, y + 4, h - 8, h - 8);
    char d[64];
    int cut = e->user ? 40 : 50; /* a user map's row keeps room for its mark */
    snprintf(d, sizeof d, "%.*s%s", cut, e->description, strlen(e->description) > (size_t)cut ? "..." : "");
    td_batch_text(&c->batch, x + h + 4, y + 31, 1, d, td_color(190, 190, 210, 255), true);
    draw_stars(&c->batch, x + (float)bt->r.w - 66, y + 14, 9, pe ? pe->stars[c->set.difficulty] : 0);
    if (e->user) /* one of the player's own (DATA_HOME/td/maps) */
      td_batch_text(&c->batch, x + (float)bt->r.w - 66, y + 31, 1, "user map", td_color(140, 210, 160, 255), true);
  }
  if (c->nmaps == 0)
    text_center(&c->batch, (float)c->w / 2, (float)c->h / 2 - 60, 2, "no maps found", td_color(255, 120, 100, 255));
  /* an error under the last row of buttons; the keys' hint under it when there is room */
  int ey = c->h - 40 > c->menu_bottom + 4 ? c->h - 40 : c->menu_bottom + 4;
  if (c->menu_error[0])
    text_center(&c->batch, (float)c->w / 2, (float)ey, 1, c->menu_error, td_color(255, 120, 100, 255));
  if (!c->menu_error[0] || ey + 20 <= c->h - 10)
    text_center(&c->batch, (float)c->w / 2, c->menu_error[0] ? (float)ey + 20 : (float)c->h - 20, 1,
                "Up/Down pick a map, Enter starts, Esc quits", td_color(170, 170, 190, 255));
}

static void draw_over(td_client *c) {
  td_batch *b = &c->batch;
  const td_world *w = client_world(c);
  bool won = td_world_state(w) == TD_GAME_WON;
  draw_title(c, "");
  td_ui_panel(b, (float)c->w / 2 - 260, (float)c->h / 2 - 150, 520, 320);
  text_center(b, (float)c->w / 2, (float)c->h / 2 - 135, 5, won ? "Victory!" : "Defeat",
              won ? td_color(255, 215, 80, 255) : td_color(255, 90, 80, 255));
  char s[1024], title[TD_RULES_TITLE_MAX];
  uint64_t secs = c->st.ticks / TD_WORLD_TICK_HZ;
  snprintf(s, sizeof s,
           "Map          %s\nWaves        %d of %d\nLives left   %d\nKilled       %d\nLeaked       %d"
           "\nTowers built %d (upgrades %d, sold %d)\nGold spent   %d\nGold earned  %d\nGame time    %llu:%02llu",
           client_game_title(c, title, sizeof title), td_world_wave(w), td_game_rules(c->game)->wave_count,
           td_world_lives(w), c->st.kills, c->st.leaks, c->st.built, c->st.upgrades, c->st.sold,
           c->st.gold_spent, c->st.gold_earned, (unsigned long long)(secs / 60),
           (unsigned long long)(secs % 60));
  td_batch_text(b, (float)c->w / 2 - 230, (float)c->h / 2 - 70, 2, s, WHITE, true);
  if (won) draw_stars(b, (float)c->w / 2 + 150, (float)c->h / 2 - 116, 12, c->stars);
  if (c->record || td_world_endless(w)) {
    char r[96];
    char name[64];
    td_game_map_name_of(c->map_path, name, sizeof name);
    const td_progress_entry *pe = td_progress_find(&c->progress, name);
    if (td_world_endless(w))
      snprintf(r, sizeof r, "%sbest wave %d", c->record ? "New record: " : "Endless: ",
               pe ? (int)pe->wave[td_game_difficulty(c->game)] : td_world_wave(w));
    else snprintf(r, sizeof r, "New record: %d star%s", c->stars, c->stars == 1 ? "" : "s");
    text_center(b, (float)c->w / 2, (float)c->h / 2 - 88, 1, r, td_color(255, 215, 80, 255));
  }
  snprintf(c->t_over, sizeof c->t_over, "%s", s);
  draw_buttons(c);
}

/* The UI scale for a w x h window: the setting (1x, 1.5x, 2x) or, on
** Auto, the largest of 1, 1.5, 2 and 3 that leaves at least 1280 x 720
** units (1920x1080: 1.5x, 2560x1440: 2x, 4K: 3x); never so large that
** fewer than 960 x 600 units remain (the smallest layout checked). */
static float ui_factor(const td_client *c, int w, int h) {
  static const float autos[] = {3, 2, 1.5f};
  float k = (float)c->set.ui_scale / 100.0f;
  if (c->set.ui_scale <= 0) {
    k = 1;
    for (size_t i = 0; i < sizeof autos / sizeof autos[0]; i++)
      if ((float)w / autos[i] >= 1280 && (float)h / autos[i] >= 720) {
        k = autos[i];
        break;
      }
  }
  float fit = fminf((float)w / 960.0f, (float)h / 600.0f);
  if (k > fit) k = fit;
  return k < 1 ? 1 : k;
}

void td_client_draw(td_client *c, int w, int h) {
  float k = ui_factor(c, w, h);
  if (w != c->pw || h != c->ph || k != c->ui) {
    float oz = c->cam.zoom;
    c->pw = w;
    c->ph = h;
    c->ui = k;
    c->w = (int)((float)w / k);
    c->h = (int)((float)h / k);
    client_layout_viewport(c);
    if (c->cam_set) {
      c->cam.zoom = oz;
      client_clamp_camera(c);
    }
  }
  if (c->game && !c->cam_set) {
    client_layout_viewport(c);
    client_fit_camera(c);
    c->cam_set = true;
  }
  client_layout(c);
  c->ndrawn = 0;
  c->drawn[0] = '\0';
  td_batch_begin(&c->batch, w, h);
  td_batch_clear(&c->batch, td_color(12, 14, 20, 255));
  td_batch_set_scale(&c->batch, c->ui); /* the UI in units of ui pixels; the map in pixels */
  switch (c->screen) {
  case SCREEN_MENU: draw_menu(c); break;
  case SCREEN_SETTINGS: draw_title(c, "settings"); draw_buttons(c); break;
  case SCREEN_GAME: draw_game(c); break;
  case SCREEN_OVER: draw_over(c); break;
  default: break;
  }
  client_cards_draw(c);
  client_pad_draw(c);
  td_batch_end(&c->batch);
}

bool td_client_base_screen(const td_client *c, int32_t base, int *x, int *y) {
  if (!c->game || base < 0 || (size_t)base >= td_game_map(c->game)->base_count) return false;
  const td_tower_base *b = &td_game_map(c->game)->bases[base];
  *x = (int)lrintf(td_camera_sx(&c->cam, (float)(b->x + b->w / 2)));
  *y = (int)lrintf(td_camera_sy(&c->cam, (float)(b->y + b->h / 2)));
  return true;
}

/* A rectangle of the UI (in units of ui pixels) in the frame's pixels. */
static SDL_Rect to_pixels(const td_client *c, SDL_Rect r) {
  int x0 = (int)lrintf((float)r.x * c->ui), y0 = (int)lrintf((float)r.y * c->ui);
  int x1 = (int)lrintf((float)(r.x + r.w) * c->ui), y1 = (int)lrintf((float)(r.y + r.h) * c->ui);
  return (SDL_Rect){x0, y0, x1 - x0, y1 - y0};
}

bool td_client_region(const td_client *c, const char *name, SDL_Rect *out) {
  if (client_cards_region(c, name, out)) return true;
  if (c->screen != SCREEN_GAME) return false;
  if (!strcmp(name, "gold")) *out = c->r_gold;
  else if (!strcmp(name, "lives")) *out = c->r_lives;
  else if (!strcmp(name, "wave")) *out = c->r_wave;
  else if (!strcmp(name, "hud")) *out = c->r_hud;
  else if (!strcmp(name, "build")) *out = c->r_build;
  else if (!strcmp(name, "call")) *out = c->r_call;
  else if (!strcmp(name, "panel") && c->panel_shown) *out = c->r_panel;
  else if (!strcmp(name, "help") && c->help) *out = c->r_help;
  else if (!strcmp(name, "tutorial")) {
    if (!client_tutorial_region(c, out)) return false;
  } else return false;
  *out = to_pixels(c, *out);
  return true;
}

const char *td_client_text(const td_client *c, const char *name) {
  if (!strcmp(name, "wave")) return c->t_wave;
  if (!strcmp(name, "over")) return c->screen == SCREEN_OVER ? c->t_over : "";
  if (!strcmp(name, "confirm")) return c->confirm != A_NONE ? confirm_question(c->confirm) : "";
  if (!strcmp(name, "tutorial")) return c->screen == SCREEN_GAME ? c->t_tutorial : "";
  return NULL;
}

int td_client_areas(const td_client *c, td_client_area *out, int cap) {
  int n = 0;
  if (c->screen == SCREEN_GAME && c->help) { /* the controls screen: its rows and Close */
    n = client_help_areas(c, out, cap);
    for (int i = 0; i < n && i < cap; i++) {
      out[i].r = to_pixels(c, out[i].r);
      out[i].need_w = (int)lrintf((float)out[i].need_w * c->ui);
    }
    for (int i = 0; i < c->nbtn; i++)
      if (c->btn[i].action == A_HELP && td_ui_hit(&c->r_help, c->btn[i].r.x, c->btn[i].r.y)) {
        if (n < cap) {
          snprintf(out[n].name, sizeof out[n].name, "%s", c->btn[i].label);
          out[n].r = to_pixels(c, c->btn[i].r);
          out[n].need_w = (int)lrintf((float)td_ui_button_need_w(&c->btn[i]) * c->ui);
        }
        n++;
      }
    return n;
  }
  const struct { const char *name; const SDL_Rect *r; } hud[] = {
    {"gold", &c->r_gold}, {"lives", &c->r_lives}, {"wave", &c->r_wave},
    {"preview", &c->r_preview}, {"toast", &c->r_toast}};
  if (c->screen == SCREEN_GAME && !c->pause_menu && c->confirm == A_NONE)
    for (size_t i = 0; i < sizeof hud / sizeof hud[0]; i++) {
      if (hud[i].r->w <= 0 || hud[i].r->h <= 0) continue;
      if (n < cap) {
        snprintf(out[n].name, sizeof out[n].name, "%s", hud[i].name);
        out[n].r = to_pixels(c, *hud[i].r);
        out[n].need_w = 0;
      }
      n++;
    }
  for (int i = 0; i < c->nbtn; i++) {
    /* under the pause menu or a dialog, only their buttons count */
    int a = c->btn[i].action;
    if (c->confirm != A_NONE && a != A_CONFIRM && a != A_CANCEL) continue;
    if (c->confirm == A_NONE && c->pause_menu && a != A_RESUME && a != A_RESTART &&
        a != A_SETTINGS && a != A_MAINMENU && a != A_QUIT)
      continue;
    if (n < cap) {
      if (c->btn[i].label[0]) snprintf(out[n].name, sizeof out[n].name, "%s", c->btn[i].label);
      else snprintf(out[n].name, sizeof out[n].name, "button %d", i);
      out[n].r = to_pixels(c, c->btn[i].r);
      out[n].need_w = (int)lrintf((float)td_ui_button_need_w(&c->btn[i]) * c->ui);
    }
    n++;
  }
  return n;
}

bool td_client_button(const td_client *c, const char *label, int *x, int *y) {
  for (int i = 0; i < c->nbtn; i++)
    if (!strncmp(c->btn[i].label, label, strlen(label))) {
      SDL_Rect r = to_pixels(c, c->btn[i].r);
      *x = r.x + r.w / 2;
      *y = r.y + r.h / 2;
      return true;
    }
  return false;
}
