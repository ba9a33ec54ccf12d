/*
** cmd_soak.c: `td soak`, a long headless game in endless mode under random
** commands, legal and illegal, that checks the engine's invariants as it
** goes (docs/cli.md#td-soak; issue 7).
**
** The player is a seeded RNG of the soak's own (splitmix64 over --seed;
** the world's RNG is never drawn from here). About one tick in sixteen it
** gives one to three commands through td_game_command, the path a player's
** input takes: places on free bases (affordable types first), on occupied
** bases, on bases where the tower would cut the route (td_world_check_place
** finds them), on nonsense indices and with nonsense types; upgrades with
** real and nonsense children; sells, target modes (SCRIPT and out-of-range
** ones included), early waves, pauses (each followed by a resume within ten
** seconds) and resumes, and commands of no kind at all; stamped for this
** tick, a later one, or one long past.
**
** A lost game does not end the soak: its end is checked like a periodic
** check, the game is destroyed (every byte it held must come back), and a
** fresh one starts on the next seed (a restart). The world has no way to
** give lives, and a new game also runs the load path again.
**
** Invariants (a violation stops the run: exit 1, "td: soak: tick T: ..."):
**   - accounting, every tick: enemies spawned = killed + leaked + alive,
**     counted from the world's events (split children and enemies spawned
**     by scripts emit SPAWNED too);
**   - every --every ticks, at a game's end and at the end: no NaN or
**     infinity in any enemy, tower, shot or crowd agent (their views, and
**     td_world_nonfinite for what the views leave out); every enemy alive
**     walks or stands stunned with 0 < health <= max_health; the crowd's
**     live agents are the enemies alive; gold and lives >= 0;
**   - memory: a game destroyed gives back every byte it took through the
**     allocation hook (td_mem_set_allocator: the sim's and Lua's), a free
**     never names more bytes than are live, and memory stays bounded: the
**     peak of the last quarter of the run is at most 1.5 x the peak of the
**     second quarter (x the ratio of their peak enemy counts, when the last
**     quarter had more enemies alive), plus 256 KiB. The figure compared
**     is the live bytes after each step less twice the size of the game's
**     command record, which grows by design with every command (it is the
**     replay; its capacity grows by doubling).
**
** Memory: the soak's own bookkeeping is on the stack; the games it makes
** are the only td_mem users while it runs. Determinism: the same options
** give the same summary, the wall time aside (the app reads a clock for
** that line only; nothing in the engine does).
*/
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <lua.h>

#include "app/cmds.h"
#include "app/play.h"
#include "game/game.h"

#define SOAK_HZ ((uint64_t)TD_WORLD_TICK_HZ)
#define SOAK_DEFAULT_TICKS (SOAK_HZ * 3600)   /* one simulated hour */
#define SOAK_DEFAULT_EVERY SOAK_HZ            /* a full check every second */
#define SOAK_PROGRESS (SOAK_HZ * 600)         /* a line every 10 simulated minutes */
#define SOAK_MAX_TICKS ((uint64_t)1 << 40)
#define SOAK_MEM_RATIO 1.5
#define SOAK_MEM_SLACK ((size_t)256 << 10)
#define SOAK_CMD_ODDS 16u                     /* a tick gives commands with probability 1/16 */
#define SOAK_MAX_PAUSE 600u                   /* ticks a pause lasts at most */
#define SOAK_NONSENSE TD_COMMAND_KIND_COUNT /* index of the "no kind" counter */

static const char usage[] =
  "usage: td soak [--ticks N] [--seed N] [--map FILE] [--mod DIR] [--every N]\n"
  "               [--json] [--quiet]\n"
  "\n"
  "Plays a long headless game in endless mode (60 ticks per second) while a\n"
  "seeded random player gives legal and illegal commands, and checks the\n"
  "engine's invariants as it goes: every enemy spawned is killed, leaked or\n"
  "alive; no NaN or infinity in enemies, towers, shots or crowd agents; memory\n"
  "bounded, and every byte of a game given back when it is destroyed. A lost\n"
  "game is replaced by a fresh one (a restart). Prints a line every simulated\n"
  "10 minutes and a summary.\n"
  "\n"
  "options:\n"
  "  --ticks N   ticks to run, all games together (216000: one hour)\n"
  "  --seed N    seeds the player's RNG and the first game's world (1)\n"
  "  --map FILE  the map (maps/01-crossroads.tmx)\n"
  "  --mod DIR   the rules mod (scripts/base)\n"
  "  --every N   ticks between full checks (60)\n"
  "  --json      one JSON object instead of the text report\n"
  "  --quiet     the summary only, no progress lines\n"
  "\n"
  "exit status: 0 every invariant held, 1 one did not (the tick and what is\n"
  "wrong on stderr), 2 bad usage or bad input\n";

typedef struct soak_opts {
  const char *map, *mod;
  uint64_t ticks, seed, every;
  bool json, quiet;
} soak_opts;

/* The allocation hook: counts the bytes live through td_mem, then defers
** to the allocator that was installed before. */
typedef struct mem_count {
  td_alloc_fn next;
  void *next_ud;
  size_t live, peak;
  bool underflow;         /* a free named more bytes than were live */
} mem_count;

static void *count_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  mem_count *m = ud;
  size_t old = ptr ? osize : 0; /* for new blocks Lua passes a type tag */
  void *p = m->next(m->next_ud, ptr, osize, nsize);
  if (nsize != 0 && !p) return NULL; /* failed: ptr is untouched */
  if (old > m->live) {
    m->underflow = true;
    old = m->live;
  }
  m->live = m->live - old + nsize;
  if (m->live > m->peak) m->peak = m->live;
  return p;
}

typedef struct quarter {
  size_t mem;             /* peak of live bytes less the command record's allowance */
  size_t enemies;         /* peak enemies alive */
} quarter;

typedef struct soak {
  soak_opts o;
  const char *map, *mod;  /* resolved */
  uint64_t rng;
  mem_count mem;
  size_t base_live;       /* live bytes before the first game */
  td_game *g;
  uint64_t tick;          /* ticks run, all games together */
  uint64_t resume_at;     /* 0: no resume planned */
  uint32_t games, restarts;
  int32_t deepest_wave;
  uint64_t waves_started;
  uint64_t issued[SOAK_NONSENSE + 1], issued_all;
  uint64_t refused[TD_REFUSAL_COUNT], refused_all;
  int64_t spawned, killed, leaked;             /* this game */
  int64_t t_spawned, t_killed, t_leaked;       /* all games */
  int64_t abandoned;      /* alive in games that were lost */
  size_t peak_enemies, peak_towers, peak_shots;
  size_t lua_peak;
  quarter q[4];
  uint64_t checks;
  size_t script_errors;
  char first_script_error[800]; /* where: message */
  bool failed;
  uint64_t fail_tick;
  char failure[512];
} soak;

/* ---- the player's RNG (splitmix64): the soak's own ------------------------ */

static uint64_t rng_next(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* Uniform in [0, n), n > 0 (multiply-shift: bias below 2^-32). */
static uint32_t rng_below(uint64_t *s, uint32_t n) {
  return (uint32_t)(((rng_next(s) >> 32) * (uint64_t)n) >> 32);
}

/* An index nobody has: negative, the count itself, or far out. */
static int32_t nonsense_index(uint64_t *s, size_t count) {
  switch (rng_below(s, 5)) {
  case 0: return -1;
  case 1: return INT32_MIN;
  case 2: return INT32_MAX;
  case 3: return (int32_t)count;
  default: return (int32_t)count + 1 + (int32_t)rng_below(s, 1000);
  }
}

/* ---- failures ------------------------------------------------------------- */

static int fail(soak *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static int fail(soak *s, const char *fmt, ...) {
  if (s->failed) return -1;
  s->failed = true;
  s->fail_tick = s->tick;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(s->failure, sizeof s->failure, fmt, ap);
  va_end(ap);
  return -1;
}

/* ---- commands ------------------------------------------------------------- */

/* Bases with a tower (want true) or without, into out; how many. */
static size_t bases_where(const td_world *w, bool want, int32_t *out, size_t cap) {
  size_t n = 0, nb = td_world_map(w)->base_count;
  td_tower_view tv;
  for (size_t b = 0; b < nb && n < cap; b++)
    if (td_world_tower(w, b, &tv) == want) out[n++] = (int32_t)b;
  return n;
}

/* A base from list (n of them), or nonsense when there is none. */
static int32_t pick_base(soak *s, const int32_t *list, size_t n, size_t base_count) {
  return n ? list[rng_below(&s->rng, (uint32_t)n)] : nonsense_index(&s->rng, base_count);
}

static void make_place(soak *s, td_world *w, td_command *c) {
  const td_map *m = td_world_map(w);
  const td_rules *r = td_world_rules(w);
  int32_t list[256];
  size_t nfree = bases_where(w, false, list, 256);
  c->kind = TD_COMMAND_PLACE;
  c->tower_type = (int32_t)rng_below(&s->rng, (uint32_t)r->tower_count);
  switch (rng_below(&s->rng, 8)) {
  case 0: { /* where it would cut the route, when some base would */
    int32_t cut[256];
    size_t ncut = 0;
    for (size_t i = 0; i < nfree && i < 16; i++) {
      int32_t b = list[(i + rng_below(&s->rng, (uint32_t)nfree)) % nfree];
      td_place_check pc;
      td_world_check_place(w, b, c->tower_type, &pc);
      if (pc.reason == TD_REFUSAL_CUTS_ROUTE) cut[ncut++] = b;
    }
    c->base = pick_base(s, ncut ? cut : list, ncut ? ncut : nfree, m->base_count);
    break;
  }
  case 1: { /* on a tower */
    int32_t used[256];
    size_t nused = bases_where(w, true, used, 256);
    c->base = pick_base(s, used, nused, m->base_count);
    break;
  }
  case 2: c->base = nonsense_index(&s->rng, m->base_count); break;
  case 3:
    c->base = pick_base(s, list, nfree, m->base_count);
    c->tower_type = nonsense_index(&s->rng, r->tower_count);
    break;
  default: { /* a free base, a type the gold pays for when there is one */
    c->base = pick_base(s, list, nfree, m->base_count);
    int32_t gold = td_world_gold(w);
    uint32_t off = rng_below(&s->rng, (uint32_t)r->tower_count);
    for (size_t k = 0; k < r->tower_count; k++) {
      size_t t = (off + k) % r->tower_count;
      if (r->levels[r->towers[t].root].cost <= gold) {
        c->tower_type = (int32_t)t;
        break;
      }
    }
  }
  }
}

static void make_upgrade(soak *s, td_world *w, td_command *c) {
  const td_map *m = td_world_map(w);
  const td_rules *r = td_world_rules(w);
  int32_t used[256];
  size_t nused = bases_where(w, true, used, 256);
  c->kind = TD_COMMAND_UPGRADE;
  c->base = pick_base(s, used, nused, m->base_count);
  c->upgrade = (int32_t)rng_below(&s->rng, TD_RULES_MAX_CHILDREN);
  uint32_t how = rng_below(&s->rng, 8);
  td_tower_view tv;
  if (how == 0) {
    c->upgrade = nonsense_index(&s->rng, TD_RULES_MAX_CHILDREN);
  } else if (how == 1) {
    int32_t list[256];
    size_t nfree = bases_where(w, false, list, 256);
    c->base = pick_base(s, list, nfree, m->base_count);
  } else if (how == 2) {
    c->base = nonsense_index(&s->rng, m->base_count);
  } else if (td_world_tower(w, (size_t)(uint32_t)c->base, &tv)) {
    /* a child the level has, when it has one */
    int32_t k = 0;
    while (k < TD_RULES_MAX_CHILDREN && r->levels[tv.level].children[k] >= 0) k++;
    if (k > 0) c->upgrade = (int32_t)rng_below(&s->rng, (uint32_t)k);
  }
}

/* One random command for this tick (or another). */
static void make_command(soak *s, td_world *w, td_command *c) {
  const td_map *m = td_world_map(w);
  memset(c, 0, sizeof *c);
  c->tick = td_world_tick(w);
  uint32_t when = rng_below(&s->rng, 20);
  if (when == 0) c->tick += 1 + rng_below(&s->rng, 300);     /* later */
  else if (when == 1) c->tick = rng_below(&s->rng, (uint32_t)(c->tick + 1)); /* past */
  int32_t used[256];
  uint32_t k = rng_below(&s->rng, 1000); /* weights per mille */
  if (k < 380) {
    make_place(s, w, c);
  } else if (k < 600) {
    make_upgrade(s, w, c);
  } else if (k < 680) {
    c->kind = TD_COMMAND_SELL;
    if (rng_below(&s->rng, 4) == 0) {
      c->base = rng_below(&s->rng, 2) ? nonsense_index(&s->rng, m->base_count)
                                      : (int32_t)rng_below(&s->rng, (uint32_t)m->base_count + 1);
    } else {
      c->base = pick_base(s, used, bases_where(w, true, used, 256), m->base_count);
    }
  } else if (k < 810) {
    c->kind = TD_COMMAND_TARGET;
    c->base = rng_below(&s->rng, 6) == 0 ? nonsense_index(&s->rng, m->base_count)
                                         : pick_base(s, used, bases_where(w, true, used, 256),
                                                     m->base_count);
    c->mode = (td_target_mode)rng_below(&s->rng, TD_TARGET_MODE_COUNT);
    if (rng_below(&s->rng, 6) == 0)
      c->mode = (td_target_mode)(TD_TARGET_MODE_COUNT + rng_below(&s->rng, 100));
  } else if (k < 835) {
    c->kind = TD_COMMAND_CALL_WAVE;
  } else if (k < 860) {
    c->kind = TD_COMMAND_PAUSE;
  } else if (k < 900) {
    c->kind = TD_COMMAND_RESUME;
  } else if (k < 940) {
    /* a rally point: on the map, or far off it (a replay takes finite numbers only) */
    c->kind = TD_COMMAND_RALLY;
    c->base = rng_below(&s->rng, 6) == 0 ? nonsense_index(&s->rng, m->base_count)
                                         : pick_base(s, used, bases_where(w, true, used, 256),
                                                     m->base_count);
    float span = (float)(m->width * m->tile_w);
    c->x = (float)rng_below(&s->rng, 10000) / 10000.0f * span;
    c->y = (float)rng_below(&s->rng, 10000) / 10000.0f * (float)(m->height * m->tile_h);
    uint32_t odd = rng_below(&s->rng, 20);
    if (odd == 0) c->x = -3e7f;
    else if (odd == 1) c->y = 1e30f;
  } else if (k < 960) {
    c->kind = TD_COMMAND_REPAIR;
    c->base = rng_below(&s->rng, 6) == 0 ? nonsense_index(&s->rng, m->base_count)
                                         : pick_base(s, used, bases_where(w, true, used, 256),
                                                     m->base_count);
  } else {
    /* no kind at all, with whatever else in it */
    c->kind = (td_command_kind)(TD_COMMAND_KIND_COUNT + rng_below(&s->rng, 1000));
    c->base = nonsense_index(&s->rng, m->base_count);
    c->tower_type = (int32_t)rng_below(&s->rng, 1000);
    c->upgrade = (int32_t)rng_below(&s->rng, 1000);
  }
}

static int give(soak *s, const td_command *c) {
  td_err err;
  if (td_game_command(s->g, c, &err) != 0) return fail(s, "command: %s", err.msg);
  unsigned k = (unsigned)c->kind;
  s->issued[k < TD_COMMAND_KIND_COUNT ? k : SOAK_NONSENSE]++;
  s->issued_all++;
  if (c->kind == TD_COMMAND_PAUSE && s->resume_at == 0) {
    s->resume_at = c->tick + 1 + rng_below(&s->rng, SOAK_MAX_PAUSE);
    if (s->resume_at <= td_world_tick(td_game_world(s->g)))
      s->resume_at = td_world_tick(td_game_world(s->g)) + 1;
  }
  return 0;
}

/* The player's turn before a step. */
static int play(soak *s) {
  td_world *w = td_game_world(s->g);
  uint64_t now = td_world_tick(w);
  if (s->resume_at && now >= s->resume_at) {
    s->resume_at = 0;
    td_command c = {.tick = now, .kind = TD_COMMAND_RESUME};
    if (give(s, &c) != 0) return -1;
  }
  if (rng_below(&s->rng, SOAK_CMD_ODDS) != 0) return 0;
  uint32_t n = 1 + (rng_below(&s->rng, 4) == 0 ? 1 + rng_below(&s->rng, 2) : 0);
  for (uint32_t i = 0; i < n; i++) {
    td_command c;
    make_command(s, w, &c);
    if (give(s, &c) != 0) return -1;
  }
  return 0;
}

/* ---- invariants ----------------------------------------------------------- */

static bool finite_all(const float *v, size_t n, size_t *bad) {
  for (size_t i = 0; i < n; i++)
    if (!isfinite(v[i])) {
      *bad = i;
      return false;
    }
  return true;
}

static const char *fval(float v) { return isnan(v) ? "nan" : v > 0.0f ? "inf" : "-inf"; }

/* Everyone's numbers, states and counts (see the top). 0, or -1 with the
** failure set. */
static int check_world(soak *s) {
  const td_world *w = td_game_world(s->g);
  const td_rules *r = td_world_rules(w);
  s->checks++;
  size_t bad;
  size_t alive = 0;
  for (size_t i = 0; i < td_world_enemy_capacity(w); i++) {
    td_enemy_view e;
    if (!td_world_enemy(w, i, &e)) continue;
    alive++;
    static const char *const names[] = {"x", "y", "radius", "facing", "health", "max_health",
                                        "slow", "slow_time", "stun_time", "route_left"};
    const float v[] = {e.x, e.y, e.radius, e.facing, e.health, e.max_health,
                       e.slow, e.slow_time, e.stun_time, e.route_left};
    const char *tn = e.type >= 0 && (size_t)e.type < r->enemy_count ? r->enemies[e.type].name : "?";
    if (!finite_all(v, sizeof v / sizeof v[0], &bad))
      return fail(s, "enemy slot %zu (%s): %s is %s", i, tn, names[bad], fval(v[bad]));
    if (e.state != TD_ENEMY_WALK && e.state != TD_ENEMY_STUNNED && e.state != TD_ENEMY_BLOCKED &&
        e.state != TD_ENEMY_ATTACK)
      return fail(s, "enemy slot %zu (%s): state %d after the step (walk or stunned expected)",
                  i, tn, (int)e.state);
    if (!(e.health > 0.0f) || e.health > e.max_health)
      return fail(s, "enemy slot %zu (%s): health %g of %g (0 < health <= max expected)", i,
                  tn, (double)e.health, (double)e.max_health);
  }
  if (alive != td_world_enemy_count(w))
    return fail(s, "%zu enemies in their slots, td_world_enemy_count says %zu", alive,
                td_world_enemy_count(w));
  for (size_t b = 0; b < td_world_map(w)->base_count; b++) {
    td_tower_view t;
    if (!td_world_tower(w, b, &t)) continue;
    static const char *const names[] = {"x", "y", "facing", "cooldown", "buff_damage",
                                        "buff_rate"};
    const float v[] = {t.x, t.y, t.facing, t.cooldown, t.buff_damage, t.buff_rate};
    if (!finite_all(v, sizeof v / sizeof v[0], &bad))
      return fail(s, "tower on base %zu: %s is %s", b, names[bad], fval(v[bad]));
  }
  for (size_t i = 0; i < td_world_shot_capacity(w); i++) {
    td_shot_view sh;
    if (!td_world_shot(w, i, &sh)) continue;
    static const char *const names[] = {"x", "y", "tx", "ty"};
    const float v[] = {sh.x, sh.y, sh.tx, sh.ty};
    if (!finite_all(v, sizeof v / sizeof v[0], &bad))
      return fail(s, "shot slot %zu: %s is %s", i, names[bad], fval(v[bad]));
  }
  const td_crowd *cr = td_world_crowd(w);
  size_t agents = 0, finished = 0;
  for (size_t i = 0; i < td_crowd_capacity(cr); i++) {
    td_agent_view a;
    if (!td_crowd_view(cr, i, &a) || a.state == TD_AGENT_FREE) continue;
    static const char *const names[] = {"x", "y", "vx", "vy", "radius", "lane", "travelled"};
    const float v[] = {a.x, a.y, a.vx, a.vy, a.radius, a.lane, a.travelled};
    if (!finite_all(v, sizeof v / sizeof v[0], &bad))
      return fail(s, "crowd agent slot %zu: %s is %s", i, names[bad], fval(v[bad]));
    if (a.state != TD_AGENT_LEAKED && a.state != TD_AGENT_REMOVED) agents++;
    else finished++;
  }
  if (agents != alive)
    return fail(s, "%zu enemies alive, but %zu crowd agents on their way (and %zu leaked or "
                "removed this tick)", alive, agents, finished);
  char what[256];
  if (td_world_nonfinite(w, what, sizeof what) != 0) return fail(s, "%s", what);
  if (td_world_gold(w) < 0) return fail(s, "gold %d", (int)td_world_gold(w));
  if (td_world_lives(w) < 0) return fail(s, "lives %d", (int)td_world_lives(w));
  if (td_world_tower_count(w) > td_world_map(w)->base_count)
    return fail(s, "%zu towers on %zu bases", td_world_tower_count(w),
                td_world_map(w)->base_count);
  if (s->mem.underflow) return fail(s, "memory: a free named more bytes than were live");
  return 0;
}

/* After every step: the events, the accounting, the memory figures. */
static int after_step(soak *s) {
  td_world *w = td_game_world(s->g);
  size_t n;
  const td_event *ev = td_world_events(w, &n);
  for (size_t i = 0; i < n; i++) {
    switch (ev[i].kind) {
    case TD_EVENT_SPAWNED: s->spawned++; break;
    case TD_EVENT_KILLED: s->killed++; break;
    case TD_EVENT_LEAKED: s->leaked++; break;
    case TD_EVENT_WAVE_STARTED:
      s->waves_started++;
      if (ev[i].wave > s->deepest_wave) s->deepest_wave = ev[i].wave;
      break;
    case TD_EVENT_REFUSED:
      s->refused_all++;
      if ((unsigned)ev[i].reason < TD_REFUSAL_COUNT) s->refused[ev[i].reason]++;
      else return fail(s, "a refusal with reason %d", (int)ev[i].reason);
      break;
    default: break;
    }
  }
  size_t alive = td_world_enemy_count(w);
  if (s->spawned != s->killed + s->leaked + (int64_t)alive)
    return fail(s, "enemies: %" PRId64 " spawned, but %" PRId64 " killed + %" PRId64
                " leaked + %zu alive = %" PRId64, s->spawned, s->killed, s->leaked, alive,
                s->killed + s->leaked + (int64_t)alive);
  if (alive > s->peak_enemies) s->peak_enemies = alive;
  if (td_world_tower_count(w) > s->peak_towers) s->peak_towers = td_world_tower_count(w);
  size_t shots = 0;
  td_shot_view sv;
  for (size_t i = 0; i < td_world_shot_capacity(w); i++) shots += td_world_shot(w, i, &sv);
  if (shots > s->peak_shots) s->peak_shots = shots;
  lua_State *L = td_mod_state(td_game_mod(s->g));
  size_t lua = (size_t)lua_gc(L, LUA_GCCOUNT, 0) * 1024 + (size_t)lua_gc(L, LUA_GCCOUNTB, 0);
  if (lua > s->lua_peak) s->lua_peak = lua;
  size_t ncmd;
  td_game_commands(s->g, &ncmd);
  size_t allowance = 2 * ncmd * sizeof(td_command);
  size_t net = s->mem.live > allowance ? s->mem.live - allowance : 0;
  quarter *q = &s->q[(s->tick - 1) * 4 / s->o.ticks];
  if (net > q->mem) q->mem = net;
  if (alive > q->enemies) q->enemies = alive;
  return 0;
}

/* ---- games ---------------------------------------------------------------- */

static int open_game(soak *s, td_err *err) {
  td_game_options go = {.map_path = s->map, .mod_dir = s->mod,
                        .seed = s->o.seed + s->games, .endless = true};
  s->g = td_game_create(&go, err);
  if (!s->g) return -1;
  s->games++;
  s->spawned = s->killed = s->leaked = 0;
  s->resume_at = 0;
  return 0;
}

/* The end of a game (lost, or the run's end): checks, then the totals. */
static void close_game(soak *s) {
  s->t_spawned += s->spawned;
  s->t_killed += s->killed;
  s->t_leaked += s->leaked;
  td_mod *m = td_game_mod(s->g);
  size_t ne = td_mod_error_count(m);
  if (ne && !s->script_errors) {
    const td_mod_error *e = td_mod_error_at(m, 0);
    snprintf(s->first_script_error, sizeof s->first_script_error, "%s: %s", e->where,
             e->message);
  }
  s->script_errors += ne + td_mod_errors_dropped(m);
}

static const char *refusal_key(td_refusal r) {
  static const char *const keys[TD_REFUSAL_COUNT] = {
    "none", "no_base", "occupied", "no_tower", "gold", "cuts_route", "no_upgrade", "no_wave",
    "game_over", "bad_command", "no_soldiers", "rally_range", "rally_ground", "not_damaged"};
  return (unsigned)r < TD_REFUSAL_COUNT ? keys[r] : "?";
}

static const char *kind_key(size_t k) {
  static const char *const keys[SOAK_NONSENSE + 1] = {
    "place", "upgrade", "sell", "target", "call_wave", "pause", "resume", "rally", "repair",
    "no_kind"};
  return keys[k];
}

/* The memory criterion (see the top): the limit for the last quarter. */
static size_t memory_limit(const soak *s) {
  double ratio = (double)(s->q[3].enemies + 1) / (double)(s->q[1].enemies + 1);
  if (ratio < 1.0) ratio = 1.0;
  return (size_t)(SOAK_MEM_RATIO * ratio * (double)s->q[1].mem) + SOAK_MEM_SLACK;
}

static double mib(size_t b) { return (double)b / (1024.0 * 1024.0); }

static double wall_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void json_str(const char *v) {
  putchar('"');
  for (; *v; v++) {
    if (*v == '"' || *v == '\\') printf("\\%c", *v);
    else if ((unsigned char)*v < 0x20) printf("\\u%04x", (unsigned)*v);
    else putchar(*v);
  }
  putchar('"');
}

static void report_json(const soak *s, double wall) {
  printf("{\"map\":");
  json_str(s->map);
  printf(",\"mod\":");
  json_str(s->mod);
  printf(",\"seed\":%" PRIu64 ",\"ticks\":%" PRIu64 ",\"games\":%u,\"restarts\":%u,"
         "\"deepest_wave\":%d,\"waves_started\":%" PRIu64 ",\"commands\":{\"issued\":%" PRIu64,
         s->o.seed, s->tick, (unsigned)s->games, (unsigned)s->restarts, (int)s->deepest_wave,
         s->waves_started, s->issued_all);
  for (size_t k = 0; k <= SOAK_NONSENSE; k++) printf(",\"%s\":%" PRIu64, kind_key(k), s->issued[k]);
  printf("},\"refused\":{\"total\":%" PRIu64, s->refused_all);
  for (int r = 1; r < TD_REFUSAL_COUNT; r++)
    printf(",\"%s\":%" PRIu64, refusal_key((td_refusal)r), s->refused[r]);
  printf("},\"enemies\":{\"spawned\":%" PRId64 ",\"killed\":%" PRId64 ",\"leaked\":%" PRId64
         ",\"alive\":%" PRId64 ",\"left_in_lost_games\":%" PRId64 ",\"peak_alive\":%zu},"
         "\"peak_towers\":%zu,\"peak_shots\":%zu,",
         s->t_spawned, s->t_killed, s->t_leaked, s->t_spawned - s->t_killed - s->t_leaked -
         s->abandoned, s->abandoned, s->peak_enemies, s->peak_towers, s->peak_shots);
  printf("\"memory\":{\"peak_bytes\":%zu,\"lua_peak_bytes\":%zu,\"quarter_peaks\":[%zu,%zu,%zu,"
         "%zu],\"quarter_enemies\":[%zu,%zu,%zu,%zu],\"limit\":%zu,\"end_bytes\":%zu},",
         s->mem.peak - s->base_live, s->lua_peak, s->q[0].mem, s->q[1].mem, s->q[2].mem,
         s->q[3].mem, s->q[0].enemies, s->q[1].enemies, s->q[2].enemies, s->q[3].enemies,
         memory_limit(s), s->mem.live - s->base_live);
  printf("\"checks\":%" PRIu64 ",\"script_errors\":%zu,\"result\":\"%s\",\"failure\":", s->checks,
         s->script_errors, s->failed ? "failed" : "ok");
  if (s->failed) {
    char f[600];
    snprintf(f, sizeof f, "tick %" PRIu64 ": %s", s->fail_tick, s->failure);
    json_str(f);
  } else {
    printf("null");
  }
  printf(",\"wall_s\":%.2f}\n", wall);
}

static void report_text(const soak *s, double wall) {
  uint64_t t = s->tick;
  char map[1024], mod[1024];
  printf("soak           %s, mod %s, seed %" PRIu64 ", endless\n",
         td_app_escape(s->map, map, sizeof map), td_app_escape(s->mod, mod, sizeof mod), s->o.seed);
  printf("ticks          %" PRIu64 " (%" PRIu64 ":%02" PRIu64 ":%02" PRIu64 " simulated), "
         "%u %s, %u %s after a lost game\n", t, t / (3600 * SOAK_HZ), t / (60 * SOAK_HZ) % 60,
         t / SOAK_HZ % 60, (unsigned)s->games, s->games == 1 ? "game" : "games",
         (unsigned)s->restarts, s->restarts == 1 ? "restart" : "restarts");
  printf("waves          %" PRIu64 " started, deepest %d\n", s->waves_started,
         (int)s->deepest_wave);
  printf("commands       %" PRIu64 " issued:", s->issued_all);
  for (size_t k = 0; k <= SOAK_NONSENSE; k++)
    printf("%s %s %" PRIu64, k ? "," : "", kind_key(k), s->issued[k]);
  printf("\nrefused        %" PRIu64 ":", s->refused_all);
  for (int r = 1; r < TD_REFUSAL_COUNT; r++)
    printf("%s %s %" PRIu64, r > 1 ? "," : "", refusal_key((td_refusal)r), s->refused[r]);
  int64_t alive = s->t_spawned - s->t_killed - s->t_leaked - s->abandoned;
  printf("\nenemies        %" PRId64 " spawned = %" PRId64 " killed + %" PRId64 " leaked + %"
         PRId64 " alive + %" PRId64 " left in lost games\n", s->t_spawned, s->t_killed,
         s->t_leaked, alive, s->abandoned);
  printf("peaks          %zu enemies alive, %zu towers, %zu shots\n", s->peak_enemies,
         s->peak_towers, s->peak_shots);
  printf("memory         peak %.2f MiB live (Lua %.2f MiB), %zu bytes left after the last game\n",
         mib(s->mem.peak - s->base_live), mib(s->lua_peak), s->mem.live - s->base_live);
  printf("quarters       %.2f / %.2f / %.2f / %.2f MiB at %zu / %zu / %zu / %zu enemies; "
         "limit %.2f MiB\n", mib(s->q[0].mem), mib(s->q[1].mem), mib(s->q[2].mem),
         mib(s->q[3].mem), s->q[0].enemies, s->q[1].enemies, s->q[2].enemies, s->q[3].enemies,
         mib(memory_limit(s)));
  printf("script errors  %zu%s%s\n", s->script_errors, s->script_errors ? " (first: " : "",
         s->script_errors ? s->first_script_error : "");
  if (s->script_errors) printf(")\n");
  printf("checks         %" PRIu64 " (every %" PRIu64 " ticks, at each game's end)\n", s->checks,
         s->o.every);
  if (s->failed) printf("result         FAILED at tick %" PRIu64 ": %s\n", s->fail_tick, s->failure);
  else printf("result         ok\n");
  printf("wall           %.1f s (%.0f ticks/s)\n", wall, wall > 0 ? (double)t / wall : 0.0);
}

/* ---- options -------------------------------------------------------------- */

static int parse_num(const char *flag, const char *v, uint64_t lo, uint64_t *out) {
  uint64_t x;
  if (td_app_parse_u64(v, &x) != 0 || x < lo || x > SOAK_MAX_TICKS)
    return td_app_fail("soak: %s: expected a number %" PRIu64 " .. %" PRIu64 ", got '%s'", flag,
                       lo, SOAK_MAX_TICKS, v);
  *out = x;
  return 0;
}

static int parse(int argc, char **argv, soak_opts *o) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--json")) { o->json = true; continue; }
    if (!strcmp(a, "--quiet")) { o->quiet = true; continue; }
    static const char *const valued[] = {"--map", "--mod", "--ticks", "--seed", "--every"};
    size_t k = 0, nv = sizeof valued / sizeof valued[0];
    while (k < nv && strcmp(a, valued[k]) != 0) k++;
    if (k == nv) return td_app_fail("soak: unknown argument '%s' (see td soak --help)", a);
    if (i + 1 >= argc) return td_app_fail("soak: %s needs a value (see td soak --help)", a);
    const char *v = argv[++i];
    switch (k) {
    case 0: o->map = v; break;
    case 1:
      if (o->mod) /* not silently the last one */
        return td_app_fail("soak: --mod given twice: td soak plays one mod (td sim takes several)");
      o->mod = v;
      break;
    case 2:
      if (parse_num(a, v, 1, &o->ticks)) return 2;
      break;
    case 3:
      if (parse_num(a, v, 0, &o->seed)) return 2;
      break;
    default:
      if (parse_num(a, v, 1, &o->every)) return 2;
    }
  }
  return 0;
}

/* ---- the run -------------------------------------------------------------- */

static void run(soak *s, double t0) {
  td_err err;
  while (s->tick < s->o.ticks && !s->failed) {
    if (play(s) != 0) break;
    if (td_game_step(s->g, &err) != 0) {
      fail(s, "the world broke: %s", err.msg);
      break;
    }
    s->tick++;
    if (after_step(s) != 0) break;
    td_world *w = td_game_world(s->g);
    if (s->tick % s->o.every == 0 && check_world(s) != 0) break;
    if (!s->o.json && !s->o.quiet && s->tick % SOAK_PROGRESS == 0) {
      printf("tick %7" PRIu64 " (%" PRIu64 ":%02" PRIu64 ":00)  game %3u  wave %4d  enemies %5zu"
             "  towers %3zu  live %6.2f MiB  wall %7.1f s\n", s->tick, s->tick / (3600 * SOAK_HZ),
             s->tick / (60 * SOAK_HZ) % 60, (unsigned)s->games, (int)td_world_wave(w),
             td_world_enemy_count(w), td_world_tower_count(w), mib(s->mem.live - s->base_live),
             wall_now() - t0);
      fflush(stdout);
    }
    if (td_world_state(w) == TD_GAME_PLAYING || s->tick == s->o.ticks) continue;
    /* lost (or won, with a mod whose endless mode ends): a fresh game */
    if (s->tick % s->o.every != 0 && check_world(s) != 0) break;
    close_game(s);
    s->abandoned += (int64_t)td_world_enemy_count(w);
    td_game_destroy(s->g);
    s->g = NULL;
    if (s->mem.live != s->base_live) {
      fail(s, "memory: %zu bytes still live after the game was destroyed",
           s->mem.live - s->base_live);
      break;
    }
    if (open_game(s, &err) != 0) {
      fail(s, "restart: %s", err.msg);
      break;
    }
    s->restarts++;
  }
}

int td_cmd_soak(int argc, char **argv) {
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      fputs(usage, stdout);
      return 0;
    }
  soak s = {.o = {.ticks = SOAK_DEFAULT_TICKS, .seed = 1, .every = SOAK_DEFAULT_EVERY}};
  if (parse(argc, argv, &s.o) != 0) return 2;
  char maps[4096], map_buf[4200], mod_buf[4096];
  char given_map[1024], given_mod[1024];
  if (s.o.map) {
    s.map = td_app_path(s.o.map, given_map, sizeof given_map);
  } else {
    snprintf(map_buf, sizeof map_buf, "%s/01-crossroads.tmx",
             td_app_find_dir("maps", maps, sizeof maps));
    s.map = map_buf;
  }
  s.mod = s.o.mod ? td_app_mod_path(s.o.mod, given_mod, sizeof given_mod) : td_app_find_dir("scripts/base", mod_buf, sizeof mod_buf);
  s.rng = s.o.seed ^ 0x50a4c0ffee5eedull;

  td_mem_get_allocator(&s.mem.next, &s.mem.next_ud);
  td_mem_set_allocator(count_alloc, &s.mem);
  s.base_live = s.mem.live;
  td_err err;
  double t0 = wall_now();
  if (open_game(&s, &err) != 0) {
    td_mem_set_allocator(s.mem.next, s.mem.next_ud);
    return td_app_fail("%s", err.msg);
  }
  if (!s.o.json && !s.o.quiet) {
    printf("soak: %s, mod %s, seed %" PRIu64 ", %" PRIu64 " ticks, endless\n", s.map, s.mod,
           s.o.seed, s.o.ticks);
    fflush(stdout);
  }
  run(&s, t0);
  if (s.g) {
    if (!s.failed && s.tick % s.o.every != 0) check_world(&s);
    close_game(&s);
    td_game_destroy(s.g);
    s.g = NULL;
    if (!s.failed && s.mem.live != s.base_live)
      fail(&s, "memory: %zu bytes still live after the last game was destroyed",
           s.mem.live - s.base_live);
  }
  if (!s.failed && s.q[3].mem > memory_limit(&s))
    fail(&s, "memory grows: the last quarter's peak is %zu bytes, above the limit of %zu "
         "(1.5 x the second quarter's %zu, at %zu and %zu enemies)", s.q[3].mem,
         memory_limit(&s), s.q[1].mem, s.q[3].enemies, s.q[1].enemies);
  double wall = wall_now() - t0;
  td_mem_set_allocator(s.mem.next, s.mem.next_ud);
  if (s.o.json) report_json(&s, wall);
  else report_text(&s, wall);
  fflush(stdout);
  if (s.failed) {
    td_app_say("soak: tick %" PRIu64 ": %s", s.fail_tick, s.failure);
    return 1;
  }
  return 0;
}
