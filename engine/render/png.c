/*
** png.c: a surface saved as a PNG through the output writer (png.h).
*/
#include "render/png.h"

#include <SDL_image.h>

#include "game/file.h"

int td_png_save(SDL_Surface *s, const char *path, td_err *err) {
  td_file_out o;
  if (td_file_begin(&o, path, err) != 0) return -1;
  SDL_RWops *rw = SDL_RWFromFP(o.f, SDL_FALSE);
  if (!rw) {
    td_err_set(err, "%s: cannot write: %s", path, SDL_GetError());
    td_file_abort(&o);
    return -1;
  }
  if (IMG_SavePNG_RW(s, rw, 1) != 0) { /* closes rw, not the file */
    td_err_set(err, "%s: cannot encode the PNG: %s", path, IMG_GetError());
    td_file_abort(&o);
    return -1;
  }
  return td_file_commit(&o, err);
}
