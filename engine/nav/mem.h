/*
** mem.h: the one allocation hook of td, and the error buffer used by
** every fallible function.
**
** Memory: every byte the engine's C layers allocate goes through
** td_mem_alloc/td_mem_realloc/td_mem_free, which call one hook with the
** shape of lua_Alloc (ud, ptr, old size, new size). Tests install a hook
** that fails the N-th allocation to reach every error path. The hook is
** process-wide: set it once, before any world exists.
**
** A meter (td_mem_meter_set) counts the bytes that pass through these
** functions while it is set, and can cap them: an allocation or growth that
** would take its live bytes past its limit fails (NULL, as out of memory)
** and sets its `over` flag, so the caller can name the limit instead of
** reporting a plain out-of-memory. The map loader meters its C side with it.
** Like the hook it is process-wide, and meant for a bounded stretch of
** single-threaded work: set it, do the work, set the previous one back.
** Determinism: none of this reads a clock or depends on addresses.
*/
#ifndef TD_MEM_H
#define TD_MEM_H

#include <stddef.h>

/* Same contract as lua_Alloc: nsize == 0 frees and returns NULL;
** otherwise returns the (re)allocated block or NULL on failure, in which
** case ptr is left untouched. */
typedef void *(*td_alloc_fn)(void *ud, void *ptr, size_t osize, size_t nsize);

void td_mem_set_allocator(td_alloc_fn fn, void *ud);  /* NULL restores malloc */
void td_mem_get_allocator(td_alloc_fn *fn, void **ud);

void *td_mem_alloc(size_t size);                       /* NULL on failure or size 0 */
void *td_mem_calloc(size_t count, size_t size);        /* zeroed; overflow-checked */
void *td_mem_realloc(void *ptr, size_t osize, size_t nsize);
void *td_mem_grow(void *ptr, size_t *cap, size_t need, size_t elem); /* geometric */
void td_mem_free(void *ptr, size_t size);              /* size: as allocated */

/* Bytes counted while a meter is set: live += new size - old size on every
** allocation, growth, shrink and free (frees of blocks allocated before it
** was set count too: start live at what the metered work already holds). */
typedef struct td_mem_meter {
  size_t live;   /* bytes counted now (in: the starting count) */
  size_t peak;   /* out: the most live ever was */
  size_t limit;  /* in: 0 no limit; else live may not pass it */
  int over;      /* out: nonzero once an allocation was refused for the limit */
} td_mem_meter;

/* Sets the meter (NULL: none) and returns the previous one. */
td_mem_meter *td_mem_meter_set(td_mem_meter *m);

/* Error buffer: one line, "what: why", filled by the function that failed. */
typedef struct td_err td_err;

/* Reads a whole file through the hook: *buf (capacity *cap: free it with
** td_mem_free(*buf, *cap)) holds *len bytes. A file of exactly max bytes
** loads; a larger one is refused. 0 ok, -1 with err set ("path: cannot
** open: ...", "path: file is larger than N bytes", "path: out of memory",
** "path: cannot read: ...") and nothing allocated. */
int td_mem_read_file(const char *path, size_t max, char **buf, size_t *len, size_t *cap,
                     td_err *err);

struct td_err {
  char msg[512];
};

/* printf-style; err may be NULL. Always returns -1 so callers can
** `return td_err_set(err, ...)`. */
int td_err_set(td_err *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#endif
