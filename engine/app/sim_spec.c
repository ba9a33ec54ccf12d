/*
** sim_spec.c: the waves (--spawn SPEC) and timed events (--block-edge,
** --tower) of `td sim`: syntax first (before the map is loaded), then the
** defaults and the checks that need the map.
*/
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/sim.h"

enum { K_INT = 1, K_LEN = 2, K_BOOL = 4 };

static const struct {
  const char *name;
  unsigned kind;
} keys[SIM_KEYS] = {
  [SIM_COUNT] = {"count", K_INT},   [SIM_PER_ROW] = {"per_row", K_INT},
  [SIM_WIDTH] = {"width", K_LEN},   [SIM_SPACING] = {"spacing", K_LEN},
  [SIM_SPEED] = {"speed", K_LEN},   [SIM_RADIUS] = {"radius", K_LEN},
  [SIM_ACCEL] = {"accel", K_LEN},   [SIM_TURN] = {"turn", 0},
  [SIM_SPAWN] = {"spawn", K_INT},   [SIM_TICK] = {"tick", K_INT},
  [SIM_FLY] = {"fly", K_BOOL},      [SIM_GROUP] = {"group", K_INT},
};

#define KEY_LIST "count, per_row, width, spacing, speed, radius, accel, turn, spawn, tick, fly, group"
#define MAX_GROUP 65535
#define SPEC_MAX_VALUE 1e9 /* largest magnitude of a length or a turn rate */

int sim_parse_uint(const char *s, size_t len, uint64_t *out) {
  if (len == 0 || len > 15) return -1;
  uint64_t v = 0;
  for (size_t i = 0; i < len; i++) {
    if (s[i] < '0' || s[i] > '9') return -1;
    v = v * 10 + (uint64_t)(s[i] - '0');
  }
  if (v > SIM_MAX_TICK) return -1;
  *out = v;
  return 0;
}

/* One value of a SPEC (len bytes at s) for key k. */
static int parse_value(sim_wave *w, sim_key k, const char *s, size_t len, char *msg, size_t cap) {
  char buf[64];
  const char *name = keys[k].name;
  if (len == 0 || len >= sizeof buf) {
    snprintf(msg, cap, "%s: expected a value, got '%.*s'", name, (int)(len < 40 ? len : 40), s);
    return -1;
  }
  memcpy(buf, s, len);
  buf[len] = '\0';
  if (keys[k].kind & (K_INT | K_BOOL)) {
    uint64_t v;
    if (sim_parse_uint(buf, len, &v) != 0) {
      if (strspn(buf, "0123456789") == len)
        snprintf(msg, cap, "%s: '%s' is out of range (at most %" PRIu64 ")", name, buf,
                 SIM_MAX_TICK);
      else
        snprintf(msg, cap, "%s: '%s' is not a whole number >= 0", name, buf);
      return -1;
    }
    if ((keys[k].kind & K_BOOL) && v > 1) {
      snprintf(msg, cap, "%s: '%s' must be 0 or 1", name, buf);
      return -1;
    }
    w->val[k] = (double)v;
    return 0;
  }
  bool tiles = false;
  if ((keys[k].kind & K_LEN) && len > 1 && buf[len - 1] == 't') {
    tiles = true;
    buf[len - 1] = '\0';
  }
  char *end;
  errno = 0;
  double v = strtod(buf, &end);
  bool number = end != buf && *end == '\0' && !isnan(v) && (isfinite(v) || errno == ERANGE);
  if (!number) {
    snprintf(msg, cap, "%s: '%.*s' is not a number%s", name, (int)len, s,
             (keys[k].kind & K_LEN) ? " (map units, or tiles with a t suffix)" : "");
    return -1;
  }
  if (!isfinite(v) || fabs(v) > SPEC_MAX_VALUE) { /* 1e30, or 1e999 (ERANGE) */
    snprintf(msg, cap, "%s: '%.*s' is out of range (-%g .. %g)", name, (int)len, s,
             SPEC_MAX_VALUE, SPEC_MAX_VALUE);
    return -1;
  }
  w->val[k] = v;
  w->tiles[k] = tiles;
  return 0;
}

int sim_wave_parse(const char *spec, int index, sim_wave *w, char *msg, size_t cap) {
  memset(w, 0, sizeof *w);
  w->text = spec;
  w->val[SIM_GROUP] = index;
  const char *p = spec;
  while (*p) {
    const char *comma = strchr(p, ','), *stop = comma ? comma : p + strlen(p);
    const char *eq = memchr(p, '=', (size_t)(stop - p));
    if (!eq) {
      snprintf(msg, cap, "expected key=value, got '%.*s'", (int)(stop - p), p);
      return -1;
    }
    sim_key k = SIM_KEYS;
    for (int i = 0; i < SIM_KEYS; i++)
      if (strlen(keys[i].name) == (size_t)(eq - p) && !memcmp(keys[i].name, p, (size_t)(eq - p)))
        k = (sim_key)i;
    if (k == SIM_KEYS) {
      snprintf(msg, cap, "unknown key '%.*s' (keys: " KEY_LIST ")", (int)(eq - p), p);
      return -1;
    }
    if (w->set[k]) {
      snprintf(msg, cap, "%s given twice", keys[k].name);
      return -1;
    }
    if (parse_value(w, k, eq + 1, (size_t)(stop - eq - 1), msg, cap) != 0) return -1;
    w->set[k] = true;
    p = comma ? comma + 1 : stop;
  }
  if (!w->set[SIM_COUNT]) {
    snprintf(msg, cap, "count is required");
    return -1;
  }
  if (w->val[SIM_COUNT] < 1 || w->val[SIM_COUNT] > TD_CROWD_MAX_AGENTS) {
    snprintf(msg, cap, "count must be 1 to %u", TD_CROWD_MAX_AGENTS);
    return -1;
  }
  if (w->set[SIM_PER_ROW] && w->val[SIM_PER_ROW] < 1) {
    snprintf(msg, cap, "per_row must be at least 1");
    return -1;
  }
  if (w->val[SIM_GROUP] > MAX_GROUP) {
    snprintf(msg, cap, "group must be 0 to %d", MAX_GROUP);
    return -1;
  }
  static const sim_key positive[] = {SIM_SPEED, SIM_RADIUS, SIM_ACCEL, SIM_TURN};
  for (size_t i = 0; i < sizeof positive / sizeof positive[0]; i++)
    if (w->set[positive[i]] && !(w->val[positive[i]] > 0)) {
      snprintf(msg, cap, "%s must be positive", keys[positive[i]].name);
      return -1;
    }
  static const sim_key nonneg[] = {SIM_WIDTH, SIM_SPACING};
  for (size_t i = 0; i < sizeof nonneg / sizeof nonneg[0]; i++)
    if (w->set[nonneg[i]] && w->val[nonneg[i]] < 0) {
      snprintf(msg, cap, "%s must be >= 0", keys[nonneg[i]].name);
      return -1;
    }
  return 0;
}

/* The value of a length key in map units, or dflt when not given. */
static float length(const sim_wave *w, sim_key k, double tile, double dflt) {
  if (!w->set[k]) return (float)dflt;
  return (float)(w->tiles[k] ? w->val[k] * tile : w->val[k]);
}

int sim_wave_resolve(sim_wave *w, const td_map *map, char *msg, size_t cap) {
  double tile = map->tile_w > 0 ? map->tile_w : 1.0;
  int32_t count = (int32_t)w->val[SIM_COUNT];
  int32_t per_row = w->set[SIM_PER_ROW] ? (int32_t)fmin(w->val[SIM_PER_ROW], count)
                                        : (count < 3 ? count : 3);
  float radius = length(w, SIM_RADIUS, tile, tile / 5);
  w->desc = (td_agent_desc){
    .radius = radius,
    .max_speed = length(w, SIM_SPEED, tile, 2 * tile),
    .accel = length(w, SIM_ACCEL, tile, 0), /* 0: the crowd's 4 x speed */
    .turn_rate = w->set[SIM_TURN] ? (float)w->val[SIM_TURN] : 0.0f, /* 0: 4 pi */
    .group = (int32_t)w->val[SIM_GROUP],
    .flying = w->val[SIM_FLY] != 0,
  };
  w->form = (td_formation){
    .count = count,
    .per_row = per_row,
    .width = length(w, SIM_WIDTH, tile, 3.0 * (double)radius * (per_row - 1)),
    .spacing = length(w, SIM_SPACING, tile, 4.0 * (double)radius),
  };
  w->tick = (uint64_t)w->val[SIM_TICK];
  if (w->val[SIM_SPAWN] >= (double)map->spawn_count) {
    snprintf(msg, cap, "spawn %.0f: %s has %zu spawn%s (0 to %zu)", w->val[SIM_SPAWN],
             map->source, map->spawn_count, map->spawn_count == 1 ? "" : "s",
             map->spawn_count ? map->spawn_count - 1 : 0);
    return -1;
  }
  w->spawn = (int32_t)w->val[SIM_SPAWN];
  if (!(w->desc.radius > 0.0f) || !(w->desc.max_speed > 0.0f)) {
    snprintf(msg, cap, "radius and speed must be positive");
    return -1;
  }
  return 0;
}

int sim_event_parse(sim_event_kind kind, const char *text, sim_event *e, char *msg, size_t cap) {
  memset(e, 0, sizeof *e);
  e->kind = kind;
  e->text = text;
  e->edge = TD_NONE;
  e->cut_node = TD_NONE;
  e->cut_spawn = -1;
  const char *at = strchr(text, '@');
  size_t head = at ? (size_t)(at - text) : strlen(text);
  if (at && sim_parse_uint(at + 1, strlen(at + 1), &e->tick) != 0) {
    if (at[1] != '\0' && strspn(at + 1, "0123456789") == strlen(at + 1))
      snprintf(msg, cap, "tick '%s' is out of range (at most %" PRIu64 ")", at + 1, SIM_MAX_TICK);
    else
      snprintf(msg, cap, "bad tick '%s' (expected a whole number of ticks >= 0, %d per second)",
               at + 1, SIM_TICK_HZ);
    return -1;
  }
  char buf[64];
  if (head >= sizeof buf) head = sizeof buf - 1;
  memcpy(buf, text, head);
  buf[head] = '\0';
  if (kind == SIM_BLOCK_EDGE) {
    char *comma = strchr(buf, ',');
    uint64_t a, b;
    if (!comma || sim_parse_uint(buf, (size_t)(comma - buf), &a) != 0 ||
        sim_parse_uint(comma + 1, strlen(comma + 1), &b) != 0 || a > INT32_MAX || b > INT32_MAX) {
      snprintf(msg, cap, "expected two node ids and a tick, I,J@TICK");
      return -1;
    }
    e->a = (int32_t)a;
    e->b = (int32_t)b;
  } else {
    uint64_t id;
    if (sim_parse_uint(buf, head, &id) != 0 || id > INT32_MAX) {
      snprintf(msg, cap, "expected a tower_base object id and a tick, ID@TICK");
      return -1;
    }
    e->id = (long)id;
  }
  return 0;
}

int sim_event_resolve(sim_event *e, const sim_event *earlier, size_t n_earlier,
                      const td_map *map, char *msg, size_t cap) {
  const td_graph *g = map->graph;
  if (e->kind == SIM_BLOCK_EDGE) {
    if (e->a >= g->node_count || e->b >= g->node_count) {
      snprintf(msg, cap, "unknown node %d (the map has %d nodes)",
               e->a >= g->node_count ? e->a : e->b, g->node_count);
      return -1;
    }
    e->edge = td_graph_find_edge(g, e->a, e->b);
    if (e->edge == TD_NONE) {
      snprintf(msg, cap, "no edge joins nodes %d and %d", e->a, e->b);
      return -1;
    }
    return 0;
  }
  const td_tower_base *base = td_map_find_base(map, e->id);
  if (!base) {
    snprintf(msg, cap, "%s has no tower_base with that object id", map->source);
    return -1;
  }
  size_t i = (size_t)(base - map->bases);
  e->base = i;
  for (size_t k = 0; k < n_earlier; k++)
    if (earlier[k].kind == SIM_TOWER && earlier[k].base == i) {
      snprintf(msg, cap, "base %ld already gets a tower (--tower %s)", e->id, earlier[k].text);
      return -1;
    }
  return 0;
}
