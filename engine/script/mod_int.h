/*
** mod_int.h: what the parts of the mod layer share (not a public header).
**   mod.c       versions, the sandboxed environment, loading, include,
**               handlers and their dispatch, errors and log, reload
**   mod_data.c  the data stage: schemas, declarations, rules building
**   mod_doc.c   docs/lua-api.md and the LuaLS stubs from the same tables
**   mod_state.c td.state: the mod's plain data, written to and read from saves
**   mod_wave.c  wave scripts: coroutines driven by the ticks, their tapes
**   mod_hint.c  "did you mean" for names nil at run time
** Memory: a version owns its sandbox, rules, handlers and file list; its
** build (declarations) lives only while it loads. Everything goes through
** td_mem. Stack effects are noted as in the Lua manual.
*/
#ifndef TD_MOD_INT_H
#define TD_MOD_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <lua.h>

#include "script/lsandbox.h"
#include "script/mod.h"

#define MOD_NAME TD_RULES_NAME_MAX
#define MOD_WHERE 300

#if defined(__GNUC__)
#define MOD_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define MOD_NORETURN_PRINTF(f, a) __attribute__((noreturn, format(printf, f, a)))
#else
#define MOD_PRINTF(f, a)
#define MOD_NORETURN_PRINTF(f, a)
#endif

/* ---- schemas (mod_data.c): the validator, the defaults and the docs ---- */

typedef enum mod_field_type {
  FT_NAME,    /* char[MOD_NAME]: an identifier (mod_data.c: 1 .. MOD_NAME - 1 bytes
              ** of ASCII letters, digits, '_', '-', '.') */
  FT_INT,     /* int32_t in [lo, hi] */
  FT_NUM,     /* float in [lo, hi] (lo exclusive with FF_LO_OPEN) */
  FT_BOOL,    /* bool */
  FT_ENUM,    /* int-sized enum: index of the string in choices ("a|b|c") */
  FT_REF,     /* char[MOD_NAME]: a name (as FT_NAME) resolved later (choices: what
              ** it names) */
  FT_RESIST,  /* enemy resistances: { damage_type_name = share, ... } */
  FT_EFFECT,  /* a td_effect table (mod_effect_schema) */
  FT_TARGET,  /* a targeting mode name or a function */
  FT_LEVELS,  /* the array of a tower's levels (mod_level_schema) */
  FT_MELEE,   /* an enemy's melee table (mod_melee_schema; offsets into td_enemy_type) */
  FT_SIEGE,   /* an enemy's siege table (mod_siege_schema; likewise) */
  FT_SPAWN,   /* a 1-based spawn index stored as int32_t (0: absent) */
  FT_TEXT     /* char[hi]: text a player reads (a title, a description): lo .. hi - 1
              ** bytes of UTF-8, one line, no control characters */
} mod_field_type;

enum {
  FF_REQUIRED = 1,      /* must be given */
  FF_LO_OPEN = 2,       /* value > lo (not >=) */
  FF_ROOT_REQUIRED = 4, /* levels: required on a tower's first level */
  FF_NOT_IN_WAVE = 8    /* groups: not allowed inside td.wave */
};

typedef struct mod_field {
  const char *name;
  mod_field_type type;
  unsigned flags;
  double lo, hi;         /* FT_INT, FT_NUM */
  double def;            /* default (numbers, booleans as 0/1, enum index) */
  const char *def_text;  /* default for the docs when def does not say it; NULL: def */
  const char *choices;   /* FT_ENUM: "a|b|c"; FT_REF: what it names */
  size_t off;            /* into the declaration record */
  const char *lua_type;  /* for the stubs */
  const char *doc;
} mod_field;

typedef struct mod_schema {
  const char *what;      /* "enemy" */
  const char *cls;       /* LuaLS class of the declaration table */
  const char *doc;
  const mod_field *fields;
  size_t count;
} mod_schema;

extern const mod_schema mod_enemy_schema, mod_melee_schema, mod_siege_schema,
    mod_soldier_schema, mod_tower_schema, mod_level_schema, mod_effect_schema,
    mod_group_schema, mod_rules_schema;

/* The Lua names of events, with the fields of their tables. */
enum {
  EVF_ENEMY = 1, EVF_TOWER = 2, EVF_ENEMY_TYPE = 4, EVF_LEVEL = 8, EVF_BASE = 16,
  EVF_WAVE = 32, EVF_REASON = 64, EVF_XY = 128, EVF_SOURCE = 256, EVF_SOLDIER = 512,
  EVF_SOLDIER_TYPE = 1024,
  EVF_LAST = EVF_SOLDIER_TYPE
};
typedef struct mod_event {
  td_event_kind kind;
  const char *name;      /* td.on(name, f) */
  const char *doc;
  unsigned fields;       /* EVF_* */
  const char *amount;    /* the name of `amount` in this event's table, or NULL */
  const char *amount_doc;
} mod_event;
extern const mod_event mod_events[];
extern const size_t mod_event_count;
const mod_event *mod_event_by_kind(td_event_kind k);
const char *mod_refusal_name(td_refusal r);

/* ---- versions ----------------------------------------------------------- */

typedef enum mod_handler_kind { H_EVENT, H_TICK, H_EVERY, H_TARGET, H_WAVE } mod_handler_kind;

typedef struct mod_handler {
  mod_handler_kind kind;
  td_event_kind event;   /* H_EVENT */
  uint32_t every;        /* H_EVERY */
  int32_t tower;         /* H_TARGET: the tower type */
  int32_t wave;          /* H_WAVE: the wave it is the script of */
  int ord;               /* 1-based among the handlers of its kind and event */
  bool disabled;
  int mod;               /* the mod that registered it (index in the list) */
  char where[MOD_WHERE]; /* "file:line" of the function's definition */
} mod_handler;

typedef struct mod_file {
  char path[512];        /* dir/rel, as messages name it */
  bool stat_ok;
  long long mtime_sec, mtime_nsec, size;
} mod_file;

typedef struct mod_build mod_build;

/* A running wave script (mod_wave.c). */
typedef struct mod_co {
  int32_t wave;
  size_t h;              /* its handler (H_WAVE) */
  int ref;               /* its thread, in the registry's script table */
  uint64_t wake;         /* the tick to resume it at */
  uint32_t yields;       /* td.wait calls so far */
  td_blob tape;          /* what td.* and math.random returned to it */
} mod_co;

typedef struct mod_version {
  td_mod *mod;
  td_lsandbox *sb;
  td_rules rules;
  mod_handler *h;
  size_t hn, hcap;
  mod_file *files;
  size_t nfiles, fcap;
  bool loading;          /* the data stage is running */
  bool in_call;          /* a runtime handler is running */
  mod_build *b;          /* declarations, while loading */
  char *pend;            /* a file being loaded (freed if loading raises) */
  size_t pend_cap;
  int include_depth;
  uint64_t hash;         /* FNV-1a 64 of the names and contents read, in order */
  mod_co *co;            /* running wave scripts, in the order their waves started */
  size_t nco, co_cap;
  mod_co *co_cur;        /* the one being resumed, NULL: none */
  bool replaying;        /* a loaded save's scripts are being replayed from tapes */
  td_blob_reader tape_in;
  char miss[48];         /* the last name read from td that td lacks, "" none */
  char miss_where[MOD_WHERE]; /* and where it was read (file:line) */
  uint64_t hashes[TD_MOD_MAX_MODS]; /* the same per mod */
  size_t first_file[TD_MOD_MAX_MODS]; /* each mod's first entry in files */
  int at;                /* the mod loading now, or whose handler runs */
} mod_version;

typedef struct mod_one {
  char dir[512];
  char name[64];
  char entry[600];       /* dir/mod.lua */
} mod_one;

struct td_mod {
  mod_one mods[TD_MOD_MAX_MODS];
  size_t nmods;
  char name[TD_MOD_MAX_MODS * 16]; /* the names joined by '+' (cut if long) */
  /* dir and entry of the mod loading now (mods[cur or pending->at]): the
  ** data stage's messages name it */
  char dir[512];
  char entry[600];
  td_mod_options opt;
  mod_version *cur, *pending;
  mod_file *stamps;      /* files of the last load or reload attempt */
  size_t nstamps, stamp_cap;
  td_mod_error *errors;
  size_t nerrors, error_cap, errors_dropped, disabled;
  char (*log)[TD_MOD_LOG_LINE_MAX];
  size_t log_first, log_count;
  uint64_t log_total;     /* lines printed since creation (never reset) */
  uint64_t rng;          /* math.random without a host generator */
  uint64_t tick;         /* of the running dispatch */
};

/* ---- shared helpers ------------------------------------------------------ */

/* mod.c */
/* snprintf that may truncate on purpose (no -Wformat-truncation). */
void mod_fmt(char *dst, size_t size, const char *fmt, ...) MOD_PRINTF(3, 4);
mod_version *mod_version_of(lua_State *L); /* upvalue 1 of a built-in */
/* Raises "where: msg" (where: the innermost Lua caller's file:line). */
void mod_raise(lua_State *L, const char *fmt, ...) MOD_NORETURN_PRINTF(2, 3);
/* file:line of the innermost Lua function on the stack ("?" if none). */
void mod_where(lua_State *L, char *out, size_t size);
/* Registers f (at index fidx) as a handler; returns it. [-0, +0] */
mod_handler *mod_add_handler(lua_State *L, mod_version *v, int fidx, mod_handler_kind kind);
/* The name of mod i of the list. */
const char *mod_name_at(const mod_version *v, int i);
/* Levenshtein distance, capped at 9. */
int mod_distance(const char *a, const char *b);

/* A table key (number or string) in a total order: numbers (integers and
** floats compared exactly) before strings (bytewise). mod_key_read reads
** the value at idx (whose string the table anchors); mod_key_push pushes
** it back [-0, +1]. For sorted_pairs and td.state's canonical order. */
typedef struct mod_key {
  int type;              /* LUA_TNUMBER or LUA_TSTRING */
  int isint;
  lua_Integer i;
  lua_Number d;
  const char *s;
  size_t len;
} mod_key;
int mod_cmp_key(const void *a, const void *b);
void mod_key_read(lua_State *L, int idx, mod_key *k);
void mod_key_push(lua_State *L, const mod_key *k);

/* mod.c: pushes handler h's function [-0, +1]; records handler hi's
** failure (rep) and disables it. */
void mod_push_handler(lua_State *L, size_t h);
/* mod.c: makes mod k's environment the global table (handlers run in it);
** pushes it [-0, +1] and returns its type (LUA_TNIL: none). */
void mod_use_env(lua_State *L, int k);
int mod_push_env(lua_State *L, int k);

/* mod_hint.c: " (did you mean 'td.spawn'?)", " (os is not available to
** mods)" or "" for a handler's error report; allocates nothing. */
void mod_hint_names(const mod_version *v, const td_lsandbox_report *rep, char *hint,
                    size_t size);
void mod_stop_handler(mod_version *v, size_t hi, const td_lsandbox_report *rep);

/* mod_state.c: one value (nil too, and tables of plain data) in td.state's
** encoding; what names it in errors ("what td.enemy_info returned"). put
** raises on what cannot be written [-0, +0]; get pushes the value [-0, +1]
** and returns NULL, or why the bytes are refused (then it pushed nil). */
void mod_value_put(lua_State *L, td_blob *b, int idx, const char *what);
const char *mod_value_get(lua_State *L, td_blob_reader *r);

/* mod_wave.c (see its top). open: the registry's table of script threads
** [-0, +0]; start: wave n began, run its script if the mod has one; tick:
** resume the scripts due; drop_all: end them all (a reload, the end);
** taped: calls fn (a td.* function or math.random) as a script's call,
** taped or answered from the tape; save/load: the running scripts. */
void mod_wave_open(lua_State *L);
void mod_wave_start(mod_version *v, int32_t wave);
void mod_wave_tick(mod_version *v, uint64_t tick);
void mod_wave_drop_all(mod_version *v);
int mod_wave_taped(lua_State *L, mod_version *v, const char *name, lua_CFunction fn);
int mod_l_wait(lua_State *L);
void mod_wave_save(const mod_version *v, td_blob *b);
int mod_wave_load(mod_version *v, td_blob_reader *r, td_err *err);

/* mod_state.c: makes td.state (a fresh table) in the td table at index td,
** and keeps it in the registry for saves. [-0, +0] */
void mod_state_open(lua_State *L, int td);

/* The built-in functions (lua_CFunctions with the version as upvalue 1),
** in doc order: td.* and the globals the sandbox adds (mod.c). */
extern const td_mod_api mod_builtin_td[];
extern const size_t mod_builtin_td_count;
extern const td_mod_api mod_builtin_globals[];
extern const size_t mod_builtin_globals_count;
/* The base library's globals the environment keeps, NULL-terminated. */
extern const char *const mod_base_globals[];

/* mod_data.c */
mod_build *mod_build_new(void);  /* NULL on OOM */
void mod_build_free(mod_build *b);
int mod_l_damage_type(lua_State *L);
int mod_l_enemy(lua_State *L);
int mod_l_soldier(lua_State *L);
int mod_l_tower(lua_State *L);
int mod_l_wave(lua_State *L);
int mod_l_group(lua_State *L);
int mod_l_rules(lua_State *L);
/* Fills v->rules from v->b (after the data stage): names to indices,
** defaults, td_rules_validate. 0 or -1 with err set. */
int mod_build_rules(mod_version *v, td_err *err);
/* The api_version check (raises). */
void mod_check_api_version(lua_State *L, mod_version *v);

#endif
