/*
** file.h: td's one writer of output files (saves, replays, settings,
** pictures, traces): whole or nothing, checked to the last byte.
**
** What. td_file_begin opens a temporary file of a unique name beside the
** target (PATH.XXXXXX.tmp, created with O_CREAT|O_EXCL|O_NOFOLLOW: nothing
** planted under any name is followed, and two writers never share one);
** td_file_commit checks every write, flushes and fsyncs it, closes it,
** renames it over PATH and fsyncs the directory. A kill at any moment leaves
** the old file or the new one, never a mix; a failure (full disk, I/O
** error, a directory where the file should be) removes the temporary and
** leaves PATH as it was. The file gets the mode a newly created file gets
** (0666 less the umask); a previous file's mode is not kept.
**
** A PATH that is a symbolic link has the file it names replaced (the link
** stays). A PATH that exists and is not a regular file or a directory (a
** device such as /dev/stdout or /dev/full, a FIFO) is written in place,
** checked the same way but not renamed or fsynced. A directory is refused.
** A writer killed before its rename leaves its temporary behind (the next
** writer makes another; nothing cleans up a name it did not create).
**
** Errors: one line naming PATH as the caller gave it ("PATH: write failed:
** No space left on device").
** Memory: a td_file_out owns its names (td_mem) and its stream from a
** successful td_file_begin until td_file_commit or td_file_abort, which
** release them whatever happens; it borrows the caller's PATH string.
** Determinism: not part of the simulation (the temporary's name comes from
** the process id and a clock).
*/
#ifndef TD_GAME_FILE_H
#define TD_GAME_FILE_H

#include <stddef.h>
#include <stdio.h>

#include "nav/mem.h"

typedef struct td_file_out {
  FILE *f;            /* write here (fwrite, fprintf); the commit checks it */
  const char *name;   /* PATH as given: the messages name it */
  char *target;       /* the file replaced (a link resolved) */
  char *tmp;          /* the temporary, or NULL when writing in place */
  size_t target_cap, tmp_cap;
} td_file_out;

/* Opens the temporary (or PATH itself, in place). 0, or -1 with err set
** ("PATH: cannot write: No such file or directory" when the temporary cannot
** be made beside it, "PATH: is a directory") and nothing left open or
** created. */
int td_file_begin(td_file_out *o, const char *path, td_err *err);

/* Checks, syncs, closes and renames (see above). 0, or -1 with err set
** ("PATH: write failed: ...", "PATH: cannot replace: ...") and the
** temporary removed. Either way o is released. */
int td_file_commit(td_file_out *o, td_err *err);

/* Closes and removes the temporary; PATH stays as it was. o released.
** Safe on a zeroed o. */
void td_file_abort(td_file_out *o);

/* The whole write of len bytes at data to path: begin, write, commit. */
int td_file_write(const char *path, const void *data, size_t len, td_err *err);

#endif
