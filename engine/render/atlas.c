/*
** atlas.c: the texture atlas and its index (see atlas.h).
*/
#include "render/atlas.h"

#include <SDL_image.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

const td_sprite *td_atlas_find(const td_atlas *a, const char *name) {
  for (size_t i = 0; i < a->count; i++)
    if (!strcmp(a->sprites[i].name, name)) return &a->sprites[i];
  return NULL;
}

const td_sprite *td_atlas_findf(const td_atlas *a, const char *prefix, const char *name) {
  char n[96];
  snprintf(n, sizeof n, "%s%s", prefix, name);
  return td_atlas_find(a, n);
}

void td_atlas_destroy(td_atlas *a) {
  if (!a) return;
  if (a->tex) SDL_DestroyTexture(a->tex);
  free(a->px);
  free(a->sprites);
  free(a);
}

/* td_sprite.body: the largest distance, along x or y, from the sprite's
** centre to the far edge of a pixel with alpha >= 128, doubled, as a share
** of its width (height). */
static void measure_body(const td_atlas *a, td_sprite *s) {
  float cx = (float)s->w * 0.5f, cy = (float)s->h * 0.5f, share = 0;
  for (int j = 0; j < s->h; j++)
    for (int i = 0; i < s->w; i++) {
      if ((a->px[(size_t)(s->y + j) * (size_t)a->tex_w + (size_t)(s->x + i)] >> 24) < 128) continue;
      float dx = fmaxf(fabsf((float)i - cx), fabsf((float)(i + 1) - cx)) / cx;
      float dy = fmaxf(fabsf((float)j - cy), fabsf((float)(j + 1) - cy)) / cy;
      share = fmaxf(share, fmaxf(dx, dy));
    }
  s->body = share;
}

static int parse_index(td_atlas *a, const char *path, td_err *err) {
  FILE *f = fopen(path, "r");
  if (!f) return td_err_set(err, "%s: cannot open (run td_assetgen assets?)", path);
  char line[256];
  int ln = 0;
  size_t cap = 0;
  while (fgets(line, sizeof line, f)) {
    ln++;
    if (line[0] == '#' || line[0] == '\n') continue;
    td_sprite s;
    memset(&s, 0, sizeof s);
    if (sscanf(line, "%47s %d %d %d %d", s.name, &s.x, &s.y, &s.w, &s.h) != 5 || s.w <= 0 ||
        s.h <= 0 || s.x < 0 || s.y < 0 || s.x + s.w > a->tex_w || s.y + s.h > a->tex_h) {
      fclose(f);
      return td_err_set(err, "%s:%d: bad sprite line", path, ln);
    }
    s.u0 = (float)s.x / (float)a->tex_w;
    s.v0 = (float)s.y / (float)a->tex_h;
    s.u1 = (float)(s.x + s.w) / (float)a->tex_w;
    s.v1 = (float)(s.y + s.h) / (float)a->tex_h;
    measure_body(a, &s);
    if (a->count == cap) {
      cap = cap ? cap * 2 : 256;
      td_sprite *p = realloc(a->sprites, cap * sizeof *p);
      if (!p) {
        fclose(f);
        return td_err_set(err, "%s: out of memory", path);
      }
      a->sprites = p;
    }
    a->sprites[a->count++] = s;
  }
  fclose(f);
  return 0;
}

td_atlas *td_atlas_load(SDL_Renderer *r, const char *dir, td_err *err) {
  td_atlas *a = calloc(1, sizeof *a);
  if (!a) {
    td_err_set(err, "atlas: out of memory");
    return NULL;
  }
  char path[1024];
  snprintf(path, sizeof path, "%s/atlas.png", dir);
  SDL_Surface *s = IMG_Load(path);
  if (!s) {
    td_err_set(err, "%s: %s", path, IMG_GetError());
    td_atlas_destroy(a);
    return NULL;
  }
  a->tex_w = s->w;
  a->tex_h = s->h;
  /* the pixels in memory, as ARGB8888 whatever the PNG's format */
  SDL_Surface *argb = SDL_ConvertSurfaceFormat(s, SDL_PIXELFORMAT_ARGB8888, 0);
  a->px = argb ? malloc((size_t)s->w * (size_t)s->h * sizeof *a->px) : NULL;
  if (a->px) {
    SDL_LockSurface(argb);
    for (int y = 0; y < s->h; y++)
      memcpy(a->px + (size_t)y * (size_t)s->w, (const uint8_t *)argb->pixels + (size_t)y * (size_t)argb->pitch,
             (size_t)s->w * sizeof *a->px);
    SDL_UnlockSurface(argb);
  }
  if (argb) SDL_FreeSurface(argb);
  if (!a->px) {
    td_err_set(err, "%s: %s", path, argb ? "out of memory" : SDL_GetError());
    SDL_FreeSurface(s);
    td_atlas_destroy(a);
    return NULL;
  }
  SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "nearest");
  a->tex = SDL_CreateTextureFromSurface(r, s);
  SDL_FreeSurface(s);
  if (!a->tex) {
    td_err_set(err, "%s: %s", path, SDL_GetError());
    td_atlas_destroy(a);
    return NULL;
  }
  SDL_SetTextureBlendMode(a->tex, SDL_BLENDMODE_BLEND);
  snprintf(path, sizeof path, "%s/atlas.txt", dir);
  if (parse_index(a, path, err) != 0) {
    td_atlas_destroy(a);
    return NULL;
  }
  a->white = td_atlas_find(a, "white");
  if (!a->white) {
    td_err_set(err, "%s: no sprite 'white'", path);
    td_atlas_destroy(a);
    return NULL;
  }
  for (int c = 32; c < 127; c++) {
    char n[48];
    snprintf(n, sizeof n, "glyph_%d", c);
    a->glyph[c] = td_atlas_find(a, n);
  }
  return a;
}
