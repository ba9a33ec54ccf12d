/*
** app_version.c: td --version. The version is the project's (CMake's
** project(VERSION)); the commit is the one the sources were at when td was
** built, written at every build into td_version.h by cmake/version.cmake
** (rewritten only when it changes, so only this file recompiles).
*/
#include "app/cmds.h"
#include "td_version.h"

#ifndef TD_VERSION
#define TD_VERSION "unknown"
#endif

const char *td_app_version(void) { return "td " TD_VERSION " (commit " TD_COMMIT ")"; }
