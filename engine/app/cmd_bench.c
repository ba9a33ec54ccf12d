/* placeholder: td bench is being written */
#include "app/cmds.h"
int td_cmd_bench(int argc, char **argv) { (void)argc; (void)argv; return td_app_fail("bench: not built yet"); }
