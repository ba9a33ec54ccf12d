/*
** datadir.h: where td finds the files it ships (maps/, scripts/, assets/)
** and the player's own maps and mods, whether it runs from its build tree
** or installed (docs/cli.md, "Where td finds its files").
**
** What. The data directory is the first of these that holds scripts/base
** (the bundled mod; TD_DATA_DIR is taken as given, unchecked):
**   1. $TD_DATA_DIR;
**   2. the source tree, when td runs from the build directory it was built
**      in (the executable's directory is build_dir): ./build/td finds the
**      repository's files from any working directory;
**   3. beside the executable: EXEDIR/<exe_to_data>, "../share/td" for an
**      install under a prefix (PREFIX/bin/td, PREFIX/share/td);
**   4. $XDG_DATA_HOME/td (else ~/.local/share/td), then each of
**      $XDG_DATA_DIRS (else /usr/local/share:/usr/share) + "/td".
** The user directory is $XDG_DATA_HOME/td, else $HOME/.local/share/td (the
** one game/progress.h keeps progress and saves in): the player's maps go in
** its maps/, their mods in its mods/.
**
** A path the user gives (--map, a replay's map) is tried as given first,
** then under the data directory, then under the user directory; a mod
** (--mod) the same, except that a bare name (no '/') is looked for as
** USER/mods/NAME, then DATA/scripts/NAME. When nothing exists the path comes
** back as given, so that the error names what the user typed.
**
** The process's environment is read once into a td_datadir_env
** (td_datadir_env_from_process); every other function reads only the
** struct it is given (tests build their own).
**
** Memory: the env borrows its strings (getenv's, the caller's buffers);
** answers go to the caller's buffer. Determinism: not part of the
** simulation.
*/
#ifndef TD_GAME_DATADIR_H
#define TD_GAME_DATADIR_H

#include <stdbool.h>
#include <stddef.h>

#define TD_DATADIR_PATH_MAX 4096

typedef struct td_datadir_env {
  const char *td_data_dir;   /* $TD_DATA_DIR (NULL or "": unset) */
  const char *exe_path;      /* the running executable (NULL: unknown) */
  const char *exe_to_data;   /* data dir relative to the executable's dir ("../share/td") */
  const char *build_dir;     /* the build directory td was built in (NULL: none) */
  const char *source_dir;    /* the source tree it was built from */
  const char *xdg_data_home; /* $XDG_DATA_HOME */
  const char *home;          /* $HOME */
  const char *xdg_data_dirs; /* $XDG_DATA_DIRS (NULL or "": /usr/local/share:/usr/share) */
} td_datadir_env;

/* Fills env from the process: getenv, and /proc/self/exe's target into
** exe_buf[cap] (exe_path NULL when unreadable). The other three fields are
** the caller's (compiled in). */
void td_datadir_env_from_process(td_datadir_env *env, char *exe_buf, size_t cap,
                                 const char *exe_to_data, const char *build_dir,
                                 const char *source_dir);

/* The data directory into buf[cap]: true, or false (buf "") when no
** candidate holds scripts/base. */
bool td_datadir_find(const td_datadir_env *env, char *buf, size_t cap);

/* The user directory ($XDG_DATA_HOME/td, else $HOME/.local/share/td) into
** buf[cap]: true, or false (buf "") when neither variable is set. */
bool td_datadir_user(const td_datadir_env *env, char *buf, size_t cap);

/* DATA/rel (the data directory's "assets", "maps", "scripts/base") into
** buf[cap]; rel itself when there is no data directory or when it is the
** working directory (so that names read as before in the source tree).
** Returns buf. */
const char *td_datadir_sub(const td_datadir_env *env, const char *rel, char *buf, size_t cap);

/* A file or directory the user named: given when it exists, else DATA/given,
** else USER/given (relative paths only), else given. Returns buf. */
const char *td_datadir_resolve(const td_datadir_env *env, const char *given, char *buf,
                               size_t cap);

/* A mod directory the user named: as td_datadir_resolve, but a bare name
** that is no directory here is USER/mods/NAME, else DATA/scripts/NAME.
** Returns buf. */
const char *td_datadir_mod(const td_datadir_env *env, const char *given, char *buf, size_t cap);

/* a and b exist and name the same directory (or file), however spelled:
** an install under ~/.local has its data directory's maps/ where the
** player's maps go, and the menu lists them once. */
bool td_datadir_same(const char *a, const char *b);

#endif
