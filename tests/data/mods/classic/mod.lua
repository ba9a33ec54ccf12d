-- A frozen copy of the first bundled rules (tests/test_mod.c checks the
-- schema on it; the bundled mod, scripts/base, changes with the content).
-- Reference: docs/lua-api.md. Editor annotations: scripts/types/td.lua.
api_version = 1

include "damage.lua"
include "enemies.lua"
include "towers.lua"
include "waves.lua"

td.rules {
  wave_count = 10,
  start_gold = 120,
  start_lives = 20,
  first_wave_delay = 8,
  wave_interval = 30,
  wave_income = 25,
  sell_refund = 0.75,
  early_bonus = 2,
  endless_health_growth = 0.15,
}

-- Handlers. The world's functions (gold, enemy health...) come later; for
-- now they keep score in the mod's own state and write to the log.
local kills, leaks = 0, 0
local kills_by_type = {}

td.on("kill", function(e)
  kills = kills + 1
  kills_by_type[e.enemy_type] = (kills_by_type[e.enemy_type] or 0) + 1
end)

td.on("leak", function(e)
  leaks = leaks + e.lives
end)

td.on("wave_end", function(e)
  local parts = {}
  for name, n in sorted_pairs(kills_by_type) do
    parts[#parts + 1] = name .. "=" .. n
  end
  print(("wave %d cleared: %d kills (%s), %d lives lost"):format(
    e.wave, kills, table.concat(parts, " "), leaks))
end)

td.every(60 * 60, function(tick)
  print(("minute %d: %d kills"):format(tick // 3600, kills))
end)
