/*
** cmd_play.c: `td play [--map M] [--mod DIR] [--seed N] [--window WxH]
** [--fullscreen] [--vsync] [--volume N] [--software] [--script FILE]
** [--frames N]`: the game in an SDL2 window, with sound.
**
** The loop: events -> td_client_event, the frame's real duration ->
** td_client_advance (which steps the simulation at its fixed 60 Hz tick
** through an accumulator), td_client_draw, present. The clock paces frames
** only; it never reaches the simulation.
**
** Sound: once the client runs, td play opens the default audio device
** (render/audio.h) and lends it to the client; when none opens it says so
** in one line and the game runs the same, silent.
**
** --script FILE runs a scripted session instead of a person (the
** end-to-end test): every frame then lasts exactly 1/60 s of game time, and
** the script feeds input and checks outcomes and pixels. One command a
** line, '#' comments:
**   wait N                    N frames
**   key NAME                  a key press ("1", "N", "Space", "F1", "shift+U")
**   click X Y | click base ID | click button LABEL | click enemy [TYPE]   (left
**                             button; enemy: the first on the map, in slot order,
**                             of that enemy type when given)
**   rclick X Y                right button
**   move X Y | move base ID | move button LABEL | move enemy [TYPE]   the mouse
**   wheel N                   N notches (negative: out)
**   pad button NAME           a gamepad button pressed, a frame, released, a
**                             frame (NAME as SDL names them: a b x y back start
**                             leftshoulder rightshoulder dpup dpdown dpleft
**                             dpright leftstick rightstick)
**   pad press NAME | pad release NAME   a button held / let go
**   pad axis NAME VALUE       a stick or trigger (leftx lefty rightx righty
**                             lefttrigger righttrigger) to VALUE (-32768..32767)
**                             The first pad line attaches a virtual game
**                             controller (SDL_JoystickAttachVirtual), which the
**                             game opens as it opens a real one.
**   resize WxH                the window, as a player dragging its edge
**   shot FILE                 saves the current frame as PNG
**   mark NAME                 remembers the current frame
**   expect KEY OP N           KEY gold|lives|wave|towers|enemies|tick, OP == != < > <= >=
**                             (these need a game on), or volume|muted (the
**                             audio's own, else the settings') or sounds |
**                             sounds:NAME (started on the audio device), or
**                             window_w|window_h (the window's size now)
**   expect state playing|won|lost
**   expect music KEY OP N     KEY volume (the music's volume on the audio
**                             device, else the settings'), layer (the wave
**                             layer's level, 0..100), track (0 none, 1 menu,
**                             2 play)
**   expect toast TEXT         the last message shown contains TEXT
**   expect shown REGION | expect hidden REGION   a named region (below, and
**                             tooltip, card, enemy, intro, boss, tutorial, help)
**                             is drawn / not
**   expect drawn TEXT | expect not_drawn TEXT    a text of the last frame
**                             contains TEXT (ASCII case ignored) / none does
**   expect no_raw_ids         no text of the last frame shows an id a player
**                             should not read: a rules name with a digit, '_',
**                             '-' or '.' ("arrow_2"), as a word; a map's file
**                             name; "(object"; "no such upgrade"
**   checksum NAME             remembers the world's tick and checksum
**   expect checksum NAME      the world is at that tick with that checksum
**   expect layout             no two areas of the screen (td_client_areas: the
**                             HUD's labels, every button) overlap, all inside
**                             the window, no button's text cut
**   expect text NAME TEXT     a text shown (wave, over, confirm, tutorial) contains TEXT
**   expect colour R,G,B REGION OP N   pixels of REGION within 60
**                             of that colour (|dr| + |dg| + |db|)
**   expect changed NAME REGION   the region differs from mark NAME (>= 0.5% of
**   expect same NAME REGION      its pixels) / does not; REGION: gold, lives,
**                             wave, hud, build, panel, call, base ID, or X,Y,W,H
** The status is 1 when an expectation failed, 2 for a bad script.
**
** Settings: the settings screen's choices (window size, fullscreen, vsync,
** volume, mute, difficulty; the menu's user mods turned on: mods NAME...)
** are kept in $XDG_CONFIG_HOME/td/settings.txt (else
** ~/.config/td/settings.txt), read at start (the command line's options win
** over them, for the run only: what is written back is the file's settings
** with those the player changed, td_client_settings.changed) and written
** when td play ends, through a temporary file and a
** rename. A line the reader does not take is named (file:line) in one
** warning and skipped; a file that cannot be written is a warning too: the
** game never fails over its settings. The player's progress and saved
** games are kept in $XDG_DATA_HOME/td (else ~/.local/share/td; docs/game.md,
** game/progress.h). A change on the settings screen is
** applied alone: toggling vsync leaves a window the player resized as it
** is; choosing a window size sets it.
*/
#define _POSIX_C_SOURCE 200809L /* mkdir */
#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "app/cmds.h"
#include "app/play.h"
#include "game/datadir.h"
#include "game/file.h"
#include "game/progress.h"

#define SETTINGS_MAX_BYTES ((size_t)64 << 10)
#define SCRIPT_MAX_BYTES ((size_t)16 << 20)

static const char usage[] =
  "usage: td play [--map FILE] [--mod DIR]... [--seed N] [--difficulty D] [--window WxH] [--fullscreen]\n"
  "               [--vsync] [--volume N] [--palette P] [--software] [--script FILE] [--frames N]\n"
  "\n"
  "Plays the game in a window. Without --map it opens the main menu: the bundled\n"
  "maps, then yours from $XDG_DATA_HOME/td/maps (else ~/.local/share/td/maps).\n"
  "\n"
  "  --map FILE      start this map at once\n"
  "  --mod DIR       the rules mod (default scripts/base); repeat it to load\n"
  "                  several mods, in order; a bare NAME is a mod in\n"
  "                  ~/.local/share/td/mods, else the bundled scripts/NAME\n"
  "  --seed N        the world's seed (default 1)\n"
  "  --difficulty D  normal (default), easy or hard (also in the settings)\n"
  "  --window WxH    window size (default 1280x720)\n"
  "  --fullscreen    desktop fullscreen\n"
  "  --vsync         wait for the display's refresh\n"
  "  --volume N      sound volume, 0..100 % (default 80; also in the settings, M mutes)\n"
  "  --palette P     standard or safe (colour-blind safe); also in the settings\n"
  "  --software      SDL's software renderer\n"
  "  --script FILE   a scripted session (tests): input and checks, 1/60 s per frame\n"
  "  --frames N      quit after N frames\n"
  "\n"
  "The settings screen's choices are kept in $XDG_CONFIG_HOME/td/settings.txt\n"
  "(else ~/.config/td/settings.txt); options given here win over them\n"
  "for this run only. Progress (stars, endless records) and saved games:\n"
  "$XDG_DATA_HOME/td (else ~/.local/share/td).\n"
  "Controls: docs/game.md.\n";

/* ---- settings kept between runs ------------------------------------------ */

/* The settings file's path into buf, and its directory's length (the path
** up to its last '/'); false when neither $XDG_CONFIG_HOME nor $HOME is set. */
static bool settings_path(char *buf, size_t n, size_t *dir_len) {
  const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
  int k;
  if (xdg && *xdg) k = snprintf(buf, n, "%s/td/settings.txt", xdg);
  else if (home && *home) k = snprintf(buf, n, "%s/.config/td/settings.txt", home);
  else return false;
  if (k < 0 || (size_t)k >= n) return false;
  *dir_len = (size_t)k - strlen("/settings.txt");
  return true;
}

/* The next line of text[*at .. len) into line[cap], cut to fit, without its
** line break; false at the end. */
static bool next_line(const char *text, size_t len, size_t *at, char *line, size_t cap) {
  if (*at >= len) return false;
  const char *p = text + *at, *nl = memchr(p, '\n', len - *at);
  size_t n = nl ? (size_t)(nl - p) : len - *at, k = n < cap - 1 ? n : cap - 1;
  memcpy(line, p, k);
  line[k] = '\0';
  *at += n + (nl ? 1 : 0);
  return true;
}

/* Reads the file's `key value` lines over *st; true when it exists (one
** that cannot be read, a FIFO say, is reported and left alone). */
static bool settings_read(const char *path, td_client_settings *st) {
  struct stat sb;
  if (stat(path, &sb) != 0) return false;
  char *text, line[300];
  size_t len, cap, at = 0;
  td_err err;
  if (td_mem_read_file(path, SETTINGS_MAX_BYTES, &text, &len, &cap, &err) != 0) {
    td_app_fail("play: %s; settings not read", err.msg);
    return false;
  }
  for (int ln = 1; next_line(text, len, &at, line, sizeof line); ln++) {
    char key[32];
    int a = 0, b = 0;
    char extra, word[16];
    td_difficulty d = TD_DIFFICULTY_NORMAL;
    if (line[0] == '#' || line[0] == '\0' || line[0] == '\r') continue;
    bool ok = sscanf(line, "%31s", key) == 1;
    if (ok && !strcmp(key, "window"))
      ok = sscanf(line, "%*s %dx%d %c", &a, &b, &extra) == 2 && a >= 320 && b >= 240 &&
           a <= 8192 && b <= 8192;
    else if (ok && (!strcmp(key, "fullscreen") || !strcmp(key, "vsync") || !strcmp(key, "muted")))
      ok = sscanf(line, "%*s %d %c", &a, &extra) == 1 && (a == 0 || a == 1);
    else if (ok && (!strcmp(key, "volume") || !strcmp(key, "music")))
      ok = sscanf(line, "%*s %d %c", &a, &extra) == 1 && a >= 0 && a <= 100;
    else if (ok && !strcmp(key, "palette"))
      ok = sscanf(line, "%*s %15s %c", word, &extra) == 1 && (a = td_palette_parse(word)) >= 0;
    else if (ok && !strcmp(key, "ui_scale"))
      ok = sscanf(line, "%*s %d %c", &a, &extra) == 1 && (a == 0 || a == 100 || a == 150 || a == 200);
    else if (ok && !strcmp(key, "mods")) /* the user mods turned on: names */
      ok = strlen(line + strspn(line, " ") + 4) < sizeof st->mods;
    else if (ok && !strcmp(key, "difficulty"))
      ok = sscanf(line, "%*s %15s %c", word, &extra) == 1 && td_difficulty_parse(word, &d) == 0;
    else
      ok = false;
    if (!ok) {
      line[strcspn(line, "\r\n")] = '\0';
      td_app_fail("play: %s:%d: '%.60s' is not a setting (window WxH, fullscreen 0|1, "
                  "vsync 0|1, volume 0..100, music 0..100, muted 0|1, difficulty easy|normal|hard, "
                  "ui_scale 0|100|150|200, palette standard|safe, mods NAME...); skipped",
                  path, ln, line);
      continue;
    }
    if (!strcmp(key, "window")) st->window_w = a, st->window_h = b;
    else if (!strcmp(key, "fullscreen")) st->fullscreen = a;
    else if (!strcmp(key, "vsync")) st->vsync = a;
    else if (!strcmp(key, "muted")) st->muted = a;
    else if (!strcmp(key, "difficulty")) st->difficulty = d;
    else if (!strcmp(key, "ui_scale")) st->ui_scale = a;
    else if (!strcmp(key, "music")) st->music = a;
    else if (!strcmp(key, "palette")) st->palette = a;
    else if (!strcmp(key, "mods")) {
      const char *v = line + strspn(line, " ") + 4;
      v += strspn(v, " \t");
      snprintf(st->mods, sizeof st->mods, "%.*s", (int)strcspn(v, "\r"), v);
    }
    else st->volume = a;
  }
  td_mem_free(text, cap);
  return true;
}

/* Writes st to path (its directory made when missing) through the output
** writer (game/file.h): a crash leaves the old file or the new one. A path
** that is there and not a file (a FIFO would block the writer until someone
** reads it) is left alone, with a warning. */
static void settings_write(const char *path, size_t dir_len, const td_client_settings *st) {
  char dir[1024], text[1024];
  struct stat sb;
  if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
    td_app_say("play: %s: not a regular file; settings not saved", path);
    return;
  }
  if (dir_len >= sizeof dir) return;
  memcpy(dir, path, dir_len);
  dir[dir_len] = '\0';
  for (char *p = dir + 1; *p; p++) /* each level, like mkdir -p */
    if (*p == '/') {
      *p = '\0';
      mkdir(dir, 0755);
      *p = '/';
    }
  mkdir(dir, 0755);
  int n = snprintf(text, sizeof text,
                   "# td play's settings (written by td play; docs/game.md)\n"
                   "window %dx%d\nfullscreen %d\nvsync %d\nvolume %d\nmuted %d\n"
                   "difficulty %s\nui_scale %d\nmusic %d\npalette %s\nmods%s%.255s\n",
                   st->window_w, st->window_h, st->fullscreen, st->vsync, st->volume, st->muted,
                   td_difficulty_name(st->difficulty), st->ui_scale, st->music,
                   td_palette_name((td_palette_kind)st->palette), st->mods[0] ? " " : "", st->mods);
  td_err err;
  if (n < 0 || (size_t)n >= sizeof text)
    td_app_fail("play: cannot save the settings to %s: too long", path);
  else if (td_file_write(path, text, (size_t)n, &err) != 0)
    td_app_fail("play: cannot save the settings: %s", err.msg);
}

typedef struct frame_mark {
  char name[256];
  uint32_t *px;
} frame_mark;

typedef struct world_mark {
  char name[64];
  uint64_t tick, checksum;
} world_mark;

typedef struct session {
  td_client *c;
  td_audio *audio;
  SDL_Renderer *ren;
  SDL_Window *win;
  td_client_settings applied; /* the settings the window has */
  int w, h;
  frame_mark marks[8];
  int nmarks;
  world_mark sums[8];
  int nsums;
  int fails;
  SDL_Joystick *vpad;         /* the script's virtual game controller */
} session;

static int parse_size(const char *s, int *w, int *h) {
  return sscanf(s, "%dx%d", w, h) == 2 && *w >= 320 && *h >= 240 && *w <= 8192 && *h <= 8192 ? 0 : -1;
}

/* The mouse in the renderer's pixels: SDL gives it in the window's
** coordinates, and the two differ when the output is not the window's
** size (fullscreen without a window manager at 1600x900 put clicks ~180 px
** from what was drawn; a high-DPI display). The client draws on the
** output (SDL_GetRendererOutputSize, no logical size is set), so the
** mouse is scaled by output / window (td_client_mouse_to_output). */
static void mouse_to_output(const session *s, SDL_Event *e) {
  int ww = 0, wh = 0, ow = 0, oh = 0;
  SDL_GetWindowSize(s->win, &ww, &wh);
  if (SDL_GetRendererOutputSize(s->ren, &ow, &oh) != 0 || ww <= 0 || wh <= 0 || (ww == ow && wh == oh))
    return;
  int *x = NULL, *y = NULL;
  if (e->type == SDL_MOUSEMOTION) x = &e->motion.x, y = &e->motion.y;
  else if (e->type == SDL_MOUSEBUTTONDOWN || e->type == SDL_MOUSEBUTTONUP) x = &e->button.x, y = &e->button.y;
  if (!x) return;
  td_client_mouse_to_output(ww, wh, ow, oh, *x, *y, x, y);
}

static void frame(session *s, double dt) {
  SDL_Event e;
  while (SDL_PollEvent(&e)) {
    if (e.type == SDL_WINDOWEVENT) continue;
    if (e.type == SDL_CONTROLLERDEVICEADDED) { /* a pad plugged in (or there at the start) */
      if (!SDL_GameControllerFromInstanceID(SDL_JoystickGetDeviceInstanceID(e.cdevice.which)))
        SDL_GameControllerOpen(e.cdevice.which); /* closed by SDL_Quit */
      continue;
    }
    mouse_to_output(s, &e);
    td_client_event(s->c, &e);
  }
  td_client_advance(s->c, dt);
  SDL_GetRendererOutputSize(s->ren, &s->w, &s->h);
  td_client_draw(s->c, s->w, s->h);
  SDL_RenderPresent(s->ren);
  td_client_settings set, *was = &s->applied;
  if (td_client_settings_changed(s->c, &set) && s->win) {
    /* only what changed: a window the player resized keeps its size when
    ** vsync is toggled, and leaving fullscreen restores the chosen size */
    bool size = set.window_w != was->window_w || set.window_h != was->window_h;
    if (set.fullscreen != was->fullscreen)
      SDL_SetWindowFullscreen(s->win, set.fullscreen ? SDL_WINDOW_FULLSCREEN_DESKTOP : 0);
    if (!set.fullscreen && (size || set.fullscreen != was->fullscreen))
      SDL_SetWindowSize(s->win, set.window_w, set.window_h);
#if SDL_VERSION_ATLEAST(2, 0, 18)
    if (set.vsync != was->vsync) SDL_RenderSetVSync(s->ren, set.vsync ? 1 : 0);
#endif
    *was = set;
  }
}

/* ---- the script ---------------------------------------------------------- */

static bool region(session *s, const char *spec, SDL_Rect *r) {
  td_game *g = td_client_game(s->c);
  long long id;
  if (sscanf(spec, "base %lld", &id) == 1 && g) {
    int32_t b = td_app_base_index(g, id);
    int x, y;
    if (b < 0 || !td_client_base_screen(s->c, b, &x, &y)) return false;
    *r = (SDL_Rect){x - 16, y - 16, 32, 32};
    return true;
  }
  if (sscanf(spec, "%d,%d,%d,%d", &r->x, &r->y, &r->w, &r->h) == 4) return true;
  return td_client_region(s->c, spec, r);
}

/* Whether hay holds needle, ASCII case ignored; word: only with no name
** character (rules.h) on either side. */
static bool contains(const char *hay, const char *needle, bool word) {
  size_t n = strlen(needle);
  if (n == 0) return true;
  for (const char *p = hay; *p; p++) {
    size_t i = 0;
    while (i < n && p[i] && tolower((unsigned char)p[i]) == tolower((unsigned char)needle[i])) i++;
    if (i < n) continue;
    if (!word) return true;
    bool before = p > hay && td_rules_name_char((unsigned char)p[-1]);
    bool after = td_rules_name_char((unsigned char)p[n]);
    if (!before && !after) return true;
  }
  return false;
}

/* The first id of the rules (or the map's file name) that the frame's text
** shows, or NULL (see `expect no_raw_ids`). */
static const char *raw_id_shown(const td_game *g, const char *text, char *buf, size_t cap) {
  static const char *const phrases[] = {"(object", "no such upgrade", ".lua", ".tmx", ".tmj"};
  for (size_t i = 0; i < sizeof phrases / sizeof phrases[0]; i++)
    if (contains(text, phrases[i], false)) return phrases[i];
  if (!g) return NULL;
  const td_rules *r = td_game_rules(g);
  for (int pass = 0; pass < 4; pass++) {
    size_t n = pass == 0 ? r->tower_count : pass == 1 ? r->level_count
             : pass == 2 ? r->enemy_count : r->soldier_type_count;
    for (size_t i = 0; i < n; i++) {
      const char *id = pass == 0 ? r->towers[i].name : pass == 1 ? r->levels[i].name
                     : pass == 2 ? r->enemies[i].name : r->soldier_types[i].name;
      if (strcspn(id, "0123456789_-.") == strlen(id)) continue; /* a plain word reads as one */
      if (contains(text, id, true)) return id;
    }
  }
  td_game_map_name_of(td_game_map_path(g), buf, cap); /* "01-crossroads" */
  return contains(text, buf, true) ? buf : NULL;
}

static double diff_fraction(const session *s, const uint32_t *a, const uint32_t *b, SDL_Rect r) {
  long n = 0, d = 0;
  for (int y = r.y; y < r.y + r.h; y++)
    for (int x = r.x; x < r.x + r.w; x++) {
      if (x < 0 || y < 0 || x >= s->w || y >= s->h) continue;
      n++;
      uint32_t p = a[y * s->w + x], q = b[y * s->w + x];
      int dr = abs((int)((p >> 16) & 255) - (int)((q >> 16) & 255));
      int dg = abs((int)((p >> 8) & 255) - (int)((q >> 8) & 255));
      int db = abs((int)(p & 255) - (int)(q & 255));
      d += dr + dg + db > 48;
    }
  return n ? (double)d / (double)n : 0;
}

static bool compare(long long got, const char *op, long long want) {
  if (!strcmp(op, "==")) return got == want;
  if (!strcmp(op, "!=")) return got != want;
  if (!strcmp(op, "<")) return got < want;
  if (!strcmp(op, ">")) return got > want;
  if (!strcmp(op, "<=")) return got <= want;
  if (!strcmp(op, ">=")) return got >= want;
  return false;
}

/* `expect KEY OP N` on a number got: 0 when it holds (an "ok" line on
** stdout), 1 with the line and the value on stderr. */
static int expect_number(const char *file, int ln, const char *key, const char *op,
                         const char *want, long long got) {
  bool ok = compare(got, op, atoll(want));
  if (!ok) td_app_say("%s:%d: expect %s %s %s failed: %lld", file, ln, key, op, want, got);
  else printf("ok: %s %s %s (%lld)\n", key, op, want, got);
  return ok ? 0 : 1;
}

static uint32_t *grab(session *s) {
  uint32_t *px = malloc((size_t)s->w * (size_t)s->h * 4);
  if (!px) return NULL;
  td_err err;
  if (td_app_read_pixels(s->ren, s->w, s->h, px, &err) != 0) {
    free(px);
    return NULL;
  }
  return px;
}

/* `pad ...`: a virtual game controller, attached at the first use; 0 or 2. */
static int script_pad(session *s, const char *file, int ln, int n, const char *a, const char *b,
                      const char *c3) {
  if (!s->vpad) {
    int idx = SDL_JoystickAttachVirtual(SDL_JOYSTICK_TYPE_GAMECONTROLLER, SDL_CONTROLLER_AXIS_MAX,
                                        SDL_CONTROLLER_BUTTON_MAX, 0);
    if (idx < 0 || !(s->vpad = SDL_JoystickOpen(idx))) {
      td_app_fail("%s:%d: pad: no virtual game controller: %s", file, ln, SDL_GetError());
      return 2;
    }
    frame(s, 1.0 / 60); /* the game sees it plugged in and opens it */
  }
  if (!strcmp(a, "axis") && n == 4) {
    SDL_GameControllerAxis ax = SDL_GameControllerGetAxisFromString(b);
    long v = strtol(c3, NULL, 10);
    if (ax == SDL_CONTROLLER_AXIS_INVALID || v < -32768 || v > 32767) {
      td_app_fail("%s:%d: pad axis NAME VALUE: bad axis '%s' or value '%s'", file, ln, b, c3);
      return 2;
    }
    SDL_JoystickSetVirtualAxis(s->vpad, (int)ax, (Sint16)v);
    frame(s, 1.0 / 60);
    return 0;
  }
  SDL_GameControllerButton bt = SDL_GameControllerGetButtonFromString(b);
  if (n != 3 || bt == SDL_CONTROLLER_BUTTON_INVALID ||
      (strcmp(a, "button") != 0 && strcmp(a, "press") != 0 && strcmp(a, "release") != 0)) {
    td_app_fail("%s:%d: pad button|press|release NAME, or pad axis NAME VALUE: bad line", file, ln);
    return 2;
  }
  if (strcmp(a, "release") != 0) {
    SDL_JoystickSetVirtualButton(s->vpad, (int)bt, 1);
    frame(s, 1.0 / 60);
  }
  if (strcmp(a, "press") != 0) {
    SDL_JoystickSetVirtualButton(s->vpad, (int)bt, 0);
    frame(s, 1.0 / 60);
  }
  return 0;
}

/* The line after its first k words (separated by spaces or tabs, as
** sscanf's %s reads them), with the spaces after them skipped: where a
** region or a label begins. Not a search for a word's text, which found a
** mark named "e" inside "expect". */
static const char *after_words(const char *line, int k) {
  const char *p = line;
  for (int i = 0; i < k; i++) {
    while (*p == ' ' || *p == '\t') p++;
    while (*p && *p != ' ' && *p != '\t') p++;
  }
  while (*p == ' ' || *p == '\t') p++;
  return p;
}

/* Runs one line; 0 ok, 1 an expectation failed, 2 a bad line. */
static int script_line(session *s, const char *file, int ln, char *line) {
  char *nl = strpbrk(line, "#\r\n");
  if (nl) *nl = 0;
  char cmd[32] = "", a[256] = "", b[256] = "", c3[256] = "";
  int n = sscanf(line, "%31s %255s %255s %255s", cmd, a, b, c3);
  if (n <= 0) return 0;
  td_game *g = td_client_game(s->c);
  int x, y;
  if (!strcmp(cmd, "wait") && n == 2) {
    int k = atoi(a);
    for (int i = 0; i < k; i++) frame(s, 1.0 / 60);
    return 0;
  }
  if (!strcmp(cmd, "key") && n == 2) {
    if (td_app_key(s->c, a) != 0) {
      td_app_fail("%s:%d: unknown key '%s'", file, ln, a);
      return 2;
    }
    frame(s, 1.0 / 60);
    return 0;
  }
  if ((!strcmp(cmd, "click") || !strcmp(cmd, "rclick") || !strcmp(cmd, "move")) &&
      (n >= 3 || (n == 2 && !strcmp(a, "enemy")))) {
    if (!strcmp(a, "base")) {
      int32_t bi = g ? td_app_base_index(g, atoll(b)) : -1;
      if (bi < 0 || !td_client_base_screen(s->c, bi, &x, &y)) {
        td_app_fail("%s:%d: no tower base with object id %s", file, ln, b);
        return 2;
      }
    } else if (!strcmp(a, "enemy")) {
      const td_world *w = g ? td_game_world(g) : NULL;
      bool found = false;
      const td_rules *r = g ? td_game_rules(g) : NULL;
      for (size_t i = 0; w && !found && i < td_world_enemy_capacity(w); i++) {
        td_enemy_view v;
        found = td_world_enemy(w, i, &v) && (n < 3 || !strcmp(r->enemies[v.type].name, b)) &&
                td_client_enemy_screen(s->c, v.handle, &x, &y);
      }
      if (!found) {
        td_app_fail("%s:%d: no enemy on the map", file, ln);
        return 2;
      }
    } else if (!strcmp(a, "button")) {
      const char *label = line + (strstr(line, "button") - line) + 7;
      while (*label == ' ') label++;
      if (!td_client_button(s->c, label, &x, &y)) {
        td_app_fail("%s:%d: no button '%s' on screen", file, ln, label);
        return 2;
      }
    } else {
      x = atoi(a);
      y = atoi(b);
    }
    if (!strcmp(cmd, "move")) td_app_move(s->c, x, y);
    else td_app_click(s->c, x, y, !strcmp(cmd, "click") ? SDL_BUTTON_LEFT : SDL_BUTTON_RIGHT);
    frame(s, 1.0 / 60);
    return 0;
  }
  if (!strcmp(cmd, "pad") && (n == 3 || n == 4)) return script_pad(s, file, ln, n, a, b, c3);
  if (!strcmp(cmd, "resize") && n == 2) { /* as a player dragging the window's edge */
    int ww, wh;
    if (parse_size(a, &ww, &wh) != 0) {
      td_app_fail("%s:%d: resize: '%s' is not WxH (320x240 .. 8192x8192)", file, ln, a);
      return 2;
    }
    SDL_SetWindowSize(s->win, ww, wh);
    frame(s, 1.0 / 60);
    return 0;
  }
  if (!strcmp(cmd, "wheel") && n == 2) {
    SDL_Event e;
    memset(&e, 0, sizeof e);
    e.type = SDL_MOUSEWHEEL;
    e.wheel.y = atoi(a);
    td_client_event(s->c, &e);
    frame(s, 1.0 / 60);
    return 0;
  }
  if (!strcmp(cmd, "shot") && n == 2) {
    td_err err;
    if (td_app_save_png(s->ren, s->w, s->h, a, &err) != 0) {
      td_app_fail("%s", err.msg);
      return 2;
    }
    return 0;
  }
  if (!strcmp(cmd, "mark") && n == 2) {
    frame_mark *m = NULL;
    for (int i = 0; i < s->nmarks; i++)
      if (!strcmp(s->marks[i].name, a)) m = &s->marks[i];
    if (!m && s->nmarks < 8) m = &s->marks[s->nmarks++];
    if (!m) return 2;
    free(m->px);
    snprintf(m->name, sizeof m->name, "%s", a);
    m->px = grab(s);
    return m->px ? 0 : 2;
  }
  if (!strcmp(cmd, "checksum") && n == 2) {
    if (!g) {
      td_app_say("%s:%d: checksum: no game on", file, ln);
      return 1;
    }
    world_mark *m = NULL;
    for (int i = 0; i < s->nsums; i++)
      if (!strcmp(s->sums[i].name, a)) m = &s->sums[i];
    if (!m && s->nsums < 8) m = &s->sums[s->nsums++];
    if (!m) return 2;
    snprintf(m->name, sizeof m->name, "%.63s", a);
    m->tick = td_world_tick(td_game_world(g));
    m->checksum = td_world_checksum(td_game_world(g));
    printf("checksum %s: tick %llu %016llx\n", a, (unsigned long long)m->tick,
           (unsigned long long)m->checksum);
    return 0;
  }
  if (!strcmp(cmd, "expect") && n >= 2) {
    if (!strcmp(a, "checksum") && n == 3) {
      const world_mark *m = NULL;
      for (int i = 0; i < s->nsums; i++)
        if (!strcmp(s->sums[i].name, b)) m = &s->sums[i];
      if (!m) {
        td_app_fail("%s:%d: no checksum '%s' remembered", file, ln, b);
        return 2;
      }
      if (!g) {
        td_app_say("%s:%d: no game on", file, ln);
        return 1;
      }
      uint64_t t = td_world_tick(td_game_world(g)), sum = td_world_checksum(td_game_world(g));
      bool ok = t == m->tick && sum == m->checksum;
      if (!ok)
        td_app_say("%s:%d: expect checksum %s failed: tick %llu %016llx, remembered tick %llu %016llx",
                   file, ln, b, (unsigned long long)t, (unsigned long long)sum,
                   (unsigned long long)m->tick, (unsigned long long)m->checksum);
      else printf("ok: checksum %s (tick %llu %016llx)\n", b, (unsigned long long)t, (unsigned long long)sum);
      return ok ? 0 : 1;
    }
    int cr, cg, cb;
    if (!strcmp(a, "colour") && n == 4 && strlen(b) < 32 && sscanf(b, "%d,%d,%d", &cr, &cg, &cb) == 3) {
      /* expect colour R,G,B REGION OP N: pixels within 60 (|dr|+|dg|+|db|) of it */
      char reg[256], *op = NULL, *want = NULL, *rg;
      snprintf(reg, sizeof reg, "%s", after_words(line, 3)); /* expect colour R,G,B REGION OP N */
      for (int k = 0; k < 2; k++) { /* the last two words: OP and N */
        size_t len = strlen(reg);
        while (len > 0 && reg[len - 1] == ' ') reg[--len] = '\0';
        char *sp = strrchr(reg, ' ');
        if (!sp) break;
        *sp = '\0';
        if (k == 0) want = sp + 1;
        else op = sp + 1;
      }
      for (rg = reg; *rg == ' ';) rg++;
      SDL_Rect r;
      if (!op || !want) {
        td_app_fail("%s:%d: expect colour R,G,B REGION OP N: bad line", file, ln);
        return 2;
      }
      if (!region(s, rg, &r)) {
        td_app_fail("%s:%d: expect colour: no region '%s'", file, ln, rg);
        return 2;
      }
      uint32_t *now = grab(s);
      if (!now) return 2;
      long long got = 0;
      for (int py = r.y; py < r.y + r.h; py++)
        for (int px = r.x; px < r.x + r.w; px++) {
          if (px < 0 || py < 0 || px >= s->w || py >= s->h) continue;
          uint32_t p = now[py * s->w + px];
          got += abs((int)((p >> 16) & 255) - cr) + abs((int)((p >> 8) & 255) - cg) +
                 abs((int)(p & 255) - cb) <= 60;
        }
      free(now);
      return expect_number(file, ln, "colour", op, want, got);
    }
    if (!strcmp(a, "layout") && n == 2) { /* no two areas overlap, all inside the window */
      td_client_area ar[128];
      int na = td_client_areas(s->c, ar, 128), bad = 0;
      if (na > 128) na = 128;
      for (int i = 0; i < na; i++) {
        SDL_Rect r = ar[i].r;
        if (r.x < 0 || r.y < 0 || r.x + r.w > s->w || r.y + r.h > s->h) {
          td_app_say("%s:%d: expect layout: '%s' (%d,%d %dx%d) leaves the %dx%d window", file, ln,
                     ar[i].name, ar[i].r.x, ar[i].r.y, ar[i].r.w, ar[i].r.h, s->w, s->h);
          bad++;
        }
        if (ar[i].need_w > r.w) {
          td_app_say("%s:%d: expect layout: '%s' needs %d px, has %d: its text is cut", file, ln,
                     ar[i].name, ar[i].need_w, r.w);
          bad++;
        }
        for (int j = i + 1; j < na; j++)
          if (SDL_HasIntersection(&ar[i].r, &ar[j].r)) {
            td_app_say("%s:%d: expect layout: '%s' (%d,%d %dx%d) overlaps '%s' (%d,%d %dx%d)", file, ln,
                       ar[i].name, ar[i].r.x, ar[i].r.y, ar[i].r.w, ar[i].r.h, ar[j].name, ar[j].r.x,
                       ar[j].r.y, ar[j].r.w, ar[j].r.h);
            bad++;
          }
      }
      if (!bad) printf("ok: layout (%d areas in %dx%d)\n", na, s->w, s->h);
      return bad ? 1 : 0;
    }
    if ((!strcmp(a, "changed") || !strcmp(a, "same")) && n >= 4) {
      const frame_mark *m = NULL;
      for (int i = 0; i < s->nmarks; i++)
        if (!strcmp(s->marks[i].name, b)) m = &s->marks[i];
      const char *spec = after_words(line, 3); /* expect changed|same NAME REGION */
      SDL_Rect r;
      if (!m || !region(s, spec, &r)) {
        td_app_fail("%s:%d: no mark '%s' or region '%s'", file, ln, b, spec);
        return 2;
      }
      uint32_t *now = grab(s);
      if (!now) return 2;
      double f = diff_fraction(s, m->px, now, r);
      free(now);
      bool ok = !strcmp(a, "changed") ? f >= 0.005 : f < 0.005;
      if (!ok) td_app_say("%s:%d: expect %s %s %s failed: %.1f%% of the pixels differ", file, ln,
                          a, b, spec, f * 100);
      else printf("ok: %s %s %s (%.1f%% differ)\n", a, b, spec, f * 100);
      return ok ? 0 : 1;
    }
    if (n == 4 && (!strcmp(a, "window_w") || !strcmp(a, "window_h"))) {
      int ww = 0, wh = 0;
      SDL_GetWindowSize(s->win, &ww, &wh);
      long long got = !strcmp(a, "window_w") ? ww : wh;
      return expect_number(file, ln, a, b, c3, got);
    }
    if (n == 4 && (!strcmp(a, "volume") || !strcmp(a, "muted") || !strncmp(a, "sounds", 6))) {
      /* the sound: what the audio device has, not only what the settings say */
      long long got;
      td_client_settings set;
      td_client_get_settings(s->c, &set);
      int vol = set.volume;
      bool muted = set.muted;
      td_audio_get_volume(s->audio, &vol, &muted);
      if (!strcmp(a, "volume")) got = vol;
      else if (!strcmp(a, "muted")) got = muted;
      else {
        int which = -1; /* every sound */
        if (strcmp(a, "sounds") != 0) {
          which = !strncmp(a, "sounds:", 7) ? td_audio_sound_parse(a + 7) : -1;
          if (which < 0) {
            td_app_fail("%s:%d: unknown value '%s' (sounds or sounds:NAME, NAME click, arrow...)", file, ln, a);
            return 2;
          }
        }
        if (!s->audio) {
          td_app_say("%s:%d: expect %s: no audio device", file, ln, a);
          return 1;
        }
        got = (long long)td_audio_started(s->audio, which);
      }
      return expect_number(file, ln, a, b, c3, got);
    }
    if (!strcmp(a, "music") && n >= 4) { /* expect music KEY OP N */
      char op[8] = "", want[32] = "";
      if (sscanf(line, "%*s %*s %*s %7s %31s", op, want) != 2 ||
          (strcmp(b, "volume") != 0 && strcmp(b, "layer") != 0 && strcmp(b, "track") != 0)) {
        td_app_fail("%s:%d: expect music volume|layer|track OP N: bad line", file, ln);
        return 2;
      }
      td_client_settings set;
      td_client_get_settings(s->c, &set);
      int track = -1, vol = set.music;
      float layer = -1;
      td_audio_get_music(s->audio, &track, &vol, &layer);
      if (strcmp(b, "volume") != 0 && !s->audio) {
        td_app_say("%s:%d: expect music %s: no audio device", file, ln, b);
        return 1;
      }
      long long got = !strcmp(b, "volume") ? vol : !strcmp(b, "track") ? track : lrintf(layer * 100);
      char key[16];
      snprintf(key, sizeof key, "music %.9s", b);
      return expect_number(file, ln, key, op, want, got);
    }
    if ((!strcmp(a, "shown") || !strcmp(a, "hidden")) && n == 3) {
      SDL_Rect r;
      bool shown = td_client_region(s->c, b, &r), ok = shown == !strcmp(a, "shown");
      if (!ok) td_app_say("%s:%d: expect %s %s failed", file, ln, a, b);
      return ok ? 0 : 1;
    }
    if ((!strcmp(a, "drawn") || !strcmp(a, "not_drawn")) && n >= 3) {
      const char *want = strstr(line, a) + strlen(a);
      while (*want == ' ') want++;
      bool ok = contains(td_client_drawn_text(s->c), want, false) == !strcmp(a, "drawn");
      if (!ok) td_app_say("%s:%d: expect %s '%s' failed", file, ln, a, want);
      return ok ? 0 : 1;
    }
    if (!strcmp(a, "no_raw_ids") && n == 2) {
      char buf[256];
      const char *id = raw_id_shown(g, td_client_drawn_text(s->c), buf, sizeof buf);
      if (id) td_app_say("%s:%d: expect no_raw_ids failed: '%s' is on screen", file, ln, id);
      return id ? 1 : 0;
    }
    if (!strcmp(a, "toast") && n >= 3) {
      const char *want = strstr(line, "toast") + 6;
      while (*want == ' ') want++;
      bool ok = strstr(td_client_toast(s->c), want) != NULL;
      if (!ok) td_app_say("%s:%d: expect toast '%s' failed: '%s'", file, ln, want, td_client_toast(s->c));
      return ok ? 0 : 1;
    }
    if (!g) {
      td_app_say("%s:%d: no game on", file, ln);
      return 1;
    }
    const td_world *w = td_game_world(g);
    if (!strcmp(a, "state") && n == 3) {
      static const char *names[3] = {"playing", "won", "lost"};
      const char *got = names[td_world_state(w)];
      bool ok = !strcmp(got, b);
      if (!ok) td_app_say("%s:%d: expect state %s failed: %s", file, ln, b, got);
      return ok ? 0 : 1;
    }
    if (!strcmp(a, "text") && n >= 3) { /* expect text NAME TEXT: td_client_text contains it */
      const char *want = strstr(line, b) + strlen(b), *got = td_client_text(s->c, b);
      while (*want == ' ') want++;
      if (!got) {
        td_app_fail("%s:%d: no text '%s' (wave, over, confirm, tutorial)", file, ln, b);
        return 2;
      }
      bool ok = strstr(got, want) != NULL;
      if (!ok) td_app_say("%s:%d: expect text %s '%s' failed: '%s'", file, ln, b, want, got);
      return ok ? 0 : 1;
    }
    if (!strcmp(a, "toast") && n >= 3) {
      const char *want = strstr(line, "toast") + 6;
      while (*want == ' ') want++;
      bool ok = strstr(td_client_toast(s->c), want) != NULL;
      if (!ok) td_app_say("%s:%d: expect toast '%s' failed: '%s'", file, ln, want, td_client_toast(s->c));
      return ok ? 0 : 1;
    }
    if (n == 4) {
      long long got;
      if (!strcmp(a, "gold")) got = td_world_gold(w);
      else if (!strcmp(a, "lives")) got = td_world_lives(w);
      else if (!strcmp(a, "wave")) got = td_world_wave(w);
      else if (!strcmp(a, "towers")) got = (long long)td_world_tower_count(w);
      else if (!strcmp(a, "enemies")) got = (long long)td_world_enemy_count(w);
      else if (!strcmp(a, "tick")) got = (long long)td_world_tick(w);
      else {
        td_app_fail("%s:%d: unknown value '%s'", file, ln, a);
        return 2;
      }
      return expect_number(file, ln, a, b, c3, got);
    }
  }
  td_app_fail("%s:%d: bad script line '%s'", file, ln, line);
  return 2;
}

static int run_script(session *s, const char *path) {
  char *text, line[512];
  size_t len, cap, at = 0;
  td_err err;
  if (td_mem_read_file(path, SCRIPT_MAX_BYTES, &text, &len, &cap, &err) != 0)
    return td_app_fail("%s", err.msg);
  int ln = 0, status = 0;
  frame(s, 1.0 / 60);
  while (next_line(text, len, &at, line, sizeof line)) {
    ln++;
    int rc = script_line(s, path, ln, line);
    if (rc == 2) {
      status = 2;
      break;
    }
    if (rc == 1) {
      s->fails++;
      status = 1;
    }
  }
  td_mem_free(text, cap);
  for (int i = 0; i < s->nmarks; i++) free(s->marks[i].px);
  if (status != 2) printf("script %s: %d expectation(s) failed\n", path, s->fails);
  return status;
}

int td_cmd_play(int argc, char **argv) {
  const char *map = NULL, *script = NULL;
  const char *mods[TD_MOD_MAX_MODS];
  size_t nmods = 0;
  uint64_t seed = 1, frames = 0, volume = 80;
  int ww = 1280, wh = 720;
  bool fullscreen = false, vsync = false, software = false, muted = false;
  bool window_set = false, volume_set = false;
  td_difficulty difficulty = TD_DIFFICULTY_NORMAL;
  bool difficulty_set = false;
  int palette = -1; /* --palette: this run only */
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    bool has = i + 1 < argc;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(usage, stdout);
      return 0;
    } else if (!strcmp(a, "--fullscreen")) {
      fullscreen = true;
    } else if (!strcmp(a, "--vsync")) {
      vsync = true;
    } else if (!strcmp(a, "--software")) {
      software = true;
    } else if (!strcmp(a, "--map") || !strcmp(a, "--mod") || !strcmp(a, "--seed") ||
               !strcmp(a, "--window") || !strcmp(a, "--script") || !strcmp(a, "--frames") ||
               !strcmp(a, "--difficulty") || !strcmp(a, "--volume") || !strcmp(a, "--palette")) {
      if (!has) return td_app_fail("play: %s needs a value (see td play --help)", a);
      const char *v = argv[++i];
      if (!strcmp(a, "--map")) map = v;
      else if (!strcmp(a, "--mod")) {
        if (nmods == TD_MOD_MAX_MODS) return td_app_fail("play: more than %d --mod", TD_MOD_MAX_MODS);
        mods[nmods++] = v;
      }
      else if (!strcmp(a, "--script")) script = v;
      else if ((!strcmp(a, "--seed") && td_app_parse_option("play: --seed", v, 0, UINT64_MAX, &seed)) ||
               (!strcmp(a, "--frames") &&
                td_app_parse_option("play: --frames", v, 0, UINT64_MAX, &frames)) ||
               (!strcmp(a, "--volume") && td_app_parse_option("play: --volume", v, 0, 100, &volume)))
        return 2; /* said */
      else if (!strcmp(a, "--palette") && (palette = td_palette_parse(v)) < 0)
        return td_app_fail("play: --palette: expected standard or safe, got '%s'", v);
      else if (!strcmp(a, "--difficulty") && td_difficulty_parse(v, &difficulty) != 0)
        return td_app_fail("play: --difficulty: expected normal, easy or hard, got '%s'", v);
      else if (!strcmp(a, "--window") && parse_size(v, &ww, &wh) != 0)
        return td_app_fail("play: --window: '%s' is not WxH (320x240 .. 8192x8192)", v);
      window_set |= !strcmp(a, "--window");
      difficulty_set |= !strcmp(a, "--difficulty");
      volume_set |= !strcmp(a, "--volume");
    } else {
      return td_app_fail("play: unknown argument '%s' (see td play --help)", a);
    }
  }
  /* the kept settings, under the command line's */
  char spath[1024];
  size_t sdir = 0;
  bool keep = settings_path(spath, sizeof spath, &sdir);
  /* kept: the file's settings (else the defaults); what the command line
  ** gives applies to this run only, and only what the player changes in
  ** the settings is written back over the file's */
  td_client_settings kept = {1280, 720, false, false, 80, false, TD_DIFFICULTY_NORMAL, 0, 0, 60, 0, {0}};
  if (keep && settings_read(spath, &kept)) {
    if (!window_set) ww = kept.window_w, wh = kept.window_h;
    fullscreen |= kept.fullscreen;
    vsync |= kept.vsync;
    if (!volume_set) volume = (uint64_t)kept.volume;
    muted = kept.muted && !volume_set;
    if (!difficulty_set) difficulty = kept.difficulty;
  }
  /* a script's virtual pad plays into a window that has no focus (the dummy driver's) */
  if (script) SDL_SetHint(SDL_HINT_JOYSTICK_ALLOW_BACKGROUND_EVENTS, "1");
  if (SDL_Init(SDL_INIT_VIDEO) != 0) return td_app_fail("play: SDL: %s", SDL_GetError());
  /* gamepads: without the subsystem (no joystick support), the game plays on without */
  if (SDL_InitSubSystem(SDL_INIT_GAMECONTROLLER) != 0)
    td_app_say("play: no gamepads: %s", SDL_GetError());
  SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "nearest");
  Uint32 flags = SDL_WINDOW_RESIZABLE | (fullscreen ? SDL_WINDOW_FULLSCREEN_DESKTOP : 0);
  SDL_Window *win = SDL_CreateWindow("td", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, ww, wh, flags);
  if (!win) {
    int rc = td_app_fail("play: cannot open a window: %s", SDL_GetError());
    SDL_Quit();
    return rc;
  }
  SDL_SetWindowMinimumSize(win, 800, 480);
  SDL_Renderer *ren = NULL;
  if (!software)
    ren = SDL_CreateRenderer(win, -1, SDL_RENDERER_ACCELERATED | (vsync ? SDL_RENDERER_PRESENTVSYNC : 0));
  if (!ren) ren = SDL_CreateRenderer(win, -1, SDL_RENDERER_SOFTWARE);
  if (!ren) {
    int rc = td_app_fail("play: no renderer: %s", SDL_GetError());
    SDL_DestroyWindow(win);
    SDL_Quit();
    return rc;
  }
  /* a path given as is when it exists, else under the data directory; the
  ** menu lists the bundled maps, then the player's, and the player's mods
  ** as toggles (app_data.c) */
  char assets[1024], maps[1024], mod_buf[1024], data[1024], user_maps[1024], map_buf[1024];
  char user_mods[1024];
  char mod_bufs[TD_MOD_MAX_MODS][1024];
  for (size_t k = 0; k < nmods; k++) mods[k] = td_app_mod_path(mods[k], mod_bufs[k], sizeof mod_bufs[k]);
  td_client_options o = {
    .assets_dir = td_app_find_dir("assets", assets, sizeof assets),
    .maps_dir = td_app_find_dir("maps", maps, sizeof maps),
    .user_maps_dir = td_app_user_dir("maps", user_maps, sizeof user_maps) &&
                             !td_datadir_same(user_maps, maps) ? user_maps : NULL,
    .user_mods_dir = td_app_user_dir("mods", user_mods, sizeof user_mods) ? user_mods : NULL,
    .user_mods_on = kept.mods,
    .data_dir = td_progress_dir(data, sizeof data) ? data : NULL,
    .map_path = map ? td_app_path(map, map_buf, sizeof map_buf) : NULL,
    .mod_dir = nmods ? mods[0] : td_app_find_dir("scripts/base", mod_buf, sizeof mod_buf),
    .mod_dirs = mods, .mod_count = nmods,
    .seed = seed, .difficulty = difficulty, .window_w = ww, .window_h = wh, .fullscreen = fullscreen, .vsync = vsync,
    .volume = (int)volume, .muted = muted, .ui_scale = kept.ui_scale, .music = kept.music,
    .palette = palette >= 0 ? palette : kept.palette};
  td_err err = {{0}};
  td_client *c = td_client_create(ren, &o, &err);
  int status = 0;
  if (!c) {
    status = td_app_fail("%s", err.msg);
  } else {
    /* sound, once the game is sure to run; without a device, silence */
    char why[256];
    td_audio *audio = td_audio_open((int)volume, muted, why, sizeof why);
    if (!audio) td_app_say("play: %s; playing without sound", why);
    td_client_set_audio(c, audio);
    session s = {.c = c, .audio = audio, .ren = ren, .win = win};
    td_client_get_settings(c, &s.applied);
    if (script) {
      status = run_script(&s, script);
    } else {
      uint64_t last = SDL_GetPerformanceCounter(), freq = SDL_GetPerformanceFrequency();
      uint64_t n = 0;
      while (!td_client_quit(c) && (!frames || n < frames)) {
        uint64_t now = SDL_GetPerformanceCounter();
        double dt = (double)(now - last) / (double)freq;
        last = now;
        if (dt > 0.25) dt = 0.25;
        frame(&s, dt);
        td_client_set_frame_ms(c, (double)(SDL_GetPerformanceCounter() - now) * 1000.0 / (double)freq);
        n++;
        if (!vsync) {
          /* about 120 frames a second at most without vsync */
          double spent = (double)(SDL_GetPerformanceCounter() - now) / (double)freq;
          if (spent < 1.0 / 120) SDL_Delay((Uint32)((1.0 / 120 - spent) * 1000));
        }
      }
    }
    if (keep) {
      td_client_settings now, out = kept;
      td_client_get_settings(c, &now);
      if (now.changed & TD_SETTING_WINDOW) out.window_w = now.window_w, out.window_h = now.window_h;
      if (now.changed & TD_SETTING_FULLSCREEN) out.fullscreen = now.fullscreen;
      if (now.changed & TD_SETTING_VSYNC) out.vsync = now.vsync;
      if (now.changed & TD_SETTING_VOLUME) out.volume = now.volume;
      if (now.changed & TD_SETTING_MUTED) out.muted = now.muted;
      if (now.changed & TD_SETTING_DIFFICULTY) out.difficulty = now.difficulty;
      if (now.changed & TD_SETTING_UI_SCALE) out.ui_scale = now.ui_scale;
      if (now.changed & TD_SETTING_MUSIC) out.music = now.music;
      if (now.changed & TD_SETTING_PALETTE) out.palette = now.palette;
      if (now.changed & TD_SETTING_MODS) memcpy(out.mods, now.mods, sizeof out.mods);
      settings_write(spath, sdir, &out);
    }
    td_client_destroy(c);
    td_audio_close(audio);
  }
  SDL_DestroyRenderer(ren);
  SDL_DestroyWindow(win);
  SDL_Quit();
  return status;
}
