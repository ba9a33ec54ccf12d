/*
** driver.c: runs a fuzz harness over files, for builds without libFuzzer.
**
**   fuzz_map [--quiet] DIR_OR_FILE...
**
** Calls LLVMFuzzerInitialize once, then LLVMFuzzerTestOneInput on every
** file named, and on every regular file of every directory named (sorted
** by name, so runs are reproducible). Around each input it counts the
** td_mem blocks the harness holds: an input after which more blocks are
** live than before leaked, and the run fails naming it. A harness that
** breaks its contract aborts (fuzz.h), which fails the run too. Exit
** status 0 when every input ran clean, 1 otherwise, 2 for bad usage.
*/
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"
#include "nav/mem.h"

/* ---- a counting td_mem hook ---------------------------------------------- */

typedef struct counter {
  long live;  /* blocks handed out and not freed */
  long calls; /* allocations */
} counter;

static void *count_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  counter *c = ud;
  (void)osize;
  if (nsize == 0) {
    if (ptr) c->live--;
    free(ptr);
    return NULL;
  }
  void *p = realloc(ptr, nsize);
  if (p) {
    c->calls++;
    if (!ptr) c->live++;
  }
  return p;
}

/* ---- the inputs ---------------------------------------------------------- */

static int cmp_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_file(const char *path, counter *c, bool quiet) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "driver: %s: cannot open\n", path);
    return 1;
  }
  size_t cap = 1 << 16, len = 0;
  unsigned char *buf = malloc(cap);
  size_t got;
  while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
    len += got;
    if (len == cap) {
      unsigned char *p = realloc(buf, cap *= 2);
      if (!p) free(buf);
      buf = p;
    }
  }
  fclose(f);
  if (!buf) {
    fprintf(stderr, "driver: %s: out of memory\n", path);
    return 1;
  }
  /* a copy of exactly len bytes, so ASan sees reads past the input */
  unsigned char *in = malloc(len ? len : 1);
  if (!in) {
    free(buf);
    return 1;
  }
  memcpy(in, buf, len);
  free(buf);
  long live = c->live, calls = c->calls;
  LLVMFuzzerTestOneInput(in, len);
  free(in);
  if (!quiet) printf("%s: %zu bytes, %ld allocations\n", path, len, c->calls - calls);
  if (c->live != live) {
    fprintf(stderr, "driver: %s: %ld td_mem blocks leaked\n", path, c->live - live);
    return 1;
  }
  return 0;
}

static int run_dir(const char *dir, counter *c, bool quiet, int *files) {
  DIR *d = opendir(dir);
  if (!d) {
    fprintf(stderr, "driver: %s: cannot open\n", dir);
    return 1;
  }
  char **names = NULL;
  size_t n = 0, cap = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.') continue;
    if (n == cap) {
      char **p = realloc(names, (cap = cap ? cap * 2 : 64) * sizeof *names);
      if (!p) break;
      names = p;
    }
    size_t k = strlen(dir) + strlen(e->d_name) + 2;
    names[n] = malloc(k);
    if (!names[n]) break;
    snprintf(names[n], k, "%s/%s", dir, e->d_name);
    n++;
  }
  closedir(d);
  if (n) qsort(names, n, sizeof *names, cmp_name);
  int bad = 0;
  for (size_t i = 0; i < n; i++) {
    struct stat st;
    if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) {
      bad |= run_file(names[i], c, quiet);
      (*files)++;
    }
    free(names[i]);
  }
  free(names);
  return bad;
}

int main(int argc, char **argv) {
  bool quiet = false;
  int first = 1;
  if (argc > 1 && strcmp(argv[1], "--quiet") == 0) quiet = true, first = 2;
  if (first >= argc) {
    fprintf(stderr, "usage: %s [--quiet] DIR_OR_FILE...\n", argv[0]);
    return 2;
  }
  /* static: the harness's atexit cleanup still allocates through it */
  static counter c = {0, 0};
  td_mem_set_allocator(count_alloc, &c);
  LLVMFuzzerInitialize(&argc, &argv);
  int bad = 0, files = 0;
  for (int i = first; i < argc; i++) {
    struct stat st;
    if (stat(argv[i], &st) != 0) {
      fprintf(stderr, "driver: %s: no such file or directory\n", argv[i]);
      bad = 1;
    } else if (S_ISDIR(st.st_mode)) {
      bad |= run_dir(argv[i], &c, quiet, &files);
    } else {
      bad |= run_file(argv[i], &c, quiet);
      files++;
    }
  }
  printf("%s: %d inputs, %s\n", argv[0], files, bad ? "FAILED" : "all clean");
  return bad;
}
