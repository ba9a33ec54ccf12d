/*
** lsandbox.c: the Lua sandbox for untrusted data files.
** See lsandbox.h for the contract. Design note: everything that may
** allocate inside the state (loading, creating the environment, reading
** results) happens inside one lua_pcall, so a memory error can never escape
** to Lua's panic handler; the limits are enforced by the allocator (memory)
** and a count hook (instructions), and classified after the call from flags
** the sandbox keeps, not from message text a script could forge.
*/
#include "script/lsandbox.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <lauxlib.h>

enum { FAIL_NONE, FAIL_CAP, FAIL_OOM };

struct td_lsandbox {
  lua_State *L;
  size_t mem_limit;       /* invariant: mem_used <= mem_limit */
  size_t mem_used, mem_peak;
  uint64_t instr_limit;
  uint64_t instr_count;   /* of the current run, in multiples of the hook step */
  bool instr_tripped;     /* sticky until the next run starts */
  int alloc_fail;         /* why the last refused allocation failed */
  bool load_oom;          /* the current run's load failed for memory */
  bool sticky_memory;     /* option: a cap hit trips like the instruction cap */
  bool mem_tripped;       /* sticky until the next run starts */
  bool limit_tripped;     /* td_lsandbox_raise_limit: sticky until the next run */
  char limit_msg[256];
  bool active;            /* a run or call is under way */
  bool in_handler;        /* the message handler may use TD_LSANDBOX_RESERVE */
  td_lsandbox_report *report; /* filled by report_handler */
  char hook_where[256];   /* where the count hook last found the script */
  char fail_where[256];   /* where the first refused allocation of the call was */
  char fail_trace[2048];  /* and the stack then (note_failure) */
};

/* Whether the allocator may read the stack (lua_getstack, lua_getinfo) when
** it refuses an allocation. Lua 5.4.0 .. 5.4.5 keep every stack pointer
** valid while they allocate; from 5.4.6 on, a stack reallocation turns the
** frames' pointers into offsets around its allocation (ldo.c, relstack),
** so there the position falls back to the count hook's last sample. */
#if LUA_VERSION_RELEASE_NUM < 50406
#define WHERE_AT_ALLOC 1
#else
#define WHERE_AT_ALLOC 0
#endif

/* A refused allocation during a call with a report: remembers the position
** of the running function and the stack (file:line of each Lua function),
** for the memory error that follows, which Lua raises without calling the
** message handler. Only the first one of a call: a sticky cap then stops
** the call, and later refusals are the unwinding's. Allocates nothing. */
static void note_failure(td_lsandbox *sb) {
#if WHERE_AT_ALLOC
  if (!sb->active || !sb->report || sb->in_handler || sb->fail_where[0]) return;
  lua_Debug ar;
  size_t n = 0, cap = sizeof sb->fail_trace;
  n += (size_t)snprintf(sb->fail_trace, cap, "stack traceback:");
  for (int level = 0; n < cap && lua_getstack(sb->L, level, &ar); level++) {
    if (!lua_getinfo(sb->L, "Sl", &ar)) continue;
    const char *src = ar.source;
    if (*src == '=' || *src == '@') src++;
    if (ar.currentline <= 0) {
      n += (size_t)snprintf(sb->fail_trace + n, cap - n, "\n\t[C]: in ?");
      continue;
    }
    if (!sb->fail_where[0])
      snprintf(sb->fail_where, sizeof sb->fail_where, "%s:%d", src, ar.currentline);
    if (*ar.what == 'm')
      n += (size_t)snprintf(sb->fail_trace + n, cap - n, "\n\t%s:%d: in main chunk", src,
                            ar.currentline);
    else
      n += (size_t)snprintf(sb->fail_trace + n, cap - n, "\n\t%s:%d: in function <%s:%d>", src,
                            ar.currentline, src, ar.linedefined);
  }
  if (!sb->fail_where[0]) sb->fail_trace[0] = '\0';
#else
  (void)sb;
#endif
}

static void count_hook(lua_State *L, lua_Debug *ar);

/* The one allocator of the state: counts bytes against the cap, then defers
** to td_mem. Shrinking and freeing never fail on our side. */
static void *sandbox_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  td_lsandbox *sb = ud;
  size_t old = ptr ? osize : 0; /* for new blocks Lua passes a type tag */
  if (nsize == 0) {
    td_mem_free(ptr, old);
    sb->mem_used -= old;
    return NULL;
  }
  size_t limit = sb->mem_limit + (sb->in_handler ? TD_LSANDBOX_RESERVE : 0);
  if (nsize > old && (sb->mem_used > limit || nsize - old > limit - sb->mem_used)) {
    sb->alloc_fail = FAIL_CAP;
    note_failure(sb);
    if (sb->sticky_memory && sb->active && !sb->in_handler && !sb->mem_tripped) {
      /* lua_sethook may be called at any point (it only sets fields) */
      sb->mem_tripped = true;
      lua_sethook(sb->L, count_hook, LUA_MASKCOUNT, 1);
    }
    return NULL;
  }
  void *p = td_mem_realloc(ptr, old, nsize);
  if (!p) {
    sb->alloc_fail = FAIL_OOM;
    note_failure(sb);
    return NULL;
  }
  sb->mem_used = sb->mem_used - old + nsize;
  if (sb->mem_used > sb->mem_peak) sb->mem_peak = sb->mem_used;
  return p;
}

static td_lsandbox *sandbox_of(lua_State *L) {
  return *(td_lsandbox **)lua_getextraspace(L);
}

/* Count hook. After the trip it re-arms itself for every instruction, so
** catching the error (pcall in a later, richer environment) only delays the
** next one by a single instruction. */
static void count_hook(lua_State *L, lua_Debug *ar) {
  td_lsandbox *sb = sandbox_of(L);
  if (sb->mem_tripped) {
    lua_pushliteral(L, "memory limit exceeded");
    lua_error(L);
  }
  if (sb->limit_tripped) {
    lua_pushstring(L, sb->limit_msg);
    lua_error(L);
  }
  if (!sb->instr_tripped) {
    /* remember the position, for errors that leave no stack (memory), where
    ** the allocator cannot read it itself */
    if (!WHERE_AT_ALLOC && sb->report && lua_getinfo(L, "Sl", ar) && ar->currentline > 0) {
      const char *src = ar->source;
      if (*src == '=' || *src == '@') src++;
      snprintf(sb->hook_where, sizeof sb->hook_where, "%s:%d", src, ar->currentline);
    }
    sb->instr_count += TD_LSANDBOX_HOOK_STEP;
    if (sb->instr_count < sb->instr_limit) return;
    sb->instr_tripped = true;
    lua_sethook(L, count_hook, LUA_MASKCOUNT, 1);
  }
  lua_pushliteral(L, "instruction limit exceeded");
  lua_error(L);
}

void td_lsandbox_where(lua_State *L, int level, char *out, size_t cap) {
  lua_Debug ar;
  out[0] = '\0';
  for (; lua_getstack(L, level, &ar); level++) {
    if (!lua_getinfo(L, "Sl", &ar) || ar.currentline <= 0) continue;
    const char *src = ar.source;
    if (*src == '=' || *src == '@') src++;
    snprintf(out, cap, "%s:%d", src, ar.currentline);
    return;
  }
}

int td_lsandbox_raise_limit(lua_State *L, const char *message) {
  td_lsandbox *sb = sandbox_of(L);
  if (sb && sb->active && !sb->limit_tripped) {
    sb->limit_tripped = true;
    snprintf(sb->limit_msg, sizeof sb->limit_msg, "%s", message);
    lua_sethook(L, count_hook, LUA_MASKCOUNT, 1);
  }
  lua_pushstring(L, message);
  return lua_error(L);
}

/* Message handler: makes sure the error object is a string. Kept to one
** line of output; a traceback can join here when mods need it. */
static int message_handler(lua_State *L) {
  int t = lua_type(L, 1);
  if (t == LUA_TSTRING) return 1;
  if (t == LUA_TNUMBER) {
    lua_tostring(L, 1); /* converts in place */
    return 1;
  }
  lua_pushfstring(L, "(error object is a %s value)", lua_typename(L, t));
  return 1;
}

td_lsandbox *td_lsandbox_create(const td_lsandbox_limits *limits, td_err *err) {
  td_lsandbox *sb = td_mem_calloc(1, sizeof *sb);
  if (!sb) {
    td_err_set(err, "lua sandbox: out of memory");
    return NULL;
  }
  sb->mem_limit = limits && limits->memory ? limits->memory : TD_LSANDBOX_DEFAULT_MEMORY;
  sb->instr_limit = limits && limits->instructions ? limits->instructions
                                                   : TD_LSANDBOX_DEFAULT_INSTRUCTIONS;
  sb->sticky_memory = limits && limits->sticky_memory;
  sb->L = lua_newstate(sandbox_alloc, sb);
  if (!sb->L) {
    td_err_set(err, "lua sandbox: %s", sb->alloc_fail == FAIL_CAP
                                           ? "memory limit too small for a Lua state"
                                           : "out of memory");
    td_mem_free(sb, sizeof *sb);
    return NULL;
  }
  *(td_lsandbox **)lua_getextraspace(sb->L) = sb;
  return sb;
}

void td_lsandbox_destroy(td_lsandbox *sb) {
  if (!sb) return;
  lua_close(sb->L);
  td_mem_free(sb, sizeof *sb);
}

lua_State *td_lsandbox_state(td_lsandbox *sb) { return sb->L; }
size_t td_lsandbox_memory(const td_lsandbox *sb) { return sb->mem_used; }
size_t td_lsandbox_memory_peak(const td_lsandbox *sb) { return sb->mem_peak; }
uint64_t td_lsandbox_instructions(const td_lsandbox *sb) { return sb->instr_count; }

/* Arms the limits for one top-level run. */
static void begin(td_lsandbox *sb) {
  sb->instr_count = 0;
  sb->instr_tripped = false;
  sb->alloc_fail = FAIL_NONE;
  sb->load_oom = false;
  sb->mem_tripped = false;
  sb->limit_tripped = false;
  sb->in_handler = false;
  sb->hook_where[0] = '\0';
  sb->fail_where[0] = '\0';
  sb->fail_trace[0] = '\0';
  lua_sethook(sb->L, count_hook, LUA_MASKCOUNT, TD_LSANDBOX_HOOK_STEP);
}

/* One line: control characters (a newline in a message) become spaces. */
static void flatten(td_err *err) {
  if (!err) return;
  for (char *p = err->msg; *p; p++)
    if ((unsigned char)*p < 0x20 || *p == 0x7f) *p = ' ';
}

/* Puts the error on top of the stack into err. Lua prefixes positions with
** the chunk id, which it truncates to LUA_IDSIZE - 1 characters: such a
** prefix is replaced by the full name; a message without it gets one. */
static void set_error(td_lsandbox *sb, int status, const char *name, td_err *err) {
  if (sb->instr_tripped) {
    td_err_set(err, "%s: instruction limit exceeded", name);
  } else if (status == LUA_ERRMEM || sb->load_oom || sb->mem_tripped ||
             (status == LUA_ERRERR && sb->alloc_fail != FAIL_NONE)) {
    td_err_set(err, "%s: %s", name,
               sb->alloc_fail == FAIL_OOM ? "out of memory" : "memory limit exceeded");
  } else {
    const char *msg = lua_tostring(sb->L, -1);
    if (!msg) msg = "(no error message)";
    size_t n = strlen(name), k = n < LUA_IDSIZE - 1 ? n : LUA_IDSIZE - 1;
    if (strncmp(msg, name, k) == 0 && msg[k] == ':')
      td_err_set(err, "%s%s", name, msg + k);
    else
      td_err_set(err, "%s: %s", name, msg);
  }
  flatten(err);
}

typedef struct run_args {
  td_lsandbox *sb;
  const char *name, *src;
  size_t len;
  bool has_env;
} run_args;

/* Protected body of td_lsandbox_run: [ud, env?] -> [result]. */
static int run_chunk(lua_State *L) {
  run_args *a = lua_touserdata(L, 1);
  const char *chunkname = lua_pushfstring(L, "=%s", a->name);
  int st = luaL_loadbufferx(L, a->src, a->len, chunkname, "t");
  if (st != LUA_OK) {
    if (st == LUA_ERRMEM) a->sb->load_oom = true;
    return lua_error(L);
  }
  if (a->has_env) lua_pushvalue(L, 2);
  else lua_newtable(L);
  /* a main chunk has exactly one upvalue, _ENV */
  if (!lua_setupvalue(L, -2, 1)) lua_pop(L, 1);
  lua_call(L, 0, 1);
  return 1;
}

int td_lsandbox_run(td_lsandbox *sb, const char *name, const char *src,
                    size_t len, int env, td_err *err) {
  lua_State *L = sb->L;
  if (env != 0) {
    env = lua_absindex(L, env);
    if (lua_type(L, env) != LUA_TTABLE)
      return td_err_set(err, "%s: environment is not a table", name);
    if (!lua_checkstack(L, 1)) return td_err_set(err, "%s: out of memory", name);
    lua_pushvalue(L, env); /* run_chunk's argument */
  }
  run_args a = {.sb = sb, .name = name, .src = src, .len = len, .has_env = env != 0};
  return td_lsandbox_call(sb, name, run_chunk, &a, env != 0 ? 1 : 0, 1, err);
}

int td_lsandbox_call(td_lsandbox *sb, const char *name, lua_CFunction fn,
                     void *ud, int nargs, int nresults, td_err *err) {
  lua_State *L = sb->L;
  if (!lua_checkstack(L, 3)) {
    lua_pop(L, nargs);
    return td_err_set(err, "%s: out of memory", name);
  }
  int base = lua_gettop(L) - nargs;
  lua_pushcfunction(L, message_handler);
  lua_pushcfunction(L, fn);
  lua_pushlightuserdata(L, ud);
  lua_rotate(L, base + 1, 3); /* handler, fn, ud below the arguments */
  begin(sb);
  sb->active = true;
  int st = lua_pcall(L, nargs + 1, nresults, base + 1);
  sb->active = false;
  if (st != LUA_OK) {
    set_error(sb, st, name, err);
    lua_settop(L, base);
    return -1;
  }
  lua_remove(L, base + 1);
  return 0;
}


/* ---- calls with a report (mods) ----------------------------------------- */

void td_lsandbox_set_instructions(td_lsandbox *sb, uint64_t instructions) {
  sb->instr_limit = instructions ? instructions : TD_LSANDBOX_DEFAULT_INSTRUCTIONS;
}

static void copy_line(char *dst, size_t size, const char *src) {
  snprintf(dst, size, "%s", src);
  for (char *p = dst; *p; p++)
    if ((unsigned char)*p < 0x20 || *p == 0x7f) *p = ' ';
}

/* Message handler of td_lsandbox_pcall: records where the error happened
** and the traceback into the sandbox's report, and returns the message as
** a string. It never calls a metamethod (an error object's __tostring
** could loop or raise), and allocates within the reserve. */
static int report_handler(lua_State *L) {
  td_lsandbox *sb = sandbox_of(L);
  td_lsandbox_report *rep = sb->report;
  sb->in_handler = true;
  int t = lua_type(L, 1);
  if (t == LUA_TNUMBER) lua_tostring(L, 1); /* converts in place */
  else if (t != LUA_TSTRING) {
    lua_pushfstring(L, "(error object is a %s value)", lua_typename(L, t));
    lua_replace(L, 1);
  }
  td_lsandbox_where(L, 1, rep->where, sizeof rep->where);
  luaL_traceback(L, L, NULL, 1);
  snprintf(rep->traceback, sizeof rep->traceback, "%s", lua_tostring(L, -1));
  lua_pop(L, 1);
  sb->in_handler = false;
  lua_settop(L, 1);
  return 1;
}

int td_lsandbox_pcall(td_lsandbox *sb, int nargs, int nresults, td_lsandbox_report *rep) {
  lua_State *L = sb->L;
  rep->status = TD_LSANDBOX_OK;
  rep->message[0] = rep->where[0] = rep->traceback[0] = '\0';
  int fn = lua_gettop(L) - nargs;
  if (!lua_checkstack(L, 2)) {
    lua_settop(L, fn - 1);
    rep->status = TD_LSANDBOX_OOM;
    copy_line(rep->message, sizeof rep->message, "out of memory");
    return -1;
  }
  lua_pushcfunction(L, report_handler); /* a light C function: no allocation */
  lua_insert(L, fn);
  begin(sb);
  sb->report = rep;
  sb->active = true;
  int st = lua_pcall(L, nargs, nresults, fn);
  sb->active = false;
  sb->in_handler = false;
  sb->report = NULL;
  if (st == LUA_OK) {
    lua_remove(L, fn);
    return 0;
  }
  if (sb->instr_tripped) {
    rep->status = TD_LSANDBOX_INSTRUCTIONS;
    copy_line(rep->message, sizeof rep->message, "instruction limit exceeded");
  } else if (sb->limit_tripped) {
    rep->status = TD_LSANDBOX_LIMIT;
    copy_line(rep->message, sizeof rep->message, sb->limit_msg);
  } else if (st == LUA_ERRMEM || sb->mem_tripped ||
             (st == LUA_ERRERR && sb->alloc_fail != FAIL_NONE)) {
    rep->status = sb->alloc_fail == FAIL_OOM ? TD_LSANDBOX_OOM : TD_LSANDBOX_MEMORY;
    copy_line(rep->message, sizeof rep->message,
              sb->alloc_fail == FAIL_OOM ? "out of memory" : "memory limit exceeded");
    if (sb->fail_where[0]) { /* the allocation's own position and stack */
      snprintf(rep->where, sizeof rep->where, "%s", sb->fail_where);
      snprintf(rep->traceback, sizeof rep->traceback, "%s", sb->fail_trace);
    } else if (!rep->where[0] && sb->hook_where[0]) { /* a sample, up to a hook step before */
      snprintf(rep->where, sizeof rep->where, "%s", sb->hook_where);
      size_t k = strlen(rep->message);
      snprintf(rep->message + k, sizeof rep->message - k, " (at or after this line)");
    }
  } else {
    rep->status = TD_LSANDBOX_ERROR;
    const char *msg = lua_tostring(L, -1);
    copy_line(rep->message, sizeof rep->message, msg ? msg : "(no error message)");
  }
  lua_settop(L, fn - 1);
  return -1;
}
