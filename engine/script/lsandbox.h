/*
** lsandbox.h: a Lua 5.4 state for untrusted data files (maps now, mods later).
**
** A sandbox is a lua_State with no library opened at all, whose every
** allocation goes through td_mem (mem.h) and is counted against a memory cap,
** and whose VM instructions are counted by a hook against an instruction cap.
** Chunks load in text mode only (precompiled bytecode can crash the VM, so
** binary chunks are refused) and run with their _ENV set to a table the
** caller chooses: by default a fresh empty one, so a data file sees no
** globals (no os, io, require, print, load, pcall, setmetatable...).
**
** Limits. The memory cap bounds the bytes the state holds at once: an
** allocation that would pass it fails, and Lua raises a memory error. The
** instruction cap bounds the VM instructions of one top-level run or call
** (counted in steps of TD_LSANDBOX_HOOK_STEP). Once tripped it is sticky for
** the rest of that run: the hook raises again before every further
** instruction, so a script's own pcall cannot swallow it. Both counters and
** the trip reset at the start of the next td_lsandbox_run/td_lsandbox_call.
**
** Errors come back in a td_err as one line: "name:line: message" (Lua's own
** format, with name in full even past LUA_IDSIZE), "name: message" for errors
** without a position, "name: instruction limit exceeded" or
** "name: memory limit exceeded" ("name: out of memory" when td_mem itself
** failed). Control characters in messages become spaces.
**
** Memory: the sandbox owns its lua_State; td_lsandbox_destroy closes it and
** frees everything. Values a run leaves on the stack belong to the caller,
** who pops them (they live until then, or until destroy).
** Determinism: no clock, no randomness of ours (Lua seeds its string hash per
** state: never depend on pairs() order). Not reentrant: a C function called
** from a running chunk must not start another run on the same sandbox.
**
** Richer errors (for mods). td_lsandbox_pcall calls a Lua value under the
** same limits and fills a td_lsandbox_report: the kind of failure, Lua's
** message as raised (no prefix added), the position of the innermost Lua
** function at the error (its full chunk name, never truncated) and a
** traceback (luaL_traceback; its chunk names are Lua's short ones). The
** message handler that builds them may use TD_LSANDBOX_RESERVE bytes past
** the memory cap, so that a script at its cap still gets a traceback.
** With limits.sticky_memory, reaching the memory cap is sticky like the
** instruction cap: the hook raises "memory limit exceeded" before every
** further instruction of the call, so pcall cannot swallow it either.
** td_lsandbox_raise_limit does the same for a limit of the host's (a C
** function the script calls refuses to go on: too many spawns in a step).
*/
#ifndef TD_LSANDBOX_H
#define TD_LSANDBOX_H

#include <stddef.h>
#include <stdint.h>

#include <lua.h>

#include "nav/mem.h"

#define TD_LSANDBOX_DEFAULT_MEMORY ((size_t)64 << 20)       /* 64 MiB */
#define TD_LSANDBOX_DEFAULT_INSTRUCTIONS ((uint64_t)10000000) /* 10 M */
#define TD_LSANDBOX_HOOK_STEP 1000  /* instructions between two hook calls */
#define TD_LSANDBOX_RESERVE ((size_t)64 << 10) /* for the message handler */

typedef struct td_lsandbox td_lsandbox;

typedef struct td_lsandbox_limits {
  size_t memory;          /* cap in bytes; 0: TD_LSANDBOX_DEFAULT_MEMORY */
  uint64_t instructions;  /* cap per run or call; 0: TD_LSANDBOX_DEFAULT_INSTRUCTIONS */
  int sticky_memory;      /* nonzero: a memory cap hit stops the whole call */
} td_lsandbox_limits;

typedef enum td_lsandbox_status {
  TD_LSANDBOX_OK = 0,
  TD_LSANDBOX_ERROR,        /* the script (or a function it called) raised */
  TD_LSANDBOX_INSTRUCTIONS, /* instruction cap */
  TD_LSANDBOX_MEMORY,       /* memory cap */
  TD_LSANDBOX_OOM,          /* td_mem refused */
  TD_LSANDBOX_LIMIT         /* td_lsandbox_raise_limit: a host's limit */
} td_lsandbox_status;

typedef struct td_lsandbox_report {
  td_lsandbox_status status;
  char message[512];     /* one line: the error as raised, or "instruction limit
                            exceeded" / "memory limit exceeded" / "out of memory" */
  char where[256];       /* "chunkname:line" of the innermost Lua function, "" unknown;
                            for a memory error, where the first refused allocation
                            was (the line of the Lua function running then, or that
                            called the C function that allocated); with Lua >= 5.4.6
                            (see lsandbox.c), the last position the count hook saw,
                            up to a hook step before, and the message then ends in
                            " (at or after this line)" */
  char traceback[2048];  /* "stack traceback:\n\t...", "" when none; a memory error's
                            is the stack at the refused allocation, with full chunk
                            names (none with Lua >= 5.4.6) */
} td_lsandbox_report;

/* limits may be NULL (defaults). NULL with err set on OOM or when the cap is
** too small for an empty state. */
td_lsandbox *td_lsandbox_create(const td_lsandbox_limits *limits, td_err *err);
void td_lsandbox_destroy(td_lsandbox *sb);                  /* NULL is a no-op */

/* The state, for pushing arguments and reading results. Every API call that
** may allocate must run inside td_lsandbox_call (Debian's Lua has no API
** checks, and an unprotected memory error would abort). */
lua_State *td_lsandbox_state(td_lsandbox *sb);

/* Loads src (text only) as chunk `name` and runs it. env == 0: _ENV is a
** fresh empty table; otherwise env is the stack index of the table to use
** (it stays on the stack). On success returns 0 with the chunk's first
** result (nil if none) pushed [-0, +1]; on error returns -1, err set, stack
** as before [-0, +0]. */
int td_lsandbox_run(td_lsandbox *sb, const char *name, const char *src,
                    size_t len, int env, td_err *err);

/* Calls fn in protected mode under the same limits and error format (name
** prefixes messages). fn receives ud as a light userdata at index 1 followed
** by the nargs values popped from the top of the stack. fn reports errors by
** raising (lua_error) a string. On success returns 0 with nresults results
** pushed [-nargs, +nresults]; on error -1 with err set [-nargs, +0]. */
int td_lsandbox_call(td_lsandbox *sb, const char *name, lua_CFunction fn,
                     void *ud, int nargs, int nresults, td_err *err);

/* Calls the value below the nargs arguments on top of the stack (a Lua
** function, or a C function pushed with lua_pushcfunction) in protected
** mode under the limits; nresults may be LUA_MULTRET. On success returns 0
** [-(nargs+1), +nresults] and rep->status is TD_LSANDBOX_OK; on error -1
** [-(nargs+1), +0] with rep filled. rep must not be NULL. */
int td_lsandbox_pcall(td_lsandbox *sb, int nargs, int nresults, td_lsandbox_report *rep);

/* From a C function called by the running script: stops the whole call
** with message (one line, "td.spawn: ..."), stickily like the instruction
** cap: raised now at the caller's line, and again before every further
** instruction of the call, so the script's pcall cannot swallow it. Never
** returns. Outside a run or call of a sandbox (L not a sandbox's state,
** not running) it is a plain lua_error. [-0, +1, v] */
int td_lsandbox_raise_limit(lua_State *L, const char *message);

/* "chunkname:line" of the innermost Lua function on L's stack from level
** on (0: the running function), "" when there is none. Allocates nothing:
** safe in a message handler and on a coroutine that failed. */
void td_lsandbox_where(lua_State *L, int level, char *out, size_t cap);

/* Changes the instruction cap for the next runs and calls (0: default). */
void td_lsandbox_set_instructions(td_lsandbox *sb, uint64_t instructions);

size_t td_lsandbox_memory(const td_lsandbox *sb);        /* bytes held now */
size_t td_lsandbox_memory_peak(const td_lsandbox *sb);   /* highest so far */
uint64_t td_lsandbox_instructions(const td_lsandbox *sb); /* last run; a multiple of the step */

#endif
