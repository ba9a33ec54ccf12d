/*
** bench_soldiers.c: `td bench sim`'s soldier case (issue 19): 200
** soldiers among 2,000 enemies, half of the soldiers fighting, against the
** same world without them.
**
** The world is built in code (map and rules: no mod, no Lua), on a grid:
** a serpentine corridor five cells high (bench_sim.c's are two), joined at
** alternate ends, long enough for one enemy per tile of it, and below the
** last corridor a yard that no route reaches. Fifty barracks of four: 25
** in one-cell niches under the corridors (their posts in the corridor:
** they fight), 25 on pads in the wall above the yard (their posts in it:
** they stand; the enemies are out of their sight, behind two walls). The
** enemies are kept at 2,000 as in bench_sim.c (the kills replaced at
** places the bench's own generator picks, outside the timed step).
**
** The baseline, interleaved tick by tick, is the same world without
** soldiers: the same map, enemies and towers, its barracks' level keeping
** none (towers alone already cost the crowd: their footprints are walls).
** The ratio full / baseline is what the issue bounds (within 2x). Most of
** it is the crowd's, not the soldiers': the held enemies stand and the
** others pass them or queue, and a corridor a held group closes makes a
** jam whose overlaps the crowd's projection resolves each tick. Hence the
** wide corridor (five cells: four held enemies leave room to pass) and the
** niches away from the corners; on bench_sim.c's two-cell corridor the
** jams grow all along a run.
**
** The case is run again untimed and must end with the same checksum, or
** the bench exits 1; so does a run where no soldier fought.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/bench.h"
#include "app/cmds.h"
#include "sim/world.h"

#define CASE BENCH_SOLDIERS_CASE
#define TILE 32
#define WIDTH 128          /* cells */
#define HIGH 5             /* a corridor's rows */
#define PITCH (HIGH + 2)   /* rows from one corridor to the next */
#define ENEMIES 2000
#define FIGHTERS 25        /* barracks in corridor niches */
#define IDLERS 25          /* barracks by the yard */
#define PER_BARRACKS 4
#define WARMUP_TICKS 240   /* the soldiers walk out and engage */
#define TICKS 240

typedef struct layout {
  int32_t w, h, corridors;
  uint8_t *floor;          /* 1: walkable */
  int32_t *path;           /* corridor cells in travel order */
  int32_t path_n;
  int32_t goal;            /* cell */
} layout;

static uint32_t rng_next(uint64_t *s) { /* splitmix64, top 32 bits */
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return (uint32_t)((z ^ (z >> 31)) >> 32);
}

/* Corridor k: rows PITCH k + 1 .. + HIGH, joined to the next at its far
** end; below the last one two rows of wall (the pads in the second), then
** the yard's two rows. */
static int layout_make(layout *l) {
  memset(l, 0, sizeof *l);
  int32_t run = WIDTH - 2;
  l->corridors = (ENEMIES + run - 1) / run;
  l->w = WIDTH;
  l->h = PITCH * l->corridors + 4;
  l->floor = calloc((size_t)l->w * (size_t)l->h, 1);
  l->path = malloc((size_t)l->corridors * (size_t)run * HIGH * sizeof *l->path);
  if (!l->floor || !l->path) return -1;
  for (int32_t k = 0; k < l->corridors; k++) {
    int32_t y = PITCH * k + 1;
    bool east = k % 2 == 0;
    for (int32_t i = 0; i < run; i++) {
      int32_t x = east ? 1 + i : l->w - 2 - i;
      for (int32_t r = 0; r < HIGH; r++) {
        l->floor[(y + r) * l->w + x] = 1;
        l->path[l->path_n++] = (y + r) * l->w + x;
      }
    }
    if (k + 1 < l->corridors) {
      int32_t x = east ? l->w - 1 - HIGH : 1;
      for (int32_t r = HIGH; r < PITCH; r++)
        for (int32_t c = 0; c < HIGH; c++) l->floor[(y + r) * l->w + x + c] = 1;
    }
    l->goal = (y + HIGH - 1) * l->w + (east ? l->w - 2 : 1);
  }
  for (int32_t x = 1; x < l->w - 1; x++) /* the yard */
    l->floor[(l->h - 3) * l->w + x] = l->floor[(l->h - 2) * l->w + x] = 1;
  return 0;
}

/* The map: the grid, its graph, spawn and goal, the bases (niches with
** their block batch, pads without). */
static int map_make(const layout *l, td_map *m, td_err *err) {
  memset(m, 0, sizeof *m);
  snprintf(m->source, sizeof m->source, "bench-" CASE);
  m->width = l->w;
  m->height = l->h;
  m->tile_w = m->tile_h = TILE;
  m->grid = td_grid_create(l->w, l->h, TILE, err);
  if (!m->grid) return -1;
  int32_t niches[FIGHTERS] = {0};
  int32_t per = (FIGHTERS + l->corridors - 2) / (l->corridors - 1);
  int32_t n = 0;
  for (int32_t k = 0; k + 1 < l->corridors && n < FIGHTERS; k++)
    for (int32_t j = 0; j < per && n < FIGHTERS; j++) {
      int32_t x = (int32_t)((int64_t)(j + 1) * l->w / (per + 1)); /* away from the ends */
      niches[n++] = (PITCH * k + HIGH + 1) * l->w + x;
    }
  if (n < FIGHTERS) return td_err_set(err, "no room for %d niches", FIGHTERS);
  for (int32_t c = 0; c < l->w * l->h; c++)
    td_grid_set_walkable(m->grid, c % l->w, c / l->w, l->floor[c] != 0);
  for (int32_t i = 0; i < n; i++)
    td_grid_set_walkable(m->grid, niches[i] % l->w, niches[i] / l->w, true);
  m->graph = td_grid_build_graph(m->grid, err);
  if (!m->graph) return -1;
  m->spawns = td_mem_calloc(1, sizeof *m->spawns);
  m->goals = td_mem_calloc(1, sizeof *m->goals);
  m->bases = td_mem_calloc(FIGHTERS + IDLERS, sizeof *m->bases);
  if (!m->spawns || !m->goals || !m->bases) return td_err_set(err, "out of memory");
  m->spawn_count = m->goal_count = 1;
  m->spawns[0].node = td_grid_node_at(m->grid, 1, 1);
  m->goals[0].node = td_grid_node_at(m->grid, l->goal % l->w, l->goal / l->w);
  m->base_count = FIGHTERS + IDLERS;
  for (int32_t i = 0; i < FIGHTERS + IDLERS; i++) {
    td_tower_base *b = &m->bases[i];
    int32_t cell = i < FIGHTERS ? niches[i]
                                : (l->h - 4) * l->w + 4 + (i - FIGHTERS) * ((l->w - 8) / IDLERS);
    int32_t cx = cell % l->w, cy = cell / l->w;
    *b = (td_tower_base){.object_id = 10 + i, .x = (double)cx * TILE, .y = (double)cy * TILE,
                         .w = TILE, .h = TILE};
    if (i >= FIGHTERS) continue; /* a pad in the wall */
    size_t need = td_grid_changes(m->grid, m->graph, &cell, 1, true, NULL, 0);
    b->block = td_mem_alloc(need * sizeof *b->block);
    if (!b->block) return td_err_set(err, "out of memory");
    b->block_count = td_grid_changes(m->grid, m->graph, &cell, 1, true, b->block, need);
  }
  return 0;
}

/* The rules in code: one enemy, one soldier, a barracks keeping `keep`
** of them (from td_mem, for td_rules_free). */
static int rules_make(td_rules *r, int32_t keep, td_err *err) {
  memset(r, 0, sizeof *r);
  r->api_version = TD_RULES_API_VERSION;
  snprintf(r->damage_types[0], TD_RULES_NAME_MAX, "physical");
  r->damage_type_count = 1;
  r->enemies = td_mem_calloc(1, sizeof *r->enemies);
  r->soldier_types = td_mem_calloc(1, sizeof *r->soldier_types);
  r->towers = td_mem_calloc(1, sizeof *r->towers);
  r->levels = td_mem_calloc(1, sizeof *r->levels);
  r->groups = td_mem_calloc(1, sizeof *r->groups);
  if (!r->enemies || !r->soldier_types || !r->towers || !r->levels || !r->groups)
    return td_err_set(err, "out of memory");
  r->enemy_count = r->soldier_type_count = r->tower_count = r->level_count = r->group_count = 1;
  r->enemies[0] = (td_enemy_type){.name = "grunt", .health = 120, .speed = 1, .radius = 0.3f,
                                  .split_into = -1, .melee_damage = 4, .melee_rate = 1};
  r->soldier_types[0] = (td_soldier_type){.name = "guard", .health = 400, .armour = 2,
                                          .damage = 12, .rate = 1, .speed = 2, .radius = 0.3f,
                                          .respawn = 5, .sight = 4, .regen = 10};
  r->towers[0] = (td_tower_type){.name = "barracks", .root = 0};
  r->levels[0] = (td_tower_level){.name = "barracks", .tower = 0, .parent = -1, .range = 3,
                                  .shot = TD_SHOT_INSTANT, .hits_ground = true,
                                  .soldier = 0, .soldiers = keep,
                                  .children = {-1, -1, -1, -1}};
  r->groups[0] = (td_spawn_group){.enemy = 0, .begin = 1, .every = 1, .count = 1,
                                  .max_count = 1, .spawn = 0, .per_row = 1};
  r->wave_count = 1;
  r->first_wave_delay = 1e5f; /* the bench spawns */
  r->wave_interval = 1;
  r->start_gold = 1 << 30;
  r->start_lives = 1 << 30;
  return td_rules_validate(r, err);
}

typedef struct game {
  td_world *w;
  const layout *l;
  const td_map *m;
  uint64_t rng;
} game;

static int top_up(game *g, td_err *err) {
  size_t have = td_world_enemy_count(g->w);
  for (size_t n = have; n < ENEMIES; n++) {
    uint32_t at = have == 0 ? (uint32_t)((int64_t)n * g->l->path_n / ENEMIES)
                            : rng_next(&g->rng) % (uint32_t)g->l->path_n;
    int32_t cell = g->l->path[at];
    td_spawn_desc d = {.type = 0, .spawn = -1,
                       .node = td_grid_node_at(g->m->grid, cell % g->l->w, cell / g->l->w),
                       .lane = ((float)(rng_next(&g->rng) % 41) - 20.0f) / 100.0f};
    if (td_world_spawn_enemy(g->w, &d, err) == 0) return -1;
  }
  return 0;
}

static int game_step(game *g, td_err *err) {
  if (td_world_step(g->w, err) != 0) return -1;
  return top_up(g, err);
}

/* A world with its barracks built, stepped once, populated. */
static int game_make(game *g, const layout *l, const td_map *m, const td_rules *r, uint64_t seed,
                     td_err *err) {
  memset(g, 0, sizeof *g);
  g->l = l;
  g->m = m;
  g->rng = seed;
  g->w = td_world_create(m, r, seed, err);
  if (!g->w) return -1;
  for (int32_t b = 0; b < FIGHTERS + IDLERS; b++) {
    td_command c = {.kind = TD_COMMAND_PLACE, .base = b};
    if (td_world_command(g->w, &c, err) != 0) return -1;
  }
  if (td_world_step(g->w, err) != 0) return -1;
  if (td_world_tower_count(g->w) != (size_t)(FIGHTERS + IDLERS))
    return td_err_set(err, "placed %zu barracks", td_world_tower_count(g->w));
  return top_up(g, err);
}

static int fighting(const td_world *w) {
  int n = 0;
  for (size_t i = 0; i < td_world_soldier_capacity(w); i++) {
    td_soldier_view v;
    if (td_world_soldier(w, i, &v) &&
        (v.state == TD_SOLDIER_ENGAGE || v.state == TD_SOLDIER_ATTACK))
      n++;
  }
  return n;
}

int bench_sim_soldiers(const bench_opts *o) {
  layout l = {0};
  td_map m;
  td_rules r, rb;
  td_err err = {{0}};
  game full = {0}, base = {0}, again = {0};
  memset(&m, 0, sizeof m);
  memset(&r, 0, sizeof r);
  memset(&rb, 0, sizeof rb);
  double *t = malloc(TICKS * sizeof *t), *tb = malloc(TICKS * sizeof *tb);
  int status = 0;
  if (!t || !tb || layout_make(&l) != 0 || map_make(&l, &m, &err) != 0 ||
      rules_make(&r, PER_BARRACKS, &err) != 0 || rules_make(&rb, 0, &err) != 0 ||
      game_make(&full, &l, &m, &r, o->seed, &err) != 0 ||
      game_make(&base, &l, &m, &rb, o->seed, &err) != 0) {
    td_app_say("bench sim: %s: %s", CASE, err.msg[0] ? err.msg : "out of memory");
    status = 2;
    goto done;
  }
  for (int k = 0; k < WARMUP_TICKS; k++)
    if (game_step(&full, &err) != 0 || game_step(&base, &err) != 0) {
      td_app_say("bench sim: %s: %s", CASE, err.msg);
      status = 2;
      goto done;
    }
  double fights = 0;
  for (int k = 0; k < TICKS; k++) { /* interleaved, so drift hits both */
    double s = bench_now_ms();
    int rc = td_world_step(full.w, &err);
    t[k] = bench_now_ms() - s;
    if (rc == 0) rc = top_up(&full, &err);
    s = bench_now_ms();
    if (rc == 0) rc = td_world_step(base.w, &err);
    tb[k] = bench_now_ms() - s;
    if (rc == 0) rc = top_up(&base, &err);
    if (rc != 0) {
      td_app_say("bench sim: %s: %s", CASE, err.msg);
      status = 2;
      goto done;
    }
    fights += fighting(full.w);
  }
  uint64_t sum = td_world_checksum(full.w);
  size_t soldiers = td_world_soldier_count(full.w);
  if (fights == 0) {
    td_app_say("bench sim: %s: no soldier fought", CASE);
    status = 1;
  }
  if (game_make(&again, &l, &m, &r, o->seed, &err) != 0) {
    td_app_say("bench sim: %s: %s", CASE, err.msg);
    status = 2;
    goto done;
  }
  for (int k = 0; k < WARMUP_TICKS + TICKS; k++)
    if (game_step(&again, &err) != 0) {
      td_app_say("bench sim: %s: %s", CASE, err.msg);
      status = 2;
      goto done;
    }
  if (td_world_checksum(again.w) != sum) {
    td_app_say("bench sim: %s: two runs of the same case differ", CASE);
    status = 1;
  }
  qsort(t, TICKS, sizeof *t, bench_cmp_double);
  qsort(tb, TICKS, sizeof *tb, bench_cmp_double);
  double ms = bench_quantile(t, TICKS, 0.5), p90 = bench_quantile(t, TICKS, 0.9);
  double base_ms = bench_quantile(tb, TICKS, 0.5), over = ms / (base_ms > 0 ? base_ms : 1e-9);
  double fight = fights / TICKS;
  if (o->json) {
    bench_emit("sim", CASE, "enemies", ENEMIES);
    bench_emit("sim", CASE, "soldiers", (double)soldiers);
    bench_emit("sim", CASE, "fighting", fight);
    bench_emit("sim", CASE, "ticks", TICKS);
    bench_emit("sim", CASE, "ms_per_tick", ms);
    bench_emit("sim", CASE, "p90_ms", p90);
    bench_emit("sim", CASE, "base_ms", base_ms);
    bench_emit("sim", CASE, "over_base", over);
  } else {
    printf("%-12s %7s %8s %8s %8s %8s %8s %7s %16s\n", "case", "enemies", "soldiers", "fighting",
           "ms/tick", "p90 ms", "base ms", "x base", "checksum");
    printf("%-12s %7d %8zu %8.1f %8.3f %8.3f %8.3f %6.2fx %016llx\n", CASE, ENEMIES, soldiers,
           fight, ms, p90, base_ms, over, (unsigned long long)sum);
    printf("fighting = soldiers in ENGAGE or ATTACK (mean); base = the same world, its "
           "barracks keeping no soldier; x base should stay under 2x\n");
    fflush(stdout);
  }
done:
  if (full.w) td_world_destroy(full.w);
  if (base.w) td_world_destroy(base.w);
  if (again.w) td_world_destroy(again.w);
  td_rules_free(&r);
  td_rules_free(&rb);
  td_map_free(&m);
  free(l.floor);
  free(l.path);
  free(t);
  free(tb);
  return status;
}
