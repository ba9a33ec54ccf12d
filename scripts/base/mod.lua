-- The bundled game's rules: a small but complete example of a td mod.
-- Reference: docs/lua-api.md. Editor annotations: scripts/types/td.lua.
api_version = 1

-- The map being played picks a profile (maps.lua): how many waves, how
-- tough. td.map_name is the game's; loaded on its own (a test, `td api`)
-- the mod plays the default profile.
-- [profile]
local profiles = include "maps.lua"
MAP = td.map_name and td.map_name() or "default"
PROFILE = profiles[MAP] or profiles.default
-- [/profile]

-- The difficulty the player chose (td.difficulty): normal plays the map's
-- profile as it is; easy and hard scale health, gold and lives.
local DIFFICULTY = {
  easy = { hp = 0.75, gold = 1.25, lives = 1.5 },
  normal = { hp = 1, gold = 1, lives = 1 },
  hard = { hp = 1.3, gold = 0.85, lives = 0.5 },
}
local scale = DIFFICULTY[td.difficulty and td.difficulty() or "normal"]
do
  local p = {}
  for k, v in sorted_pairs(PROFILE) do p[k] = v end
  p.hp = p.hp * scale.hp
  p.gold = math.floor(p.gold * scale.gold + 0.5)
  p.income = math.floor(p.income * scale.gold + 0.5)
  p.lives = math.max(1, math.floor(p.lives * scale.lives + 0.5))
  PROFILE = p
end

include "damage.lua"
include "enemies.lua"
include "soldiers.lua"
include "towers.lua"
include "waves.lua"

td.rules {
  wave_count = PROFILE.waves,
  start_gold = PROFILE.gold,
  start_lives = PROFILE.lives,
  first_wave_delay = PROFILE.first_delay,
  wave_interval = PROFILE.interval,
  wave_income = PROFILE.income,
  sell_refund = 0.75,
  early_bonus = 2,
  endless_health_growth = 0.15,
  first_wave_waits = true,   -- wave 1 comes when the player is ready (a tower, or N)
  repair_cost = 0.5,         -- a tower at 0 health costs half what was spent on it
}

-- Handlers: the mod keeps its own score and writes to the log. The score
-- lives in td.state, the table saves carry (a local would start again at 0
-- in a loaded game).
local S = td.state
S.kills, S.leaks, S.kills_by_type = 0, 0, {}

td.on("kill", function(e)
  S.kills = S.kills + 1
  S.kills_by_type[e.enemy_type] = (S.kills_by_type[e.enemy_type] or 0) + 1
end)

td.on("leak", function(e)
  S.leaks = S.leaks + e.lives
end)

td.on("wave_end", function(e)
  local parts = {}
  for name, n in sorted_pairs(S.kills_by_type) do
    parts[#parts + 1] = name .. "=" .. n
  end
  print(("wave %d cleared: %d kills (%s), %d lives lost"):format(
    e.wave, S.kills, table.concat(parts, " "), S.leaks))
end)

td.every(60 * 60, function(tick)
  print(("minute %d: %d kills"):format(tick // 3600, S.kills))
end)

-- What wave n brings, from the game's own preview (the HUD shows the same).
local function announce(n)
  local parts = {}
  for _, g in ipairs(td.wave_preview(n)) do
    parts[#parts + 1] = g.count .. " " .. g.enemy
  end
  return table.concat(parts, ", ")
end

td.on("wave_start", function(e)
  if e.wave == PROFILE.waves then
    print(("wave %d: the %s comes (%s)"):format(e.wave, PROFILE.boss, announce(e.wave)))
  end
  print(("next, wave %d: %s"):format(e.wave + 1, announce(e.wave + 1)))
end)

-- A boss calls in two of its escort (ESCORTS, enemies.lua) every eight
-- seconds while it lives.
td.every(8 * 60, function()
  for _, h in ipairs(td.enemies()) do
    local info = td.enemy_info(h)
    local escort = info and info.boss and ESCORTS[info.type]
    if escort then
      td.spawn(escort, { near = h, lane = -0.3 })
      td.spawn(escort, { near = h, lane = 0.3 })
    end
  end
end)
