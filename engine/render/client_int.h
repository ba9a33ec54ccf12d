/*
** client_int.h: the inside of a td_client, shared by client.c (lifetime,
** the fixed-tick loop, input and commands) and client_ui.c (the layout of
** every screen's buttons, and drawing). Not a public header.
*/
#ifndef TD_RENDER_CLIENT_INT_H
#define TD_RENDER_CLIENT_INT_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/cards.h"
#include "game/progress.h"
#include "render/client.h"
#include "render/maplist.h"
#include "render/tutorial.h"
#include "render/ui.h"

#define MAX_MAPS 32
#define MAX_BUTTONS 96
#define CLIENT_USER_MODS 8 /* the player's mods the menu lists at most */
#define TOP_H 48
#define BOTTOM_H 68
#define PANEL_W 270
#define TICK_S (1.0 / TD_WORLD_TICK_HZ)
#define CLIENT_PAD_MOUSE 0x7d70u /* the mouse id of the gamepad's pointer (client_pad.c) */

enum screen { SCREEN_MENU, SCREEN_SETTINGS, SCREEN_GAME, SCREEN_OVER };

enum action {
  A_NONE, A_MAP, A_START, A_SETTINGS, A_QUIT, A_BACK, A_WINSIZE, A_FULLSCREEN, A_VSYNC,
  A_DIFFICULTY, A_VOLUME, A_VOLUME_SET, A_MUTE,
  A_BUILD, A_CALL, A_SPEED, A_PAUSE, A_MENU, A_RESUME, A_RESTART, A_MAINMENU, A_UPGRADE,
  A_SELL, A_TARGET, A_CLOSE_PANEL, A_ERR_CLOSE, A_ERR_COPY, A_RALLY, A_REPAIR,
  A_ENDLESS, A_CONTINUE, A_SAVE, A_NEXT_MAP, A_CONFIRM, A_CANCEL, A_UI_SCALE,
  A_MUSIC, A_MUSIC_SET, A_PALETTE, A_TUTORIAL_NEXT, A_TUTORIAL_SKIP, A_HELP, A_USER_MOD
};

typedef struct stats {
  int32_t kills, leaks, built, upgrades, sold, gold_earned, gold_spent, lives_lost;
  uint64_t ticks;
} stats;

struct td_client {
  SDL_Renderer *ren;
  td_atlas *atlas;
  td_batch batch;
  td_scene *scene;
  char assets_dir[512], maps_dir[512], user_maps_dir[512];
  char mod_dirs[TD_MOD_MAX_MODS][512]; /* the mods, in load order */
  size_t mod_count;
  char maps[MAX_MAPS][800];
  int nmaps, map_sel;
  uint64_t seed;
  td_game *game;
  char map_path[512];
  char menu_error[512];
  int screen;
  bool pause_menu, quit;
  int confirm;           /* an action waiting for the player's yes (A_RESTART, A_MAINMENU,
                            A_QUIT), A_NONE: no dialog */
  int w, h;              /* the screen in UI units: pixels / ui */
  int pw, ph;            /* the screen in pixels */
  float ui;              /* the UI scale: one UI unit is ui pixels (1, 1.5, 2, 3) */
  int ux, uy;            /* the mouse in UI units */
  td_camera cam;
  bool cam_set;
  double acc, time, over_at;
  double anim;           /* seconds of unpaused play: animations (frozen in pause) */
  int speed;
  /* mouse */
  int mx, my;
  bool ldown, dragging, rdown;
  int down_x, down_y;
  float drag_cx, drag_cy;
  bool keys_pan[4];
  /* building */
  int32_t build_type, selected, hover;
  bool rallying;         /* placing the selected barracks' rally flag */
  int32_t *pnext;
  size_t pnext_cap;
  int32_t p_base, p_type;
  uint64_t p_tick;
  uint32_t p_towers;
  bool p_ok, p_route;
  td_place_check pc;
  bool overlay[TD_OVERLAY_COUNT];
  /* messages */
  char toast[256];
  double toast_until;
  bool toast_bad;
  stats st;
  size_t errors_seen;
  bool show_errors;
  size_t err_index;
  double poll_at;
  td_client_settings set;
  bool set_dirty;
  td_ui_button btn[MAX_BUTTONS];
  int nbtn;
  SDL_Rect r_gold, r_lives, r_wave, r_hud, r_build, r_panel, r_call, r_preview, r_toast;
  bool panel_shown;
  double frame_ms;
  td_audio *audio;       /* borrowed; NULL: no sound */
  td_cards cards;        /* tooltips, cards, the boss bar (cards.c) */
  char ghost_why[128];   /* the ghost's refusal, in a player's words */
  char drawn[16384];     /* every text of the last frame, one a line (td_client_drawn_text) */
  size_t ndrawn;
  /* progress and saves (client_progress.c) */
  char data_dir[512];    /* where they are kept; "": nowhere */
  td_maplist maplist;    /* the menu's maps, in order (maps[] holds their paths) */
  td_progress progress;
  bool progress_ok;      /* read (or absent): may be written */
  bool endless;          /* the menu's mode, for the next game started */
  int stars;             /* the end screen's: stars of this win (0: none) */
  bool record;           /* the end screen's: a new record */
  char t_wave[96], t_over[1024]; /* texts of the last frame (td_client_text) */
  /* the gamepad (client_pad.c) */
  bool pad_on;           /* a controller was used last: its pointer is drawn */
  float pad_ax[6];       /* the sticks and triggers, -1 .. 1 (dead zone applied) */
  float pad_fx, pad_fy;  /* the pointer, in pixels (sub-pixel moves add up) */
  double pad_repeat;     /* when a held d-pad direction repeats */
  int pad_dir;           /* the d-pad direction held (SDL_CONTROLLER_BUTTON_DPAD_*), -1: none */
  td_tutorial tut;       /* the first map's tutorial (tutorial.c) */
  bool help;             /* the controls screen (H, ?) is open: the game does not step */
  SDL_Rect r_help;       /* its panel, last frame (UI units) */
  char t_tutorial[800];  /* the tutorial's words of the last frame ("": none) */
  /* the player's own mods (client_mods.c) */
  char umod_dir[CLIENT_USER_MODS][600]; /* USER/mods/NAME, by name */
  char umod_name[CLIENT_USER_MODS][32]; /* NAME for display (printable ASCII) */
  bool umod_on[CLIENT_USER_MODS];       /* toggled on: loaded after mod_dirs */
  int numods;
  int mods_x, mods_y;    /* the row's place, last layout (UI units) */
  int menu_bottom;       /* the main menu's last row of buttons ends here (UI units) */
};
static const SDL_Color WHITE = {255, 255, 255, 255};

/* client.c */
const td_world *client_world(const td_client *c);  /* NULL: no game */
const char *client_base_name(const char *path);     /* a path's last component */
void client_update_preview(td_client *c);           /* the ghost's verdict and route */
void client_fit_camera(td_client *c);
void client_layout_viewport(td_client *c);
void client_clamp_camera(td_client *c);

void client_begin(td_client *c, const char *map_path, td_game *g); /* a game on */
void client_toast(td_client *c, bool bad, const char *msg);

/* client_progress.c */
void client_progress_init(td_client *c, const char *data_dir); /* maps, progress */
void client_progress_free(td_client *c);
void client_progress_events(td_client *c);            /* after each step */
bool client_has_save(const td_client *c, int map);    /* a map's save slot holds one */
void client_save_game(td_client *c);                  /* the pause menu's Save game */
void client_continue(td_client *c);                   /* the menu's Continue */
int client_next_map(const td_client *c);              /* the map after this one, or -1 */
void client_progress_tutorial_done(td_client *c);     /* recorded and written */

/* client_mods.c: the player's own mods in the main menu */
/* Lists dir's mods, those named in on (space-separated; NULL: none) turned on. */
void client_mods_init(td_client *c, const char *dir, const char *on);
/* The mods a game started from the menu loads: mod_dirs, then the enabled
** user mods (no duplicates, at most TD_MOD_MAX_MODS); returns the count. */
size_t client_mods_for_game(const td_client *c, const char **mods);
void client_mods_toggle(td_client *c, int i); /* and c->set.mods, TD_SETTING_MODS */
int client_mods_height(const td_client *c);        /* of the toggles' row(s); 0: none */
void client_mods_layout(td_client *c, int x, int y, int w); /* its buttons */
void client_mods_draw(td_client *c);                /* its label */

/* client_pad.c: the gamepad */
void client_pad_event(td_client *c, const SDL_Event *e);  /* controller events */
void client_pad_advance(td_client *c, double seconds);     /* sticks: pointer, camera */
void client_pad_draw(td_client *c);                         /* the pointer, when in use */

/* client_ui.c */
void client_layout(td_client *c);                    /* every button of the screen */
td_ui_button *client_add_button(td_client *c, int x, int y, int w, int h, int action, int arg,
                                const char *label);  /* NULL: no room */

/* tutorial.c: the first map's tutorial (tutorial.h) */
void client_tutorial_begin(td_client *c);            /* a new game: on the menu's first map */
void client_tutorial_events(td_client *c);           /* after each step */
void client_tutorial_next(td_client *c);             /* its Next button */
bool client_tutorial_skip(td_client *c);             /* Skip, Esc: false when none shows */
void client_tutorial_layout(td_client *c);           /* its buttons, on the game screen */
void client_tutorial_draw(td_client *c);             /* its panel, arrow and rings */
bool client_tutorial_region(const td_client *c, SDL_Rect *out); /* its panel (UI units) */

/* client_help.c: the controls screen (H, ?) */
void client_help_layout(td_client *c);               /* its Close button */
void client_help_draw(td_client *c);
/* Its rows as layout areas (td_client_areas): at most cap written, the count returned. */
int client_help_areas(const td_client *c, td_client_area *out, int cap);

/* cards.c: the client's information (cards.h) */
void client_cards_reset(td_client *c);               /* a new game */
void client_cards_event(td_client *c, const td_event *e); /* a kind of enemy met */
/* The enemy under (x, y) gets its card (true); none: the card goes (false). */
bool client_cards_click(td_client *c, int x, int y);
void client_cards_draw(td_client *c);                /* last: boss bar, cards, tooltip */
bool client_cards_region(const td_client *c, const char *name, SDL_Rect *out);
/* A map's title (from its file name: "01-crossroads.tmx" reads Crossroads). */
const char *client_map_title(const char *path, char *buf, size_t cap);
/* The game's map title: its `title` property, else made from its file name. */
const char *client_game_title(const td_client *c, char *buf, size_t cap);

#endif
