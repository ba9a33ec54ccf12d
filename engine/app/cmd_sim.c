/*
** cmd_sim.c: `td sim`, a headless crowd run for designers and tests.
**
** Loads a map, routes it, spawns the waves of --spawn SPEC at their ticks,
** applies --block-edge and --tower at theirs, and steps the crowd at 60
** ticks per second until every agent has arrived (or waits, cut off, with
** nothing left to change its fate), or --ticks. Then it reports the
** behaviour metrics and a checksum (sim_out.c), optionally with a per-tick
** trace and a picture of the trails.
**
** Within one tick the order is: events apply (in option order), then
** waves spawn (in option order), then the crowd steps: a wave spawns into
** the map as the events of its tick left it. A tower is placed
** through the route's transaction with every spawn and every node a walking
** agent is on as must-reach nodes; a refused tower is reported and the run
** goes on.
*/
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/cmds.h"
#include "app/sim.h"
#include "script/mapfile.h"

static const char usage[] =
  "usage: td sim --map FILE --spawn SPEC [--spawn SPEC]... [--ticks N]\n"
  "              [--block-edge I,J@TICK]... [--tower ID@TICK]... [--seed N]\n"
  "              [--json] [--trace FILE.csv] [--png FILE.png]\n"
  "\n"
  "Runs waves of agents along the map's route, headless, at 60 ticks per second,\n"
  "until every agent has arrived (or is cut off with nothing pending) or N ticks,\n"
  "and prints the behaviour metrics and a checksum of the final state.\n"
  "\n"
  "SPEC is key=value[,key=value]... (lengths in map units, or tiles with a t\n"
  "suffix, e.g. width=1.5t; times in seconds):\n"
  "  count=N      agents in the wave (required)\n"
  "  per_row=N    agents side by side (min(count, 3))\n"
  "  width=L      lateral distance between the outer lanes (3 x radius x (per_row-1))\n"
  "  spacing=L    distance between rows (4 x radius)\n"
  "  speed=L      top speed per second (2 tiles/s)\n"
  "  radius=L     agent radius (tile width / 5)\n"
  "  accel=L      acceleration per second^2 (4 x speed)\n"
  "  turn=R       turn rate, radians per second (4 pi)\n"
  "  spawn=I      index of the map's spawn (0)\n"
  "  tick=T       tick the wave spawns at (0)\n"
  "  fly=0|1      flyers ignore the graph and steer around towers (0)\n"
  "  group=G      wave id for the metrics (the SPEC's position, from 0)\n"
  "\n"
  "options:\n"
  "  --map FILE             a Tiled map: .tmx, .tmj or a Lua export (docs/maps.md)\n"
  "  --spawn SPEC           a wave (repeatable)\n"
  "  --ticks N              stop after N ticks (36000: ten minutes)\n"
  "  --block-edge I,J@TICK  block the edge joining nodes I and J at that tick\n"
  "  --tower ID@TICK        place a tower on the tower_base with object id ID;\n"
  "                         a refused tower is reported and the run goes on\n"
  "  --seed N               N > 0: jitter every agent's speed by up to 5% (0)\n"
  "  --json                 one JSON object instead of the text report\n"
  "  --trace FILE.csv       tick,agent,group,x,y,vx,vy,state for every agent and tick\n"
  "  --png FILE.png         a picture of the map, the route and every trail\n"
  "\n"
  "\n"
  "A whole game (waves, towers, Lua handlers, a player): td sim --map FILE\n"
  "--auto [--strategy S] | --idle | --replay FILE | --load SAVE (td sim --auto --help).\n"
  "\n"
  "exit status: 0 the run completed, 2 bad usage or bad input\n";

typedef struct sim_opts {
  const char *map, *trace, *png;
  bool json;
  uint64_t ticks, seed;
  const char **specs;
  size_t spec_count;
  const char **events;        /* --block-edge and --tower values, in option order */
  sim_event_kind *kinds;
  size_t event_count;
} sim_opts;

/* ---- the run ------------------------------------------------------------- */

void sim_run_free(sim_run *r) {
  for (size_t i = 0; i < r->agent_count; i++) free(r->agents[i].trail);
  free(r->agents);
  free(r->slot_agent);
  free(r->tower);
  free(r->must);
  free(r->obstacles);
  free(r->waves);
  free(r->events);
  td_crowd_destroy(r->crowd);
  td_walk_destroy(r->walk);
  td_route_destroy(r->route);
  td_map_free(&r->map);
  if (r->trace) td_file_abort(&r->trace_file); /* a run that failed: no trace */
  memset(r, 0, sizeof *r);
}

/* Grows *p (elements of size elem, *cap of them) to hold need; the new
** elements are zero (sim_run_free relies on it). */
static int grow(void **p, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) return 0;
  size_t ncap = *cap ? *cap : 16;
  while (ncap < need) {
    if (ncap > SIZE_MAX / 2 / elem) return -1;
    ncap *= 2;
  }
  void *q = realloc(*p, ncap * elem);
  if (!q) return -1;
  memset((char *)q + *cap * elem, 0, (ncap - *cap) * elem);
  *p = q;
  *cap = ncap;
  return 0;
}

static int add_trail_point(sim_run *r, sim_agent *a, float x, float y, bool force) {
  if (r->trail_step <= 0.0f) return 0;
  if (a->trail_n > 0 && !force) {
    float dx = x - a->trail[2 * a->trail_n - 2], dy = y - a->trail[2 * a->trail_n - 1];
    if (dx * dx + dy * dy < r->trail_step * r->trail_step) return 0;
  }
  if (grow((void **)&a->trail, &a->trail_cap, 2 * a->trail_n + 2, sizeof *a->trail) != 0)
    return -1;
  a->trail[2 * a->trail_n] = x;
  a->trail[2 * a->trail_n + 1] = y;
  a->trail_n++;
  return 0;
}

/* splitmix64: the --seed jitter, drawn in spawn order. */
static double next_unit(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  return (double)(z >> 11) * (1.0 / 9007199254740992.0);
}

static int spawn_wave(sim_run *r, size_t wi) {
  const sim_wave *w = &r->waves[wi];
  int32_t node = r->map.spawns[w->spawn].node;
  size_t first = r->agent_count, n = (size_t)w->form.count;
  td_agent *h = malloc(n * sizeof *h);
  if (!h || grow((void **)&r->agents, &r->agent_cap, first + n, sizeof *r->agents) != 0) {
    free(h);
    return td_app_fail("sim: out of memory");
  }
  td_err err;
  int32_t got;
  if (r->seed == 0) {
    got = td_crowd_spawn(r->crowd, &w->desc, node, &w->form, h, &err);
  } else { /* one agent at a time, each with its own speed, in the layout
            ** td_crowd_spawn gives */
    const td_formation *f = &w->form;
    got = 0;
    for (int32_t k = 0; k < f->count; k++) {
      td_agent_desc d = w->desc;
      td_formation_place(f, k, &d.lane, &d.slot);
      d.max_speed *= (float)(1.0 + 0.05 * (2.0 * next_unit(&r->rng) - 1.0));
      h[k] = td_crowd_add(r->crowd, &d, node, &err);
      if (h[k] == TD_AGENT_NONE) break;
      got++;
    }
  }
  if (got != w->form.count) {
    free(h);
    return td_app_fail("--spawn %s: %s", w->text, err.msg);
  }
  /* the slot each new agent took */
  size_t cap = td_crowd_capacity(r->crowd);
  if (grow((void **)&r->slot_agent, &r->slot_cap, cap, sizeof *r->slot_agent) != 0) {
    free(h);
    return td_app_fail("sim: out of memory");
  }
  int status = 0;
  for (size_t k = 0; k < n && status == 0; k++) {
    size_t slot = (size_t)td_crowd_slot(r->crowd, h[k]);
    td_agent_view v;
    td_crowd_view(r->crowd, slot, &v);
    sim_agent *a = &r->agents[first + k];
    *a = (sim_agent){.wave = (int32_t)wi, .group = v.group, .lane = v.lane,
                     .radius = v.radius, .fly = w->desc.flying, .spawn_tick = v.spawn_tick,
                     .x = v.x, .y = v.y};
    /* the crowd's lanes are + to the left of travel with y up; maps have
    ** y down, so on the picture + is to the right: t runs from the lane
    ** that looks leftmost (-width/2) to the rightmost */
    float wd = w->form.width;
    a->lane_t = w->form.per_row > 1 && wd > 0.0f ? (v.lane + wd / 2) / wd : 0.5f;
    r->slot_agent[slot] = (int32_t)(first + k);
    if (add_trail_point(r, a, v.x, v.y, true) != 0) status = td_app_fail("sim: out of memory");
  }
  r->agent_count += n;
  free(h);
  return status;
}

/* The footprints of the bases that have a tower (blocking_only: of those
** that close something), into r->obstacles; how many. */
static size_t tower_rects(sim_run *r, bool blocking_only) {
  size_t n = 0;
  for (size_t i = 0; i < r->map.base_count; i++) {
    const td_tower_base *b = &r->map.bases[i];
    if (!r->tower[i] || (blocking_only && b->block_count == 0)) continue;
    float *o = &r->obstacles[4 * n++];
    o[0] = (float)b->x, o[1] = (float)b->y, o[2] = (float)b->w, o[3] = (float)b->h;
  }
  return n;
}

/* Flyers avoid the footprints of the bases that have a tower; walkers those
** of the towers that close the way (as the world does: sim/tower.c). */
static int update_obstacles(sim_run *r) {
  td_err err;
  if (r->walk && td_walk_set_blocks(r->walk, r->obstacles, tower_rects(r, true), &err) != 0)
    return td_app_fail("sim: %s", err.msg);
  if (td_crowd_set_obstacles(r->crowd, r->obstacles, tower_rects(r, false), &err) != 0)
    return td_app_fail("sim: %s", err.msg);
  return 0;
}

static int place_tower(sim_run *r, sim_event *e) {
  const td_tower_base *base = &r->map.bases[e->base];
  size_t m = 0, cap = r->map.spawn_count + 2 * td_crowd_capacity(r->crowd);
  if (grow((void **)&r->must, &r->must_cap, cap, sizeof *r->must) != 0)
    return td_app_fail("sim: out of memory");
  td_map_spawn_nodes(&r->map, r->must);
  m = r->map.spawn_count;
  for (size_t s = 0; s < td_crowd_capacity(r->crowd); s++) {
    td_agent_view v;
    if (!td_crowd_view(r->crowd, s, &v) || v.state != TD_AGENT_WALK) continue;
    r->must[m++] = v.from;
    r->must[m++] = v.to;
  }
  td_route_verdict verdict;
  td_err err;
  if (td_route_try_apply(r->route, base->block, base->block_count, r->must, m, &verdict, &err) != 0)
    return td_app_fail("--tower %s: %s", e->text, err.msg);
  e->done = true;
  if (!verdict.ok) {
    e->refused = true;
    e->cut_node = verdict.cut_node;
    if (verdict.cut_index < r->map.spawn_count) {
      e->cut_spawn = r->map.spawns[verdict.cut_index].object_id;
      td_app_say("%s: object %d (tower_base): refused at tick %llu: it would cut spawn "
                 "object %d (node %d) off from every goal",
                 r->map_path, base->object_id, (unsigned long long)e->tick, e->cut_spawn,
                 e->cut_node);
    } else {
      td_app_say("%s: object %d (tower_base): refused at tick %llu: it would cut node %d, "
                 "where an agent walks, off from every goal",
                 r->map_path, base->object_id, (unsigned long long)e->tick, e->cut_node);
    }
    return 0;
  }
  r->tower[e->base] = 1;
  int rc = update_obstacles(r); /* first: the turn-backs look at the footprints */
  if (rc != 0) return rc;
  td_crowd_route_changed(r->crowd);
  return 0;
}

static int apply_event(sim_run *r, sim_event *e) {
  if (e->kind == SIM_TOWER) return place_tower(r, e);
  td_graph_change c = {.kind = TD_CHANGE_BLOCK_EDGE, .id = e->edge};
  td_err err;
  if (td_route_apply(r->route, &c, 1, &err) != 0)
    return td_app_fail("--block-edge %s: %s", e->text, err.msg);
  e->done = true;
  td_crowd_route_changed(r->crowd);
  return 0;
}

/* After a step: what every agent is doing, the trace rows, the trails. */
static int observe(sim_run *r) {
  uint64_t tick = td_crowd_tick(r->crowd);
  for (size_t s = 0; s < td_crowd_capacity(r->crowd); s++) {
    td_agent_view v;
    if (!td_crowd_view(r->crowd, s, &v)) continue;
    sim_agent *a = &r->agents[r->slot_agent[s]];
    a->x = v.x, a->y = v.y, a->travelled = v.travelled;
    if (v.state == TD_AGENT_LEAKED && a->end != SIM_LEAKED) {
      a->end = SIM_LEAKED;
      a->leak_tick = tick;
    }
    if (r->trace &&
        fprintf(r->trace, "%llu,%d,%d,%.3f,%.3f,%.3f,%.3f,%s\n", (unsigned long long)tick,
                r->slot_agent[s], v.group, (double)v.x, (double)v.y, (double)v.vx, (double)v.vy,
                sim_state_name(v.state)) < 0)
      return td_app_fail("%s: write failed: %s", r->trace_path, strerror(errno));
    if (v.state == TD_AGENT_WAITING) continue; /* at its gate, off the map: no trail yet */
    if (add_trail_point(r, a, v.x, v.y, v.state == TD_AGENT_LEAKED) != 0)
      return td_app_fail("sim: out of memory");
  }
  return 0;
}

/* The run is over when no wave or event is pending and every agent has
** arrived or waits with no route from where it stands. Sets ended. */
/* Stranded: no route from where it is, or waiting at a spawn that has none
** (its gate stays shut: those who entered stand there, cut off). */
static bool cut_off(const sim_run *r, const td_agent_view *v) {
  return v->state == TD_AGENT_STRANDED ||
         (v->state == TD_AGENT_WAITING && td_route_next(r->route)[v->from] == TD_NONE);
}

static bool finished(sim_run *r) {
  uint64_t now = td_crowd_tick(r->crowd);
  for (size_t i = 0; i < r->wave_count; i++)
    if (r->waves[i].tick >= now) return false;
  bool events_pending = false;
  for (size_t i = 0; i < r->event_count; i++) events_pending |= r->events[i].tick >= now;
  /* the crowd decides who is stranded (td_crowd_route_changed knows whether
  ** the segment an agent stands on is open); only an event can change it */
  bool stranded = false;
  for (size_t s = 0; s < td_crowd_capacity(r->crowd); s++) {
    td_agent_view v;
    if (!td_crowd_view(r->crowd, s, &v) || v.state == TD_AGENT_LEAKED) continue;
    if (!cut_off(r, &v) || events_pending) return false;
    stranded = true;
  }
  r->ended = stranded ? "stranded" : "arrived";
  return true;
}

static int run_loop(sim_run *r) {
  r->ended = "tick_limit";
  while (td_crowd_tick(r->crowd) < r->max_ticks) {
    uint64_t now = td_crowd_tick(r->crowd);
    for (size_t i = 0; i < r->event_count; i++)
      if (r->events[i].tick == now && apply_event(r, &r->events[i]) != 0) return 2;
    for (size_t i = 0; i < r->wave_count; i++)
      if (r->waves[i].tick == now && spawn_wave(r, i) != 0) return 2;
    td_crowd_step(r->crowd);
    if (observe(r) != 0) return 2;
    if (finished(r)) break;
  }
  r->ticks = td_crowd_tick(r->crowd);
  for (size_t s = 0; s < td_crowd_capacity(r->crowd); s++) {
    td_agent_view v;
    if (td_crowd_view(r->crowd, s, &v) && cut_off(r, &v))
      r->agents[r->slot_agent[s]].end = SIM_STRANDED;
  }
  return 0;
}

static int cmp_event(const void *pa, const void *pb) {
  const sim_event *a = pa, *b = pb;
  if (a->tick != b->tick) return a->tick < b->tick ? -1 : 1;
  return (a->order > b->order) - (a->order < b->order); /* option order: stable */
}

static const char *event_option(sim_event_kind k) {
  return k == SIM_TOWER ? "--tower" : "--block-edge";
}

/* Loads and checks everything, then runs and reports. */
static int run(const sim_opts *o) {
  sim_run r = {.map_path = o->map, .max_ticks = o->ticks, .seed = o->seed, .rng = o->seed};
  td_err err;
  char msg[512];
  int status = 2;
  r.waves = calloc(o->spec_count, sizeof *r.waves);
  r.events = calloc(o->event_count + 1, sizeof *r.events);
  if (!r.waves || !r.events) {
    td_app_fail("sim: out of memory");
    goto done;
  }
  /* syntax first: a typo is reported before a slow map load */
  for (size_t i = 0; i < o->spec_count; i++)
    if (sim_wave_parse(o->specs[i], (int)i, &r.waves[i], msg, sizeof msg) != 0) {
      td_app_fail("--spawn %s: %s", o->specs[i], msg);
      goto done;
    }
  for (size_t i = 0; i < o->event_count; i++) {
    if (sim_event_parse(o->kinds[i], o->events[i], &r.events[i], msg, sizeof msg) != 0) {
      td_app_fail("%s %s: %s", event_option(o->kinds[i]), o->events[i], msg);
      goto done;
    }
    r.events[i].order = i;
  }
  r.wave_count = o->spec_count;
  r.event_count = o->event_count;
  if (td_mapfile_load(o->map, &r.map, &err) != 0) {
    td_app_fail("%s", err.msg);
    goto done;
  }
  uint64_t total = 0;
  for (size_t i = 0; i < r.wave_count; i++) {
    if (sim_wave_resolve(&r.waves[i], &r.map, msg, sizeof msg) != 0) {
      td_app_fail("--spawn %s: %s", r.waves[i].text, msg);
      goto done;
    }
    total += (uint64_t)r.waves[i].form.count;
  }
  if (total > TD_CROWD_MAX_AGENTS) {
    td_app_fail("sim: %llu agents in all; at most %u", (unsigned long long)total,
                TD_CROWD_MAX_AGENTS);
    goto done;
  }
  for (size_t i = 0; i < r.event_count; i++) {
    sim_event *e = &r.events[i];
    if (sim_event_resolve(e, r.events, i, &r.map, msg, sizeof msg) != 0) {
      td_app_fail("%s %s: %s", event_option(e->kind), e->text, msg);
      goto done;
    }
  }
  qsort(r.events, r.event_count, sizeof *r.events, cmp_event);
  size_t ng = r.map.goal_count ? r.map.goal_count : 1;
  int32_t *goals = malloc(ng * sizeof *goals);
  r.tower = calloc(r.map.base_count + 1, 1);
  r.obstacles = malloc((r.map.base_count + 1) * 4 * sizeof *r.obstacles);
  if (!goals || !r.tower || !r.obstacles) {
    free(goals);
    td_app_fail("sim: out of memory");
    goto done;
  }
  td_map_goal_nodes(&r.map, goals);
  r.route = td_route_create(r.map.graph, goals, r.map.goal_count, &err);
  free(goals);
  td_crowd_params p = td_crowd_default_params(1.0 / SIM_TICK_HZ);
  if (!r.route || !(r.crowd = td_crowd_create(r.route, &p, &err))) {
    td_app_fail("%s: %s", o->map, err.msg);
    goto done;
  }
  /* the walkable area, as in the game (sim/world.c) */
  if (td_map_walk(&r.map, r.map.graph, &r.walk, &err) != 0) {
    td_app_fail("%s: %s", o->map, err.msg);
    goto done;
  }
  td_crowd_set_walk(r.crowd, r.walk);
  td_crowd_enable_metrics(r.crowd, true);
  if (o->png) r.trail_step = (float)(r.map.tile_w > 0 ? r.map.tile_w : 8) / 8.0f;
  if (o->png) { /* fail before a long run, not after it (and leave nothing) */
    td_file_out f;
    if (td_file_begin(&f, o->png, &err) != 0) {
      td_app_fail("%s", err.msg);
      goto done;
    }
    td_file_abort(&f);
  }
  if (o->trace) { /* written as the run goes, in place at its end (game/file.h) */
    r.trace_path = o->trace;
    if (td_file_begin(&r.trace_file, o->trace, &err) != 0) {
      td_app_fail("%s", err.msg);
      goto done;
    }
    r.trace = r.trace_file.f;
    if (fputs("tick,agent,group,x,y,vx,vy,state\n", r.trace) < 0) {
      td_app_fail("%s: write failed: %s", o->trace, strerror(errno));
      goto done;
    }
  }
  if (run_loop(&r) != 0) goto done;
  if (r.trace) {
    r.trace = NULL;
    if (td_file_commit(&r.trace_file, &err) != 0) {
      td_app_fail("%s", err.msg);
      goto done;
    }
  }
  if (o->png && sim_write_png(&r, o->png, &err) != 0) {
    td_app_fail("%s", err.msg);
    goto done;
  }
  if (o->json) sim_print_json(&r);
  else sim_print_text(&r);
  status = 0;
done:
  sim_run_free(&r);
  return status;
}

/* ---- options ------------------------------------------------------------- */

static int parse_count(const char *opt, const char *val, uint64_t min, uint64_t *out) {
  return td_app_parse_option(opt, val, min, SIM_MAX_TICK, out);
}

int td_cmd_sim(int argc, char **argv) {
  for (int i = 1; i < argc; i++) /* a whole game: sim_game.c */
    if (!strcmp(argv[i], "--auto") || !strcmp(argv[i], "--idle") ||
        !strcmp(argv[i], "--replay") || !strcmp(argv[i], "--load") ||
        !strcmp(argv[i], "--strategy"))
      return td_sim_game(argc, argv);
  sim_opts o = {.ticks = (uint64_t)SIM_TICK_HZ * 600};
  char map_buf[1024]; /* --map as given, else under the data directory */
  int status = 2;
  o.specs = calloc((size_t)argc, sizeof *o.specs);
  o.events = calloc((size_t)argc, sizeof *o.events);
  o.kinds = calloc((size_t)argc, sizeof *o.kinds);
  if (!o.specs || !o.events || !o.kinds) {
    td_app_fail("sim: out of memory");
    goto out;
  }
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      fputs(usage, stdout);
      status = 0;
      goto out;
    } else if (!strcmp(a, "--json")) {
      o.json = true;
      continue;
    }
    static const char *const valued[] = {"--map",   "--spawn", "--ticks", "--block-edge",
                                         "--tower", "--trace", "--png",   "--seed"};
    size_t k = 0;
    while (k < sizeof valued / sizeof valued[0] && strcmp(a, valued[k]) != 0) k++;
    if (k == sizeof valued / sizeof valued[0]) {
      td_app_fail("sim: unknown argument '%s' (see td sim --help)", a);
      goto out;
    }
    if (i + 1 >= argc) {
      td_app_fail("sim: %s needs a value (see td sim --help)", a);
      goto out;
    }
    const char *v = argv[++i];
    if (!strcmp(a, "--map")) o.map = td_app_path(v, map_buf, sizeof map_buf);
    else if (!strcmp(a, "--spawn")) o.specs[o.spec_count++] = v;
    else if (!strcmp(a, "--block-edge") || !strcmp(a, "--tower")) {
      o.kinds[o.event_count] = a[2] == 't' ? SIM_TOWER : SIM_BLOCK_EDGE;
      o.events[o.event_count++] = v;
    }
    else if (!strcmp(a, "--trace")) o.trace = v;
    else if (!strcmp(a, "--png")) o.png = v;
    else {
      bool ticks = !strcmp(a, "--ticks"); /* or --seed */
      if (parse_count(a, v, ticks ? 1 : 0, ticks ? &o.ticks : &o.seed) != 0) goto out;
    }
  }
  if (!o.map) {
    td_app_fail("sim: --map FILE is required (see td sim --help)");
    goto out;
  }
  if (o.spec_count == 0) {
    td_app_fail("sim: at least one --spawn SPEC is required, e.g. --spawn count=20 "
                "(see td sim --help)");
    goto out;
  }
  status = run(&o);
out:
  free(o.specs);
  free(o.events);
  free(o.kinds);
  return status;
}
