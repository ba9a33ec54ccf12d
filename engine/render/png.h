/*
** png.h: td's one way to save a picture: an SDL surface as a PNG file
** (td shot, td sim --png, td play's screenshots, td bench render).
**
** What. The PNG is encoded by SDL_image straight into the writer of
** game/file.h: a temporary beside the target, every byte checked, renamed
** over it (or, for a device or a FIFO, written in place). A full disk or an
** I/O error is an error naming the file, and leaves no file and no
** temporary behind; an existing file is replaced whole or not at all.
**
** Memory: the surface is borrowed; nothing is kept after the call.
** Determinism: the bytes depend only on the surface's pixels (and
** SDL_image's version).
*/
#ifndef TD_RENDER_PNG_H
#define TD_RENDER_PNG_H

#include <SDL.h>

#include "nav/mem.h"

/* 0, or -1 with err set ("PATH: write failed: No space left on device",
** "PATH: cannot encode the PNG: ..."). */
int td_png_save(SDL_Surface *s, const char *path, td_err *err);

#endif
