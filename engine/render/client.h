/*
** client.h: the bundled game as a player has it: menus, the game screen
** with its HUD and build panels, camera, debug overlays, the Lua error
** overlay and hot reload; input in, td_game_command out.
**
** What. A td_client owns a td_game (game/game.h) while a game is on, and
** draws it with a td_scene (scene.h) through one sprite batch (batch.h) on
** an SDL_Renderer it borrows. The app (td play, td shot, the tests) feeds
** it SDL events (td_client_event), real time (td_client_advance) and asks
** for frames (td_client_draw). Player actions become commands
** (td_game_command) stamped with the current tick; the client never
** changes the world otherwise.
**
** Sound. Given a td_audio (td_client_set_audio; td play gives one, td shot
** none), the client plays the effects of audio.h from the world's events
** as it reads them after each tick (a tower firing, by its shot: arrow,
** cannon, frost, zap, flak; kills, leaks, building, selling, upgrades,
** refusals, waves, a boss's arrival, victory, defeat) and from its own UI
** (button clicks, refusals it makes itself). Sounds of the map are panned
** by where they are on screen and quieter off screen. Audio only reads
** the events: the game is the same with sound, without, or muted.
**
** Music (music.h): the client asks its audio for the menu's loop on the
** menus and the game's in a game, intense while enemies are on the map,
** at the settings' music volume (M mutes it with the rest).
**
** Gamepad (client_pad.c): SDL game controller events given to
** td_client_event play the whole game; the stick moves a pointer drawn by
** the client, the d-pad jumps it between buttons and pads (docs/game.md).
**
** Time. td_client_advance runs the simulation at its fixed tick
** (TD_WORLD_TICK_HZ) whatever the frame rate: an accumulator of real time
** times the game speed (1x, 2x, 4x), at most 8 x speed ticks per call (a
** long frame drops the rest instead of spiralling), and the remainder
** becomes the interpolation factor of the next draw.
**
** Screens: the main menu (the maps of the maps directory in their order,
** each with a thumbnail, title, description and stars: maplist.h; start,
** continue a map's saved game, campaign or endless mode, settings, quit),
** settings (window size, fullscreen, vsync: the app applies them,
** td_client_settings; difficulty, for the next game; volume in steps of
** 10 % and mute, which the client applies to its audio; M mutes on every
** screen; the music's volume; the palette, standard or colour-blind safe:
** palette.h; the UI scale: Auto, 1x, 1.5x, 2x), the player's own mods
** (user_mods_dir's subdirectories holding a mod.lua, by name, at most 8:
** a "Your mods" row of toggles under the chosen map's details, those named
** in user_mods_on turned on, td_client_settings.mods the ones on; a game
** started from the menu loads the enabled ones after the client's mods,
** and one that fails to load shows its error in the menu), the game (Esc: the pause
** menu, a panel at the left, which can save the game; Restart, Main menu
** and Quit ask first in a dialog; H or ?: the controls screen, during
** which the game does not step; on the menu's first map, once, the
** tutorial: tutorial.h), and victory/defeat with the game's
** statistics, a win's stars and the next map.
**
** Progress and saves (client_progress.c): given a data directory, the
** client keeps the player's progress there (game/progress.h: stars on a
** win, endless mode's best wave) and one saved game per map
** (DATA/saves/MAP.tds, game.h's td_game_save), continued from the menu
** with the same checksums; a save that does not load is refused with its
** reason and kept.
**
** Layout. Menus, HUD, panels and dialogs are laid out in UI units, each
** drawn as `ui` pixels (td_batch_set_scale); the map is drawn in pixels
** between the bars. Everything this header hands out (regions, buttons,
** areas, base positions) and every mouse position it takes is in pixels.
**
** Memory: the client owns its game, scene, atlas and batch; it borrows the
** renderer and the audio, which must outlive it. Determinism: the game it drives is
** stepped only by td_game_step in whole ticks; the client reads the clock
** only through what the app passes to td_client_advance.
*/
#ifndef TD_RENDER_CLIENT_H
#define TD_RENDER_CLIENT_H

#include <SDL.h>
#include <stdbool.h>
#include <stdint.h>

#include "game/game.h"
#include "render/audio.h"
#include "render/scene.h"

typedef struct td_client td_client;

typedef struct td_client_options {
  const char *assets_dir;  /* holds atlas.png and atlas.txt */
  const char *maps_dir;    /* listed by the main menu (NULL: no list) */
  const char *user_maps_dir; /* the player's maps, listed after them (NULL: none) */
  const char *user_mods_dir; /* the player's mods: the menu's toggles (NULL: none) */
  const char *user_mods_on;  /* those turned on at start: names, space-separated (NULL: none) */
  const char *data_dir;    /* the player's progress and saves (td_progress_dir;
                              NULL: none kept) */
  const char *map_path;    /* NULL: start in the main menu */
  const char *mod_dir;     /* NULL: scripts/base */
  const char *const *mod_dirs; /* or several, in load order (copied) */
  size_t mod_count;        /* 0: mod_dir alone */
  uint64_t seed;
  td_difficulty difficulty; /* the settings' initial value (0: normal) */
  int window_w, window_h;  /* the settings' initial values */
  bool fullscreen, vsync;
  int volume;              /* 0..100 % (td play's default is 80; a zeroed struct: 0) */
  bool muted;
  int ui_scale;            /* 0 auto, else 100, 150, 200 (%) */
  int music;               /* the music's volume, 0..100 % (td play's default is 60) */
  int palette;             /* td_palette_kind: standard, or colour-blind safe */
  SDL_Surface *surface;    /* offscreen: the renderer's target, drawn straight
                              into (td_batch_set_surface); NULL: a window */
  bool no_cards;           /* no enemy cards or boss bar (cards.h; td shot --no-cards) */
} td_client_options;

/* Which settings the player changed on the settings screen (or with M),
** td_client_settings.changed: what td play keeps for the next run; what
** the command line gave applies to this run only. */
enum {
  TD_SETTING_WINDOW = 1, TD_SETTING_FULLSCREEN = 2, TD_SETTING_VSYNC = 4, TD_SETTING_VOLUME = 8,
  TD_SETTING_MUTED = 16, TD_SETTING_DIFFICULTY = 32, TD_SETTING_UI_SCALE = 64,
  TD_SETTING_MUSIC = 128, TD_SETTING_PALETTE = 256, TD_SETTING_MODS = 512
};

typedef struct td_client_settings {
  int window_w, window_h;
  bool fullscreen, vsync;
  int volume;              /* 0..100 % */
  bool muted;
  td_difficulty difficulty; /* of the next game started */
  int ui_scale;            /* 0 auto (from the window's size), else 100, 150, 200 (%) */
  unsigned changed;        /* TD_SETTING_* bits: changed by the player since the start */
  int music;               /* the music's volume, 0..100 % */
  int palette;             /* td_palette_kind (palette.h) */
  char mods[256];          /* the user mods turned on in the menu, space-separated
                              (a name with a space or a non-ASCII byte is not kept) */
} td_client_settings;

/* NULL with err set (assets missing, the map or the mod failed to load). */
td_client *td_client_create(SDL_Renderer *r, const td_client_options *o, td_err *err);
void td_client_destroy(td_client *c);

/* Starts a game on a map (leaving any game on). 0, or -1 with err set (the
** client then shows the main menu with the error). */
int td_client_start(td_client *c, const char *map_path, td_err *err);

void td_client_event(td_client *c, const SDL_Event *e);
/* Advances real time by seconds (the frame's duration). */
void td_client_advance(td_client *c, double seconds);
/* Runs exactly n ticks now (tests and td shot), effects included. */
void td_client_step_ticks(td_client *c, int n);
/* Draws a frame on the whole render target (of w x h pixels). */
void td_client_draw(td_client *c, int w, int h);

bool td_client_quit(const td_client *c);
td_game *td_client_game(const td_client *c);          /* NULL outside a game */
/* The window's settings changed by the player since the last call: true
** and *out (volume, music, mute and palette do not count: the client
** applies them). */
bool td_client_settings_changed(td_client *c, td_client_settings *out);
/* The settings now, volume and mute included. */
void td_client_get_settings(const td_client *c, td_client_settings *out);
/* The audio to play sounds on (borrowed; NULL: none), set to the client's
** volume and mute at once. */
void td_client_set_audio(td_client *c, td_audio *a);

void td_client_set_overlay(td_client *c, td_overlay o, bool on);
/* Where a base's centre is on screen (after the last draw's layout). */
bool td_client_base_screen(const td_client *c, int32_t base, int *x, int *y);
/* A named screen rectangle of the last frame ("gold", "lives", "wave",
** "hud", "build", "panel", "call"; from cards.h: "tooltip" a button's
** tooltip, "card" the tooltip when it is a tower's or an upgrade's card,
** "enemy" the clicked enemy's card, "intro" a new kind of enemy's card,
** "boss" the boss bar; "tutorial" the tutorial's panel, "help" the
** controls screen): false when not shown. */
bool td_client_region(const td_client *c, const char *name, SDL_Rect *out);
/* Every separate thing on screen in the last frame, for layout checks:
** the HUD's labels ("gold", "lives", "wave", "preview": the next wave's
** icons), every button (named by its label, "button N" without one) and
** the toast; none of them may overlap another or leave the window, and no
** button's text may be wider than the button. While the controls screen
** is open, only its rows ("help: KEY", need_w: the row's text) and its
** Close button.
** Containers (the bars, the panel) are not listed. Writes at most cap,
** returns how many there are. */
typedef struct td_client_area {
  char name[64];
  SDL_Rect r;
  int need_w;              /* a button: the width its text needs (<= r.w: not cut) */
} td_client_area;
int td_client_areas(const td_client *c, td_client_area *out, int cap);
/* Centre of the button for an action by its label ("Start", "Sell",...):
** false when no such button is shown. */
bool td_client_button(const td_client *c, const char *label, int *x, int *y);
/* A text drawn by name: "wave" (the HUD's wave and what comes next, as
** the game screen last drew it: "Wave 8/20 defeat"), "over" (the end
** screen's statistics; "" when it is not shown), "confirm" (the confirm
** dialog's question, "" when none), "tutorial" (the tutorial's step as
** shown: "Tutorial 2/5: Build a tower here. Pick...", "" when none); NULL
** for an unknown name. */
const char *td_client_text(const td_client *c, const char *name);
/* The frame time to show in the stats overlay (ms), set by the app. */
void td_client_set_frame_ms(td_client *c, double ms);
/* Last status line shown to the player ("scripts reloaded", a refusal). */
const char *td_client_toast(const td_client *c);
/* Every text the last frame drew, one a line, in drawing order (tests:
** what a player reads). Valid until the next td_client_draw. */
const char *td_client_drawn_text(const td_client *c);
/* Where a live enemy is on screen (after the last draw's layout); false
** when the handle is dead or the enemy waits at its gate. */
bool td_client_enemy_screen(const td_client *c, uint32_t handle, int *x, int *y);

/* A mouse position in the window's coordinates (what SDL's mouse events
** carry) in the renderer's output pixels (what the client draws on and
** every position it takes is in): *ox = x * out_w / win_w and *oy =
** y * out_h / win_h, in integers rounded toward zero, so a position inside
** the window lands inside the output (the window's centre on the output's
** centre); x and y unchanged when a size is not positive. The two differ
** when the output is not the window's size: fullscreen without a window
** manager (a 1600x900 window on a 1920x1080 output put clicks ~180 px
** from what was drawn), a high-DPI display. td play maps every mouse
** motion and button event with it. */
void td_client_mouse_to_output(int win_w, int win_h, int out_w, int out_h, int x, int y, int *ox,
                               int *oy);

#endif
