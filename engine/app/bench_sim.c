/*
** bench_sim.c: `td bench sim`, whole game ticks (issue 4's benchmark).
**
** Each case builds a game (game/game.h) on a map generated in memory and
** the bench mod (tests/data/mods/bench: six tower types, one per kind of
** shot - instant, ballistic splash, homing slow, chain, pierce, homing
** splash with a burn - and Lua handlers on every hit and kill). The map is
** a serpentine corridor on a grid, two tiles wide, rows four tiles apart,
** joined at alternate ends; the tower bases are one-cell niches in the wall
** below each corridor, spread evenly, so a tower blocks nothing the route
** needs. The corridor's length is set for one enemy per tile of it (denser,
** or enemies of mixed speeds overtaking, cost the crowd about twice:
** docs/world.md, Performance).
**
** The bench places a tower on every base (the types in turn), spreads the
** enemies evenly along the corridor (three brutes to one runner, types and
** lanes from the bench's own generator, not the world's), warms up, then
** times td_game_step. After every step it tops the population up to its
** size again, deterministically, where the generator says: the kills (and
** leaks, none in a run) are replaced. That top-up is outside the timed step.
**
** The Lua share is the time inside the game's hooks into the mod (events,
** ticks, targeting), read with td_game_set_hook_clock: the bench's clock,
** the game's counter (not state). The baseline, run in the same process and
** interleaved tick by tick so that drift hits both, is the same game with
** the same enemies and no tower: the crowd, effects and upkeep that every
** tick pays before a shot is fired. The ratio full / baseline stays
** meaningful on a shared machine where absolute times drift.
**
** Every case is run a second time, untimed and without the hook clock, and
** must end with the same world checksum, or the bench exits 1; so does a
** run where no tower hit or killed, or a handler failed.
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/bench.h"
#include "app/cmds.h"
#include "game/game.h"

#define TILE 32            /* map units per tile */
#define PER_TILE 1         /* enemies per tile of corridor */
#define PITCH 4            /* rows from one corridor to the next */
#define WARMUP_TICKS 60
#define RUNNER_EVERY 4     /* one enemy in four is a runner */

typedef struct sim_case {
  const char *name;
  int32_t enemies, towers;
  int32_t width;     /* map width in tiles */
  bool quick;        /* part of --quick */
  int ticks;         /* timed ticks (after the warm-up) */
  double target_ms;  /* issue 4's target per tick, 0: none */
} sim_case;

static const sim_case cases[] = {
  {"1k-40", 1000, 40, 64, true, 120, 0},
  {"10k-200", 10000, 200, 128, false, 300, 4.0},
};

/* ---- the bench's generator (the world's RNG is the world's) -------------- */

static uint32_t rng_next(uint64_t *s) { /* splitmix64, top 32 bits */
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return (uint32_t)((z ^ (z >> 31)) >> 32);
}

/* ---- the map ------------------------------------------------------------- */

typedef struct text {
  char *p;
  size_t n, cap;
  bool failed;
} text;

static void put(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(text *t, const char *fmt, ...) {
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(t->p ? t->p + t->n : NULL, t->p ? t->cap - t->n : 0, fmt, ap);
    va_end(ap);
    if (k < 0) {
      t->failed = true;
      return;
    }
    if (t->p && t->n + (size_t)k < t->cap) {
      t->n += (size_t)k;
      return;
    }
    size_t cap = t->cap ? t->cap * 2 : 1 << 16;
    while (cap <= t->n + (size_t)k) cap *= 2;
    char *q = realloc(t->p, cap);
    if (!q) {
      t->failed = true;
      return;
    }
    t->p = q;
    t->cap = cap;
  }
}

typedef struct layout {
  int32_t w, h, corridors;
  uint8_t *floor;    /* w*h, 1: walkable */
  int32_t *path;     /* corridor cells (cy * w + cx) in travel order */
  int32_t path_n;
  int32_t *bases;    /* niche cells, in corridor order */
  int32_t base_n;
} layout;

static void layout_free(layout *l) {
  free(l->floor);
  free(l->path);
  free(l->bases);
}

/* Corridor k: rows PITCH*k + 1 and + 2, columns 1 .. w-2, eastwards when k
** is even; the next one joins at its far end through rows + 3 and + 4 (two
** columns). Niches: row PITCH*k + 3, away from the joins. */
static int layout_make(const sim_case *c, layout *l) {
  memset(l, 0, sizeof *l);
  int32_t run = c->width - 2;
  int32_t need = (c->enemies + PER_TILE - 1) / PER_TILE;
  l->corridors = (need + run - 1) / run;
  int32_t per = (c->towers + l->corridors - 1) / l->corridors; /* niches per corridor */
  if (per > (c->width - 10) / 2) return -1;                      /* too crowded */
  l->w = c->width;
  l->h = PITCH * l->corridors + 1;
  l->floor = calloc((size_t)l->w * (size_t)l->h, 1);
  l->path = malloc((size_t)l->corridors * (size_t)run * 2 * sizeof *l->path);
  l->bases = malloc((size_t)c->towers * sizeof *l->bases);
  if (!l->floor || !l->path || !l->bases) return -1;
  for (int32_t k = 0; k < l->corridors; k++) {
    int32_t y = PITCH * k + 1;
    bool east = k % 2 == 0;
    for (int32_t i = 0; i < run; i++) {
      int32_t x = east ? 1 + i : l->w - 2 - i;
      l->floor[y * l->w + x] = l->floor[(y + 1) * l->w + x] = 1;
      l->path[l->path_n++] = y * l->w + x;
      l->path[l->path_n++] = (y + 1) * l->w + x;
    }
    if (k + 1 < l->corridors) {
      int32_t x = east ? l->w - 3 : 1;
      for (int32_t r = 2; r <= 3; r++)
        l->floor[(y + r) * l->w + x] = l->floor[(y + r) * l->w + x + 1] = 1;
    }
    for (int32_t j = 0; j < per && l->base_n < c->towers; j++) {
      int32_t x = 5 + (int32_t)((int64_t)j * (l->w - 11) / (per > 1 ? per - 1 : 1));
      l->floor[(y + 2) * l->w + x] = 1;
      l->bases[l->base_n++] = (y + 2) * l->w + x;
    }
  }
  return l->base_n == c->towers ? 0 : -1;
}

/* The layout as a Tiled Lua map (docs/maps.md): gid 1 floor, 2 wall. */
static char *map_text(const layout *l, size_t *len) {
  text t = {0};
  put(&t, "return {\n  orientation = \"orthogonal\", width = %d, height = %d,\n"
          "  tilewidth = %d, tileheight = %d,\n"
          "  tilesets = { { name = \"bench\", firstgid = 1, tilewidth = %d, tileheight = %d,\n"
          "    tilecount = 2, tiles = {\n"
          "      { id = 0, properties = { [\"walkable\"] = true } },\n"
          "      { id = 1, properties = { [\"walkable\"] = false } } } } },\n"
          "  layers = {\n"
          "    { type = \"tilelayer\", id = 1, name = \"floor\", x = 0, y = 0, width = %d,\n"
          "      height = %d, encoding = \"lua\", data = {\n",
      l->w, l->h, TILE, TILE, TILE, TILE, l->w, l->h);
  for (int32_t y = 0; y < l->h; y++) {
    put(&t, "       ");
    for (int32_t x = 0; x < l->w; x++) put(&t, " %d,", l->floor[y * l->w + x] ? 1 : 2);
    put(&t, "\n");
  }
  put(&t, "      } },\n    { type = \"objectgroup\", id = 2, name = \"objects\", objects = {\n");
  int32_t last = l->corridors - 1, gy = PITCH * last + 1;
  int32_t gx = last % 2 == 0 ? l->w - 2 : 1;
  put(&t, "      { id = 1, name = \"entry\", class = \"spawn\", shape = \"point\", x = %d, y = %d,"
          " width = 0, height = 0, rotation = 0 },\n", TILE + TILE / 2, TILE + TILE / 2);
  put(&t, "      { id = 2, name = \"exit\", class = \"goal\", shape = \"point\", x = %d, y = %d,"
          " width = 0, height = 0, rotation = 0 },\n", gx * TILE + TILE / 2, gy * TILE + TILE / 2);
  for (int32_t b = 0; b < l->base_n; b++)
    put(&t, "      { id = %d, name = \"pad %d\", class = \"tower_base\", shape = \"rectangle\","
            " x = %d, y = %d, width = %d, height = %d, rotation = 0 },\n", 3 + b, b + 1,
        l->bases[b] % l->w * TILE, l->bases[b] / l->w * TILE, TILE, TILE);
  put(&t, "    } } } }\n");
  if (t.failed) {
    free(t.p);
    return NULL;
  }
  *len = t.n;
  return t.p;
}

/* ---- one game ------------------------------------------------------------ */

typedef struct bench_game {
  td_game *g;
  const layout *l;
  uint64_t rng;
  int32_t want;      /* population to keep */
  int32_t brute, runner;
} bench_game;

static const char *mod_dir(void) {
  static const char rel[] = "tests/data/mods/bench";
  if (access(rel, R_OK) == 0) return rel;
#ifdef TD_SOURCE_DIR
  return TD_SOURCE_DIR "/tests/data/mods/bench";
#else
  return rel;
#endif
}

static int32_t enemy_type(const td_rules *r, const char *name) {
  for (size_t i = 0; i < r->enemy_count; i++)
    if (!strcmp(r->enemies[i].name, name)) return (int32_t)i;
  return -1;
}

/* Tops the population up to want: each newcomer somewhere on the corridor,
** in a lane, of a type the generator picks. */
static int top_up(bench_game *b, td_err *err) {
  td_world *w = td_game_world(b->g);
  const td_map *m = td_game_map(b->g);
  size_t have = td_world_enemy_count(w);
  for (size_t n = have; n < (size_t)b->want; n++) {
    /* the first population evenly along the corridor, newcomers anywhere */
    uint32_t at = have == 0 ? (uint32_t)((int64_t)n * b->l->path_n / b->want)
                            : rng_next(&b->rng) % (uint32_t)b->l->path_n;
    int32_t cell = b->l->path[at];
    td_spawn_desc d = {
      .type = rng_next(&b->rng) % RUNNER_EVERY == 0 ? b->runner : b->brute,
      .spawn = -1,
      .node = td_grid_node_at(m->grid, cell % b->l->w, cell / b->l->w),
      .lane = ((float)(rng_next(&b->rng) % 41) - 20.0f) / 100.0f, /* -0.2 .. 0.2 tiles */
    };
    if (td_world_spawn_enemy(w, &d, err) == 0) return -1;
  }
  return 0;
}

static void game_free(bench_game *b) { td_game_destroy(b->g); }

/* A game on l with a tower on every base (towers true) or none, stepped
** once, populated. */
static int game_make(const sim_case *c, const layout *l, const char *src, size_t len,
                     uint64_t seed, bool towers, bench_game *b, td_err *err) {
  memset(b, 0, sizeof *b);
  b->l = l;
  b->rng = seed;
  b->want = c->enemies;
  td_game_options o = {.map_path = "bench-sim.lua", .map_source = src, .map_source_len = len,
                       .mod_dir = mod_dir(), .seed = seed};
  b->g = td_game_create(&o, err);
  if (!b->g) return -1;
  const td_rules *r = td_game_rules(b->g);
  b->brute = enemy_type(r, "brute");
  b->runner = enemy_type(r, "runner");
  if (b->brute < 0 || b->runner < 0 || r->tower_count == 0)
    return td_err_set(err, "%s: needs enemies 'brute', 'runner' and towers", mod_dir());
  if (towers)
    for (int32_t i = 0; i < l->base_n; i++) {
      td_command cmd = {.tick = 0, .kind = TD_COMMAND_PLACE, .base = i,
                        .tower_type = (int32_t)((size_t)i % r->tower_count)};
      if (td_game_command(b->g, &cmd, err) != 0) return -1;
    }
  if (td_game_step(b->g, err) != 0) return -1;
  size_t placed = td_world_tower_count(td_game_world(b->g));
  if (placed != (towers ? (size_t)l->base_n : 0))
    return td_err_set(err, "placed %zu towers of %d", placed, towers ? l->base_n : 0);
  return top_up(b, err);
}

static int game_tick(bench_game *b, td_err *err) {
  if (td_game_step(b->g, err) != 0) return -1;
  return top_up(b, err);
}

/* ---- one case ------------------------------------------------------------ */

typedef struct result {
  int32_t enemies, towers, map_w, map_h;
  double ms, p90, lua_ms, lua_share, base_ms;
  double hits, kills;  /* per tick */
  uint64_t checksum;
} result;

static uint64_t clock_ns(void) { return (uint64_t)(bench_now_ms() * 1e6); }

static int fail(const sim_case *c, const char *what) {
  td_app_say("bench sim: %s: %s", c->name, what);
  return 2;
}

static int run_case(const sim_case *c, const bench_opts *o, result *res) {
  memset(res, 0, sizeof *res);
  layout l;
  size_t len = 0;
  char *src = NULL;
  if (layout_make(c, &l) != 0 || !(src = map_text(&l, &len))) {
    layout_free(&l);
    return fail(c, "cannot build the map (out of memory?)");
  }
  res->enemies = c->enemies;
  res->towers = c->towers;
  res->map_w = l.w;
  res->map_h = l.h;
  bench_game full = {0}, base = {0}, again = {0};
  td_err err;
  double *t = malloc((size_t)c->ticks * sizeof *t), *tb = malloc((size_t)c->ticks * sizeof *tb);
  double *tl = malloc((size_t)c->ticks * sizeof *tl);
  if (!t || !tb || !tl) exit(2);
  int status = 0;
  if (game_make(c, &l, src, len, o->seed, true, &full, &err) != 0 ||
      game_make(c, &l, src, len, o->seed, false, &base, &err) != 0) {
    status = fail(c, err.msg);
    goto done_games;
  }
  for (int k = 0; k < WARMUP_TICKS; k++)
    if (game_tick(&full, &err) != 0 || game_tick(&base, &err) != 0) {
      status = fail(c, err.msg);
      goto done_games;
    }
  td_game_set_hook_clock(full.g, clock_ns);
  double sum_ms = 0, sum_lua = 0;
  int64_t hits = 0, kills = 0;
  for (int k = 0; k < c->ticks; k++) { /* interleaved, so drift hits both */
    uint64_t h0 = td_game_hook_ns(full.g);
    double s = bench_now_ms();
    int rc = td_game_step(full.g, &err);
    t[k] = bench_now_ms() - s;
    tl[k] = (double)(td_game_hook_ns(full.g) - h0) * 1e-6;
    sum_ms += t[k];
    sum_lua += tl[k];
    size_t ne;
    const td_event *ev = td_world_events(td_game_world(full.g), &ne);
    for (size_t i = 0; i < ne; i++) {
      hits += ev[i].kind == TD_EVENT_HIT;
      kills += ev[i].kind == TD_EVENT_KILLED;
    }
    if (rc != 0 || top_up(&full, &err) != 0) {
      status = fail(c, err.msg);
      goto done_games;
    }
    s = bench_now_ms();
    rc = td_game_step(base.g, &err);
    tb[k] = bench_now_ms() - s;
    if (rc != 0 || top_up(&base, &err) != 0) {
      status = fail(c, err.msg);
      goto done_games;
    }
  }
  td_game_set_hook_clock(full.g, NULL);
  qsort(t, (size_t)c->ticks, sizeof *t, bench_cmp_double);
  qsort(tb, (size_t)c->ticks, sizeof *tb, bench_cmp_double);
  qsort(tl, (size_t)c->ticks, sizeof *tl, bench_cmp_double);
  res->ms = bench_quantile(t, (size_t)c->ticks, 0.5);
  res->p90 = bench_quantile(t, (size_t)c->ticks, 0.9);
  res->lua_ms = bench_quantile(tl, (size_t)c->ticks, 0.5);
  res->lua_share = sum_ms > 0 ? sum_lua / sum_ms : 0;
  res->base_ms = bench_quantile(tb, (size_t)c->ticks, 0.5);
  res->hits = (double)hits / c->ticks;
  res->kills = (double)kills / c->ticks;
  res->checksum = td_world_checksum(td_game_world(full.g));

  td_mod *mod = td_game_mod(full.g);
  if (td_mod_error_count(mod) > 0) {
    const td_mod_error *e = td_mod_error_at(mod, 0);
    td_app_say("bench sim: %s: handler %s failed: %s: %s", c->name, e->handler,
               e->where, e->message);
    status = 1;
  }
  if (hits == 0 || kills == 0) {
    td_app_say("bench sim: %s: the towers did not fight (%lld hits, %lld kills)",
               c->name, (long long)hits, (long long)kills);
    status = 1;
  }

  /* determinism: the same case again, untimed and without the hook clock */
  if (game_make(c, &l, src, len, o->seed, true, &again, &err) != 0) {
    status = fail(c, err.msg);
  } else {
    for (int k = 0; k < WARMUP_TICKS + c->ticks && status < 2; k++)
      if (game_tick(&again, &err) != 0) status = fail(c, err.msg);
    if (status < 2 && td_world_checksum(td_game_world(again.g)) != res->checksum) {
      td_app_say("bench sim: %s: two runs of the same case differ", c->name);
      status = 1;
    }
  }
  game_free(&again);

done_games:
  game_free(&full);
  game_free(&base);
  free(t);
  free(tb);
  free(tl);
  free(src);
  layout_free(&l);
  return status;
}

static void report(const sim_case *c, const bench_opts *o, const result *r) {
  double ns = r->ms * 1e6 / r->enemies, over = r->ms / (r->base_ms > 0 ? r->base_ms : 1e-9);
  if (o->json) {
    bench_emit("sim", c->name, "enemies", r->enemies);
    bench_emit("sim", c->name, "towers", r->towers);
    bench_emit("sim", c->name, "ticks", c->ticks);
    bench_emit("sim", c->name, "ms_per_tick", r->ms);
    bench_emit("sim", c->name, "p90_ms", r->p90);
    bench_emit("sim", c->name, "ns_per_enemy", ns);
    bench_emit("sim", c->name, "lua_ms", r->lua_ms);
    bench_emit("sim", c->name, "lua_share", r->lua_share);
    bench_emit("sim", c->name, "hits_per_tick", r->hits);
    bench_emit("sim", c->name, "kills_per_tick", r->kills);
    bench_emit("sim", c->name, "base_ms", r->base_ms);
    bench_emit("sim", c->name, "over_base", over);
    if (c->target_ms > 0) {
      bench_emit("sim", c->name, "target_ms", c->target_ms);
      bench_emit("sim", c->name, "target_met", r->ms <= c->target_ms);
    }
    return;
  }
  char target[24] = "-";
  if (c->target_ms > 0)
    snprintf(target, sizeof target, "<=%g %s", c->target_ms,
             r->ms <= c->target_ms ? "MET" : "MISSED");
  char map[24];
  snprintf(map, sizeof map, "%dx%d", r->map_w, r->map_h);
  printf("%-8s %7d %6d %7s %8.3f %8.3f %8.1f %7.3f %5.1f%% %7.1f %6.2f %8.3f %6.2fx %016llx  %s\n",
         c->name, r->enemies, r->towers, map, r->ms, r->p90, ns, r->lua_ms, 100.0 * r->lua_share,
         r->hits, r->kills, r->base_ms, over, (unsigned long long)r->checksum, target);
  fflush(stdout);
}

int td_bench_sim(const bench_opts *o) {
  int status = 0, ran = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    if (o->quick && !cases[i].quick) continue;
    if (o->only && strcmp(o->only, cases[i].name) != 0) continue;
    if (!o->json && ran == 0) {
      printf("td bench sim  (seed %llu, 60 ticks/s, mod %s, medians over the timed ticks after "
             "%d warm-up ticks)\n",
             (unsigned long long)o->seed, mod_dir(), WARMUP_TICKS);
      printf("%-8s %7s %6s %7s %8s %8s %8s %7s %6s %7s %6s %8s %7s %16s  %s\n", "case",
             "enemies", "towers", "map", "ms/tick", "p90 ms", "ns/enemy", "lua ms", "lua",
             "hits/t", "kill/t", "base ms", "x base", "checksum", "target");
    }
    result r;
    int s = run_case(&cases[i], o, &r);
    if (s < 2) report(&cases[i], o, &r);
    if (s > status) status = s;
    ran++;
  }
  if (!o->json && ran > 0)
    printf("lua = time in the mod's hooks / step time (all timed ticks); base = the same game "
           "with no tower (crowd, effects, upkeep); x base = full tick / base\n");
  /* the soldiers (issue 19): a world built in code, a table of its own */
  if (!o->only || strcmp(o->only, BENCH_SOLDIERS_CASE) == 0) {
    if (!o->json && ran > 0) printf("\n");
    int s = bench_sim_soldiers(o);
    if (s > status) status = s;
    ran++;
  }
  if (ran == 0) {
    td_app_say("bench sim: no case named '%s'", o->only ? o->only : "");
    return 2;
  }
  return status;
}
