/*
** crowd.c: placeholder (see crowd.h).
*/
#include "crowd/crowd.h"

int td_crowd_version(void) { return 0; }
