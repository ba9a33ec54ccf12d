/*
** client_pad.c: the gamepad (SDL_GameController): the whole game without
** mouse or keyboard (see client.h; the mapping is in docs/game.md).
**
** The pad drives the same paths as the mouse and the keys, so it can do
** what they do and nothing else: the left stick moves a pointer (drawn by
** client_pad_draw while the pad is in use), and the pointer is the mouse
** (SDL_MOUSEMOTION events marked PAD_MOUSE, so a real mouse moving takes
** over again); the d-pad jumps the pointer to the nearest button or tower
** pad in its direction (menus, the build bar, the tower panel, dialogs);
** A is the left button, B is Esc (back, cancel, drop, the pause menu), the
** other buttons are keys: X the next tower type (1..9), Y upgrade (U),
** Back call the wave (N), Start the pause menu (Enter on the main menu),
** the shoulders the game speed (F), the right stick's click pause (Space),
** the left stick's click fit the map (Home); the right stick pans, the
** triggers zoom about the pointer (wheel notches).
*/
#include "render/client_int.h"

#define PAD_MOUSE CLIENT_PAD_MOUSE
#define DEAD 0.2f            /* stick dead zone, of full deflection */
#define POINTER_SPEED 1100.0f /* pixels a second at full deflection */
#define PAN_SPEED 900.0f     /* screen pixels a second at full deflection */

static void send_key(td_client *c, SDL_Keycode sym) {
  SDL_Event e;
  memset(&e, 0, sizeof e);
  e.type = SDL_KEYDOWN;
  e.key.state = SDL_PRESSED;
  e.key.keysym.sym = sym;
  td_client_event(c, &e);
  e.type = SDL_KEYUP;
  e.key.state = SDL_RELEASED;
  td_client_event(c, &e);
}

/* The pointer to (x, y) pixels, clamped to the window, as a mouse motion. */
static void move_pointer(td_client *c, float x, float y) {
  float maxx = (float)(c->pw > 0 ? c->pw - 1 : 0), maxy = (float)(c->ph > 0 ? c->ph - 1 : 0);
  c->pad_fx = x < 0 ? 0 : x > maxx ? maxx : x;
  c->pad_fy = y < 0 ? 0 : y > maxy ? maxy : y;
  SDL_Event e;
  memset(&e, 0, sizeof e);
  e.type = SDL_MOUSEMOTION;
  e.motion.which = PAD_MOUSE;
  e.motion.x = (int)c->pad_fx;
  e.motion.y = (int)c->pad_fy;
  e.motion.xrel = e.motion.x - c->mx;
  e.motion.yrel = e.motion.y - c->my;
  td_client_event(c, &e);
}

static void mouse_button(td_client *c, bool down) {
  SDL_Event e;
  memset(&e, 0, sizeof e);
  e.type = down ? SDL_MOUSEBUTTONDOWN : SDL_MOUSEBUTTONUP;
  e.button.which = PAD_MOUSE;
  e.button.button = SDL_BUTTON_LEFT;
  e.button.state = down ? SDL_PRESSED : SDL_RELEASED;
  e.button.clicks = 1;
  e.button.x = c->mx;
  e.button.y = c->my;
  td_client_event(c, &e);
}

/* The d-pad: the pointer jumps to the centre of the nearest target (a
** button, or a tower pad on the game screen) in direction (dx, dy), within
** 68 degrees of it. Targets in line (whose rectangle spans the pointer's
** row, or column) come first, as focus moves on a television's menus;
** among the others the cost is the distance along plus twice the distance
** across. Nothing in that direction: it stays. */
static void jump(td_client *c, int dx, int dy) {
  client_layout(c);
  float px = (float)c->mx, py = (float)c->my, best = 1e30f, bx = px, by = py;
  int n = c->nbtn;
  const td_map *m = c->game && c->screen == SCREEN_GAME && !c->pause_menu && c->confirm == A_NONE
                        ? td_game_map(c->game) : NULL;
  int nb = m ? (int)m->base_count : 0;
  for (int i = 0; i < n + nb; i++) {
    float x, y, hw, hh; /* the target's centre and half size, pixels */
    if (i < n) {
      /* under the pause menu or a dialog, only their buttons */
      int a = c->btn[i].action;
      if (c->confirm != A_NONE && a != A_CONFIRM && a != A_CANCEL) continue;
      if (c->confirm == A_NONE && c->pause_menu && a != A_RESUME && a != A_SAVE && a != A_RESTART &&
          a != A_SETTINGS && a != A_MAINMENU && a != A_QUIT)
        continue;
      const SDL_Rect *r = &c->btn[i].r;
      x = ((float)r->x + (float)r->w / 2) * c->ui;
      y = ((float)r->y + (float)r->h / 2) * c->ui;
      hw = (float)r->w * c->ui / 2;
      hh = (float)r->h * c->ui / 2;
    } else {
      int sx, sy;
      if (!td_client_base_screen(c, i - n, &sx, &sy)) continue;
      if (sy < c->cam.vy || sy >= c->cam.vy + c->cam.vh || sx < 0 || sx >= c->pw) continue;
      const td_tower_base *tb = &m->bases[i - n];
      x = (float)sx;
      y = (float)sy;
      hw = (float)tb->w * c->cam.zoom / 2;
      hh = (float)tb->h * c->cam.zoom / 2;
    }
    float along = (x - px) * (float)dx + (y - py) * (float)dy;
    float across = fabsf((x - px) * (float)dy - (y - py) * (float)dx);
    if (along < 4 || across > along * 2.5f) continue;
    bool in_line = dx ? fabsf(y - py) <= hh : fabsf(x - px) <= hw;
    float cost = along + 2 * across + (in_line ? 0 : 1e6f);
    if (cost < best) {
      best = cost;
      bx = x;
      by = y;
    }
  }
  if (best < 1e30f) move_pointer(c, bx, by);
}

static void dpad(td_client *c, int button) {
  jump(c, button == SDL_CONTROLLER_BUTTON_DPAD_LEFT ? -1 : button == SDL_CONTROLLER_BUTTON_DPAD_RIGHT ? 1 : 0,
       button == SDL_CONTROLLER_BUTTON_DPAD_UP ? -1 : button == SDL_CONTROLLER_BUTTON_DPAD_DOWN ? 1 : 0);
}

/* X: the next tower type (1..9 as the keys), after the last none. */
static void next_type(td_client *c) {
  if (!c->game || c->screen != SCREEN_GAME) return;
  int n = (int)td_game_rules(c->game)->tower_count;
  if (n > 9) n = 9;
  if (n <= 0) return;
  int k = c->build_type < 0 ? 0 : c->build_type + 1 < n ? c->build_type + 1 : c->build_type;
  send_key(c, (SDL_Keycode)(SDLK_1 + k)); /* the last again: dropped */
}

static void button(td_client *c, int b, bool down) {
  if (b == SDL_CONTROLLER_BUTTON_A) {
    mouse_button(c, down);
    return;
  }
  if (b >= SDL_CONTROLLER_BUTTON_DPAD_UP && b <= SDL_CONTROLLER_BUTTON_DPAD_RIGHT) {
    if (down) {
      dpad(c, b);
      c->pad_dir = b;
      c->pad_repeat = c->time + 0.35;
    } else if (c->pad_dir == b) {
      c->pad_dir = -1;
    }
    return;
  }
  if (!down) return;
  bool game = c->screen == SCREEN_GAME && c->game;
  switch (b) {
  case SDL_CONTROLLER_BUTTON_B:
    if (c->screen != SCREEN_MENU) send_key(c, SDLK_ESCAPE); /* on the main menu Esc quits: not B */
    break;
  case SDL_CONTROLLER_BUTTON_X: next_type(c); break;
  case SDL_CONTROLLER_BUTTON_Y: if (game) send_key(c, SDLK_u); break;
  case SDL_CONTROLLER_BUTTON_BACK: if (game) send_key(c, SDLK_n); break;
  case SDL_CONTROLLER_BUTTON_START:
    if (c->screen == SCREEN_MENU) send_key(c, SDLK_RETURN);
    else if (game && c->confirm == A_NONE) {
      if (c->pause_menu) c->pause_menu = false;
      else {
        c->build_type = c->selected = -1;
        c->rallying = false;
        c->pause_menu = true;
      }
    }
    break;
  case SDL_CONTROLLER_BUTTON_RIGHTSHOULDER: if (game) send_key(c, SDLK_f); break;
  case SDL_CONTROLLER_BUTTON_LEFTSHOULDER: /* the speed before: F twice in a cycle of three */
    if (game) {
      send_key(c, SDLK_f);
      send_key(c, SDLK_f);
    }
    break;
  case SDL_CONTROLLER_BUTTON_RIGHTSTICK: if (game) send_key(c, SDLK_SPACE); break;
  case SDL_CONTROLLER_BUTTON_LEFTSTICK: if (game) send_key(c, SDLK_HOME); break;
  default: break;
  }
}

void client_pad_event(td_client *c, const SDL_Event *e) {
  if (!c->pad_on) { /* the pointer starts where the mouse was, or mid-screen */
    c->pad_on = true;
    c->pad_fx = (float)(c->mx || c->my ? c->mx : c->pw / 2);
    c->pad_fy = (float)(c->mx || c->my ? c->my : c->ph / 2);
    move_pointer(c, c->pad_fx, c->pad_fy);
  }
  if (e->type == SDL_CONTROLLERAXISMOTION) {
    if (e->caxis.axis >= SDL_CONTROLLER_AXIS_MAX) return;
    float v = (float)e->caxis.value / 32767.0f;
    float a = fabsf(v);
    /* past the dead zone, rescaled to 0..1 and squared: fine moves near the centre */
    a = a < DEAD ? 0 : (a - DEAD) / (1 - DEAD);
    if (a > 1) a = 1;
    c->pad_ax[e->caxis.axis] = (v < 0 ? -1.0f : 1.0f) * a * a;
  } else {
    button(c, e->cbutton.button, e->type == SDL_CONTROLLERBUTTONDOWN);
  }
}

void client_pad_advance(td_client *c, double seconds) {
  if (!c->pad_on) return;
  float dt = (float)seconds;
  float lx = c->pad_ax[SDL_CONTROLLER_AXIS_LEFTX], ly = c->pad_ax[SDL_CONTROLLER_AXIS_LEFTY];
  if (lx != 0 || ly != 0)
    move_pointer(c, c->pad_fx + lx * POINTER_SPEED * dt, c->pad_fy + ly * POINTER_SPEED * dt);
  float rx = c->pad_ax[SDL_CONTROLLER_AXIS_RIGHTX], ry = c->pad_ax[SDL_CONTROLLER_AXIS_RIGHTY];
  if (c->game && c->screen == SCREEN_GAME && !c->pause_menu && (rx != 0 || ry != 0) && c->cam.zoom > 0) {
    c->cam.cx += rx * PAN_SPEED * dt / c->cam.zoom;
    c->cam.cy += ry * PAN_SPEED * dt / c->cam.zoom;
    client_clamp_camera(c);
  }
  /* the triggers zoom about the pointer: a wheel notch every 0.1 s held */
  float zin = c->pad_ax[SDL_CONTROLLER_AXIS_TRIGGERRIGHT], zout = c->pad_ax[SDL_CONTROLLER_AXIS_TRIGGERLEFT];
  if ((zin > 0.25f || zout > 0.25f) && c->time >= c->pad_repeat && c->pad_dir < 0) {
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_MOUSEWHEEL;
    e.wheel.which = PAD_MOUSE;
    e.wheel.y = zin > zout ? 1 : -1;
    td_client_event(c, &e);
    c->pad_repeat = c->time + 0.1;
  }
  /* a d-pad direction held repeats */
  if (c->pad_dir >= 0 && c->time >= c->pad_repeat) {
    dpad(c, c->pad_dir);
    c->pad_repeat = c->time + 0.15;
  }
}

void client_pad_draw(td_client *c) {
  if (!c->pad_on) return;
  td_batch *b = &c->batch;
  td_batch_set_scale(b, 1);
  float x = (float)c->mx, y = (float)c->my, r = 11 * c->ui;
  td_batch_ring(b, x, y, r, 2.5f * c->ui, td_color(0, 0, 0, 200));
  td_batch_ring(b, x, y, r, 1.5f * c->ui, td_color(255, 255, 255, 240));
  for (int k = 0; k < 4; k++) {
    float dx = k == 0 ? 1.0f : k == 1 ? -1.0f : 0.0f, dy = k == 2 ? 1.0f : k == 3 ? -1.0f : 0.0f;
    td_batch_line(b, x + dx * r * 0.45f, y + dy * r * 0.45f, x + dx * r * 1.5f, y + dy * r * 1.5f,
                  2 * c->ui, td_color(255, 255, 255, 240));
  }
  td_batch_set_scale(b, c->ui);
}
