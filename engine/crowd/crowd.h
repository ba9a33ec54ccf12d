/*
** crowd.h: agents moving in lanes along a route (issue: crowd movement).
**
** Placeholder module so the library layout exists from the start; it holds
** no behaviour yet. Memory and determinism rules will follow route.h's.
*/
#ifndef TD_CROWD_H
#define TD_CROWD_H

/* Version of the crowd module's interface; 0 until agents exist. */
int td_crowd_version(void);

#endif
