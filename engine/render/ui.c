/*
** ui.c: panels and buttons (see ui.h).
*/
#include "render/ui.h"

#define SLIDER_PAD 10 /* the slider's bar, from the button's sides */

bool td_ui_hit(const SDL_Rect *r, int x, int y) {
  return x >= r->x && y >= r->y && x < r->x + r->w && y < r->y + r->h;
}

void td_ui_panel(td_batch *b, float x, float y, float w, float h) {
  td_batch_rect(b, x, y, w, h, td_color(22, 24, 34, 228));
  td_batch_rect_outline(b, x, y, w, h, 1, td_color(90, 96, 130, 255));
}

void td_ui_button_draw(td_batch *b, const td_ui_button *bt, bool hover) {
  float x = (float)bt->r.x, y = (float)bt->r.y, w = (float)bt->r.w, h = (float)bt->r.h;
  SDL_Color bg = bt->active ? td_color(70, 90, 150, 255)
                 : !bt->enabled ? td_color(40, 40, 46, 235)
                 : hover ? td_color(72, 78, 104, 255)
                         : td_color(50, 54, 74, 245);
  td_batch_rect(b, x, y, w, h, bg);
  td_batch_rect_outline(b, x, y, w, h, 1,
                        bt->active ? td_color(170, 200, 255, 255)
                        : hover && bt->enabled ? td_color(220, 220, 240, 255)
                                               : td_color(100, 104, 130, 255));
  SDL_Color tc = bt->enabled ? td_color(240, 240, 240, 255) : td_color(130, 130, 130, 255);
  int sc = bt->scale ? bt->scale : 2;
  float tx = x + 8;
  if (bt->icon && bt->icon_kind == 0) {
    float s = h - 12 > 32 ? 32 : h - 12;
    td_batch_sprite_rect(b, bt->icon, x + 6, y + (h - s) / 2, s, s,
                         bt->enabled ? td_color(255, 255, 255, 255) : td_color(140, 140, 140, 255));
    tx = x + 12 + s;
  } else if (bt->icon_kind != 0) {
    tx = x + h + 4;
  }
  float lh = (float)(8 * sc), sh = bt->sub[0] ? 10.0f : 0.0f;
  float ty = y + (h - lh - (bt->sub[0] ? sh + 2 : 0)) / 2 - (bt->slider ? 4.0f : 0.0f);
  if (bt->slider) {
    /* the bar: a track along the bottom, filled to the level, with a knob */
    float bx = x + SLIDER_PAD, bw = w - 2 * SLIDER_PAD, by = y + h - 10;
    int lv = bt->level < 0 ? 0 : bt->level > 100 ? 100 : bt->level;
    float fw = bw * (float)lv / 100.0f;
    td_batch_rect(b, bx, by, bw, 4, td_color(24, 26, 36, 255));
    td_batch_rect(b, bx, by, fw, 4, bt->enabled ? td_color(255, 205, 60, 255) : td_color(120, 120, 120, 255));
    td_batch_rect(b, bx + fw - 2, by - 2, 4, 8, td_color(240, 240, 240, 255));
  }
  if (bt->label[0] && !bt->icon && bt->icon_kind == 0 && !bt->sub[0]) {
    /* a plain button: centred */
    float tw = (float)td_text_width(bt->label, sc);
    tx = x + (w - tw) / 2;
  }
  td_batch_text(b, tx, ty, sc, bt->label, tc, true);
  if (bt->sub[0])
    td_batch_text(b, tx, ty + lh + 3, 1, bt->sub,
                  bt->enabled ? td_color(255, 215, 90, 255) : td_color(170, 120, 110, 255), true);
  if (bt->key[0])
    td_batch_text(b, x + w - 6 * (float)SDL_strlen(bt->key) - 3, y + 3, 1, bt->key,
                  td_color(180, 180, 200, 255), false);
}

int td_ui_button_need_w(const td_ui_button *bt) {
  int sc = bt->scale ? bt->scale : 2, h = bt->r.h;
  int lead = 8;
  if (bt->icon && bt->icon_kind == 0) lead = 12 + (h - 12 > 32 ? 32 : h - 12);
  else if (bt->icon_kind != 0) lead = h + 4;
  int tw = td_text_width(bt->label, sc), sw = bt->sub[0] ? td_text_width(bt->sub, 1) : 0;
  return lead + (tw > sw ? tw : sw) + 4;
}

int td_ui_slider_level(const td_ui_button *bt, int x, int step) {
  int w = bt->r.w - 2 * SLIDER_PAD;
  if (w <= 0 || step <= 0) return bt->level;
  int at = x - bt->r.x - SLIDER_PAD;
  if (at < 0) at = 0;
  if (at > w) at = w;
  int v = (at * 100 + w / 2) / w;    /* 0..100, rounded */
  v = (v + step / 2) / step * step; /* to the nearest step */
  return v > 100 ? 100 : v;
}
