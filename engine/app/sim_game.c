/*
** sim_game.c: `td sim --map M (--auto | --idle | --replay FILE | --load SAVE)`
** plays a whole game headless (engine/game): the map, the mod's rules and
** handlers, a player (the built-in strategy, nobody, or a replay's
** commands), and prints the game's course, its result and the world's
** checksum every N ticks. A replay is verified before it plays (whole,
** its records hash, the map and mod it names, the options it fixes) and
** as it plays: the first checksum that differs from the file's stops the
** run (exit 1), and the end must be the file's in full (exit 1).
*/
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/cmds.h"
#include "app/sim.h"
#include "app/sim_records.h"
#include "game/auto.h"
#include "game/game.h"
#include "game/replay.h"
#include "script/modout.h"

static const char usage[] =
  "usage: td sim --map FILE (--auto | --idle | --replay FILE | --load SAVE)\n"
  "              [--strategy S] [--mod DIR]... [--seed N] [--difficulty D] [--endless]\n"
  "              [--ticks N] [--every N] [--record FILE] [--save-at TICK --save FILE]\n"
  "              [--json] [--quiet] [--strict]\n"
  "              [--set PARAM=VALUE]... [--scale PARAM=FACTOR]... [--tag TEXT]\n"
  "\n"
  "Plays a whole game headless at 60 ticks per second: the map, the mod's\n"
  "waves, enemies, towers and Lua handlers, and a player. Prints the world's\n"
  "checksum every N ticks, each wave's start (gold, lives) and the result.\n"
  "\n"
  "players:\n"
  "  --auto          the built-in strategy (docs/cli.md#auto): builds where\n"
  "                  enemies pass, upgrades when it cannot build\n"
  "  --strategy S    the built-in player's strategy (implies --auto): default,\n"
  "                  maze (lengthens the route on open maps), economy (saves,\n"
  "                  calls waves early, upgrades late) or random (seeded by the\n"
  "                  game's seed); with --load, the saved player's wins\n"
  "  --idle          nobody: no tower is ever built (a first wave that waits for\n"
  "                  the player is called at once)\n"
  "  --replay FILE   the commands of a replay; its map, mods, seed, mode and\n"
  "                  difficulty are used (--map and --mod may be left out; the\n"
  "                  others are refused if they disagree), every checksum it\n"
  "                  holds is checked, and its end: result, tick, lives, gold\n"
  "  --load SAVE     continue a saved game (with --auto or --idle as the player\n"
  "                  from there; --idle when neither); --seed, --endless and\n"
  "                  --difficulty are refused if they disagree with the save\n"
  "\n"
  "options:\n"
  "  --mod DIR       the rules mod (scripts/base); repeat it to load several\n"
  "                  mods in order, each adding to the ones before it; a bare\n"
  "                  NAME is a mod in ~/.local/share/td/mods, else scripts/NAME\n"
  "  --seed N        the world's seed (1)\n"
  "  --difficulty D  normal (the default), easy or hard: the mod reads it\n"
  "                  (td.difficulty) and decides what it changes\n"
  "  --endless       waves go on past the last; the game ends when lives do\n"
  "  --ticks N       stop after N ticks if the game has not ended (432000: 2 h)\n"
  "  --every N       ticks between checksum lines (600)\n"
  "  --record FILE   write the game as a replay (every command, the checksums)\n"
  "  --save-at TICK  with --save FILE: save the game when TICK ticks have run\n"
  "                  (a tick the game does not reach is an error, exit 2)\n"
  "  --json          one JSON object instead of the text report\n"
  "  --quiet         only the result line (text) and the mod's errors\n"
  "  --strict        exit 1 when a handler of the mod failed (a modder's CI)\n"
  "  --set PARAM=VALUE, --scale PARAM=FACTOR\n"
  "                  change a number of the rules after the mods built them:\n"
  "                  tower.NAME.FIELD (every level), level.NAME.FIELD,\n"
  "                  enemy.NAME.FIELD, soldier.NAME.FIELD, rules.FIELD\n"
  "                  (docs/cli.md#rule-overrides); in order; a replay records them\n"
  "  --tag TEXT      echoed as \"tag\" in --json (td sweep keys its results by it)\n"
  "\n"
  "The mod's print lines and its handlers' errors (file:line, message,\n"
  "traceback) go to stderr as they happen (with --quiet or --json the errors\n"
  "only); --json carries both (script_errors, log).\n"
  "\n"
  "exit status: 0 the game was played (won, lost or out of ticks), 1 a replay\n"
  "did not match, or --strict and a handler failed, 2 bad usage or bad input (a\n"
  "replay cut short or changed, a --save-at that was not reached)\n";

typedef enum player { P_NONE, P_AUTO, P_IDLE, P_REPLAY } player;

typedef struct opts {
  const char *map, *replay, *load, *record, *save;
  const char *mods[TD_MOD_MAX_MODS]; /* --mod, in order */
  size_t nmods;
  uint64_t seed, ticks, every, save_at;
  bool seed_set, endless, json, quiet, strict, save_at_set, difficulty_set, ticks_set;
  td_difficulty difficulty;
  player who;
  int strategy;               /* --strategy: TD_AUTO_DEFAULT .. */
  td_override overrides[TD_OVERRIDE_MAX]; /* --set, --scale, in order */
  size_t noverrides;
  const char *tag;
} opts;

typedef struct wave_line {
  int32_t wave;
  uint64_t tick;
  int32_t gold, lives;
} wave_line;

enum { FIGHT_KINDS = 5 };

typedef struct stats {
  wave_line *waves;           /* since this run started (a loaded game's too) */
  size_t nwaves, wcap;
  uint64_t fights[FIGHT_KINDS]; /* the events of fights_names, since this run started */
  uint64_t path_max;          /* the most node expansions the path queue spent in a tick */
  sim_records recs;           /* curves, kills and leaks by type (sim_records.h) */
} stats;

/* The soldiers' and sappers' events counted in --json's "fights" (their Lua
** names), in the order of fights_kinds. */
static const char *const fights_names[FIGHT_KINDS] = {"engage", "soldier_death", "tower_damaged",
                                            "tower_destroyed", "repaired"};
static const td_event_kind fights_kinds[FIGHT_KINDS] = {TD_EVENT_ENGAGED, TD_EVENT_SOLDIER_DIED,
                                              TD_EVENT_TOWER_DAMAGED, TD_EVENT_TOWER_DESTROYED,
                                              TD_EVENT_REPAIRED};

static int parse_u64(const char *flag, const char *v, uint64_t lo, uint64_t *out) {
  uint64_t x;
  if (td_app_parse_u64(v, &x) != 0 || x < lo || x > SIM_MAX_TICK)
    return td_app_fail("sim: %s: expected a number %" PRIu64 " .. %" PRIu64 ", got '%s'", flag,
                       lo, SIM_MAX_TICK, v);
  *out = x;
  return 0;
}

static int parse(int argc, char **argv, opts *o) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--auto") || !strcmp(a, "--idle")) {
      player p = a[2] == 'a' ? P_AUTO : P_IDLE;
      if (o->who != P_NONE && o->who != p) return td_app_fail("sim: choose one player (see td sim --help)");
      o->who = p;
      continue;
    }
    if (!strcmp(a, "--endless")) { o->endless = true; continue; }
    if (!strcmp(a, "--json")) { o->json = true; continue; }
    if (!strcmp(a, "--quiet")) { o->quiet = true; continue; }
    if (!strcmp(a, "--strict")) { o->strict = true; continue; }
    static const char *const valued[] = {"--map",   "--mod",   "--replay", "--load",   "--record",
                                         "--save",  "--seed",  "--ticks",  "--every",  "--save-at",
                                         "--difficulty", "--strategy", "--set", "--scale", "--tag"};
    size_t k = 0, nv = sizeof valued / sizeof valued[0];
    while (k < nv && strcmp(a, valued[k]) != 0) k++;
    if (k == nv) return td_app_fail("sim: unknown argument '%s' (see td sim --help)", a);
    if (i + 1 >= argc) return td_app_fail("sim: %s needs a value (see td sim --help)", a);
    const char *v = argv[++i];
    switch (k) {
    case 0: o->map = v; break;
    case 1:
      if (o->nmods == TD_MOD_MAX_MODS) return td_app_fail("sim: more than %d --mod", TD_MOD_MAX_MODS);
      o->mods[o->nmods++] = v;
      break;
    case 2:
      if (o->who != P_NONE) return td_app_fail("sim: choose one player (see td sim --help)");
      o->replay = v, o->who = P_REPLAY;
      break;
    case 3: o->load = v; break;
    case 4: o->record = v; break;
    case 5: o->save = v; break;
    case 6:
      if (parse_u64(a, v, 0, &o->seed)) return 2;
      o->seed_set = true;
      break;
    case 7:
      if (parse_u64(a, v, 1, &o->ticks)) return 2;
      o->ticks_set = true;
      break;
    case 8:
      if (parse_u64(a, v, 1, &o->every)) return 2;
      break;
    case 9:
      if (parse_u64(a, v, 0, &o->save_at)) return 2;
      o->save_at_set = true;
      break;
    case 11: {
      int s = td_auto_strategy_find(v);
      if (s < 0) {
        char names[128] = "";
        for (int q = 0, used = 0; q < TD_AUTO_STRATEGIES && used < (int)sizeof names; q++)
          used += snprintf(names + used, sizeof names - (size_t)used, "%s%s", q ? ", " : "",
                           td_auto_strategy_name(q));
        return td_app_fail("sim: unknown strategy '%s' (%s)", v, names);
      }
      if (o->who != P_NONE && o->who != P_AUTO)
        return td_app_fail("sim: choose one player (see td sim --help)");
      o->who = P_AUTO;
      o->strategy = s;
      break;
    }
    case 12: case 13: {
      td_err e;
      if (o->noverrides == TD_OVERRIDE_MAX)
        return td_app_fail("sim: more than %d --set and --scale", TD_OVERRIDE_MAX);
      if (td_override_parse(k == 12 ? TD_OVERRIDE_SET : TD_OVERRIDE_SCALE, v,
                            &o->overrides[o->noverrides++], &e) != 0)
        return td_app_fail("sim: %s", e.msg);
      break;
    }
    case 14: o->tag = v; break;
    default:
      if (td_difficulty_parse(v, &o->difficulty) != 0)
        return td_app_fail("sim: --difficulty: expected normal, easy or hard, got '%s'", v);
      o->difficulty_set = true;
    }
  }
  if (o->who == P_NONE && !o->load) return td_app_fail("sim: choose --auto, --idle, --replay or --load (see td sim --help)");
  if (o->who == P_NONE) o->who = P_IDLE;
  if (o->who == P_REPLAY && o->load) return td_app_fail("sim: --replay and --load do not mix (see td sim --help)");
  if (!o->map && o->who != P_REPLAY) return td_app_fail("sim: --map FILE is required (see td sim --help)");
  if (o->save_at_set != (o->save != NULL))
    return td_app_fail("sim: --save-at TICK and --save FILE go together (see td sim --help)");
  return 0;
}

static void on_events(td_game *g, stats *st) {
  size_t n;
  const td_event *ev = td_world_events(td_game_world(g), &n);
  uint64_t spent = td_world_pathq_stats(td_game_world(g))->last_expansions;
  if (spent > st->path_max) st->path_max = spent;
  for (size_t i = 0; i < n; i++) {
    for (size_t k = 0; k < FIGHT_KINDS; k++) st->fights[k] += ev[i].kind == fights_kinds[k];
    if (ev[i].kind == TD_EVENT_WAVE_STARTED) {
      wave_line *p = td_mem_grow(st->waves, &st->wcap, st->nwaves + 1, sizeof *p);
      if (!p) continue; /* the report just lacks the line */
      st->waves = p;
      const td_world *w = td_game_world(g);
      p[st->nwaves++] = (wave_line){ev[i].wave, ev[i].tick, td_world_gold(w), td_world_lives(w)};
    }
  }
}

/* ---- the arrows of unit.h's state machines, for --json ------------------ */

typedef struct arrow_line {
  char name[24];               /* "walk>blocked" */
  uint64_t n;
} arrow_line;

static int arrow_cmp(const void *a, const void *b) {
  return strcmp(((const arrow_line *)a)->name, ((const arrow_line *)b)->name);
}

static void arrow_name(td_unit_kind k, int from, int to, char *buf, size_t cap) {
  snprintf(buf, cap, "%s>%s", td_unit_state_name(k, from), td_unit_state_name(k, to));
}

/* "arrows": per kind, every arrow taken (since this run started: the counts
** are not saved), "from>to": count, sorted by name; "arrow_table": per
** kind, every arrow of unit.h's table, in its order. */
static void arrows_json(const td_world *w) {
  static const char *const kinds[TD_UNIT_KIND_COUNT] = {"enemy", "soldier"};
  printf("\"arrows\":{");
  for (int k = 0; k < TD_UNIT_KIND_COUNT; k++) {
    arrow_line lines[64];
    size_t nl = 0;
    int ns = td_unit_state_count((td_unit_kind)k);
    for (int a = 0; a < ns; a++)
      for (int b = 0; b < ns; b++) {
        uint64_t n = td_world_arrows(w, (td_unit_kind)k, a, b);
        if (!n || nl == sizeof lines / sizeof *lines) continue;
        arrow_name((td_unit_kind)k, a, b, lines[nl].name, sizeof lines[nl].name);
        lines[nl++].n = n;
      }
    qsort(lines, nl, sizeof *lines, arrow_cmp);
    printf("%s\"%s\":{", k ? "," : "", kinds[k]);
    for (size_t i = 0; i < nl; i++)
      printf("%s\"%s\":%" PRIu64, i ? "," : "", lines[i].name, lines[i].n);
    putchar('}');
  }
  printf("},\"arrow_table\":{");
  for (int k = 0; k < TD_UNIT_KIND_COUNT; k++) {
    size_t n;
    const td_unit_arrow *a = td_unit_arrows((td_unit_kind)k, &n);
    printf("%s\"%s\":[", k ? "," : "", kinds[k]);
    for (size_t i = 0; i < n; i++) {
      char name[24];
      arrow_name((td_unit_kind)k, a[i].from, a[i].to, name, sizeof name);
      printf("%s\"%s\"", i ? "," : "", name);
    }
    putchar(']');
  }
  putchar('}');
}

static const char *result_name(td_game_state s) {
  return s == TD_GAME_WON ? "won" : s == TD_GAME_LOST ? "lost" : "playing";
}

static void report(const opts *o, td_game *g, const stats *st, const td_replay *rec,
                   const td_auto *au) {
  const td_world *w = td_game_world(g);
  const td_rules *r = td_game_rules(g);
  uint64_t t = td_world_tick(w);
  int32_t built = 0, upgraded = 0;
  if (au) td_auto_counts(au, &built, &upgraded);
  int64_t kills, leaks, refused; /* the whole game's, a loaded one's too */
  td_game_totals(g, &kills, &leaks, &refused);
  const char *who = o->who == P_AUTO ? "auto" : o->who == P_REPLAY ? "replay" : "idle";
  if (o->json) {
    printf("{\"map\":");
    td_modout_json_str(stdout, td_game_map_path(g));
    printf(",\"mod\":");
    td_modout_json_str(stdout, td_game_mod_dir(g));
    printf(",\"mods\":[");
    for (size_t i = 0; i < td_game_mod_count(g); i++) {
      if (i) putchar(',');
      td_modout_json_str(stdout, td_game_mod_dir_at(g, i));
    }
    putchar(']');
    printf(",\"seed\":%" PRIu64 ",\"difficulty\":\"%s\",\"player\":\"%s\",\"endless\":%s,"
           "\"result\":\"%s\","
           "\"ticks\":%" PRIu64 ",\"wave\":%d,\"waves\":%d,\"lives\":%d,\"start_lives\":%d,"
           "\"gold\":%d,\"kills\":%" PRId64 ",\"leaks\":%" PRId64 ",\"refused\":%" PRId64
           ",\"towers\":%zu,\"built\":%d,\"upgrades\":%d,\"reloads\":%u,\"strategy\":",
           td_game_seed(g), td_difficulty_name(td_game_difficulty(g)), who,
           td_world_endless(w) ? "true" : "false",
           result_name(td_world_state(w)), t, (int)td_world_wave(w), (int)r->wave_count,
           (int)td_world_lives(w), (int)r->start_lives, (int)td_world_gold(w), kills,
           leaks, refused, td_world_tower_count(w), (int)built, (int)upgraded,
           (unsigned)td_game_reloads(g));
    if (au) printf("\"%s\",", td_auto_strategy_name(td_auto_strategy(au)));
    else printf("null,");
    sim_records_json(&st->recs, g, stdout);
    printf("\"wave_starts\":[");
    for (size_t i = 0; i < st->nwaves; i++)
      printf("%s{\"wave\":%d,\"tick\":%" PRIu64 ",\"gold\":%d,\"lives\":%d}", i ? "," : "",
             (int)st->waves[i].wave, st->waves[i].tick, (int)st->waves[i].gold,
             (int)st->waves[i].lives);
    printf("],\"checksums\":[");
    for (size_t i = 0; i < rec->ncheck; i++)
      printf("%s{\"tick\":%" PRIu64 ",\"checksum\":\"%016" PRIx64 "\"}", i ? "," : "",
             rec->checks[i].tick, rec->checks[i].checksum);
    const td_crowd_metrics *m = td_crowd_get_metrics(td_world_crowd(w));
    printf("],\"off_road\":%" PRId64 ",\"off_road_depth\":%.9g", m->off_road, m->off_road_depth);
    printf(",\"fights\":{");
    for (size_t k = 0; k < FIGHT_KINDS; k++)
      printf("%s\"%s\":%" PRIu64, k ? "," : "", fights_names[k], st->fights[k]);
    const td_pathq_stats *pq = td_world_pathq_stats(w);
    printf("},\"path_queue\":{\"budget\":%d,\"max_expansions\":%" PRIu64
           ",\"expansions\":%" PRIu64 ",\"answered\":%" PRIu64 "},",
           TD_WORLD_PATH_BUDGET, st->path_max, pq->expansions, pq->delivered);
    arrows_json(w);
    putchar(',');
    td_modout_json(td_game_mod(g), stdout);
    if (o->tag) {
      printf(",\"tag\":");
      td_modout_json_str(stdout, o->tag);
    }
    size_t nov;
    const td_override *ov = td_game_overrides(g, &nov);
    printf(",\"overrides\":[");
    for (size_t i = 0; i < nov; i++) {
      char num[32];
      td_override_number(ov[i].value, num, sizeof num);
      printf("%s{\"op\":\"%s\",\"param\":\"%s\",\"value\":%s}", i ? "," : "",
             td_override_op_name(ov[i].op), ov[i].param, num);
    }
    putchar(']');
    printf(",\"checksum\":\"%016" PRIx64 "\"}\n", td_world_checksum(w));
    return;
  }
  if (!o->quiet)
    for (size_t i = 0; i < st->nwaves; i++)
      printf("wave %3d at tick %7" PRIu64 ": gold %5d, lives %3d\n", (int)st->waves[i].wave,
             st->waves[i].tick, (int)st->waves[i].gold, (int)st->waves[i].lives);
  printf("result: %s at tick %" PRIu64 " (%" PRIu64 ":%02" PRIu64 "), wave %d of %d, lives %d of %d, "
         "gold %d, kills %" PRId64 ", leaks %" PRId64 ", towers %zu",
         result_name(td_world_state(w)), t, t / 3600, t / 60 % 60, (int)td_world_wave(w),
         (int)r->wave_count, (int)td_world_lives(w), (int)r->start_lives, (int)td_world_gold(w),
         kills, leaks, td_world_tower_count(w));
  if (au) printf(" (%d built, %d upgrades)", (int)built, (int)upgraded);
  printf("\n");
  const td_crowd_metrics *m = td_crowd_get_metrics(td_world_crowd(w));
  if (!o->quiet)
    printf("off_road %" PRId64 " agent-ticks, deepest %.3f (map units)\n", m->off_road,
           m->off_road_depth);
  uint64_t errors = td_modout_errors(td_game_mod(g));
  if (errors) printf("script errors: %" PRIu64 " (on stderr)\n", errors);
  if (!o->quiet) printf("checksum %016" PRIx64 "\n", td_world_checksum(w));
}

/* The game the options name: fresh, from a save, or from a replay's header. */
static td_game *open_game(const opts *o, const td_replay *rp, td_err *err) {
  /* td_game copies the paths; each given (or a replay's) as is when it
  ** exists, else under the data directory (app_data.c) */
  char mod_buf[4096], map_buf[1024], mod_bufs[TD_MOD_MAX_MODS][1024];
  const char *mods[TD_MOD_MAX_MODS];
  for (size_t i = 0; i < o->nmods; i++)
    mods[i] = td_app_mod_path(o->mods[i], mod_bufs[i], sizeof mod_bufs[i]);
  const char *mod = o->nmods ? mods[0] : td_app_find_dir("scripts/base", mod_buf, sizeof mod_buf);
  td_game_options go = {.map_path = o->map ? td_app_path(o->map, map_buf, sizeof map_buf) : NULL,
                        .mod_dir = mod, .seed = o->seed_set ? o->seed : 1,
                        .endless = o->endless, .difficulty = o->difficulty,
                        .mod_dirs = mods, .mod_count = o->nmods,
                        .overrides = o->overrides, .override_count = o->noverrides};
  if (rp) {
    /* what the replay fixes: the options may only agree with it */
    if (!o->map) go.map_path = td_app_path(rp->map_path, map_buf, sizeof map_buf);
    if (!o->nmods) { /* the replay's mods */
      for (size_t i = 0; i < rp->nmods; i++)
        mods[i] = td_app_mod_path(rp->mod_dirs[i], mod_bufs[i], sizeof mod_bufs[i]);
      go.mod_count = rp->nmods;
    }
    go.seed = rp->seed;
    go.endless = rp->endless;
    if (!o->noverrides) { /* the replay's (given ones must agree: td_replay_check_game) */
      go.overrides = rp->overrides;
      go.override_count = rp->noverrides;
    }
    if (o->difficulty_set && o->difficulty != rp->difficulty) {
      td_err_set(err, "%s: played on %s, not %s", rp->path, td_difficulty_name(rp->difficulty),
                 td_difficulty_name(o->difficulty));
      return NULL;
    }
    if (o->seed_set && o->seed != rp->seed) {
      td_err_set(err, "%s: played with seed %" PRIu64 ", not %" PRIu64 " (a replay keeps its seed)",
                 rp->path, rp->seed, o->seed);
      return NULL;
    }
    if (o->endless && !rp->endless) {
      td_err_set(err, "%s: not played endless (--endless; a replay keeps its mode)", rp->path);
      return NULL;
    }
    if (o->ticks_set && o->ticks < rp->end_ticks) {
      td_err_set(err, "%s: --ticks %" PRIu64 " stops before the replay's end (tick %" PRIu64
                 "; a replay is checked to its end)", rp->path, o->ticks, rp->end_ticks);
      return NULL;
    }
    go.difficulty = rp->difficulty;
  }
  if (!o->load) return td_game_create(&go, err);
  td_game *g = td_game_load(&go, o->load, err);
  if (!g) return NULL;
  /* what the save fixes */
  if (o->difficulty_set && td_game_difficulty(g) != o->difficulty)
    td_err_set(err, "%s: saved on %s, not %s (a save keeps its difficulty)", o->load,
               td_difficulty_name(td_game_difficulty(g)), td_difficulty_name(o->difficulty));
  else if (o->seed_set && td_game_seed(g) != o->seed)
    td_err_set(err, "%s: saved with seed %" PRIu64 ", not %" PRIu64 " (a save keeps its seed)",
               o->load, td_game_seed(g), o->seed);
  else if (o->endless && !td_world_endless(td_game_world(g)))
    td_err_set(err, "%s: not saved endless (--endless; a save keeps its mode)", o->load);
  else if (o->save_at_set && o->save_at < td_world_tick(td_game_world(g)))
    td_err_set(err, "%s: saved at tick %" PRIu64 ", after --save-at %" PRIu64 " (the game "
               "continues from there)", o->load, td_world_tick(td_game_world(g)), o->save_at);
  else
    return g;
  td_game_destroy(g);
  return NULL;
}

int td_sim_game(int argc, char **argv) {
  opts o = {.ticks = (uint64_t)SIM_TICK_HZ * 7200, .every = 600};
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      fputs(usage, stdout);
      return 0;
    }
  if (parse(argc, argv, &o) != 0) return 2;
  int status = 2;
  td_err err;
  td_replay play = {0}, rec = {0};
  stats st = {0};
  td_modout mo = {.quiet = o.quiet || o.json};
  td_auto *au = NULL;
  td_game *g = NULL;
  td_command *cmds = NULL; /* the replay's, resolved against g */
  if (o.replay && td_replay_read(o.replay, &play, &err) != 0) {
    td_app_fail("%s", err.msg);
    goto out;
  }
  g = open_game(&o, o.replay ? &play : NULL, &err);
  if (!g) { /* an override's message names its flag: "sim: --scale tower.x.cost: ..." */
    td_app_fail("%s%s", !strncmp(err.msg, "--s", 3) ? "sim: " : "", err.msg);
    goto out;
  }
  if (o.replay) {
    if (td_replay_check_game(&play, g, &err) != 0) {
      td_app_fail("%s", err.msg);
      goto out;
    }
    if (play.every) o.every = play.every;
    /* every name resolves before the game plays */
    cmds = play.ncmd ? td_mem_alloc(play.ncmd * sizeof *cmds) : NULL;
    if (play.ncmd && !cmds) {
      td_app_fail("%s: out of memory", o.replay);
      goto out;
    }
    for (size_t i = 0; i < play.ncmd; i++)
      if (td_replay_command(&play, i, g, &cmds[i], &err) != 0) {
        td_app_fail("%s", err.msg);
        goto out;
      }
  }
  if (o.who == P_AUTO && !(au = td_auto_create_strategy(o.strategy, &err))) {
    td_app_fail("%s", err.msg);
    goto out;
  }
  if (au && o.load) { /* the player's memory, as it was saved */
    size_t plen;
    const void *pst = td_game_player_state(g, &plen);
    if (td_auto_load(au, pst, plen, &err) != 0) {
      td_app_fail("%s: %s", o.load, err.msg);
      goto out;
    }
  }
  td_replay_init(&rec, g, (uint32_t)o.every);
  /* a game that could not be recorded is refused before it plays */
  if (o.record && td_replay_check_writable(&rec, o.record, &err) != 0) {
    td_app_fail("%s", err.msg);
    goto out;
  }
  td_world *w = td_game_world(g);
  /* the crowd's metrics (off_road): the world keeps them off, and turning
  ** them on changes nothing in the game (see td_check) */
  td_crowd_enable_metrics((td_crowd *)td_world_crowd(w), true);
  size_t next_check = 0, next_cmd = 0;
  uint64_t stop = td_world_tick(w) + o.ticks;
  if (o.replay && play.end_ticks < stop) stop = play.end_ticks;
  /* a tick the game cannot reach saves nothing: refused now when it is
  ** known (before a loaded game's tick: open_game), told at the end when
  ** the game ends first */
  if (o.save_at_set && o.save_at > stop) {
    if (o.replay)
      td_app_fail("sim: --save-at %" PRIu64 ": the replay %s ends at tick %" PRIu64, o.save_at,
                  o.replay, stop);
    else
      td_app_fail("sim: --save-at %" PRIu64 ": beyond the last tick the game may run, %" PRIu64
                  " (--ticks %" PRIu64 ")", o.save_at, stop, o.ticks);
    goto out;
  }
  char map_esc[1024], mod_esc[1024], mods[4096] = "";
  for (size_t i = 0, used = 0; i < td_game_mod_count(g) && used < sizeof mods; i++)
    used += (size_t)snprintf(mods + used, sizeof mods - used, "%s%s", i ? " + " : "",
                             td_app_escape(td_game_mod_dir_at(g, i), mod_esc, sizeof mod_esc));
  if (!o.json && !o.quiet)
    printf("game: %s, mod%s %s, seed %" PRIu64 ", %s, player %s%s%s%s%s\n",
           td_app_escape(td_game_map_path(g), map_esc, sizeof map_esc),
           td_game_mod_count(g) > 1 ? "s" : "", mods, td_game_seed(g), td_difficulty_name(td_game_difficulty(g)),
           o.who == P_AUTO ? "auto" : o.who == P_REPLAY ? "replay" : "idle",
           au && td_auto_strategy(au) != TD_AUTO_DEFAULT ? " (" : "",
           au && td_auto_strategy(au) != TD_AUTO_DEFAULT ? td_auto_strategy_name(td_auto_strategy(au)) : "",
           au && td_auto_strategy(au) != TD_AUTO_DEFAULT ? ")" : "",
           td_world_endless(w) ? ", endless" : "");
  bool saved = false;
  sim_records_init(&st.recs, g);
  status = 0;
  for (;;) {
    if (o.save_at_set && !saved && td_world_tick(w) == o.save_at) {
      td_blob mem = {0};
      if (au) td_auto_save(au, &mem);
      int rc = mem.failed ? td_err_set(&err, "%s: out of memory", o.save)
                          : td_game_set_player_state(g, mem.data, mem.len, &err);
      td_blob_free(&mem);
      if (rc != 0 || td_game_save(g, o.save, &err) != 0) {
        status = td_app_fail("%s", err.msg);
        goto out;
      }
      saved = true;
      if (!o.json && !o.quiet)
        printf("saved %s at tick %" PRIu64 "\n", td_app_escape(o.save, map_esc, sizeof map_esc),
               o.save_at);
    }
    if (td_world_state(w) != TD_GAME_PLAYING || td_world_tick(w) >= stop) break;
    /* a replay's commands are given at their tick, as they were recorded:
    ** pending commands are part of the world's state */
    for (; next_cmd < play.ncmd && cmds[next_cmd].tick <= td_world_tick(w); next_cmd++)
      if (td_game_command(g, &cmds[next_cmd], &err) != 0) {
        status = td_app_fail("%s", err.msg);
        goto out;
      }
    if (au && td_auto_play(au, g, &err) != 0) {
      status = td_app_fail("%s", err.msg);
      goto out;
    }
    /* nobody builds: a first wave that waits for the player is called */
    if (!au && o.who != P_REPLAY && td_world_first_wave_waiting(w) &&
        td_game_command(g, &(td_command){.tick = td_world_tick(w), .kind = TD_COMMAND_CALL_WAVE},
                        &err) != 0) {
      status = td_app_fail("%s", err.msg);
      goto out;
    }
    if (td_game_step(g, &err) != 0) {
      status = td_app_fail("%s", err.msg);
      goto out;
    }
    on_events(g, &st);
    sim_records_step(&st.recs, g);
    fflush(stdout); /* the mod's lines where they happened among ours */
    td_modout_flush(&mo, td_game_mod(g), stderr, NULL);
    uint64_t t = td_world_tick(w);
    if (t % o.every == 0) {
      uint64_t sum = td_world_checksum(w);
      if (td_replay_add_check(&rec, t, sum, &err) != 0) {
        status = td_app_fail("%s", err.msg);
        goto out;
      }
      if (!o.json && !o.quiet)
        printf("tick %7" PRIu64 "  wave %3d  gold %5d  lives %3d  enemies %5zu  towers %3zu  "
               "checksum %016" PRIx64 "\n",
               t, (int)td_world_wave(w), (int)td_world_gold(w), (int)td_world_lives(w),
               td_world_enemy_count(w), td_world_tower_count(w), sum);
    }
    while (next_check < play.ncheck && play.checks[next_check].tick < t) next_check++;
    if (next_check < play.ncheck && play.checks[next_check].tick == t) {
      uint64_t sum = td_world_checksum(w);
      if (sum != play.checks[next_check].checksum) {
        td_app_say("%s: tick %" PRIu64 ": checksum %016" PRIx64 ", the replay says %016" PRIx64
                   ": the game has parted from the recording", o.replay, t, sum,
                   play.checks[next_check].checksum);
        status = 1;
        goto out;
      }
      next_check++;
    }
  }
  td_replay_end(&rec, g);
  sim_records_end(&st.recs, g);
  if (o.replay && (next_check < play.ncheck || play.end_ticks != rec.end_ticks ||
                   play.result != rec.result || play.lives != rec.lives || play.gold != rec.gold ||
                   play.end_checksum != rec.end_checksum)) {
    td_app_say("%s:%d: the game ended %s at tick %" PRIu64 " with %d lives, %d gold, "
            "checksum %016" PRIx64 "; the replay says %s at tick %" PRIu64 " with %d lives, %d "
            "gold, checksum %016" PRIx64, o.replay, play.end_line, result_name(rec.result),
            rec.end_ticks, (int)rec.lives, (int)rec.gold, rec.end_checksum,
            result_name(play.result), play.end_ticks, (int)play.lives, (int)play.gold,
            play.end_checksum);
    status = 1;
  }
  if (o.record) {
    size_t n;
    const td_command *given = td_game_commands(g, &n);
    for (size_t i = 0; i < n && status == 0; i++)
      if (td_replay_add_command(&rec, g, &given[i], &err) != 0) status = td_app_fail("%s", err.msg);
    if (status == 0 && td_replay_write(&rec, o.record, &err) != 0) status = td_app_fail("%s", err.msg);
  }
  if (g) td_modout_flush(&mo, td_game_mod(g), stderr, NULL);
  if (status == 0 && o.strict && td_modout_errors(td_game_mod(g)) > 0) status = 1;
  if (status != 2) report(&o, g, &st, &rec, au);
  if (o.replay && status == 0 && !o.json && !o.quiet)
    printf("replay: %zu commands, %zu checksums and the end match\n", play.ncmd, play.ncheck);
  if (o.save_at_set && !saved && status != 2) {
    fflush(stdout);
    status = td_app_fail("sim: --save-at %" PRIu64 ": the game %s at tick %" PRIu64
                         " before it; nothing was saved to %s", o.save_at,
                         td_world_state(w) == TD_GAME_PLAYING ? "stopped" : "ended",
                         td_world_tick(w), o.save);
  }
out:
  td_auto_destroy(au);
  td_game_destroy(g);
  td_mem_free(cmds, play.ncmd * sizeof *cmds);
  td_replay_free(&play);
  td_replay_free(&rec);
  td_mem_free(st.waves, st.wcap * sizeof *st.waves);
  sim_records_free(&st.recs);
  return status;
}
