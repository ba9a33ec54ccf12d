/*
** movingai.c: MovingAI map and scenario readers.
**
** Design note.
** The text is walked as (pointer, length) lines, never as C strings, so an
** embedded NUL is just an unknown character. A map is read in two passes:
** the first checks every row (count, width, characters) without allocating,
** the second fills the grid. So a header that announces a huge map costs
** nothing unless the file really holds that many cells.
*/
#include "nav/movingai.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SIDE 65536
#define MAX_CELLS ((int64_t)TD_GRID_MAX_CELLS)
#define MAX_FILE ((size_t)1 << 30)
#define MAX_NAME 4096

typedef struct lines {
  const char *text;
  size_t len, pos;
  int32_t line;        /* number of the line last returned, from 1 */
} lines;

/* The next line without its "\n" or "\r\n"; false at the end. */
static bool next_line(lines *ls, const char **s, size_t *n) {
  if (ls->pos >= ls->len) return false;
  const char *start = ls->text + ls->pos;
  const char *nl = memchr(start, '\n', ls->len - ls->pos);
  size_t k = nl ? (size_t)(nl - start) : ls->len - ls->pos;
  ls->pos += k + (nl ? 1 : 0);
  if (k > 0 && start[k - 1] == '\r') k--;
  *s = start;
  *n = k;
  if (ls->line < INT32_MAX) ls->line++;
  return true;
}

static bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static void trim(const char **s, size_t *n) {
  while (*n > 0 && is_space(**s)) {
    (*s)++;
    (*n)--;
  }
  while (*n > 0 && is_space((*s)[*n - 1])) (*n)--;
}

static bool blank(const char *s, size_t n) {
  trim(&s, &n);
  return n == 0;
}

/* Splits off the first whitespace-separated word of s. */
static void first_word(const char **s, size_t *n, const char **w, size_t *wn) {
  trim(s, n);
  size_t k = 0;
  while (k < *n && !is_space((*s)[k])) k++;
  *w = *s;
  *wn = k;
  *s += k;
  *n -= k;
  trim(s, n);
}

static bool word_is(const char *w, size_t wn, const char *lit) {
  return wn == strlen(lit) && memcmp(w, lit, wn) == 0;
}

/* Quotes at most 40 bytes of s for an error message, escaping the rest. */
static const char *quote(const char *s, size_t n, char *buf, size_t cap) {
  size_t k = 0;
  for (size_t i = 0; i < n && k + 5 < cap; i++) {
    unsigned char c = (unsigned char)s[i];
    if (i == 40) {
      memcpy(buf + k, "...", 3);
      k += 3;
      break;
    }
    if (c >= 0x20 && c < 0x7f) {
      buf[k++] = (char)c;
    } else {
      snprintf(buf + k, cap - k, "\\x%02x", c);
      k += 4;
    }
  }
  buf[k] = '\0';
  return buf;
}

/* Integer in [lo, hi], all of s. */
static bool parse_int(const char *s, size_t n, long lo, long hi, long *out) {
  char buf[32];
  if (n == 0 || n >= sizeof buf) return false;
  memcpy(buf, s, n);
  buf[n] = '\0';
  for (size_t i = 0; i < n; i++)
    if (!((buf[i] >= '0' && buf[i] <= '9') || (i == 0 && (buf[i] == '-' || buf[i] == '+'))))
      return false;
  errno = 0;
  char *end;
  long v = strtol(buf, &end, 10);
  if (errno || *end || v < lo || v > hi) return false;
  *out = v;
  return true;
}

/* Finite non-negative decimal number, all of s. */
static bool parse_length(const char *s, size_t n, double *out) {
  char buf[64];
  if (n == 0 || n >= sizeof buf) return false;
  memcpy(buf, s, n);
  buf[n] = '\0';
  for (size_t i = 0; i < n; i++) {
    char c = buf[i];
    if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '-' || c == '+'))
      return false; /* no inf, nan or hex */
  }
  errno = 0;
  char *end;
  double v = strtod(buf, &end);
  if (*end || !isfinite(v) || v < 0.0) return false;
  *out = v;
  return true;
}

/* ------------------------------------------------------------------ */
/* maps */

/* -1: not a cell, 0: blocked, 1: passable. */
static int cell_kind(char c) {
  switch (c) {
  case '.': case 'G': case 'S': return 1;
  case '@': case 'O': case 'T': case 'W': return 0;
  default: return -1;
  }
}

typedef struct map_header {
  long width, height;
} map_header;

static int parse_map_header(lines *ls, const char *name, map_header *h, td_err *err) {
  bool have_type = false;
  int32_t type_line = 0;
  h->width = h->height = -1;
  const char *s;
  size_t n;
  char q[200];
  while (next_line(ls, &s, &n)) {
    const char *w;
    size_t wn;
    first_word(&s, &n, &w, &wn);
    if (wn == 0) return td_err_set(err, "%s:%d: empty line in the header", name, ls->line);
    if (word_is(w, wn, "map")) {
      if (n != 0)
        return td_err_set(err, "%s:%d: unexpected '%s' after 'map'", name, ls->line,
                          quote(s, n, q, sizeof q));
      if (!have_type)
        return td_err_set(err, "%s:%d: no 'type octile' line before 'map'", name, ls->line);
      if (h->height < 0)
        return td_err_set(err, "%s:%d: no 'height' line before 'map'", name, ls->line);
      if (h->width < 0)
        return td_err_set(err, "%s:%d: no 'width' line before 'map'", name, ls->line);
      if ((int64_t)h->width * h->height > MAX_CELLS)
        return td_err_set(err, "%s:%d: map of %ldx%ld cells is too large (at most %lld)",
                          name, ls->line, h->width, h->height, (long long)MAX_CELLS);
      return 0;
    }
    if (word_is(w, wn, "type")) {
      if (have_type)
        return td_err_set(err, "%s:%d: second 'type' line (first on line %d)", name,
                          ls->line, type_line);
      if (!word_is(s, n, "octile"))
        return td_err_set(err, "%s:%d: map type '%s' is not supported (only octile)", name,
                          ls->line, quote(s, n, q, sizeof q));
      have_type = true;
      type_line = ls->line;
      continue;
    }
    bool is_w = word_is(w, wn, "width");
    if (is_w || word_is(w, wn, "height")) {
      long *dst = is_w ? &h->width : &h->height;
      const char *what = is_w ? "width" : "height";
      if (*dst >= 0) return td_err_set(err, "%s:%d: second '%s' line", name, ls->line, what);
      if (!parse_int(s, n, 1, MAX_SIDE, dst))
        return td_err_set(err, "%s:%d: %s '%s' is not a whole number from 1 to %d", name,
                          ls->line, what, quote(s, n, q, sizeof q), MAX_SIDE);
      continue;
    }
    return td_err_set(err, "%s:%d: unknown header line '%s' (expected type, height, "
                      "width or map)", name, ls->line, quote(w, wn, q, sizeof q));
  }
  return td_err_set(err, "%s:%d: file ends before the 'map' line", name,
                    ls->line ? ls->line : 1);
}

/* Pass one when grid is NULL (check only), pass two fills grid. */
static int read_rows(lines ls, const char *name, const map_header *h, td_grid *grid,
                     td_err *err) {
  const char *s;
  size_t n;
  for (long y = 0; y < h->height; y++) {
    if (!next_line(&ls, &s, &n))
      return td_err_set(err, "%s:%d: file ends after %ld of %ld rows", name, ls.line, y,
                        h->height);
    if ((long)n != h->width || n > (size_t)MAX_SIDE)
      return td_err_set(err, "%s:%d: row %ld has %zu cells, expected %ld", name, ls.line, y,
                        n, h->width);
    for (size_t x = 0; x < n; x++) {
      int k = cell_kind(s[x]);
      if (k < 0) {
        char q[16];
        return td_err_set(err, "%s:%d: row %ld, column %zu: unknown cell '%s'", name,
                          ls.line, y, x, quote(s + x, 1, q, sizeof q));
      }
      if (grid && k) td_grid_set_walkable(grid, (int32_t)x, (int32_t)y, true);
    }
  }
  while (next_line(&ls, &s, &n))
    if (!blank(s, n))
      return td_err_set(err, "%s:%d: text after the map's %ld rows", name, ls.line,
                        h->height);
  return 0;
}

td_grid *td_movingai_parse_map(const char *text, size_t len, const char *name,
                               td_err *err) {
  lines ls = {.text = text, .len = len};
  map_header h;
  if (parse_map_header(&ls, name, &h, err)) return NULL;
  if (read_rows(ls, name, &h, NULL, err)) return NULL;
  td_err inner;
  td_grid *grid = td_grid_create((int32_t)h.width, (int32_t)h.height, 1.0, &inner);
  if (!grid) {
    td_err_set(err, "%s: %s", name, inner.msg);
    return NULL;
  }
  read_rows(ls, name, &h, grid, err); /* cannot fail: checked above */
  return grid;
}

td_grid *td_movingai_load_map(const char *path, td_err *err) {
  char *text;
  size_t len, cap;
  if (td_mem_read_file(path, MAX_FILE, &text, &len, &cap, err)) return NULL;
  td_grid *grid = td_movingai_parse_map(text ? text : "", len, path, err);
  td_mem_free(text, cap);
  return grid;
}

/* ------------------------------------------------------------------ */
/* scenarios */

void td_movingai_scen_free(td_movingai_scen *scen) {
  td_mem_free(scen->queries, scen->cap * sizeof *scen->queries);
  td_mem_free(scen->names, scen->names_cap);
  memset(scen, 0, sizeof *scen);
}

/* Splits a query line into at most cap fields: on tabs when it has any,
** else on runs of spaces. Returns the field count (cap + 1 if more). */
static size_t split_fields(const char *s, size_t n, const char **f, size_t *fn, size_t cap) {
  size_t k = 0;
  if (memchr(s, '\t', n)) {
    size_t start = 0;
    for (size_t i = 0; i <= n; i++) {
      if (i < n && s[i] != '\t') continue;
      if (k == cap) return cap + 1;
      f[k] = s + start;
      fn[k] = i - start;
      trim(&f[k], &fn[k]);
      k++;
      start = i + 1;
    }
    return k;
  }
  while (n > 0) {
    const char *w;
    size_t wn;
    first_word(&s, &n, &w, &wn);
    if (wn == 0) break;
    if (k == cap) return cap + 1;
    f[k] = w;
    fn[k] = wn;
    k++;
  }
  return k;
}

/* Stores a map name (reusing the previous one when equal). */
static int add_name(td_movingai_scen *sc, const char *s, size_t n, size_t *off) {
  if (sc->count > 0) {
    size_t prev = sc->queries[sc->count - 1].map_off;
    if (strlen(sc->names + prev) == n && memcmp(sc->names + prev, s, n) == 0) {
      *off = prev;
      return 0;
    }
  }
  char *p = td_mem_grow(sc->names, &sc->names_cap, sc->names_len + n + 1, 1);
  if (!p) return -1;
  sc->names = p;
  memcpy(sc->names + sc->names_len, s, n);
  sc->names[sc->names_len + n] = '\0';
  *off = sc->names_len;
  sc->names_len += n + 1;
  return 0;
}

static const char *const field_names[9] = {
  "bucket", "map", "map width", "map height", "start x", "start y", "goal x", "goal y",
  "optimal length"};

/* Parses one query line; *map and *map_len get its map name. */
static int parse_query(const char *name, int32_t line, const char *s, size_t n,
                       td_movingai_query *q, const char **map, size_t *map_len,
                       td_err *err) {
  const char *f[9];
  size_t fn[9];
  char qb[200];
  *map = s;
  *map_len = 0;
  size_t k = split_fields(s, n, f, fn, 9);
  if (k != 9) {
    char count[32];
    snprintf(count, sizeof count, k > 9 ? "more than 9" : "%zu", k);
    return td_err_set(err, "%s:%d: %s fields, expected 9 (bucket, map, width, height, "
                      "start x, start y, goal x, goal y, optimal length)", name, line, count);
  }
  long v[8];
  for (int i = 0; i < 8; i++) {
    if (i == 1) continue;
    long lo = 0, hi = INT32_MAX;
    if (i == 2 || i == 3) {
      lo = 1;
      hi = MAX_SIDE;
    }
    if (!parse_int(f[i], fn[i], lo, hi, &v[i]))
      return td_err_set(err, "%s:%d: %s '%s' is not a whole number from %ld to %ld", name,
                        line, field_names[i], quote(f[i], fn[i], qb, sizeof qb), lo, hi);
  }
  if (fn[1] == 0) return td_err_set(err, "%s:%d: the map name is empty", name, line);
  if (fn[1] > MAX_NAME || memchr(f[1], '\0', fn[1]))
    return td_err_set(err, "%s:%d: the map name is not a file name", name, line);
  for (int i = 4; i < 8; i++) {
    long lim = (i % 2 == 0) ? v[2] : v[3];
    if (v[i] >= lim)
      return td_err_set(err, "%s:%d: %s %ld is outside the map (%s %ld)", name, line,
                        field_names[i], v[i], i % 2 == 0 ? "width" : "height", lim);
  }
  double opt;
  if (!parse_length(f[8], fn[8], &opt))
    return td_err_set(err, "%s:%d: optimal length '%s' is not a non-negative number", name,
                      line, quote(f[8], fn[8], qb, sizeof qb));
  *q = (td_movingai_query){.line = line, .bucket = (int32_t)v[0], .width = (int32_t)v[2],
                           .height = (int32_t)v[3], .start_x = (int32_t)v[4],
                           .start_y = (int32_t)v[5], .goal_x = (int32_t)v[6],
                           .goal_y = (int32_t)v[7], .optimal = opt};
  *map = f[1];
  *map_len = fn[1];
  return 0;
}

int td_movingai_parse_scen(const char *text, size_t len, const char *name,
                           td_movingai_scen *scen, td_err *err) {
  memset(scen, 0, sizeof *scen);
  lines ls = {.text = text, .len = len};
  const char *s;
  size_t n;
  char qb[200];
  if (!next_line(&ls, &s, &n))
    return td_err_set(err, "%s:1: empty file, expected 'version 1'", name);
  {
    const char *w;
    size_t wn;
    first_word(&s, &n, &w, &wn);
    if (!word_is(w, wn, "version") || !(word_is(s, n, "1") || word_is(s, n, "1.0")))
      return td_err_set(err, "%s:1: expected 'version 1', found '%s'", name,
                        quote(w, (size_t)(s + n - w), qb, sizeof qb));
  }
  while (next_line(&ls, &s, &n)) {
    if (blank(s, n)) continue;
    td_movingai_query q;
    const char *mf;
    size_t mn;
    if (parse_query(name, ls.line, s, n, &q, &mf, &mn, err)) goto fail;
    if (scen->count == scen->cap) {
      td_movingai_query *p = td_mem_grow(scen->queries, &scen->cap, scen->count + 1, sizeof *p);
      if (!p) {
        td_err_set(err, "%s:%d: out of memory", name, ls.line);
        goto fail;
      }
      scen->queries = p;
    }
    if (add_name(scen, mf, mn, &q.map_off)) {
      td_err_set(err, "%s:%d: out of memory", name, ls.line);
      goto fail;
    }
    scen->queries[scen->count++] = q;
  }
  /* names are final: point the queries at them */
  for (size_t i = 0; i < scen->count; i++)
    scen->queries[i].map = scen->names + scen->queries[i].map_off;
  return 0;
fail:
  td_movingai_scen_free(scen);
  return -1;
}

int td_movingai_load_scen(const char *path, td_movingai_scen *scen, td_err *err) {
  char *text;
  size_t len, cap;
  memset(scen, 0, sizeof *scen);
  if (td_mem_read_file(path, MAX_FILE, &text, &len, &cap, err)) return -1;
  int rc = td_movingai_parse_scen(text ? text : "", len, path, scen, err);
  td_mem_free(text, cap);
  return rc;
}
