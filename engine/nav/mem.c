/*
** mem.c: the allocation hook and the error buffer.
*/
#if defined(__linux__)
#define _GNU_SOURCE /* posix_memalign, madvise(MADV_HUGEPAGE); open, fstat, fdopen */
#include <sys/mman.h>
#elif defined(__unix__) || defined(__APPLE__)
#define _POSIX_C_SOURCE 200809L /* open, fstat, fdopen */
#endif
#if defined(__unix__) || defined(__APPLE__)
#define TD_POSIX_FILES 1
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

#include "nav/mem.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Blocks this large are the per-node and per-edge arrays of big graphs,
** read in wavefront order rather than memory order: on Linux they ask for
** transparent huge pages, which removes most TLB misses (about 12% of a
** full route recompute on a 1M-node grid). A hint only: results never
** depend on it. */
#define HUGE_BLOCK ((size_t)4 << 20)
#define HUGE_ALIGN ((size_t)2 << 20)

static void *default_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  (void)ud;
  (void)osize;
  if (nsize == 0) {
    free(ptr);
    return NULL;
  }
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (!ptr && nsize >= HUGE_BLOCK) {
    void *p = NULL;
    if (posix_memalign(&p, HUGE_ALIGN, nsize) != 0) return NULL;
    madvise(p, nsize & ~(HUGE_ALIGN - 1), MADV_HUGEPAGE);
    return p;
  }
#endif
  return realloc(ptr, nsize);
}

/* The one process-wide setting of the engine: see mem.h. */
static td_alloc_fn alloc_fn = default_alloc;
static void *alloc_ud = NULL;

void td_mem_set_allocator(td_alloc_fn fn, void *ud) {
  alloc_fn = fn ? fn : default_alloc;
  alloc_ud = fn ? ud : NULL;
}

void td_mem_get_allocator(td_alloc_fn *fn, void **ud) {
  if (fn) *fn = alloc_fn;
  if (ud) *ud = alloc_ud;
}

/* The meter of mem.h: set only around a bounded piece of work. */
static td_mem_meter *meter = NULL;

td_mem_meter *td_mem_meter_set(td_mem_meter *m) {
  td_mem_meter *old = meter;
  meter = m;
  return old;
}

/* May a block of osize bytes become nsize? Refuses past the meter's limit. */
static int meter_allows(size_t osize, size_t nsize) {
  if (!meter || !meter->limit || nsize <= osize) return 1;
  size_t grow = nsize - osize;
  if (meter->live > meter->limit || grow > meter->limit - meter->live) {
    meter->over = 1;
    return 0;
  }
  return 1;
}

/* Counts a block that went from osize to nsize bytes (0: none). */
static void meter_count(size_t osize, size_t nsize) {
  if (!meter) return;
  meter->live = osize > meter->live ? nsize : meter->live - osize + nsize;
  if (meter->live > meter->peak) meter->peak = meter->live;
}

void *td_mem_alloc(size_t size) {
  if (size == 0 || !meter_allows(0, size)) return NULL;
  void *p = alloc_fn(alloc_ud, NULL, 0, size);
  if (p) meter_count(0, size);
  return p;
}

void *td_mem_calloc(size_t count, size_t size) {
  if (count == 0 || size == 0) return NULL;
  if (count > SIZE_MAX / size || !meter_allows(0, count * size)) return NULL;
  void *p = alloc_fn(alloc_ud, NULL, 0, count * size);
  if (p) {
    memset(p, 0, count * size);
    meter_count(0, count * size);
  }
  return p;
}

void *td_mem_realloc(void *ptr, size_t osize, size_t nsize) {
  if (nsize == 0) {
    td_mem_free(ptr, osize);
    return NULL;
  }
  size_t old = ptr ? osize : 0;
  if (!meter_allows(old, nsize)) return NULL;
  void *p = alloc_fn(alloc_ud, ptr, old, nsize);
  if (p) meter_count(old, nsize);
  return p;
}

void *td_mem_grow(void *ptr, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap) return ptr;
  size_t ncap = *cap ? *cap : 8;
  while (ncap < need) {
    if (ncap > SIZE_MAX / 2 / elem) return NULL;
    ncap *= 2;
  }
  void *p = td_mem_realloc(ptr, *cap * elem, ncap * elem);
  if (p) *cap = ncap;
  return p;
}

void td_mem_free(void *ptr, size_t size) {
  if (!ptr) return;
  alloc_fn(alloc_ud, ptr, size, 0);
  meter_count(size, 0);
}

#if TD_POSIX_FILES
static const char *file_kind(mode_t m) {
  return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device"
         : S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : "not a file";
}
#endif

/* path opened for reading when it is a regular file of at most max bytes
** (a FIFO is refused without blocking: it is opened O_NONBLOCK), else NULL
** with err set. */
static FILE *open_regular(const char *path, size_t max, td_err *err) {
#if TD_POSIX_FILES
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) {
    td_err_set(err, "%s: cannot open: %s", path, strerror(errno));
    return NULL;
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    td_err_set(err, "%s: cannot open: %s", path, strerror(errno));
  } else if (!S_ISREG(st.st_mode)) {
    td_err_set(err, "%s: not a regular file (%s)", path, file_kind(st.st_mode));
  } else if ((uintmax_t)st.st_size > (uintmax_t)max) {
    td_err_set(err, "%s: file is larger than %zu bytes", path, max);
  } else {
    FILE *f = fdopen(fd, "rb");
    if (f) return f;
    td_err_set(err, "%s: cannot open: %s", path, strerror(errno));
  }
  close(fd);
  return NULL;
#else
  (void)max;
  FILE *f = fopen(path, "rb");
  if (!f) td_err_set(err, "%s: cannot open: %s", path, strerror(errno));
  return f;
#endif
}

int td_mem_read_file(const char *path, size_t max, char **buf, size_t *len, size_t *cap,
                     td_err *err) {
  *buf = NULL;
  *len = *cap = 0;
  FILE *f = open_regular(path, max, err);
  if (!f) return -1;
  int rc = 0;
  for (;;) {
    if (*len == *cap) {
      if (*cap >= max) { /* full: fine unless there is more */
        if (fgetc(f) != EOF) rc = td_err_set(err, "%s: file is larger than %zu bytes", path, max);
        break;
      }
      size_t ncap = *cap ? *cap * 2 : 65536;
      if (ncap > max) ncap = max;
      char *p = td_mem_realloc(*buf, *cap, ncap);
      if (!p) {
        rc = td_err_set(err, "%s: out of memory", path);
        break;
      }
      *buf = p;
      *cap = ncap;
    }
    size_t got = fread(*buf + *len, 1, *cap - *len, f);
    *len += got;
    if (got == 0) {
      if (ferror(f)) rc = td_err_set(err, "%s: cannot read: %s", path, strerror(errno));
      break;
    }
  }
  fclose(f);
  if (rc != 0) {
    td_mem_free(*buf, *cap);
    *buf = NULL;
    *len = *cap = 0;
  }
  return rc;
}

int td_err_set(td_err *err, const char *fmt, ...) {
  if (err) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
  }
  return -1;
}
