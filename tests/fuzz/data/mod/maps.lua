-- What changes from map to map: one table per bundled map (keyed by
-- td.map_name()), read by enemies.lua, waves.lua and mod.lua. A map without
-- an entry (a map of your own) plays the `default` profile.
--   waves     waves to clear to win (endless mode goes on past them)
--   hp        every enemy's health at its first wave, times this
--   count     every group's size (and its growth), times this
--   reach     every tower's range, times this
--   growth    health added per wave after a group's first, as a share
--   boss      the map's boss (enemies.lua)
--   boss_hp   the boss's health, times this (on top of hp)
--   boss_spawn the spawn the boss comes from (nil: every spawn)
--   gold, income, lives, interval, first_delay: td.rules
local profiles = {
  default = {
    waves = 24, hp = 0.3, count = 0.6, growth = 0.10, boss = "warlord", boss_hp = 1, reach = 1,
    gold = 120, income = 25, lives = 20, interval = 30, first_delay = 8,
  },
}

-- 01: the Defense Grid web: nine bases, a short way (27 tiles).
profiles["01-crossroads"] = {
  waves = 20, hp = 0.18, count = 0.4, growth = 0.06, boss = "warlord", boss_hp = 0.18, reach = 1.5,
  gold = 150, income = 30, lives = 30, interval = 30, first_delay = 8,
}
-- 02: a small maze on a grid, six bases.
profiles["02-grid"] = {
  waves = 20, hp = 0.22, count = 0.5, growth = 0.09, boss = "hydra", boss_hp = 0.5, reach = 1.3,
  gold = 150, income = 30, lives = 20, interval = 30, first_delay = 8,
}
-- 03: the classic serpent: a long fixed road (105 tiles) lined with pads.
profiles["03-serpent"] = {
  waves = 25, hp = 0.45, count = 0.8, growth = 0.10, boss = "wyrm", boss_hp = 1, reach = 1,
  gold = 150, income = 25, lives = 20, interval = 30, first_delay = 10,
}
-- 04: an open floor: the towers make the maze.
profiles["04-foundry"] = {
  waves = 25, hp = 0.25, count = 0.6, growth = 0.10, boss = "juggernaut", boss_hp = 0.4, reach = 1,
  gold = 150, income = 25, lives = 20, interval = 30, first_delay = 10,
}
-- 05: two gates, two sluices: every group comes through both gates.
profiles["05-twin"] = {
  waves = 24, hp = 0.3, count = 0.5, growth = 0.10, boss = "herald", boss_hp = 0.5, reach = 1,
  gold = 180, income = 30, lives = 20, interval = 30, first_delay = 10, boss_spawn = 1,
}
-- 06: 256x256 cells, two gates 127 tiles from the citadel.
profiles["06-expanse"] = {
  waves = 30, hp = 0.2, count = 0.45, growth = 0.10, boss = "titan", boss_hp = 0.6, reach = 1,
  gold = 200, income = 30, lives = 30, interval = 35, first_delay = 20, boss_spawn = 1,
}

return profiles
