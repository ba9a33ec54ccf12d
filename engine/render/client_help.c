/*
** client_help.c: the controls screen (H or ?, the HUD's "?" button): a
** panel over the game listing every key and mouse action (the table of
** docs/game.md, "Controls"); H, ? or Esc closes it, and the game does not
** step while it is open. Laid out in UI units like the rest of the HUD;
** its rows are layout areas (td_client_areas), so a cut or overlapping row
** fails `expect layout`.
*/
#include "render/client_int.h"

static const char *const rows[][2] = {
    {"1..9, build bar", "pick a tower type (again: drop it)"},
    {"Click a pad", "build there (shift+click: keep the type)"},
    {"Click a tower", "its panel: upgrades, targeting, sell"},
    {"Click an enemy", "its card: health, speed, armour"},
    {"U, Shift+U", "buy the first / second upgrade"},
    {"X, Delete", "sell the selected tower"},
    {"T", "next targeting mode"},
    {"R", "barracks: set where its soldiers stand"},
    {"E", "repair a damaged tower"},
    {"N, Call wave", "call the next wave now, for bonus gold"},
    {"F, 1x 2x 4x", "game speed"},
    {"Space, P", "pause / resume (you can still build)"},
    {"M", "mute / unmute the sound"},
    {"Right click, Esc", "drop the type, close the panel; then: menu"},
    {"Drag, arrows, WASD", "pan the map"},
    {"Wheel, Home", "zoom about the pointer; fit the map"},
    {"Rest on a button", "its tooltip, or a tower's card"},
    {"H, ?", "this screen (H or Esc closes it)"},
    {"F5", "reload the mod's scripts"},
    {"F1-F4, F6-F9, F11", "debug overlays; F10: Lua errors"},
};
#define NROWS ((int)(sizeof rows / sizeof rows[0]))

/* The panel and its rows' geometry: text scale, key column, row height. */
typedef struct geom {
  SDL_Rect p;
  int scale, keycol, row_h, top;
} geom;

static geom measure(const td_client *c) {
  geom g;
  int kw = 0, ww = 0;
  g.scale = 2;
  for (int pass = 0; pass < 2; pass++) {
    kw = ww = 0;
    for (int i = 0; i < NROWS; i++) {
      int a = td_text_width(rows[i][0], g.scale), b = td_text_width(rows[i][1], g.scale);
      kw = a > kw ? a : kw;
      ww = b > ww ? b : ww;
    }
    if (kw + ww + 60 <= c->w - 40) break;
    g.scale = 1; /* a narrow window: the small font */
  }
  g.keycol = kw + 20;
  g.row_h = (c->h - 40 - 110) / NROWS;
  if (g.row_h > 26) g.row_h = 26;
  int w = g.keycol + ww + 40, h = 60 + NROWS * g.row_h + 56;
  g.p = (SDL_Rect){(c->w - w) / 2, (c->h - h) / 2, w, h};
  g.top = g.p.y + 56;
  return g;
}

void client_help_layout(td_client *c) {
  geom g = measure(c);
  c->r_help = g.p;
  td_ui_button *b =
      client_add_button(c, g.p.x + g.p.w / 2 - 80, g.p.y + g.p.h - 46, 160, 36, A_HELP, 0, "Close");
  if (b) snprintf(b->key, sizeof b->key, "H");
}

void client_help_draw(td_client *c) {
  td_batch *b = &c->batch;
  geom g = measure(c);
  td_batch_rect(b, 0, 0, (float)c->w, (float)c->h, td_color(0, 0, 0, 150));
  td_ui_panel(b, (float)g.p.x, (float)g.p.y, (float)g.p.w, (float)g.p.h);
  const char *t = "Controls";
  td_batch_text(b, (float)g.p.x + (float)(g.p.w - td_text_width(t, 3)) / 2.0f, (float)g.p.y + 14, 3, t,
                WHITE, true);
  for (int i = 0; i < NROWS; i++) {
    float y = (float)(g.top + i * g.row_h);
    if (i % 2)
      td_batch_rect(b, (float)g.p.x + 12, y - 3, (float)g.p.w - 24, (float)g.row_h,
                    td_color(255, 255, 255, 12));
    td_batch_text(b, (float)g.p.x + 20, y, g.scale, rows[i][0], td_color(255, 215, 90, 255), true);
    td_batch_text(b, (float)(g.p.x + 20 + g.keycol), y, g.scale, rows[i][1],
                  td_color(225, 226, 236, 255), true);
  }
  for (int i = 0; i < c->nbtn; i++)
    if (c->btn[i].action == A_HELP && td_ui_hit(&g.p, c->btn[i].r.x, c->btn[i].r.y))
      td_ui_button_draw(b, &c->btn[i], td_ui_hit(&c->btn[i].r, c->ux, c->uy));
}

int client_help_areas(const td_client *c, td_client_area *out, int cap) {
  geom g = measure(c);
  int n = 0;
  for (int i = 0; i < NROWS; i++, n++) {
    if (n >= cap) continue;
    snprintf(out[n].name, sizeof out[n].name, "help: %s", rows[i][0]);
    out[n].r = (SDL_Rect){g.p.x + 16, g.top + i * g.row_h - 3, g.p.w - 32, g.row_h};
    out[n].need_w = 4 + g.keycol + td_text_width(rows[i][1], g.scale) + 4;
  }
  return n;
}
