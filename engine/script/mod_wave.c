/*
** mod_wave.c: wave scripts, waves written as Lua functions.
**
**   td.wave(function(wave)
**     for i = 1, 5 do td.spawn("runner"); td.wait(0.5) end
**     td.wait(3)
**     local boss = td.spawn("boss")
**     while td.enemy_info(boss) do td.wait(1) end
**   end)
**
** When its wave starts, the function runs as a coroutine of the mod's
** state, driven by the world's ticks: td.wait(seconds) yields until that
** many ticks have passed (at least one), then td_mod_tick resumes it. Each
** resume is one handler call: the instruction and memory limits hold, an
** error stops and disables the script (recorded like a handler's). While
** the script runs, the host holds its wave open (td_mod_options.wave_hold),
** so the wave does not end between two spawns; its enemies belong to it.
**
** Saves. A coroutine cannot be written to a file, but a deterministic one
** can be run again. While a script runs, everything the outside world hands
** it (the results of td.* calls and math.random) is appended to its tape.
** A save keeps each running script's wave, wake tick, number of yields and
** tape; loading starts the script afresh and replays it: td.* calls and
** math.random answer from the tape without acting (no spawn, no draw),
** print is silent, and the script is resumed until it has yielded as many
** times as it had, which leaves it where it was, its locals rebuilt. A
** script that reads anything else that changed since its start (td.state,
** a global set by a handler) may take another way; then the tape does not
** match and the load is refused, naming the wave and the script.
**
** Determinism: scripts are resumed in the order their waves started; the
** tape is written in a canonical form (mod_value_put).
*/
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <lauxlib.h>

#include "nav/blob.h"
#include "script/mod_int.h"

static const char co_key = 'c'; /* registry: the running scripts' threads */

typedef enum { RESUMED_YIELD, RESUMED_DONE } resumed;

typedef struct wave_call {
  mod_version *v;
  size_t i;              /* v->co[i] */
  bool first;
  resumed how;
  int64_t ticks;         /* td.wait's */
  char where[256];       /* of an error, from the coroutine */
  char trace[1024];
} wave_call;

static mod_co *co_at(mod_version *v, size_t i) { return &v->co[i]; }

static void hold(mod_version *v, int32_t wave, int delta) {
  const td_mod_options *o = &v->mod->opt;
  if (o->wave_hold) o->wave_hold(o->wave_ud, wave, delta);
}

/* Resumes v->co[a->i] (the first time: with its function and the wave's
** number). An error in the script is raised here, with its position and
** traceback kept in a (the coroutine's stack is left as it failed). */
static int tramp_resume(lua_State *L) {
  wave_call *a = lua_touserdata(L, 1);
  mod_co *c = co_at(a->v, a->i);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &co_key);
  lua_rawgeti(L, -1, c->ref);
  lua_State *co = lua_tothread(L, -1);
  mod_use_env(L, a->v->h[c->h].mod); /* the script's own mod's globals */
  int nargs = 0;
  if (a->first) {
    mod_push_handler(L, c->h);
    lua_xmove(L, co, 1);
    lua_pushinteger(co, c->wave);
    nargs = 1;
  }
  int nres = 0;
  a->v->co_cur = c;
  int st = lua_resume(co, L, nargs, &nres);
  a->v->co_cur = NULL;
  if (st == LUA_YIELD) {
    a->how = RESUMED_YIELD;
    a->ticks = nres > 0 ? lua_tointeger(co, -1) : 1;
    lua_pop(co, nres);
    return 0;
  }
  if (st == LUA_OK) {
    a->how = RESUMED_DONE;
    lua_pop(co, nres);
    return 0;
  }
  td_lsandbox_where(co, 0, a->where, sizeof a->where);
  luaL_traceback(L, co, NULL, 0);
  snprintf(a->trace, sizeof a->trace, "%s", lua_tostring(L, -1));
  lua_pop(L, 1);
  lua_xmove(co, L, 1); /* the error object */
  return lua_error(L);
}

/* Drops v->co[i]: its thread let go, its wave released, its tape freed. */
static void drop(mod_version *v, size_t i) {
  mod_co *c = co_at(v, i);
  lua_State *L = td_lsandbox_state(v->sb);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &co_key);
  luaL_unref(L, -1, c->ref); /* frees no memory it would need */
  lua_pop(L, 1);
  if (!v->replaying) hold(v, c->wave, -1);
  td_blob_free(&c->tape);
  memmove(c, c + 1, (v->nco - i - 1) * sizeof *c);
  v->nco--;
}

/* One resume of v->co[i]. true when it still runs (yielded). */
static bool resume(mod_version *v, size_t i, bool first, td_lsandbox_report *rep, bool *failed) {
  lua_State *L = td_lsandbox_state(v->sb);
  wave_call a = {.v = v, .i = i, .first = first};
  *failed = false;
  if (!lua_checkstack(L, 4)) {
    *failed = true;
    rep->status = TD_LSANDBOX_OOM;
    snprintf(rep->message, sizeof rep->message, "out of memory");
    rep->where[0] = rep->traceback[0] = '\0';
    return false;
  }
  lua_pushcfunction(L, tramp_resume);
  lua_pushlightuserdata(L, &a);
  v->at = v->h[co_at(v, i)->h].mod;
  v->in_call = true;
  int rc = td_lsandbox_pcall(v->sb, 1, 0, rep);
  v->in_call = false;
  if (rc != 0) {
    if (a.where[0]) snprintf(rep->where, sizeof rep->where, "%s", a.where);
    if (a.trace[0]) snprintf(rep->traceback, sizeof rep->traceback, "%s", a.trace);
    *failed = true;
    return false;
  }
  if (a.how == RESUMED_DONE) return false;
  mod_co *c = co_at(v, i);
  c->yields++;
  c->wake = v->mod->tick + (uint64_t)(a.ticks > 0 ? a.ticks : 1);
  return true;
}

/* Resumes v->co[i] in the game; drops it when it ended or failed. */
static void step(mod_version *v, size_t i, bool first) {
  td_lsandbox_report rep;
  bool failed;
  if (resume(v, i, first, &rep, &failed)) return;
  if (failed) mod_stop_handler(v, co_at(v, i)->h, &rep);
  drop(v, i);
}

/* The script of wave n, or (size_t)-1. */
static size_t script_of(const mod_version *v, int32_t wave) {
  for (size_t i = 0; i < v->hn; i++)
    if (v->h[i].kind == H_WAVE && v->h[i].wave == wave) return i;
  return (size_t)-1;
}

/* A new coroutine for handler h (its thread anchored in the registry).
** Its index, or -1 when out of memory. [-0, +0] */
static int64_t spawn_co(mod_version *v, size_t h, int32_t wave) {
  mod_co *p = td_mem_grow(v->co, &v->co_cap, v->nco + 1, sizeof *p);
  if (!p) return -1;
  v->co = p;
  lua_State *L = td_lsandbox_state(v->sb);
  if (!lua_checkstack(L, 3)) return -1;
  lua_rawgetp(L, LUA_REGISTRYINDEX, &co_key);
  if (lua_isnil(L, -1)) return lua_pop(L, 1), -1;
  lua_newthread(L); /* an allocation: the caller runs inside a protected call */
  int ref = luaL_ref(L, -2);
  lua_pop(L, 1);
  mod_co *c = &v->co[v->nco++];
  memset(c, 0, sizeof *c);
  c->wave = wave;
  c->h = h;
  c->ref = ref;
  return (int64_t)(v->nco - 1);
}

typedef struct start_call {
  mod_version *v;
  size_t h;
  int32_t wave;
  int64_t i;
} start_call;

static int tramp_spawn(lua_State *L) {
  start_call *s = lua_touserdata(L, 1);
  s->i = spawn_co(s->v, s->h, s->wave);
  if (s->i < 0) return luaL_error(L, "out of memory");
  return 0;
}

void mod_wave_open(lua_State *L) {
  lua_newtable(L);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &co_key);
}

void mod_wave_start(mod_version *v, int32_t wave) {
  size_t h = script_of(v, wave);
  if (h == (size_t)-1) return; /* a wave of data */
  /* the world started it held (td_world_set_scripted_waves) */
  if (v->h[h].disabled) {
    hold(v, wave, -1);
    return;
  }
  start_call s = {.v = v, .h = h, .wave = wave};
  td_err err;
  if (td_lsandbox_call(v->sb, v->mod->name, tramp_spawn, &s, 0, 0, &err) != 0) {
    td_lsandbox_report rep = {.status = TD_LSANDBOX_OOM};
    snprintf(rep.message, sizeof rep.message, "%s", err.msg);
    mod_stop_handler(v, h, &rep);
    hold(v, wave, -1);
    return;
  }
  step(v, (size_t)s.i, true);
}

void mod_wave_tick(mod_version *v, uint64_t tick) {
  for (size_t i = 0; i < v->nco;) {
    mod_co *c = co_at(v, i);
    if (c->wake > tick) {
      i++;
      continue;
    }
    size_t before = v->nco;
    step(v, i, c->yields == 0);
    if (v->nco == before) i++; /* still running; else i is the next one now */
  }
}

void mod_wave_drop_all(mod_version *v) {
  /* the state goes with the version: only the waves and the tapes */
  for (size_t i = 0; i < v->nco; i++) {
    hold(v, v->co[i].wave, -1);
    td_blob_free(&v->co[i].tape);
  }
  v->nco = 0;
}

/* ---- the tape ---------------------------------------------------------------- */

int mod_wave_taped(lua_State *L, mod_version *v, const char *name, lua_CFunction fn) {
  mod_co *c = v->co_cur;
  if (!c) return fn(L);
  if (v->replaying) {
    td_blob_reader *r = &v->tape_in;
    size_t at = r->pos;
    uint32_t len = td_blob_get_u32(r);
    const char *got = r->failed || len > r->len - r->pos ? NULL : (const char *)r->data + r->pos;
    if (!got || len != strlen(name) || memcmp(got, name, len) != 0) {
      /* a call that raised before the save left no entry: it raises again
      ** here, the tape where it was (a pcall around it goes on the same way) */
      r->pos = at;
      r->failed = false;
      return luaL_error(L, "wave %d's script called %s where it had called %.*s before the "
                        "save: it reads something the tape does not hold", (int)c->wave, name,
                        got ? (int)len : 4, got ? got : "none");
    }
    r->pos += len;
    uint32_t n = td_blob_get_u32(r);
    if (r->failed || n > 64) return luaL_error(L, "wave %d's tape: corrupt", (int)c->wave);
    luaL_checkstack(L, (int)n, "tape");
    for (uint32_t k = 0; k < n; k++) {
      const char *bad = mod_value_get(L, r);
      if (bad) return luaL_error(L, "wave %d's tape: %s", (int)c->wave, bad);
    }
    return (int)n;
  }
  int n = fn(L);
  td_blob *t = &c->tape;
  size_t len = strlen(name);
  td_blob_u32(t, (uint32_t)len);
  td_blob_bytes(t, name, len);
  td_blob_u32(t, (uint32_t)n);
  char what[96];
  snprintf(what, sizeof what, "what %s returned to wave %d's script", name, (int)c->wave);
  for (int k = n; k > 0; k--) mod_value_put(L, t, -k, what);
  if (t->failed) return luaL_error(L, "out of memory");
  return n;
}

int mod_l_wait(lua_State *L) {
  mod_version *v = mod_version_of(L);
  mod_co *c = v->co_cur;
  lua_Number s = luaL_checknumber(L, 1);
  if (!c || !lua_isyieldable(L))
    return luaL_error(L, "td.wait: only in a wave script (td.wave(function ... end))");
  if (!(s >= 0) || s > 86400) return luaL_error(L, "td.wait: seconds must be 0 .. 86400");
  lua_Integer ticks = (lua_Integer)llround(s * 60.0);
  lua_pushinteger(L, ticks < 1 ? 1 : ticks);
  return lua_yield(L, 1);
}

size_t td_mod_script_waves(const td_mod *m, int32_t *out, size_t cap) {
  const mod_version *v = m->cur;
  size_t n = 0;
  for (size_t i = 0; i < v->hn; i++)
    if (v->h[i].kind == H_WAVE) {
      if (n < cap) out[n] = v->h[i].wave;
      n++;
    }
  return n;
}

int32_t td_mod_script_wave(const td_mod *m) {
  return m->cur && m->cur->co_cur ? m->cur->co_cur->wave : 0;
}

/* ---- saves ------------------------------------------------------------------- */

void mod_wave_save(const mod_version *v, td_blob *b) {
  td_blob_u32(b, (uint32_t)v->nco);
  for (size_t i = 0; i < v->nco; i++) {
    const mod_co *c = &v->co[i];
    td_blob_i32(b, c->wave);
    td_blob_u64(b, c->wake);
    td_blob_u32(b, c->yields);
    td_blob_u64(b, c->tape.len);
    td_blob_bytes(b, c->tape.data, c->tape.len);
  }
}

int mod_wave_load(mod_version *v, td_blob_reader *r, td_err *err) {
  const char *name = v->mod->name;
  uint32_t n = td_blob_get_u32(r);
  if (r->failed || n > 100000) return td_err_set(err, "%s: wave scripts in the save: corrupt", name);
  for (uint32_t k = 0; k < n; k++) {
    int32_t wave = td_blob_get_i32(r);
    uint64_t wake = td_blob_get_u64(r);
    uint32_t yields = td_blob_get_u32(r);
    uint64_t len = td_blob_get_u64(r);
    if (r->failed || len > r->len - r->pos || yields == 0)
      return td_err_set(err, "%s: wave scripts in the save: corrupt", name);
    size_t h = script_of(v, wave);
    if (h == (size_t)-1)
      return td_err_set(err, "%s: the save has wave %d's script running, the mod has none",
                        name, (int)wave);
    start_call s = {.v = v, .h = h, .wave = wave};
    if (td_lsandbox_call(v->sb, name, tramp_spawn, &s, 0, 0, err) != 0) return -1;
    size_t i = (size_t)s.i;
    mod_co *c = co_at(v, i);
    td_blob_bytes(&c->tape, r->data + r->pos, (size_t)len); /* the tape goes on growing */
    if (c->tape.failed) return td_err_set(err, "%s: out of memory", name);
    v->replaying = true;
    v->tape_in = td_blob_read(r->data + r->pos, (size_t)len);
    r->pos += (size_t)len;
    td_lsandbox_report rep;
    bool failed = false, running = true;
    for (uint32_t y = 0; y < yields && running; y++) running = resume(v, i, y == 0, &rep, &failed);
    bool whole = v->tape_in.pos == v->tape_in.len;
    v->replaying = false;
    c = co_at(v, i);
    if (failed || !running || !whole) {
      td_err_set(err, "%s: wave %d's script (%s) does not come back to where it was saved: %s",
                 name, (int)wave, v->h[h].where,
                 failed ? rep.message
                        : !running ? "it ended early"
                                   : "it stopped before the end of its tape");
      drop(v, i);
      return -1;
    }
    c->yields = yields;
    c->wake = wake;
  }
  return 0;
}
