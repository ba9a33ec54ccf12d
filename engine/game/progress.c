/*
** progress.c: the player's progress file (progress.h): stars and endless
** records, read line by line with every field checked, written whole.
*/
#define _POSIX_C_SOURCE 200809L /* mkdir */
#include "game/progress.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "game/file.h"

#define PROGRESS_VERSION 1

bool td_progress_dir(char *buf, size_t cap) {
  const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
  int k;
  if (xdg && *xdg) k = snprintf(buf, cap, "%s/td", xdg);
  else if (home && *home) k = snprintf(buf, cap, "%s/.local/share/td", home);
  else return false;
  return k > 0 && (size_t)k < cap;
}

int td_progress_stars_for(int32_t lives, int32_t start_lives) {
  if (lives <= 0) return 0;
  if (start_lives <= 0) return 3;
  int64_t l = lives, s = start_lives;
  if (l * 10 >= s * 9) return 3;
  if (l * 2 >= s) return 2;
  return 1;
}

/* A name a line can hold: 1..63 bytes, no space or control character. */
static bool good_name(const char *s) {
  size_t n = strlen(s);
  if (n == 0 || n >= TD_PROGRESS_NAME_MAX) return false;
  for (size_t i = 0; i < n; i++)
    if ((unsigned char)s[i] <= ' ' || s[i] == 0x7f) return false;
  return true;
}

const td_progress_entry *td_progress_find(const td_progress *p, const char *map) {
  for (size_t i = 0; i < p->count; i++)
    if (!strcmp(p->maps[i].map, map)) return &p->maps[i];
  return NULL;
}

/* The map's record, made when missing; NULL with err set. */
static td_progress_entry *entry(td_progress *p, const char *map, td_err *err) {
  td_progress_entry *e = (td_progress_entry *)td_progress_find(p, map);
  if (e) return e;
  if (!good_name(map)) {
    td_err_set(err, "progress: map name '%.80s' cannot be recorded (1 to %d bytes, no spaces)", map,
               TD_PROGRESS_NAME_MAX - 1);
    return NULL;
  }
  if (p->count >= TD_PROGRESS_MAX_MAPS) {
    td_err_set(err, "progress: more than %d maps have records", TD_PROGRESS_MAX_MAPS);
    return NULL;
  }
  e = &p->maps[p->count++];
  memset(e, 0, sizeof *e);
  snprintf(e->map, sizeof e->map, "%s", map);
  return e;
}

int td_progress_win(td_progress *p, const char *map, td_difficulty d, int stars, td_err *err) {
  if ((unsigned)d >= TD_DIFFICULTY_COUNT || stars < 1 || stars > 3)
    return td_err_set(err, "progress: %d stars at difficulty %d cannot be recorded", stars, (int)d);
  td_progress_entry *e = entry(p, map, err);
  if (!e) return -1;
  if (e->stars[d] >= stars) return 0;
  e->stars[d] = (uint8_t)stars;
  return 1;
}

int td_progress_wave(td_progress *p, const char *map, td_difficulty d, int32_t wave, td_err *err) {
  if ((unsigned)d >= TD_DIFFICULTY_COUNT || wave < 1)
    return td_err_set(err, "progress: wave %d at difficulty %d cannot be recorded", (int)wave, (int)d);
  td_progress_entry *e = entry(p, map, err);
  if (!e) return -1;
  if (e->wave[d] >= wave) return 0;
  e->wave[d] = wave;
  return 1;
}

int td_progress_tutorial_done(td_progress *p) {
  if (p->tutorial_done) return 0;
  p->tutorial_done = true;
  return 1;
}

/* One line (NUL-terminated, no line break) into p: NULL when taken, else
** what is wrong with it. *versioned: the header line was seen. */
static const char *take_line(td_progress *p, char *line, bool *versioned) {
  char kind[16], map[TD_PROGRESS_NAME_MAX + 1], diff[16], extra;
  long v = 0, version = 0;
  size_t n = strlen(line);
  if (n && line[n - 1] == '\r') line[--n] = '\0';
  const char *s = line;
  while (*s == ' ' || *s == '\t') s++;
  if (*s == '\0' || *s == '#') return NULL;
  if (!*versioned) {
    if (sscanf(s, "td-progress %ld %c", &version, &extra) != 1)
      return "expected the header 'td-progress 1' first";
    if (version != PROGRESS_VERSION) return "written by another version of td (td-progress 1 expected)";
    *versioned = true;
    return NULL;
  }
  if (sscanf(s, "%15s %64s %c", kind, map, &extra) == 2 && !strcmp(kind, "tutorial")) {
    if (strcmp(map, "done") != 0) return "expected 'tutorial done'";
    p->tutorial_done = true;
    return NULL;
  }
  if (sscanf(s, "%15s %64s %15s %ld %c", kind, map, diff, &v, &extra) != 4)
    return "expected 'stars MAP DIFFICULTY N' or 'wave MAP DIFFICULTY N'";
  td_difficulty d;
  if (td_difficulty_parse(diff, &d) != 0) return "the difficulty is none of easy, normal, hard";
  td_err err;
  if (!strcmp(kind, "stars")) {
    if (v < 1 || v > 3) return "stars must be 1, 2 or 3";
    if (td_progress_win(p, map, d, (int)v, &err) < 0) return "the map's name is too long";
  } else if (!strcmp(kind, "wave")) {
    if (v < 1 || v > 1000000000L) return "a wave must be 1 or more";
    if (td_progress_wave(p, map, d, (int32_t)v, &err) < 0) return "the map's name is too long";
  } else {
    return "expected 'stars' or 'wave' first";
  }
  return NULL;
}

int td_progress_load(td_progress *p, const char *path, td_err *err) {
  memset(p, 0, sizeof *p);
  struct stat sb;
  if (stat(path, &sb) != 0 && errno == ENOENT) return 0;
  char *text;
  size_t len, cap;
  if (td_mem_read_file(path, TD_PROGRESS_MAX_BYTES, &text, &len, &cap, err) != 0) return -1;
  bool versioned = false;
  int bad_line = 0, nbad = 0;
  const char *why = NULL;
  size_t at = 0;
  for (int ln = 1; at < len; ln++) {
    const char *q = text + at, *nl = memchr(q, '\n', len - at);
    size_t n = nl ? (size_t)(nl - q) : len - at;
    char line[256];
    const char *w;
    if (n >= sizeof line) w = "line too long";
    else if (memchr(q, '\0', n)) w = "a NUL byte in the line";
    else {
      memcpy(line, q, n);
      line[n] = '\0';
      w = take_line(p, line, &versioned);
    }
    if (w && !nbad++) bad_line = ln, why = w;
    at += n + (nl ? 1 : 0);
  }
  if (!versioned && !nbad && len > 0) bad_line = 1, why = "no header 'td-progress 1'", nbad = 1;
  int rc = 0;
  if (nbad) {
    char bad[1024];
    td_err werr;
    snprintf(bad, sizeof bad, "%s.bad", path);
    if (td_file_write(bad, text, len, &werr) != 0)
      td_err_set(err, "%s:%d: %s (%d bad line%s skipped; no copy kept: %s)", path, bad_line, why, nbad,
                 nbad == 1 ? "" : "s", werr.msg);
    else
      td_err_set(err, "%s:%d: %s (%d bad line%s skipped; the file as it was is in %s)", path, bad_line,
                 why, nbad, nbad == 1 ? "" : "s", bad);
    rc = 1;
  }
  td_mem_free(text, cap);
  return rc;
}

int td_progress_save(const td_progress *p, const char *path, td_err *err) {
  char dir[1024];
  const char *slash = strrchr(path, '/');
  if (slash && (size_t)(slash - path) < sizeof dir && slash > path) {
    memcpy(dir, path, (size_t)(slash - path));
    dir[slash - path] = '\0';
    for (char *q = dir + 1; *q; q++) /* each level, like mkdir -p */
      if (*q == '/') {
        *q = '\0';
        mkdir(dir, 0755);
        *q = '/';
      }
    mkdir(dir, 0755);
  }
  size_t cap = 192 + p->count * (size_t)(TD_DIFFICULTY_COUNT * 2) * (size_t)(TD_PROGRESS_NAME_MAX + 40),
         n = 0;
  char *text = malloc(cap);
  if (!text) return td_err_set(err, "%s: out of memory", path);
  n += (size_t)snprintf(text + n, cap - n,
                        "# td's progress: stars per map and difficulty, endless mode's best wave\n"
                        "# (written by td play; docs/game.md)\ntd-progress %d\n",
                        PROGRESS_VERSION);
  if (p->tutorial_done) n += (size_t)snprintf(text + n, cap - n, "tutorial done\n");
  for (size_t i = 0; i < p->count; i++)
    for (int d = 0; d < TD_DIFFICULTY_COUNT; d++) {
      const td_progress_entry *e = &p->maps[i];
      const char *dn = td_difficulty_name((td_difficulty)d);
      if (e->stars[d]) n += (size_t)snprintf(text + n, cap - n, "stars %s %s %d\n", e->map, dn, e->stars[d]);
      if (e->wave[d]) n += (size_t)snprintf(text + n, cap - n, "wave %s %s %d\n", e->map, dn, (int)e->wave[d]);
    }
  int rc = td_file_write(path, text, n, err);
  free(text);
  return rc;
}
