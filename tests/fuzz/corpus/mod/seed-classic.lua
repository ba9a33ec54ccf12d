-- A frozen copy of the first bundled rules (tests/test_mod.c checks the
-- schema on it; the bundled mod, scripts/base, changes with the content).
-- Reference: docs/lua-api.md. Editor annotations: scripts/types/td.lua.
api_version = 1

;(function()
-- Damage types: towers deal one, enemies resist them by name.
td.damage_type "physical"
td.damage_type "fire"
td.damage_type "magic"

end)();(function()
-- Enemy types. Sizes in tiles, speeds in tiles per second.
td.enemy {
  name = "runner",
  health = 30, speed = 2.5, radius = 0.25,
  bounty = 2, lives = 1,
}

td.enemy {
  name = "grunt",
  health = 80, speed = 1.5,
  bounty = 4, lives = 1,
}

td.enemy {
  name = "tank",
  health = 400, speed = 0.8, radius = 0.45, armour = 4,
  resist = { physical = 0.4, fire = -0.25 },
  bounty = 12, lives = 3,
}

td.enemy {
  name = "wisp",
  health = 60, speed = 2, flying = true,
  resist = { physical = 0.5, magic = -0.5 },
  bounty = 5, lives = 1,
}

td.enemy {
  name = "splitter",
  health = 150, speed = 1.2, radius = 0.4,
  split_into = "runner", split_count = 3,
  bounty = 6, lives = 2,
}

td.enemy {
  name = "warlord",
  health = 3000, speed = 0.6, radius = 0.6, armour = 8, boss = true,
  resist = { physical = 0.3, fire = 0.3, magic = 0.3 },
  regen = 5, heal_radius = 3, heal_rate = 10,
  bounty = 100, lives = 10,
}

end)();(function()
-- Tower types and their upgrade trees. A level without `from` upgrades the
-- level before it and inherits every field it does not set.
td.tower {
  name = "arrow",
  target = "first",
  levels = {
    { name = "arrow", cost = 50, range = 3.5, rate = 1.5, damage = 8,
      damage_type = "physical", hits_air = true },
    { name = "arrow_2", cost = 40, damage = 14, rate = 1.8 },
    { name = "sniper", from = "arrow_2", cost = 90, range = 6, rate = 0.5, damage = 60,
      aim_time = 0.5 },
    { name = "volley", from = "arrow_2", cost = 90, shot = "pierce", pierce = 3,
      shot_speed = 12, damage = 12 },
  },
}

td.tower {
  name = "cannon",
  target = "strongest",
  levels = {
    { name = "cannon", cost = 80, range = 3, rate = 0.6, damage = 30, damage_type = "fire",
      shot = "ballistic", shot_speed = 6, splash = 1.2, hits_air = false, turn_rate = 3 },
    { name = "cannon_2", cost = 70, damage = 50, splash = 1.5 },
  },
}

td.tower {
  name = "frost",
  target = "closest",
  levels = {
    { name = "frost", cost = 60, range = 2.5, rate = 1, damage = 4, damage_type = "magic",
      shot = "homing", shot_speed = 8,
      effect = { kind = "slow", magnitude = 0.4, duration = 2 } },
    { name = "frost_2", cost = 60, damage = 8,
      effect = { kind = "slow", magnitude = 0.6, duration = 2.5 } },
    { name = "storm", from = "frost", cost = 100, shot = "chain", chain = 3,
      chain_range = 2, chain_falloff = 0.75, damage = 10,
      effect = { kind = "stun", duration = 0.3 } },
  },
}

end)();(function()
-- Ten waves, one td.wave each (its groups spawn in that wave only), and
-- endless mode past wave 10 from td.group.
td.wave { { enemy = "runner", count = 6, spacing = 1.5 } }
td.wave { { enemy = "runner", count = 10, per_row = 2, width = 0.8 } }
td.wave { { enemy = "grunt", count = 8 }, { enemy = "runner", count = 6, delay = 6 } }
td.wave { { enemy = "wisp", count = 8, spacing = 2 } }
td.wave { { enemy = "tank", count = 3, spacing = 2 }, { enemy = "grunt", count = 10, delay = 4 } }
td.wave { { enemy = "splitter", count = 6, spacing = 2 } }
td.wave { { enemy = "grunt", count = 16, per_row = 2, width = 1 }, { enemy = "wisp", count = 8, delay = 8 } }
td.wave { { enemy = "tank", count = 6, spacing = 2 }, { enemy = "splitter", count = 4, delay = 6 } }
td.wave { { enemy = "runner", count = 30, per_row = 3, width = 1.2 }, { enemy = "wisp", count = 12, delay = 5 } }
td.wave { { enemy = "warlord", count = 1 }, { enemy = "grunt", count = 20, per_row = 2, width = 1, delay = 3 } }

-- endless: past the last wave, grunts and tanks that grow
td.group { enemy = "grunt", first = 11, count = 20, count_growth = 4, max_count = 80,
           health_growth = 0.1 }
td.group { enemy = "tank", first = 11, every = 2, count = 4, count_growth = 1, max_count = 20 }

end)()td.rules {
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
