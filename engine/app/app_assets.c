/*
** app_assets.c: helpers shared by td play, td shot and td bench render
** (see play.h).
*/
#include <stdio.h>
#include <string.h>

#include "app/play.h"
#include "render/png.h"

void td_app_move(td_client *c, int x, int y) {
  SDL_Event e;
  memset(&e, 0, sizeof e);
  e.type = SDL_MOUSEMOTION;
  e.motion.x = x;
  e.motion.y = y;
  td_client_event(c, &e);
}

void td_app_click(td_client *c, int x, int y, int button) {
  td_app_move(c, x, y);
  SDL_Event e;
  memset(&e, 0, sizeof e);
  e.type = SDL_MOUSEBUTTONDOWN;
  e.button.button = (Uint8)button;
  e.button.x = x;
  e.button.y = y;
  e.button.clicks = 1;
  td_client_event(c, &e);
  e.type = SDL_MOUSEBUTTONUP;
  td_client_event(c, &e);
}

int td_app_key(td_client *c, const char *name) {
  Uint16 mod = KMOD_NONE;
  for (;;) {
    if (!strncmp(name, "shift+", 6)) {
      mod |= KMOD_LSHIFT;
      name += 6;
    } else if (!strncmp(name, "ctrl+", 5)) {
      mod |= KMOD_LCTRL;
      name += 5;
    } else {
      break;
    }
  }
  SDL_Keycode k = SDL_GetKeyFromName(name);
  if (k == SDLK_UNKNOWN) return -1;
  SDL_Event e;
  memset(&e, 0, sizeof e);
  e.type = SDL_KEYDOWN;
  e.key.state = SDL_PRESSED;
  e.key.keysym.sym = k;
  e.key.keysym.scancode = SDL_GetScancodeFromKey(k);
  e.key.keysym.mod = mod;
  td_client_event(c, &e);
  e.type = SDL_KEYUP;
  e.key.state = SDL_RELEASED;
  td_client_event(c, &e);
  return 0;
}

int32_t td_app_base_index(const td_game *g, int64_t object_id) {
  const td_map *m = td_game_map(g);
  const td_tower_base *b = td_map_find_base(m, object_id);
  return b ? (int32_t)(b - m->bases) : -1;
}

int td_app_read_pixels(SDL_Renderer *r, int w, int h, uint32_t *px, td_err *err) {
  (void)h; /* the target is w x h: px holds it */
  if (SDL_RenderReadPixels(r, NULL, SDL_PIXELFORMAT_ARGB8888, px, w * 4) != 0)
    return td_err_set(err, "read pixels: %s", SDL_GetError());
  return 0;
}

int td_app_save_png(SDL_Renderer *r, int w, int h, const char *path, td_err *err) {
  SDL_Surface *s = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_ARGB8888);
  if (!s) return td_err_set(err, "%s: %s", path, SDL_GetError());
  int rc = td_app_read_pixels(r, w, h, (uint32_t *)s->pixels, err);
  if (rc == 0) {
    /* opaque: the window's alpha is meaningless */
    uint32_t *p = s->pixels;
    for (int i = 0; i < w * h; i++) p[i] |= 0xFF000000u;
    rc = td_png_save(s, path, err);
  }
  SDL_FreeSurface(s);
  return rc;
}
