#include "game/auto_int.h"
int auto_economy_turn(td_auto *a, td_game *g, td_err *err) { return auto_default_turn(a, g, err); }
