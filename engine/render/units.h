/*
** units.h: the scene's soldiers and sappers (sim/unit.h): barracks'
** soldiers with their own sprites, fights (sword swings, hits), health bars
** of soldiers and of damaged towers, a fallen tower's rubble, the rally
** flag of the selected barracks (and the ghost of a flag being placed, with
** where the soldiers would stand), and the "units" debug overlay: each
** unit's state, the soldiers' paths and the path queue's figures.
**
** What. A td_units belongs to a td_scene (scene.h), which calls it around
** each step and while it draws: before_step keeps every soldier's position
** of the tick before (drawing interpolates, as for enemies), after_step
** turns the step's events into its effects (swings, rubble, a soldier's
** fall), and the draw calls append to the scene's batch. It reads the
** world through sim/world.h's views and never changes it.
**
** Sprites: soldier_<soldier type> (a shape in the name's colour when
** missing), fx_rubble, fx_flag (render/atlas.h).
**
** Memory: owns its snapshot and effect arrays (malloc); borrows the atlas.
** Determinism: not part of the simulation.
*/
#ifndef TD_RENDER_UNITS_H
#define TD_RENDER_UNITS_H

#include <stdbool.h>
#include <stdint.h>

#include "render/atlas.h"
#include "render/batch.h"
#include "render/palette.h"
#include "sim/world.h"

struct td_camera;
typedef struct td_units td_units;

/* A rally flag being placed: the barracks on base, the point under the
** pointer (map units). */
typedef struct td_units_rally {
  int32_t base;          /* -1: none */
  float x, y;
} td_units_rally;

td_units *td_units_create(const td_atlas *atlas);   /* NULL: out of memory */
void td_units_destroy(td_units *u);
/* The palette of health bars and the rally flag's verdict (palette.h). */
void td_units_set_palette(td_units *u, td_palette_kind k);
void td_units_reset(td_units *u);                   /* a new game or a load */
void td_units_before_step(td_units *u, const td_world *w);
void td_units_after_step(td_units *u, const td_world *w);

/* Under the towers: rubble, the selected barracks' flag and posts, a rally
** ghost. alpha: between the last two ticks; time: seconds, animations. */
void td_units_draw_ground(td_units *u, td_batch *b, const td_world *w,
                          const struct td_camera *cam, int32_t selected_base,
                          const td_units_rally *rally, double time);
/* Over the ground enemies: soldiers, swings, health bars (soldiers',
** damaged towers'). */
void td_units_draw(td_units *u, td_batch *b, const td_world *w, const struct td_camera *cam,
                   float alpha, double time);
/* The "units" overlay: each enemy's and soldier's state, the soldiers'
** paths and posts, the path queue (pending requests, expansions spent the
** last tick) in a box at the viewport's top left. */
void td_units_draw_overlay(td_units *u, td_batch *b, const td_world *w,
                           const struct td_camera *cam);

#endif
