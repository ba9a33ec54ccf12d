/* placeholder: td path is being written */
#include "app/cmds.h"
int td_cmd_path(int argc, char **argv) { (void)argc; (void)argv; return td_app_fail("path: not built yet"); }
