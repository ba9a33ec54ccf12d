/*
** file.c: the writer of output files (file.h): a temporary of a unique
** name beside the target, every byte checked, fsync, rename, fsync of the
** directory; or, for a device or a FIFO, the target itself.
*/
#define _GNU_SOURCE /* realpath (XSI); O_NOFOLLOW, O_CLOEXEC, O_DIRECTORY, fsync, lstat */
#include "game/file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define TMP_TRIES 64

/* A copy of s with room for extra more bytes, through td_mem. */
static char *copy(const char *s, size_t extra, size_t *cap) {
  size_t n = strlen(s);
  char *p = td_mem_alloc(n + extra + 1);
  if (!p) return NULL;
  memcpy(p, s, n + 1);
  *cap = n + extra + 1;
  return p;
}

static void release(td_file_out *o) {
  td_mem_free(o->target, o->target_cap);
  td_mem_free(o->tmp, o->tmp_cap);
  o->target = o->tmp = NULL;
  o->f = NULL;
}

/* Six letters or digits at dst, different for every try, process and
** moment (splitmix64 over them). */
static void unique_part(char *dst, unsigned attempt, const void *where) {
  static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  struct timespec ts = {0, 0};
  clock_gettime(CLOCK_REALTIME, &ts);
  uint64_t z = (uint64_t)getpid() * 0x9e3779b97f4a7c15ull ^ (uint64_t)ts.tv_nsec ^
               ((uint64_t)ts.tv_sec << 30) ^ (uint64_t)(uintptr_t)where ^ ((uint64_t)attempt << 48);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  z ^= z >> 31;
  for (int i = 0; i < 6; i++, z /= 62) dst[i] = alphabet[z % 62];
}

/* strerror, but td_mem's refusal (ENOMEM) reads as td's other
** out-of-memory errors do. */
static const char *reason(int e) { return e == ENOMEM ? "out of memory" : strerror(e); }

/* A temporary beside o->target, created here and now (never an existing
** name, never through a link). The descriptor, or -1 with errno. */
static int create_temporary(td_file_out *o) {
  static const char suffix[] = ".XXXXXX.tmp";
  size_t n = strlen(o->target);
  o->tmp = copy(o->target, sizeof suffix, &o->tmp_cap);
  if (!o->tmp) {
    errno = ENOMEM;
    return -1;
  }
  memcpy(o->tmp + n, suffix, sizeof suffix);
  for (unsigned attempt = 0; attempt < TMP_TRIES; attempt++) {
    unique_part(o->tmp + n + 1, attempt, o);
    int fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  return -1; /* errno: EEXIST */
}

int td_file_begin(td_file_out *o, const char *path, td_err *err) {
  memset(o, 0, sizeof *o);
  o->name = path;
  if (!path[0]) return td_err_set(err, "an output file with an empty name");
  struct stat st;
  bool exists = lstat(path, &st) == 0;
  if (!exists && errno != ENOENT) return td_err_set(err, "%s: cannot write: %s", path, strerror(errno));
  char resolved[PATH_MAX];
  const char *target = path;
  if (exists && S_ISLNK(st.st_mode)) {
    if (stat(path, &st) != 0)
      return td_err_set(err, "%s: cannot follow the link: %s", path, strerror(errno));
    /* a file: the file it names is replaced; anything else (/dev/stdout to
    ** a pipe: no path to resolve) is opened through the link, below */
    if (S_ISREG(st.st_mode)) {
      if (!realpath(path, resolved))
        return td_err_set(err, "%s: cannot follow the link: %s", path, strerror(errno));
      target = resolved;
    }
  }
  if (exists && S_ISDIR(st.st_mode)) return td_err_set(err, "%s: is a directory", path);
  o->target = copy(target, 0, &o->target_cap);
  if (!o->target) return td_err_set(err, "%s: out of memory", path);
  int fd;
  if (exists && !S_ISREG(st.st_mode)) { /* a device or a FIFO: in place */
    fd = open(o->target, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
      int e = errno;
      release(o);
      return td_err_set(err, "%s: cannot open: %s", path, strerror(e));
    }
  } else {
    fd = create_temporary(o);
    if (fd < 0) {
      int e = errno;
      release(o);
      return td_err_set(err, "%s: cannot write: %s", path, reason(e));
    }
  }
  o->f = fdopen(fd, "wb");
  if (!o->f) {
    int e = errno;
    close(fd);
    if (o->tmp) unlink(o->tmp);
    release(o);
    return td_err_set(err, "%s: cannot write: %s", path, strerror(e));
  }
  return 0;
}

void td_file_abort(td_file_out *o) {
  if (o->f) fclose(o->f);
  if (o->f && o->tmp) unlink(o->tmp);
  release(o);
}

/* fsync of the directory that holds target: the rename is on disk. 0, or
** -1 with errno. A file system that cannot sync a directory (EINVAL) and a
** directory td may not read are let be. */
static int sync_dir(const char *target) {
  const char *slash = strrchr(target, '/');
  size_t n = slash ? (slash == target ? 1 : (size_t)(slash - target)) : 1, cap = n + 1;
  char *dir = td_mem_alloc(cap);
  if (!dir) {
    errno = ENOMEM;
    return -1;
  }
  memcpy(dir, slash ? target : ".", n);
  dir[n] = '\0';
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  td_mem_free(dir, cap);
  if (fd < 0) return errno == EACCES ? 0 : -1;
  int rc = fsync(fd) == 0 || errno == EINVAL || errno == EROFS ? 0 : -1;
  int e = errno;
  close(fd);
  errno = e;
  return rc;
}

int td_file_commit(td_file_out *o, td_err *err) {
  int e = 0;
  if (fflush(o->f) != 0) e = errno;
  else if (ferror(o->f)) e = EIO; /* an earlier write failed */
  if (!e && o->tmp && fsync(fileno(o->f)) != 0) e = errno;
  if (fclose(o->f) != 0 && !e) e = errno;
  o->f = NULL;
  if (e) {
    if (o->tmp) unlink(o->tmp);
    release(o);
    return td_err_set(err, "%s: write failed: %s", o->name, strerror(e));
  }
  if (o->tmp && rename(o->tmp, o->target) != 0) {
    e = errno;
    unlink(o->tmp);
    release(o);
    return td_err_set(err, "%s: cannot replace: %s", o->name, strerror(e));
  }
  if (o->tmp && sync_dir(o->target) != 0) {
    e = errno;
    release(o);
    return td_err_set(err, "%s: written, but its directory cannot be synced: %s", o->name,
                      reason(e));
  }
  release(o);
  return 0;
}

int td_file_write(const char *path, const void *data, size_t len, td_err *err) {
  td_file_out o;
  if (td_file_begin(&o, path, err) != 0) return -1;
  if (len > 0 && fwrite(data, 1, len, o.f) != len) {
    int e = errno;
    td_file_abort(&o);
    return td_err_set(err, "%s: write failed: %s", path, strerror(e));
  }
  return td_file_commit(&o, err);
}
