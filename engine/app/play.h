/*
** play.h: what td play, td shot and td bench render share: finding the
** assets and maps, feeding synthetic input to a client, saving a frame.
*/
#ifndef TD_APP_PLAY_H
#define TD_APP_PLAY_H

#include <SDL.h>
#include <stddef.h>
#include <stdint.h>

#include "app/cmds.h"
#include "render/client.h"

/* Synthetic input, through td_client_event like real input. */
void td_app_move(td_client *c, int x, int y);
void td_app_click(td_client *c, int x, int y, int button);
/* A key by SDL name ("1", "Space", "F1", "N"); shift/ctrl with a "shift+" or
** "ctrl+" prefix. -1 for an unknown name. */
int td_app_key(td_client *c, const char *name);

/* The index of the base made from Tiled object id, or -1. */
int32_t td_app_base_index(const td_game *g, int64_t object_id);

/* Reads the renderer's target (w x h) as ARGB8888 into px (w*h), or saves
** it as a PNG. 0, or -1 with err set. */
int td_app_read_pixels(SDL_Renderer *r, int w, int h, uint32_t *px, td_err *err);
int td_app_save_png(SDL_Renderer *r, int w, int h, const char *path, td_err *err);

/* td bench render (bench_render.c). */
struct bench_opts;
int td_bench_render(const struct bench_opts *o);

#endif
