/*
** mem.c: the allocation hook and the error buffer.
*/
#include "nav/mem.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *default_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  (void)ud;
  (void)osize;
  if (nsize == 0) {
    free(ptr);
    return NULL;
  }
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

void *td_mem_alloc(size_t size) {
  if (size == 0) return NULL;
  return alloc_fn(alloc_ud, NULL, 0, size);
}

void *td_mem_calloc(size_t count, size_t size) {
  if (count == 0 || size == 0) return NULL;
  if (count > SIZE_MAX / size) return NULL;
  void *p = alloc_fn(alloc_ud, NULL, 0, count * size);
  if (p) memset(p, 0, count * size);
  return p;
}

void *td_mem_realloc(void *ptr, size_t osize, size_t nsize) {
  if (nsize == 0) {
    td_mem_free(ptr, osize);
    return NULL;
  }
  return alloc_fn(alloc_ud, ptr, ptr ? osize : 0, nsize);
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
  if (ptr) alloc_fn(alloc_ud, ptr, size, 0);
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
