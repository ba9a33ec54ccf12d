-- tests/cli/mods.sh: a second mod that adds a tower, replaces an enemy of
-- the first and adds a handler.
api_version = 1
depends = { "base" }
td.enemy { name = "grunt", replace = true, health = 60, speed = 2, bounty = 5 }
td.tower { name = "cannon", levels = {
  { name = "cannon", cost = 80, range = 3, rate = 1, damage = 25 },
} }
td.wave { { enemy = "grunt", count = 3 } }   -- wave 3: appended
td.rules { start_gold = 300 }                 -- only start_gold changes
include "handlers.lua"                        -- extra's own handlers.lua
