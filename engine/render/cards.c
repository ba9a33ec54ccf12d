/*
** cards.c: display names, refusal words, tooltips, tower and enemy cards
** and the boss bar (see cards.h); then the client's side: when each shows.
*/
#include <stdarg.h>

#include "render/client_int.h"

/* ---- names ------------------------------------------------------------------- */

static const char *title_or_id(const char *title, const char *name, char buf[TD_RULES_TITLE_MAX]) {
  if (title[0]) return title;
  td_mod_title_from_name(name, buf, TD_RULES_TITLE_MAX);
  return buf;
}

const char *td_cards_tower_title(const td_rules *r, int32_t type, char buf[TD_RULES_TITLE_MAX]) {
  if (type < 0 || (size_t)type >= r->tower_count) return "Tower";
  return title_or_id(r->towers[type].title, r->towers[type].name, buf);
}

const char *td_cards_level_title(const td_rules *r, int32_t level, char buf[TD_RULES_TITLE_MAX]) {
  if (level < 0 || (size_t)level >= r->level_count) return "Tower";
  return title_or_id(r->levels[level].title, r->levels[level].name, buf);
}

const char *td_cards_enemy_title(const td_rules *r, int32_t type, char buf[TD_RULES_TITLE_MAX]) {
  if (type < 0 || (size_t)type >= r->enemy_count) return "Enemy";
  return title_or_id(r->enemies[type].title, r->enemies[type].name, buf);
}

const char *td_cards_soldier_title(const td_rules *r, int32_t type, char buf[TD_RULES_TITLE_MAX]) {
  if (type < 0 || (size_t)type >= r->soldier_type_count) return "Soldier";
  return title_or_id(r->soldier_types[type].title, r->soldier_types[type].name, buf);
}

const char *td_cards_refusal(td_refusal why, int32_t spawn) {
  switch (why) {
  case TD_REFUSAL_NONE: return "";
  case TD_REFUSAL_NO_BASE: return "towers go on the building pads";
  case TD_REFUSAL_OCCUPIED: return "a tower already stands there";
  case TD_REFUSAL_NO_TOWER: return "there is no tower there";
  case TD_REFUSAL_GOLD: return "not enough gold";
  case TD_REFUSAL_CUTS_ROUTE:
    return spawn >= 0 ? "it would block the last way to the exit"
                      : "it would shut in enemies already on the road";
  case TD_REFUSAL_NO_UPGRADE: return "fully upgraded";
  case TD_REFUSAL_NO_WAVE: return "there are no more waves to call";
  case TD_REFUSAL_GAME_OVER: return "the game is over";
  case TD_REFUSAL_BAD_COMMAND: return "that cannot be done";
  case TD_REFUSAL_NO_SOLDIERS: return "this tower has no soldiers";
  case TD_REFUSAL_RALLY_RANGE: return "too far from the barracks (stay inside the ring)";
  case TD_REFUSAL_RALLY_GROUND: return "soldiers cannot stand there";
  case TD_REFUSAL_NOT_DAMAGED: return "the tower is not damaged";
  default: return "that cannot be done";
  }
}

/* ---- card text ----------------------------------------------------------------- */

typedef struct sb {
  char *p;
  size_t cap, n;
} sb;

static void add(sb *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void add(sb *s, const char *fmt, ...) {
  if (s->n + 1 >= s->cap) return;
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(s->p + s->n, s->cap - s->n, fmt, ap);
  va_end(ap);
  if (k > 0) s->n = s->n + (size_t)k < s->cap ? s->n + (size_t)k : s->cap - 1;
}

static const char *role_of(const td_tower_level *l) {
  if (l->soldiers > 0) return "Barracks: soldiers hold enemies on the road";
  if (l->rate <= 0 && (l->buff_damage > 0 || l->buff_rate > 0))
    return "Support: strengthens towers nearby";
  if (l->rate <= 0) return "Fires nothing";
  if (!l->hits_ground && l->hits_air) return "Anti-air";
  if (l->shot == TD_SHOT_CHAIN) return "Chain: jumps from enemy to enemy";
  if (l->shot == TD_SHOT_PIERCE) return "Pierce: passes through enemies";
  if (l->splash > 0) return "Splash: hurts all around the target";
  if (l->effect.kind == TD_EFFECT_SLOW) return "Slow: chills what it hits";
  if (l->effect.kind == TD_EFFECT_STUN) return "Stun: stops what it hits";
  return "Single target";
}

static const char *damage_name(const td_rules *r, int32_t t) {
  return t >= 0 && t < r->damage_type_count ? r->damage_types[t] : "";
}

const char *td_cards_level_text(const td_rules *r, int32_t level, const char *description,
                                char *out, size_t cap) {
  char raw[TD_CARDS_TEXT_MAX], tb[TD_RULES_TITLE_MAX];
  sb s = {raw, sizeof raw, 0};
  raw[0] = '\0';
  if (level >= 0 && (size_t)level < r->level_count) {
    const td_tower_level *l = &r->levels[level];
    add(&s, "%s\n", role_of(l));
    if (l->soldiers > 0 && l->soldier >= 0 && (size_t)l->soldier < r->soldier_type_count) {
      const td_soldier_type *so = &r->soldier_types[l->soldier];
      add(&s, "Soldiers %d x %s\n", (int)l->soldiers, td_cards_soldier_title(r, l->soldier, tb));
      add(&s, "Each     %.0f health, %.0f %s damage x %.2g/s\n", (double)so->health,
          (double)so->damage, damage_name(r, so->damage_type), (double)so->rate);
      add(&s, "Targets  ground only (soldiers block the road)\n");
      add(&s, "Rally    within %.1f tiles; back %.0f s after a fall\n", (double)l->range,
          (double)so->respawn);
    } else if (l->rate > 0) {
      add(&s, "Targets  %s\n", l->hits_ground && l->hits_air ? "ground and air"
                               : l->hits_air ? "air only" : l->hits_ground ? "ground only" : "nothing");
      add(&s, "Damage   %.0f %s, %.2g shots/s\n", (double)l->damage, damage_name(r, l->damage_type),
          (double)l->rate);
      add(&s, "DPS      %.0f", (double)(l->damage * l->rate));
      if (l->shot == TD_SHOT_CHAIN) add(&s, " (+%d jumps)", (int)l->chain);
      if (l->shot == TD_SHOT_PIERCE && l->pierce > 1) add(&s, " (through %d)", (int)l->pierce);
      if (l->splash > 0) add(&s, " (splash %.1f tiles)", (double)l->splash);
      add(&s, "\nRange    %.1f tiles\n", (double)l->range);
    } else {
      add(&s, "Range    %.1f tiles\n", (double)l->range);
    }
    if (l->effect.kind == TD_EFFECT_SLOW)
      add(&s, "Effect   slows %.0f%% for %.1f s\n", (double)(l->effect.magnitude * 100),
          (double)l->effect.duration);
    else if (l->effect.kind == TD_EFFECT_DOT)
      add(&s, "Effect   burns %.0f/s for %.1f s\n", (double)l->effect.magnitude,
          (double)l->effect.duration);
    else if (l->effect.kind == TD_EFFECT_STUN)
      add(&s, "Effect   stuns for %.1f s (not bosses)\n", (double)l->effect.duration);
    if (l->buff_damage > 0 || l->buff_rate > 0)
      add(&s, "Aura     towers in range: +%.0f%% damage, +%.0f%% rate\n",
          (double)(l->buff_damage * 100), (double)(l->buff_rate * 100));
    if (l->health > 0) add(&s, "Health   %.0f (sappers attack it)\n", (double)l->health);
    int nch = 0;
    for (int k = 0; k < TD_RULES_MAX_CHILDREN && l->children[k] >= 0; k++) {
      add(&s, "%s%s", nch ? " or " : "Upgrades ", td_cards_level_title(r, l->children[k], tb));
      nch++;
    }
    if (nch) add(&s, "\n");
  }
  if (description && description[0]) add(&s, "\n%s", description);
  while (s.n > 0 && raw[s.n - 1] == '\n') raw[--s.n] = '\0';
  td_cards_wrap(raw, (TD_CARDS_WIDTH - 16) / 6, out, cap);
  return out;
}

const char *td_cards_enemy_text(const td_rules *r, int32_t type, const td_enemy_view *ev,
                                char *out, size_t cap) {
  char raw[TD_CARDS_TEXT_MAX], tb[TD_RULES_TITLE_MAX];
  sb s = {raw, sizeof raw, 0};
  raw[0] = '\0';
  if (type >= 0 && (size_t)type < r->enemy_count) {
    const td_enemy_type *e = &r->enemies[type];
    if (ev) add(&s, "Health   %.0f / %.0f", (double)ev->health, (double)ev->max_health);
    else add(&s, "Health   %.0f", (double)e->health);
    if (e->regen > 0) add(&s, " (+%.0f/s)", (double)e->regen);
    add(&s, "\nSpeed    %.2g tiles/s%s\n", (double)e->speed, e->flying ? ", flying" : "");
    add(&s, "Armour   %.0f%s\n", (double)e->armour, e->armour > 0 ? " off every hit" : "");
    char res[200] = "", weak[200] = "";
    for (int t = 0; t < r->damage_type_count && t < TD_RULES_MAX_DAMAGE_TYPES; t++) {
      float v = e->resist[t];
      if (v == 0) continue;
      char *dst = v > 0 ? res : weak;
      size_t n = strlen(dst);
      snprintf(dst + n, sizeof res - n, "%s%s %.0f%%", n ? ", " : "", r->damage_types[t],
               (double)fabsf(v * 100));
    }
    add(&s, "Resists  %s\n", res[0] ? res : "nothing");
    if (weak[0]) add(&s, "Weak to  %s\n", weak);
    if (e->flying) add(&s, "Flying: only towers that hit air reach it\n");
    if (e->boss) add(&s, "Boss: never stunned, slows on it halved\n");
    if (e->heal_radius > 0 && e->heal_rate > 0)
      add(&s, "Heals    others within %.1f tiles, %.0f/s\n", (double)e->heal_radius,
          (double)e->heal_rate);
    if (e->split_into >= 0 && e->split_count > 0)
      add(&s, "Splits   into %d x %s\n", (int)e->split_count,
          td_cards_enemy_title(r, e->split_into, tb));
    if (e->siege_damage > 0) add(&s, "Sapper: attacks towers that can be hurt\n");
    if (e->melee_rate > 0) add(&s, "Fights back against soldiers\n");
    add(&s, "Reward   %d gold; %d %s if it gets through\n", (int)e->bounty, (int)e->lives,
        e->lives == 1 ? "life" : "lives");
    if (e->description[0]) add(&s, "\n%s", e->description);
  }
  while (s.n > 0 && raw[s.n - 1] == '\n') raw[--s.n] = '\0';
  td_cards_wrap(raw, (TD_CARDS_WIDTH - 16) / 6, out, cap);
  return out;
}

/* Cells of s[0 .. n): UTF-8 characters. */
static int cells(const char *s, size_t n) {
  int k = 0;
  for (size_t i = 0; i < n; i++) k += ((unsigned char)s[i] & 0xc0) != 0x80;
  return k;
}

void td_cards_wrap(const char *in, int cols, char *out, size_t cap) {
  if (cap == 0) return;
  size_t k = 0;
  int col = 0;
  if (cols < 4) cols = 4;
  const char *p = in;
  while (*p && k + 1 < cap) {
    if (*p == '\n') {
      out[k++] = '\n';
      col = 0;
      p++;
      continue;
    }
    if (*p == ' ' && col == 0) { /* no blank at the start of a wrapped line */
      p++;
      continue;
    }
    size_t wl = strcspn(p, " \n");
    int wc = cells(p, wl);
    if (col > 0 && col + wc > cols && p[0] != ' ') { /* the word on the next line */
      while (k > 0 && out[k - 1] == ' ') k--;
      out[k++] = '\n';
      col = 0;
      continue;
    }
    if (wl == 0) { /* a blank */
      out[k++] = ' ';
      col++;
      p++;
      continue;
    }
    /* the word, cut when longer than a line */
    size_t i = 0;
    while (i < wl && k + 1 < cap) {
      if (col >= cols && ((unsigned char)p[i] & 0xc0) != 0x80) {
        out[k++] = '\n';
        col = 0;
        if (k + 1 >= cap) break;
      }
      col += ((unsigned char)p[i] & 0xc0) != 0x80;
      out[k++] = p[i++];
    }
    p += i;
  }
  out[k] = '\0';
}

/* ---- drawing --------------------------------------------------------------------- */

#define PAD 8

SDL_Rect td_cards_measure(int x, int y, const char *title, const char *sub, const char *body) {
  int w = td_text_width(title, 2);
  int h = PAD + 16;
  if (sub && sub[0]) {
    if (td_text_width(sub, 1) > w) w = td_text_width(sub, 1);
    h += 12;
  }
  if (body && body[0]) {
    if (td_text_width(body, 1) > w) w = td_text_width(body, 1);
    h += 6 + td_text_height(body, 1);
  }
  return (SDL_Rect){x, y, w + 2 * PAD + 4, h + PAD};
}

SDL_Rect td_cards_clamp(SDL_Rect r, int sw, int sh) {
  if (r.x + r.w > sw - 4) r.x = sw - 4 - r.w;
  if (r.y + r.h > sh - 4) r.y = sh - 4 - r.h;
  if (r.x < 4) r.x = 4;
  if (r.y < 4) r.y = 4;
  return r;
}

void td_cards_draw(td_batch *b, SDL_Rect r, const char *title, const char *sub, const char *body,
                   SDL_Color accent) {
  float x = (float)r.x, y = (float)r.y;
  td_batch_rect(b, x, y, (float)r.w, (float)r.h, td_color(16, 18, 28, 240));
  td_batch_rect_outline(b, x, y, (float)r.w, (float)r.h, 1, td_color(110, 116, 150, 255));
  td_batch_rect(b, x, y, 4, (float)r.h, accent);
  float ty = y + PAD;
  td_batch_text(b, x + PAD + 4, ty, 2, title, td_color(255, 255, 255, 255), true);
  ty += 16;
  if (sub && sub[0]) {
    td_batch_text(b, x + PAD + 4, ty + 2, 1, sub, td_color(255, 215, 90, 255), true);
    ty += 12;
  }
  if (body && body[0])
    td_batch_text(b, x + PAD + 4, ty + 6, 1, body, td_color(222, 224, 235, 255), true);
}

SDL_Rect td_cards_boss_bar(td_batch *b, int sw, int y, const char *title, float health, float max,
                           int more) {
  int w = sw - 40 < 520 ? sw - 40 : 520;
  if (w < 120) w = 120;
  SDL_Rect r = {(sw - w) / 2, y, w, 34};
  float x = (float)r.x, fy = (float)r.y;
  td_batch_rect(b, x, fy, (float)w, 34, td_color(20, 8, 12, 225));
  td_batch_rect_outline(b, x, fy, (float)w, 34, 1, td_color(200, 70, 60, 255));
  char s[TD_RULES_TITLE_MAX + 32];
  if (more > 0) snprintf(s, sizeof s, "%s  (+%d more)", title, more);
  else snprintf(s, sizeof s, "%s", title);
  td_batch_text(b, x + 8, fy + 4, 1, s, td_color(255, 200, 190, 255), true);
  char hp[48];
  snprintf(hp, sizeof hp, "%.0f / %.0f", (double)health, (double)max);
  td_batch_text(b, x + (float)w - 8 - (float)td_text_width(hp, 1), fy + 4, 1, hp,
                td_color(255, 200, 190, 255), true);
  float share = max > 0 ? health / max : 0;
  if (share < 0) share = 0;
  if (share > 1) share = 1;
  float bw = (float)w - 16;
  td_batch_rect(b, x + 8, fy + 17, bw, 10, td_color(60, 20, 20, 255));
  td_batch_rect(b, x + 8, fy + 17, bw * share, 10, td_color(220, 50, 45, 255));
  return r;
}

/* ---- the client's side ------------------------------------------------------------ */

void client_cards_reset(td_client *c) {
  bool off = c->cards.off;
  memset(&c->cards, 0, sizeof c->cards);
  c->cards.hover_action = -1;
  c->cards.off = off;
}

void client_cards_event(td_client *c, const td_event *e) {
  td_cards *k = &c->cards;
  if (e->kind != TD_EVENT_SPAWNED || e->type < 0 || e->type >= TD_CARDS_MAX_KINDS) return;
  uint64_t bit = (uint64_t)1 << (e->type % 64);
  if (k->seen[e->type / 64] & bit) return;
  k->seen[e->type / 64] |= bit;
  const td_rules *r = td_game_rules(c->game);
  bool boss = (size_t)e->type < r->enemy_count && r->enemies[e->type].boss;
  if (boss) { /* a boss's card at once, before the others waiting */
    int n = k->nintro < TD_CARDS_INTRO_QUEUE ? k->nintro : TD_CARDS_INTRO_QUEUE - 1;
    memmove(k->intro + 1, k->intro, (size_t)n * sizeof k->intro[0]);
    k->intro[0] = e->type;
    k->nintro = n + 1;
    k->intro_until = 0;
  } else if (k->nintro < TD_CARDS_INTRO_QUEUE) {
    k->intro[k->nintro++] = e->type;
  }
}

bool client_cards_click(td_client *c, int x, int y) {
  const td_world *w = client_world(c);
  c->cards.enemy = 0;
  if (!w) return false;
  float best = 1e30f;
  for (size_t i = 0; i < td_world_enemy_capacity(w); i++) {
    td_enemy_view v;
    if (!td_world_enemy(w, i, &v) || v.waiting) continue;
    float dx = td_camera_sx(&c->cam, v.x) - (float)x, dy = td_camera_sy(&c->cam, v.y) - (float)y;
    float d = sqrtf(dx * dx + dy * dy), reach = fmaxf(v.radius * c->cam.zoom, 8.0f) + 6.0f;
    if (d <= reach && d < best) {
      best = d;
      c->cards.enemy = v.handle;
    }
  }
  return c->cards.enemy != 0;
}

/* What a button does, for its tooltip: a title, a line, and its key. */
static void role_of_button(const td_client *c, const td_ui_button *b, const char **title,
                           const char **line, const char **key) {
  static const char *const modes[TD_TARGET_MODE_COUNT] = {
      "Shoots the enemy nearest the exit.", "Shoots the enemy farthest from the exit.",
      "Shoots the enemy with the most health.", "Shoots the enemy nearest the tower.",
      "The mod's own choice of target."};
  *key = "";
  *line = "";
  switch (b->action) {
  case A_MAP: *title = "Choose this map"; *line = "Then Start (or Enter)."; *key = "Up/Down"; break;
  case A_START: *title = "Start"; *line = "Plays the chosen map."; *key = "Enter"; break;
  case A_SETTINGS: *title = "Settings"; *line = "Window, difficulty and sound."; break;
  case A_QUIT: *title = "Quit"; *line = "Closes the game."; break;
  case A_BACK: *title = "Back"; *key = "Esc"; break;
  case A_WINSIZE: *title = "Window size"; *line = "Cycles through the sizes offered."; break;
  case A_FULLSCREEN: *title = "Fullscreen"; *line = "Fills the whole screen."; break;
  case A_VSYNC: *title = "VSync"; *line = "Waits for the display: no tearing."; break;
  case A_DIFFICULTY: *title = "Difficulty"; *line = "Easy, normal or hard, from the next game."; break;
  case A_VOLUME:
    *title = b->arg < 0 ? "Quieter" : "Louder";
    *line = "One step of 10%.";
    *key = b->arg < 0 ? "Left" : "Right";
    break;
  case A_VOLUME_SET: *title = "Volume"; *line = "Click along the bar to set it."; break;
  case A_MUTE: *title = "Sound"; *line = "Mutes or unmutes every sound."; *key = "M"; break;
  case A_CALL:
    *title = "Call the next wave";
    *line = "Sends it now, for bonus gold: the time skipped.";
    *key = "N";
    break;
  case A_SPEED: *title = b->arg == 1 ? "Normal speed" : b->arg == 2 ? "Double speed" : "Speed 4x";
    *line = "How fast the game runs.";
    *key = "F";
    break;
  case A_PAUSE:
    *title = c->game && td_world_paused(client_world(c)) ? "Resume" : "Pause";
    *line = "Stops the clock; you can still build.";
    *key = "Space";
    break;
  case A_MENU: *title = "Menu"; *line = "Resume, restart, settings, quit."; *key = "Esc"; break;
  case A_RESUME: *title = "Resume"; *line = "Back to the game."; *key = "Esc"; break;
  case A_RESTART: *title = "Restart"; *line = "This map again, from the start."; break;
  case A_MAINMENU: *title = "Main menu"; *line = "Leaves this game."; break;
  case A_SELL: *title = "Sell"; *line = "Removes the tower for part of its cost."; *key = "X"; break;
  case A_TARGET:
    *title = "Targeting";
    *line = b->arg >= 0 && b->arg < TD_TARGET_MODE_COUNT ? modes[b->arg] : "";
    *key = "T";
    break;
  case A_CLOSE_PANEL: *title = "Close"; *key = "Esc"; break;
  case A_ERR_CLOSE: *title = "Hide the error"; *key = "F10"; break;
  case A_ERR_COPY: *title = "Copy the error"; *line = "To the clipboard."; *key = "Ctrl+C"; break;
  case A_RALLY:
    *title = "Rally point";
    *line = "Click the map where the soldiers should stand.";
    *key = "R";
    break;
  case A_REPAIR: *title = "Repair"; *line = "Restores the tower's health."; *key = "E"; break;
  case A_HELP: *title = "Controls"; *line = "Every key and mouse action."; *key = "H or ?"; break;
  case A_TUTORIAL_NEXT: *title = "Next"; *line = "The tutorial's next step."; break;
  case A_TUTORIAL_SKIP: *title = "Skip the tutorial"; *line = "It will not show again."; *key = "Esc"; break;
  default: *title = b->label; break;
  }
  if (b->key[0]) *key = b->key[0] == '^' ? "Shift+U" : b->key;
}

static bool eligible(const td_client *c, const td_ui_button *b) {
  if (c->screen == SCREEN_GAME && c->help) return b->action == A_HELP;
  if (c->screen == SCREEN_GAME && c->pause_menu)
    return (b->action >= A_RESUME && b->action <= A_MAINMENU) || b->action == A_QUIT ||
           b->action == A_SETTINGS;
  return true;
}

static void draw_tooltip(td_client *c) {
  td_cards *k = &c->cards;
  const td_ui_button *hb = NULL;
  for (int i = c->nbtn - 1; i >= 0 && !hb; i--)
    if (td_ui_hit(&c->btn[i].r, c->mx, c->my) && eligible(c, &c->btn[i])) hb = &c->btn[i];
  if (!hb) {
    k->hover_action = -1;
    return;
  }
  if (hb->action != k->hover_action || hb->arg != k->hover_arg) { /* labels may tick ("+13g") */
    k->hover_action = hb->action;
    k->hover_arg = hb->arg;
    k->hover_since = c->time;
  }
  if (c->time - k->hover_since < TD_CARDS_HOVER_S - 1e-9 || c->ldown) return;
  char title[80], sub[96], body[TD_CARDS_TEXT_MAX], tb[TD_RULES_TITLE_MAX];
  const td_rules *r = c->game ? td_game_rules(c->game) : NULL;
  SDL_Color accent = td_color(120, 150, 230, 255);
  const char *t, *line, *key;
  role_of_button(c, hb, &t, &line, &key);
  k->tooltip_is_card = false;
  if (hb->action == A_BUILD && r && hb->arg >= 0 && (size_t)hb->arg < r->tower_count) {
    const td_tower_type *tt = &r->towers[hb->arg];
    const td_tower_level *root = &r->levels[tt->root];
    snprintf(title, sizeof title, "%s", td_cards_tower_title(r, hb->arg, tb));
    snprintf(sub, sizeof sub, "%d gold   key %s", (int)root->cost, hb->key);
    td_cards_level_text(r, tt->root, tt->description[0] ? tt->description : root->description, body,
                        sizeof body);
    k->tooltip_is_card = true;
    accent = td_color(255, 205, 60, 255);
  } else if (hb->action == A_UPGRADE && r && hb->icon_arg >= 0 &&
             (size_t)hb->icon_arg < r->level_count) {
    const td_tower_level *l = &r->levels[hb->icon_arg];
    snprintf(title, sizeof title, "%s", td_cards_level_title(r, hb->icon_arg, tb));
    snprintf(sub, sizeof sub, "Upgrade: %d gold%s%s", (int)l->cost, key[0] ? "   key " : "", key);
    td_cards_level_text(r, hb->icon_arg, l->description, body, sizeof body);
    k->tooltip_is_card = true;
    accent = td_color(120, 220, 140, 255);
  } else {
    snprintf(title, sizeof title, "%s", t);
    if (key[0]) snprintf(sub, sizeof sub, "Key: %s", key);
    else sub[0] = '\0';
    td_cards_wrap(line, (TD_CARDS_WIDTH - 16) / 6, body, sizeof body);
  }
  /* beside the button, never over it: above it, or below when there is no room */
  SDL_Rect rr = td_cards_measure(c->mx - 20, hb->r.y - 6, title, sub, body);
  rr.y -= rr.h;
  if (rr.y < 4) rr.y = hb->r.y + hb->r.h + 6;
  rr = td_cards_clamp(rr, c->w, c->h);
  td_cards_draw(&c->batch, rr, title, sub, body, accent);
  k->r_tooltip = rr;
}

static SDL_Color enemy_accent(const td_enemy_type *e) {
  return e->boss ? td_color(230, 60, 50, 255) : e->flying ? td_color(140, 200, 255, 255)
                                                          : td_color(240, 150, 60, 255);
}

static void draw_enemy_cards(td_client *c) {
  td_cards *k = &c->cards;
  const td_world *w = client_world(c);
  const td_rules *r = td_game_rules(c->game);
  char body[TD_CARDS_TEXT_MAX], tb[TD_RULES_TITLE_MAX];
  int y = TOP_H + 8;
  if (k->r_boss.w > 0) y = k->r_boss.y + k->r_boss.h + 6;
  if (c->tut.r_panel.w > 0 && c->tut.r_panel.y + c->tut.r_panel.h + 6 > y) /* under the tutorial */
    y = c->tut.r_panel.y + c->tut.r_panel.h + 6;
  td_enemy_view v;
  if (k->enemy && td_world_enemy_get(w, k->enemy, &v) && v.type >= 0 &&
      (size_t)v.type < r->enemy_count) {
    const td_enemy_type *e = &r->enemies[v.type];
    /* a ring round it on the map */
    float sx = td_camera_sx(&c->cam, v.x), sy = td_camera_sy(&c->cam, v.y);
    td_batch_ring(&c->batch, sx, sy, v.radius * c->cam.zoom + 5, 2, enemy_accent(e));
    td_cards_enemy_text(r, v.type, &v, body, sizeof body);
    const char *sub = e->boss ? "Boss" : e->flying ? "Flying" : "Ground";
    SDL_Rect rr = td_cards_measure(8, y, td_cards_enemy_title(r, v.type, tb), sub, body);
    rr = td_cards_clamp(rr, c->w, c->h);
    td_cards_draw(&c->batch, rr, td_cards_enemy_title(r, v.type, tb), sub, body, enemy_accent(e));
    k->r_enemy = rr;
    y = rr.y + rr.h + 6;
  } else {
    k->enemy = 0;
  }
  /* the first sight of a kind: its card for a while */
  while (k->nintro > 0) {
    if (k->intro_until == 0) k->intro_until = c->time + TD_CARDS_INTRO_S;
    if (c->time < k->intro_until && (size_t)k->intro[0] < r->enemy_count) break;
    memmove(k->intro, k->intro + 1, (size_t)(k->nintro - 1) * sizeof k->intro[0]);
    k->nintro--;
    k->intro_until = 0;
  }
  if (k->nintro > 0 && !(k->r_enemy.w > 0 && v.type == k->intro[0])) { /* not twice */
    int32_t t = k->intro[0];
    const td_enemy_type *e = &r->enemies[t];
    td_cards_enemy_text(r, t, NULL, body, sizeof body);
    const char *sub = e->boss ? "A boss arrives!" : "New enemy";
    SDL_Rect rr = td_cards_measure(8, y, td_cards_enemy_title(r, t, tb), sub, body);
    rr = td_cards_clamp(rr, c->w, c->h);
    td_cards_draw(&c->batch, rr, td_cards_enemy_title(r, t, tb), sub, body, enemy_accent(e));
    k->r_intro = rr;
  }
}

static void draw_boss_bar(td_client *c) {
  const td_world *w = client_world(c);
  const td_rules *r = td_game_rules(c->game);
  td_enemy_view first, v;
  int n = 0;
  for (size_t i = 0; i < td_world_enemy_capacity(w); i++)
    if (td_world_enemy(w, i, &v) && v.boss && !v.waiting && v.health > 0)
      if (n++ == 0) first = v;
  if (n == 0) return;
  char tb[TD_RULES_TITLE_MAX];
  c->cards.r_boss = td_cards_boss_bar(&c->batch, c->w, TOP_H + 6,
                                      td_cards_enemy_title(r, first.type, tb), first.health,
                                      first.max_health, n - 1);
}

void client_cards_draw(td_client *c) {
  td_cards *k = &c->cards;
  k->r_tooltip = k->r_enemy = k->r_intro = k->r_boss = (SDL_Rect){0, 0, 0, 0};
  if (c->screen == SCREEN_GAME && c->game && !c->pause_menu && !k->off) {
    draw_boss_bar(c);
    draw_enemy_cards(c);
  }
  draw_tooltip(c);
}

bool client_cards_region(const td_client *c, const char *name, SDL_Rect *out) {
  const td_cards *k = &c->cards;
  const SDL_Rect *r = !strcmp(name, "tooltip") ? &k->r_tooltip
                      : !strcmp(name, "card") ? (k->tooltip_is_card ? &k->r_tooltip : NULL)
                      : !strcmp(name, "enemy") ? &k->r_enemy
                      : !strcmp(name, "intro") ? &k->r_intro
                      : !strcmp(name, "boss") ? &k->r_boss : NULL;
  if (!r || r->w <= 0) return false;
  *out = *r;
  return true;
}

const char *client_map_title(const char *path, char *buf, size_t cap) {
  td_mod_title_from_path(path, buf, cap);
  return buf;
}

const char *client_game_title(const td_client *c, char *buf, size_t cap) {
  const td_map *m = c->game ? td_game_map(c->game) : NULL;
  if (m && m->title[0]) {
    snprintf(buf, cap, "%s", m->title);
    return buf;
  }
  return client_map_title(c->map_path, buf, cap);
}
