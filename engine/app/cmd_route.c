/* placeholder: td route is being written */
#include "app/cmds.h"
int td_cmd_route(int argc, char **argv) { (void)argc; (void)argv; return td_app_fail("route: not built yet"); }
