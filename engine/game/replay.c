/*
** replay.c: the replay file (replay.h): recording, reading, writing,
** resolving commands against a game.
*/
#include "game/replay.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/file.h"
#include "game/game_int.h"
#include "nav/blob.h"

static const char *const kind_names[TD_COMMAND_KIND_COUNT] = {
    "place", "upgrade", "sell", "target", "call_wave", "pause", "resume", "rally", "repair"};

/* Commands that name a tower base. */
static bool names_base(td_command_kind k) {
  return k <= TD_COMMAND_TARGET || k == TD_COMMAND_RALLY || k == TD_COMMAND_REPAIR;
}
static const char *const mode_names[TD_TARGET_MODE_COUNT] = {"first", "last", "strongest",
                                                             "closest", "script"};
static const char *const result_names[] = {"playing", "won", "lost"};

void td_replay_init(td_replay *r, const td_game *g, uint32_t every) {
  memset(r, 0, sizeof *r);
  game_copy_str(r->map_path, sizeof r->map_path, td_game_map_path(g));
  game_copy_str(r->mod_dir, sizeof r->mod_dir, td_game_mod_dir(g));
  r->map_hash = td_game_map_hash(g);
  r->nmods = td_game_mod_count(g);
  for (size_t i = 0; i < r->nmods; i++) {
    game_copy_str(r->mod_dirs[i], sizeof r->mod_dirs[i], td_game_mod_dir_at(g, i));
    r->mod_hashes[i] = td_game_mod_hash_at(g, i);
  }
  r->mod_hash = r->mod_hashes[0];
  r->seed = td_game_seed(g);
  r->endless = td_world_endless(td_game_world(g));
  r->difficulty = td_game_difficulty(g);
  r->every = every ? every : TD_REPLAY_DEFAULT_EVERY;
  const td_override *ov = td_game_overrides(g, &r->noverrides);
  if (r->noverrides) memcpy(r->overrides, ov, r->noverrides * sizeof *ov);
}

void td_replay_free(td_replay *r) {
  td_mem_free(r->cmds, r->cmd_cap * sizeof *r->cmds);
  td_mem_free(r->checks, r->check_cap * sizeof *r->checks);
  memset(r, 0, sizeof *r);
}

/* Keeps the commands in tick order, those of one tick in the order given:
** the order the world applies them in (a command given for a later tick
** waits in its queue while others apply), and the order the reader wants. */
static int push_cmd(td_replay *r, const td_replay_cmd *c, td_err *err) {
  td_replay_cmd *p = td_mem_grow(r->cmds, &r->cmd_cap, r->ncmd + 1, sizeof *p);
  if (!p) return td_err_set(err, "replay: out of memory");
  r->cmds = p;
  size_t at = r->ncmd;
  while (at > 0 && p[at - 1].tick > c->tick) at--;
  memmove(p + at + 1, p + at, (r->ncmd - at) * sizeof *p);
  p[at] = *c;
  r->ncmd++;
  return 0;
}

int td_replay_add_command(td_replay *r, const td_game *g, const td_command *c, td_err *err) {
  const td_map *m = td_game_map(g);
  const td_rules *rules = td_game_rules(g);
  td_replay_cmd rc = {.tick = c->tick, .kind = c->kind};
  if ((unsigned)c->kind >= TD_COMMAND_KIND_COUNT)
    return td_err_set(err, "replay: command kind %d", (int)c->kind);
  if (names_base(c->kind)) {
    if (c->base < 0 || (size_t)c->base >= m->base_count)
      return td_err_set(err, "replay: the map has no tower base %d", (int)c->base);
    rc.object = m->bases[c->base].object_id;
  }
  if (c->kind == TD_COMMAND_PLACE) {
    if (c->tower_type < 0 || (size_t)c->tower_type >= rules->tower_count)
      return td_err_set(err, "replay: no tower type %d", (int)c->tower_type);
    game_copy_str(rc.name, sizeof rc.name, rules->towers[c->tower_type].name);
  } else if (c->kind == TD_COMMAND_UPGRADE) {
    if (c->upgrade < 0 || c->upgrade >= TD_RULES_MAX_CHILDREN)
      return td_err_set(err, "replay: upgrade %d (a child index, 0 to %d)", (int)c->upgrade,
                        TD_RULES_MAX_CHILDREN - 1);
    rc.arg = c->upgrade + 1;
  } else if (c->kind == TD_COMMAND_TARGET) {
    if ((unsigned)c->mode >= TD_TARGET_MODE_COUNT)
      return td_err_set(err, "replay: targeting mode %d", (int)c->mode);
    rc.arg = (int32_t)c->mode;
  } else if (c->kind == TD_COMMAND_RALLY) {
    if (!isfinite(c->x) || !isfinite(c->y))
      return td_err_set(err, "replay: a rally point that is not a number");
    rc.x = c->x;
    rc.y = c->y;
  }
  return push_cmd(r, &rc, err);
}

int td_replay_add_check(td_replay *r, uint64_t tick, uint64_t checksum, td_err *err) {
  td_replay_check *p = td_mem_grow(r->checks, &r->check_cap, r->ncheck + 1, sizeof *p);
  if (!p) return td_err_set(err, "replay: out of memory");
  r->checks = p;
  p[r->ncheck++] = (td_replay_check){tick, checksum, 0};
  return 0;
}

void td_replay_end(td_replay *r, const td_game *g) {
  const td_world *w = td_game_world(g);
  r->ended = true;
  r->end_ticks = td_world_tick(w);
  r->result = td_world_state(w);
  r->lives = td_world_lives(w);
  r->gold = td_world_gold(w);
  r->end_checksum = td_world_checksum(w);
}

static uint64_t fnv_u64(uint64_t h, uint64_t v) {
  unsigned char b[8];
  for (int i = 0; i < 8; i++) b[i] = (unsigned char)(v >> (8 * i));
  return td_blob_fnv(h, b, sizeof b);
}

uint64_t td_replay_records_hash(const td_replay *r) {
  uint64_t h = fnv_u64(TD_BLOB_FNV_SEED, r->ncmd);
  for (size_t i = 0; i < r->ncmd; i++) {
    const td_replay_cmd *c = &r->cmds[i];
    size_t n = strlen(c->name);
    h = fnv_u64(h, c->tick);
    h = fnv_u64(h, (uint64_t)c->kind);
    h = fnv_u64(h, (uint64_t)c->object);
    h = fnv_u64(h, (uint64_t)(uint32_t)c->arg);
    h = fnv_u64(h, n);
    h = td_blob_fnv(h, c->name, n);
    if (c->kind == TD_COMMAND_RALLY) {
      uint32_t xb, yb;
      memcpy(&xb, &c->x, 4);
      memcpy(&yb, &c->y, 4);
      h = fnv_u64(h, ((uint64_t)xb << 32) | yb);
    }
  }
  h = fnv_u64(h, r->ncheck);
  for (size_t i = 0; i < r->ncheck; i++) {
    h = fnv_u64(h, r->checks[i].tick);
    h = fnv_u64(h, r->checks[i].checksum);
  }
  return h;
}

/* ---- writing ------------------------------------------------------------- */

typedef struct textbuf {
  char *buf;
  size_t len, cap;
  bool failed;
} textbuf;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void put(textbuf *o, const char *fmt, ...) {
  if (o->failed) return;
  va_list ap;
  va_start(ap, fmt);
  char line[1200];
  int n = vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  if (n < 0 || (size_t)n >= sizeof line) {
    o->failed = true;
    return;
  }
  char *p = td_mem_grow(o->buf, &o->cap, o->len + (size_t)n + 1, 1);
  if (!p) {
    o->failed = true;
    return;
  }
  o->buf = p;
  memcpy(p + o->len, line, (size_t)n + 1);
  o->len += (size_t)n;
}

/* A word the file can hold: not empty, no control characters (the reader
** refuses them); blanks, '#' and '"' are written quoted (put_word). */
static bool writable(const char *s) {
  if (!*s) return false;
  for (; *s; s++)
    if ((unsigned char)*s < 0x20 || *s == 0x7f) return false;
  return true;
}

/* A word as the reader splits it back: bare, or quoted when it holds a
** blank, '#' or '"', with '"' and '\' escaped inside the quotes. */
static void put_word(textbuf *o, const char *s) {
  if (!strpbrk(s, " #\"")) {
    put(o, " %s", s);
    return;
  }
  put(o, " \"");
  for (; *s; s++) put(o, "%s%c", *s == '"' || *s == '\\' ? "\\" : "", *s);
  put(o, "\"");
}

int td_replay_check_writable(const td_replay *r, const char *path, td_err *err) {
  const char *word = NULL;
  if (!writable(r->map_path)) word = r->map_path;
  for (size_t i = 0; !word && i < r->nmods; i++)
    if (!writable(r->mod_dirs[i])) word = r->mod_dirs[i];
  for (size_t i = 0; !word && i < r->ncmd; i++)
    if (r->cmds[i].kind == TD_COMMAND_PLACE && !writable(r->cmds[i].name)) word = r->cmds[i].name;
  if (!word) return 0;
  char shown[64];
  size_t n = 0;
  for (const char *q = word; *q && n + 5 < sizeof shown; q++) {
    if ((unsigned char)*q < 0x20 || *q == 0x7f) n += (size_t)snprintf(shown + n, sizeof shown - n, "\\x%02x", (unsigned)(unsigned char)*q);
    else shown[n++] = *q;
  }
  shown[n] = '\0';
  return td_err_set(err, "%s: cannot write '%s' in a replay (an empty word, or one with a control "
                    "character)", path, shown);
}

int td_replay_write(const td_replay *r, const char *path, td_err *err) {
  if (!r->ended) return td_err_set(err, "%s: the game has no end to write (td_replay_end)", path);
  if (td_replay_check_writable(r, path, err) != 0) return -1;
  for (size_t i = 0; i < r->ncmd; i++)
    if ((unsigned)r->cmds[i].kind >= TD_COMMAND_KIND_COUNT ||
        (r->cmds[i].kind == TD_COMMAND_TARGET && (unsigned)r->cmds[i].arg >= TD_TARGET_MODE_COUNT) ||
        (i > 0 && r->cmds[i].tick < r->cmds[i - 1].tick) || r->cmds[i].tick > r->end_ticks)
      return td_err_set(err, "%s: command %zu cannot be written", path, i + 1);
  for (size_t i = 0; i < r->ncheck; i++)
    if (r->checks[i].tick == 0 || r->checks[i].tick > r->end_ticks ||
        (i > 0 && r->checks[i].tick <= r->checks[i - 1].tick))
      return td_err_set(err, "%s: check %zu cannot be written", path, i + 1);
  if ((unsigned)r->result > TD_GAME_LOST || r->lives < 0)
    return td_err_set(err, "%s: the end (%d, lives %d) cannot be written", path, (int)r->result,
                      (int)r->lives);
  textbuf o = {0};
  put(&o, "td-replay %d\n", r->noverrides ? TD_REPLAY_VERSION : 3);
  put(&o, "map");
  put_word(&o, r->map_path);
  put(&o, " %016" PRIx64 "\n", r->map_hash);
  for (size_t i = 0; i < r->nmods; i++) {
    put(&o, "mod");
    put_word(&o, r->mod_dirs[i]);
    put(&o, " %016" PRIx64 "\n", r->mod_hashes[i]);
  }
  put(&o, "seed %" PRIu64 "\n", r->seed);
  put(&o, "endless %d\n", r->endless ? 1 : 0);
  put(&o, "difficulty %s\n", td_difficulty_name(r->difficulty));
  put(&o, "every %u\n", (unsigned)r->every);
  for (size_t i = 0; i < r->noverrides; i++) {
    char num[32];
    td_override_number(r->overrides[i].value, num, sizeof num);
    put(&o, "override %s %s %s\n", td_override_op_name(r->overrides[i].op),
        r->overrides[i].param, num);
  }
  size_t k = 0; /* checks interleaved with commands by tick, for reading */
  for (size_t i = 0; i <= r->ncmd; i++) {
    uint64_t until = i < r->ncmd ? r->cmds[i].tick : UINT64_MAX;
    for (; k < r->ncheck && r->checks[k].tick < until; k++)
      put(&o, "check %" PRIu64 " %016" PRIx64 "\n", r->checks[k].tick, r->checks[k].checksum);
    if (i == r->ncmd) break;
    const td_replay_cmd *c = &r->cmds[i];
    put(&o, "cmd %" PRIu64 " %s", c->tick, kind_names[c->kind]);
    if (names_base(c->kind)) put(&o, " %" PRId64, c->object);
    if (c->kind == TD_COMMAND_PLACE) put_word(&o, c->name);
    if (c->kind == TD_COMMAND_UPGRADE) put(&o, " %d", (int)c->arg);
    if (c->kind == TD_COMMAND_TARGET) put(&o, " %s", mode_names[c->arg]);
    if (c->kind == TD_COMMAND_RALLY) put(&o, " %.9g %.9g", (double)c->x, (double)c->y);
    put(&o, "\n");
  }
  put(&o, "end %" PRIu64 " %s %d %d %016" PRIx64 " %016" PRIx64 "\n", r->end_ticks,
      result_names[r->result], (int)r->lives, (int)r->gold, r->end_checksum,
      td_replay_records_hash(r));
  int rc = o.failed ? td_err_set(err, "%s: out of memory", path)
                    : td_file_write(path, o.buf, o.len, err);
  td_mem_free(o.buf, o.cap);
  return rc;
}

/* ---- reading ------------------------------------------------------------- */

typedef struct reader {
  const char *path;
  int64_t version;
  int line;
  char *tok[8];
  int ntok;
  td_err *err;
} reader;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static int bad(reader *rd, const char *fmt, ...) {
  char msg[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  /* messages quote the file's words, which may hold any byte: one line */
  for (char *p = msg; *p; p++)
    if ((unsigned char)*p < 0x20 || *p == 0x7f) *p = '?';
  td_err_set(rd->err, "%s:%d: %s", rd->path, rd->line, msg);
  return -1;
}

static int parse_u64(reader *rd, const char *s, int base, uint64_t *out, const char *what) {
  char *end;
  errno = 0;
  unsigned long long v = 0;
  if (*s != '-' && *s != '+' && *s != '\0') v = strtoull(s, &end, base);
  if (*s == '-' || *s == '+' || *s == '\0' || *end || errno) {
    bad(rd, "%s: expected a number, got '%s'", what, s); /* -1 (not followed by the analyzer) */
    return -1;
  }
  *out = (uint64_t)v;
  return 0;
}

static int parse_i64(reader *rd, const char *s, int64_t lo, int64_t hi, int64_t *out,
                     const char *what) {
  char *end;
  errno = 0;
  long long v = strtoll(s, &end, 10);
  if (*s == '\0' || *end || errno || v < lo || v > hi) {
    bad(rd, "%s: expected an integer in %" PRId64 " .. %" PRId64 ", got '%s'", what, lo, hi, s);
    return -1;
  }
  *out = (int64_t)v;
  return 0;
}

/* A hash or checksum: exactly 16 hex digits (so a cut one is not read as
** a smaller number). */
static int parse_hex16(reader *rd, const char *s, uint64_t *out, const char *what) {
  size_t n = strspn(s, "0123456789abcdefABCDEF");
  if (n != 16 || s[n] != '\0') {
    bad(rd, "%s: expected 16 hex digits, got '%s'", what, s); /* -1 */
    return -1;
  }
  return parse_u64(rd, s, 16, out, what);
}

static int find(const char *const *names, int n, const char *s) {
  for (int i = 0; i < n; i++)
    if (!strcmp(names[i], s)) return i;
  return -1;
}

static int need(reader *rd, int n, const char *usage) {
  if (rd->ntok != n) return bad(rd, "expected '%s'", usage);
  return 0;
}

/* A finite float, all of the token. */
static int parse_f32(reader *rd, const char *s, float *out, const char *what) {
  char *end;
  errno = 0;
  float v = strtof(s, &end);
  if (end == s || *end || errno == ERANGE || !isfinite(v))
    return bad(rd, "%s '%s' is not a finite number", what, s);
  *out = v;
  return 0;
}

static int parse_cmd(reader *rd, td_replay *r) {
  td_replay_cmd c = {.line = rd->line};
  if (rd->ntok < 3) return bad(rd, "expected 'cmd TICK KIND ...'");
  if (parse_u64(rd, rd->tok[1], 10, &c.tick, "tick") != 0) return -1;
  if (r->ncmd && c.tick < r->cmds[r->ncmd - 1].tick)
    return bad(rd, "tick %" PRIu64 " is before the previous command's (%" PRIu64 ")", c.tick,
               r->cmds[r->ncmd - 1].tick);
  int k = find(kind_names, TD_COMMAND_KIND_COUNT, rd->tok[2]);
  if (k < 0)
    return bad(rd, "unknown command '%s' (place, upgrade, sell, target, call_wave, pause, "
               "resume, rally, repair)", rd->tok[2]);
  c.kind = (td_command_kind)k;
  static const char *const usage[TD_COMMAND_KIND_COUNT] = {
      "cmd TICK place BASE TOWER", "cmd TICK upgrade BASE CHILD", "cmd TICK sell BASE",
      "cmd TICK target BASE MODE", "cmd TICK call_wave", "cmd TICK pause", "cmd TICK resume",
      "cmd TICK rally BASE X Y", "cmd TICK repair BASE"};
  static const int ntok[TD_COMMAND_KIND_COUNT] = {5, 5, 4, 5, 3, 3, 3, 6, 4};
  if (need(rd, ntok[k], usage[k]) != 0) return -1;
  if (names_base(c.kind) &&
      parse_i64(rd, rd->tok[3], INT32_MIN, INT32_MAX, &c.object, "base object id") != 0)
    return -1;
  if (c.kind == TD_COMMAND_PLACE) {
    if (strlen(rd->tok[4]) >= sizeof c.name) return bad(rd, "tower type name too long");
    game_copy_str(c.name, sizeof c.name, rd->tok[4]);
  } else if (c.kind == TD_COMMAND_UPGRADE) {
    int64_t v;
    if (parse_i64(rd, rd->tok[4], 1, TD_RULES_MAX_CHILDREN, &v, "upgrade") != 0) return -1;
    c.arg = (int32_t)v;
  } else if (c.kind == TD_COMMAND_TARGET) {
    int m = find(mode_names, TD_TARGET_MODE_COUNT, rd->tok[4]);
    if (m < 0) return bad(rd, "unknown targeting mode '%s' (first, last, strongest, closest, script)",
                          rd->tok[4]);
    c.arg = m;
  } else if (c.kind == TD_COMMAND_RALLY) {
    if (parse_f32(rd, rd->tok[4], &c.x, "rally x") != 0 ||
        parse_f32(rd, rd->tok[5], &c.y, "rally y") != 0)
      return -1;
  }
  return push_cmd(r, &c, rd->err);
}

static int parse_line(reader *rd, td_replay *r, unsigned *seen) {
  const char *w = rd->tok[0];
  static const char *const header[] = {"map", "mod", "seed", "endless", "every", "difficulty"};
  int h = find(header, 6, w);
  if (h >= 0) {
    if ((*seen & (1u << h)) && (h != 1 || rd->version < 3))
      return bad(rd, "'%s' given twice", w);
    if (r->ncmd || r->ncheck || r->ended) return bad(rd, "'%s' after the commands", w);
    *seen |= 1u << h;
  }
  if (r->ended) return bad(rd, "'%s' after 'end'", w);
  if (h == 0 || h == 1) {
    if (need(rd, 3, h ? "mod DIR HASH" : "map FILE HASH") != 0) return -1;
    if (h && r->nmods == TD_MOD_MAX_MODS) return bad(rd, "more than %d mods", TD_MOD_MAX_MODS);
    char *dst = h ? r->mod_dirs[r->nmods] : r->map_path;
    if (strlen(rd->tok[1]) >= sizeof r->map_path) return bad(rd, "path too long");
    game_copy_str(dst, sizeof r->map_path, rd->tok[1]);
    if (!*rd->tok[1]) return bad(rd, "an empty path");
    if (!h) return parse_hex16(rd, rd->tok[2], &r->map_hash, "hash");
    if (parse_hex16(rd, rd->tok[2], &r->mod_hashes[r->nmods], "hash") != 0) return -1;
    if (r->nmods++ == 0) {
      game_copy_str(r->mod_dir, sizeof r->mod_dir, r->mod_dirs[0]);
      r->mod_hash = r->mod_hashes[0];
    }
    return 0;
  }
  if (h == 2) return need(rd, 2, "seed N") ? -1 : parse_u64(rd, rd->tok[1], 10, &r->seed, "seed");
  if (h == 3) {
    int64_t v;
    if (need(rd, 2, "endless 0|1") || parse_i64(rd, rd->tok[1], 0, 1, &v, "endless")) return -1;
    r->endless = v != 0;
    return 0;
  }
  if (h == 4) {
    int64_t v;
    if (need(rd, 2, "every N") || parse_i64(rd, rd->tok[1], 1, 1 << 30, &v, "every")) return -1;
    r->every = (uint32_t)v;
    return 0;
  }
  if (h == 5) {
    if (need(rd, 2, "difficulty normal|easy|hard")) return -1;
    if (td_difficulty_parse(rd->tok[1], &r->difficulty) != 0)
      return bad(rd, "difficulty must be normal, easy or hard, got '%s'", rd->tok[1]);
    return 0;
  }
  if (!strcmp(w, "override")) {
    if (rd->version < 4) return bad(rd, "'override' in a version %d replay (4 has them)",
                                    (int)rd->version);
    if (r->ncmd || r->ncheck) return bad(rd, "'override' after the commands");
    if (need(rd, 4, "override set|scale PARAM VALUE") != 0) return -1;
    if (r->noverrides == TD_OVERRIDE_MAX) return bad(rd, "more than %d overrides", TD_OVERRIDE_MAX);
    int op = !strcmp(rd->tok[1], "set") ? TD_OVERRIDE_SET
             : !strcmp(rd->tok[1], "scale") ? TD_OVERRIDE_SCALE : -1;
    if (op < 0) return bad(rd, "override: expected set or scale, got '%s'", rd->tok[1]);
    char arg[TD_OVERRIDE_PARAM_MAX + 40];
    snprintf(arg, sizeof arg, "%s=%s", rd->tok[2], rd->tok[3]);
    td_err oerr;
    if (td_override_parse((td_override_op)op, arg, &r->overrides[r->noverrides], &oerr) != 0)
      return bad(rd, "%s", oerr.msg);
    r->noverrides++;
    return 0;
  }
  if ((*seen & 3u) != 3u) return bad(rd, "'%s' before the map and mod lines", w);
  if (!strcmp(w, "cmd")) return parse_cmd(rd, r);
  if (!strcmp(w, "check")) {
    uint64_t t, sum;
    if (need(rd, 3, "check TICK CHECKSUM") || parse_u64(rd, rd->tok[1], 10, &t, "tick") ||
        parse_hex16(rd, rd->tok[2], &sum, "checksum"))
      return -1;
    if (t == 0) return bad(rd, "check at tick 0 (a check follows a step: tick 1 or later)");
    if (r->ncheck && t <= r->checks[r->ncheck - 1].tick)
      return bad(rd, "check at tick %" PRIu64 " is not after the previous one", t);
    if (td_replay_add_check(r, t, sum, rd->err) != 0) return -1;
    r->checks[r->ncheck - 1].line = rd->line;
    return 0;
  }
  if (!strcmp(w, "end")) {
    int64_t lives, gold;
    if (need(rd, 7, "end TICKS won|lost|playing LIVES GOLD CHECKSUM RECORDS") ||
        parse_u64(rd, rd->tok[1], 10, &r->end_ticks, "ticks") ||
        parse_i64(rd, rd->tok[3], 0, INT32_MAX, &lives, "lives") ||
        parse_i64(rd, rd->tok[4], INT32_MIN, INT32_MAX, &gold, "gold") ||
        parse_hex16(rd, rd->tok[5], &r->end_checksum, "checksum") ||
        parse_hex16(rd, rd->tok[6], &r->end_records, "records hash"))
      return -1;
    int res = find(result_names, 3, rd->tok[2]);
    if (res < 0) return bad(rd, "result must be won, lost or playing, got '%s'", rd->tok[2]);
    /* commands and checks are in tick order: the last ones are the latest */
    if (r->ncmd && r->cmds[r->ncmd - 1].tick > r->end_ticks)
      return bad(rd, "the cmd of line %d (tick %" PRIu64 ") is after the end (tick %" PRIu64 ")",
                 r->cmds[r->ncmd - 1].line, r->cmds[r->ncmd - 1].tick, r->end_ticks);
    if (r->ncheck && r->checks[r->ncheck - 1].tick > r->end_ticks)
      return bad(rd, "the check of line %d (tick %" PRIu64 ") is after the end (tick %" PRIu64
                 ")", r->checks[r->ncheck - 1].line, r->checks[r->ncheck - 1].tick, r->end_ticks);
    r->result = (td_game_state)res;
    r->lives = (int32_t)lives;
    r->gold = (int32_t)gold;
    r->end_line = rd->line;
    r->ended = true;
    return 0;
  }
  return bad(rd, "unknown record '%s' (map, mod, seed, endless, difficulty, every, override, "
             "cmd, check, end)", w);
}

/* Splits the line at p into rd's words: blanks separate them, '#' outside
** quotes starts a comment, a word that starts with '"' runs to the next
** unescaped '"' and is decoded in place (\" and \\). The line holds no
** control character but tab and CR (checked before). 0 or -1. */
static int split(reader *rd, char *p) {
  rd->ntok = 0;
  for (;;) {
    while (*p == ' ' || *p == '\t' || *p == '\r') p++;
    if (!*p || *p == '#') return 0;
    if (rd->ntok == 8) return bad(rd, "too many fields");
    char *word = p, *out = p;
    if (*p == '"') {
      for (p++;; p++) {
        if (!*p) return bad(rd, "a quoted word without its closing '\"'");
        if (*p == '"') break;
        if (*p == '\t' || *p == '\r') return bad(rd, "a tab or CR inside a quoted word");
        if (*p == '\\') {
          if (!p[1]) return bad(rd, "a quoted word without its closing '\"'");
          if (p[1] != '"' && p[1] != '\\')
            return bad(rd, "a quoted word holds '\\' before '%c' (only \\\" and \\\\ are escapes)",
                       p[1]);
          p++;
        }
        *out++ = *p;
      }
      p++;
      if (*p && !strchr(" \t\r#", *p)) return bad(rd, "a quoted word runs into '%c'", *p);
    } else {
      for (; *p && !strchr(" \t\r#", *p); p++)
        if (*p == '"') return bad(rd, "a '\"' inside a word (a quoted word starts with it)");
      out = p;
    }
    char next = *p;
    *out = '\0';
    rd->tok[rd->ntok++] = word;
    if (!next || next == '#') return 0;
    p++;
  }
}

int td_replay_read(const char *path, td_replay *r, td_err *err) {
  memset(r, 0, sizeof *r);
  char *buf;
  size_t len, cap;
  if (td_mem_read_file(path, (size_t)256 << 20, &buf, &len, &cap, err) != 0) return -1;
  game_copy_str(r->path, sizeof r->path, path);
  r->every = TD_REPLAY_DEFAULT_EVERY;
  reader rd = {.path = path, .err = err};
  unsigned seen = 0;
  int rc = 0;
  bool first = true;
  /* only whole lines are read: a file cut short ends inside a line (a cut
  ** number would read as another number) or before its end record */
  size_t whole = len;
  while (whole > 0 && buf[whole - 1] != '\n') whole--;
  if (whole == 0 && len > 0) {
    static const char magic[] = "td-replay ";
    size_t n = len < sizeof magic - 1 ? len : sizeof magic - 1;
    if (memcmp(buf, magic, n) == 0)
      rc = td_err_set(err, "%s:1: cut short: the file ends inside line 1, without a newline",
                      path);
    else
      rc = td_err_set(err, "%s:1: not a td replay (it starts with 'td-replay %d')", path,
                      TD_REPLAY_VERSION);
  }
  char *p = buf, *end = buf + whole;
  while (rc == 0 && p < end) {
    rd.line++;
    char *eol = memchr(p, '\n', (size_t)(end - p)); /* there is one: whole lines */
    for (const char *q = p; q < eol && rc == 0; q++)
      if ((unsigned char)*q < 0x20 ? *q != '\t' && *q != '\r' : *q == 0x7f)
        rc = bad(&rd, "a control character (byte 0x%02x): not a text replay", (unsigned char)*q);
    if (rc != 0) break;
    *eol = '\0';
    rc = split(&rd, p);
    p = eol + 1;
    if (rc != 0 || rd.ntok == 0) continue;
    if (first) {
      int64_t v = 0;
      if (strcmp(rd.tok[0], "td-replay") != 0 || rd.ntok != 2)
        rc = bad(&rd, "not a td replay (it starts with 'td-replay %d')", TD_REPLAY_VERSION);
      else if (parse_i64(&rd, rd.tok[1], 0, INT32_MAX, &v, "version") != 0)
        rc = -1;
      else if (v == 1)
        rc = bad(&rd, "a version 1 replay: this td reads version %d, which proves the end and "
                 "the commands; re-record it", TD_REPLAY_VERSION);
      else if (v < 2 || v > TD_REPLAY_VERSION)
        rc = bad(&rd, "replay version %" PRId64 ", this td reads versions 2 to %d", v,
                 TD_REPLAY_VERSION);
      rd.version = v;
      first = false;
      continue;
    }
    rc = parse_line(&rd, r, &seen);
  }
  if (rc == 0 && whole < len)
    rc = td_err_set(err, "%s:%d: cut short: the file ends inside line %d, without a newline", path,
                    rd.line + 1, rd.line + 1);
  else if (rc == 0 && first)
    rc = td_err_set(err, "%s: empty, not a td replay", path);
  else if (rc == 0 && !r->ended)
    rc = td_err_set(err, "%s:%d: no 'end' record: the replay stops after line %d (cut short, "
                    "or not a whole game)", path, rd.line, rd.line);
  td_mem_free(buf, cap);
  if (rc != 0) {
    td_replay_free(r);
    return -1;
  }
  return 0;
}

/* ---- playing ------------------------------------------------------------- */

int td_replay_command(const td_replay *r, size_t i, const td_game *g, td_command *out,
                      td_err *err) {
  const td_replay_cmd *c = &r->cmds[i];
  const td_map *m = td_game_map(g);
  const td_rules *rules = td_game_rules(g);
  const char *file = r->path[0] ? r->path : "replay";
  memset(out, 0, sizeof *out);
  out->tick = c->tick;
  out->kind = c->kind;
  out->base = -1;
  out->tower_type = -1;
  if (names_base(c->kind)) {
    const td_tower_base *b = td_map_find_base(m, c->object);
    if (!b)
      return td_err_set(err, "%s:%d: %s has no tower base with object id %" PRId64, file,
                        c->line, r->map_path, c->object);
    out->base = (int32_t)(b - m->bases);
  }
  if (c->kind == TD_COMMAND_PLACE) {
    for (size_t t = 0; t < rules->tower_count; t++)
      if (!strcmp(rules->towers[t].name, c->name)) out->tower_type = (int32_t)t;
    if (out->tower_type < 0)
      return td_err_set(err, "%s:%d: no tower type '%s' in %s", file, c->line, c->name,
                        r->mod_dir);
  }
  if (c->kind == TD_COMMAND_UPGRADE) out->upgrade = c->arg - 1;
  if (c->kind == TD_COMMAND_TARGET) out->mode = (td_target_mode)c->arg;
  if (c->kind == TD_COMMAND_RALLY) {
    out->x = c->x;
    out->y = c->y;
  }
  return 0;
}

/* A mod's name: its directory's last component ("a/b/" is "b"), into out. */
static const char *mod_name(const char *dir, char *out, size_t cap) {
  size_t n = strlen(dir);
  while (n > 1 && dir[n - 1] == '/') n--;
  size_t s = n;
  while (s > 0 && dir[s - 1] != '/') s--;
  snprintf(out, cap, "%.*s", (int)(n - s), dir + s);
  return out;
}

int td_replay_check_game(const td_replay *r, const td_game *g, td_err *err) {
  const char *file = r->path[0] ? r->path : "replay";
  uint64_t records = td_replay_records_hash(r);
  if (r->path[0] && records != r->end_records) /* a file read (recorded: written with it) */
    return td_err_set(err, "%s:%d: the end's records hash %016" PRIx64 " is not that of the cmd "
                      "and check lines (%016" PRIx64 "): a line was changed, moved or removed",
                      file, r->end_line, r->end_records, records);
  if (td_game_map_hash(g) != r->map_hash) {
    char name[sizeof r->map_path];
    td_game_map_name_of(r->map_path, name, sizeof name);
    if (strcmp(name, td_game_map_name(g)) != 0)
      return td_err_set(err, "%s: made with a map named '%s', not '%s' (%s): a mod may read the "
                        "name (td.map_name), so it is part of the map", file, name,
                        td_game_map_name(g), td_game_map_path(g));
    return td_err_set(err, "%s: made with another %s (hash %016" PRIx64 ", the file now %016" PRIx64 ")",
                      file, r->map_path, r->map_hash, td_game_map_hash(g));
  }
  size_t have = td_game_mod_count(g);
  char a[512], b[512];
  for (size_t i = 0; i < r->nmods || i < have; i++) {
    if (i >= have)
      return td_err_set(err, "%s: made with %zu mods, this game has %zu: mod %s (%s) is missing",
                        file, r->nmods, have, r->mod_dirs[i], mod_name(r->mod_dirs[i], a, sizeof a));
    if (i >= r->nmods)
      return td_err_set(err, "%s: made with %zu mods, this game has %zu: %s is one too many",
                        file, r->nmods, have, td_game_mod_dir_at(g, i));
    if (strcmp(mod_name(r->mod_dirs[i], a, sizeof a),
               mod_name(td_game_mod_dir_at(g, i), b, sizeof b)) != 0)
      return td_err_set(err, "%s: mod %zu of the list is %s, this game has %s there (the same "
                        "mods in the same order are needed)", file, i + 1, r->mod_dirs[i],
                        td_game_mod_dir_at(g, i));
    if (td_game_mod_hash_at(g, i) != r->mod_hashes[i])
      return td_err_set(err, "%s: made with other scripts than %s has now (hash %016" PRIx64
                        ", now %016" PRIx64 ")", file, td_game_mod_dir_at(g, i),
                        r->mod_hashes[i], td_game_mod_hash_at(g, i));
  }
  size_t nov;
  const td_override *ov = td_game_overrides(g, &nov);
  bool same = nov == r->noverrides;
  for (size_t i = 0; same && i < nov; i++)
    same = ov[i].op == r->overrides[i].op && ov[i].value == r->overrides[i].value &&
           !strcmp(ov[i].param, r->overrides[i].param);
  if (!same)
    return td_err_set(err, "%s: made with %zu rule override%s, this game has %zu other%s (a "
                      "replay plays with its own: leave --set and --scale out)", file,
                      r->noverrides, r->noverrides == 1 ? "" : "s", nov, nov == 1 ? "" : "s");
  return 0;
}
