/*
** ui.h: the game's widgets: panels and buttons drawn into a td_batch, and
** a hit test. The client (client.h) lays its buttons out afresh every
** frame into a list, draws that list and hit-tests clicks against the same
** list, so what is drawn is what is clicked.
**
** Memory: plain data. Determinism: not part of the simulation.
*/
#ifndef TD_RENDER_UI_H
#define TD_RENDER_UI_H

#include <SDL.h>
#include <stdbool.h>

#include "render/batch.h"

typedef struct td_ui_button {
  SDL_Rect r;
  int action, arg;       /* what a click does (the client's enum) */
  char label[64];
  char sub[48];          /* a second, smaller line ("50 gold"), "" for none */
  char key[8];           /* hotkey shown in a corner, "" for none */
  const td_sprite *icon; /* NULL: none */
  int icon_kind;         /* 0 sprite, 1 tower level, 2 enemy type (client draws) */
  int icon_arg;
  bool enabled, active;  /* active: a toggle that is on */
  int scale;             /* text scale (1 or 2) */
  bool slider;           /* a level bar under the label, filled `level` % */
  int level;             /* 0 .. 100 */
} td_ui_button;

bool td_ui_hit(const SDL_Rect *r, int x, int y);
void td_ui_panel(td_batch *b, float x, float y, float w, float h);
/* Draws the button's frame and text; the icon (when icon_kind is 0); a
** slider's bar. */
void td_ui_button_draw(td_batch *b, const td_ui_button *bt, bool hover);
/* The width the button needs to show its icon, label and sub line whole
** (what td_ui_button_draw puts left of the text, the text, a margin). */
int td_ui_button_need_w(const td_ui_button *bt);
/* The level (0..100, in steps of `step`) a click at x on a slider picks. */
int td_ui_slider_level(const td_ui_button *bt, int x, int step);

#endif
