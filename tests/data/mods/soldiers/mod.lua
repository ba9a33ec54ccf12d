-- A mod for tests (test_mod.c, test_game.c, tests/cli/modding.sh) and the
-- example of docs/modding.md: soldier types, barracks, sappers that attack
-- towers with health, and handlers for the events they bring.
api_version = 1
td.damage_type "physical"
td.damage_type "fire"

-- [soldiers]
-- Soldiers: a barracks keeps them near its rally point. They engage ground
-- enemies within `sight` tiles of their post, hold them and fight them.
td.soldier {
  name = "footman",
  health = 60, armour = 1,
  damage = 6, rate = 1.2,   -- physical: the first damage type
  speed = 1.8,
  respawn = 8,              -- seconds from its fall to the next one walking out
  sight = 2.5,
  regen = 2,                -- health per second while it stands at its post
}
td.soldier {
  name = "knight",
  health = 150, armour = 4, radius = 0.35,
  damage = 14, damage_type = "fire", rate = 0.8,
  speed = 1.4,
}
-- [/soldiers]

-- [barracks]
-- A barracks is a tower level with `soldier` and `soldiers`. Its `range` is
-- how far from it the player may move the rally point. Without `rate` it
-- does not shoot. With `health`, sappers can hurt it; upgrades inherit.
td.tower {
  name = "barracks",
  levels = {
    { name = "barracks", cost = 70, range = 2.5, health = 200,
      soldier = "footman", soldiers = 3 },
    { name = "barracks_2", cost = 60, soldiers = 4, health = 300 },
    { name = "keep", from = "barracks", cost = 120, soldier = "knight" },
  },
}
-- [/barracks]

td.tower {
  name = "arrow",
  levels = {
    { name = "arrow", cost = 50, range = 4, rate = 2, damage = 10, health = 120 },
    -- a shooting tower that becomes a barracks keeps shooting only if it says so
    { name = "guardhouse", cost = 80, soldier = "footman", soldiers = 2, rate = 1 },
  },
}

-- [sapper]
-- Enemies may fight back (`melee`, against the soldier holding them) and
-- attack towers (`siege`: a sapper stops at a tower with health within
-- `range` tiles and hits it until it falls).
td.enemy {
  name = "sapper", health = 50, speed = 1.2, bounty = 4,
  melee = { damage = 5, rate = 1 },
  siege = { damage = 15, rate = 0.5, range = 0.5 },
}
-- [/sapper]
td.enemy { name = "grunt", health = 40, speed = 1.5, bounty = 2, melee = { damage = 3, rate = 1.5 } }
td.enemy { name = "bat", health = 20, speed = 2.5, flying = true }

td.wave { { enemy = "grunt", count = 6 } }
td.wave { { enemy = "sapper", count = 4 }, { enemy = "grunt", count = 4, delay = 3 } }
td.wave { { enemy = "sapper", count = 6 }, { enemy = "bat", count = 4, delay = 2 } }
-- [rules]
td.rules { start_gold = 400, start_lives = 20, first_wave_delay = 2, wave_interval = 25,
           repair_cost = 0.4 }
-- [/rules]

-- [handlers]
td.on("engage", function(e)
  print(("engage: soldier %d of tower %d holds %s %d"):format(e.soldier, e.tower,
    e.enemy_type, e.enemy))
end)
td.on("soldier_death", function(e)
  print(("soldier_death: %s %d of tower %d, killed by enemy %d"):format(e.soldier_type,
    e.soldier, e.tower, e.enemy))
end)
td.on("tower_damaged", function(e)
  local t = td.tower_info(e.tower) -- nil if it fell in the same step
  print(("tower_damaged: %s on base %d lost %g to enemy %d, repair %s"):format(e.level,
    e.base, e.damage, e.enemy, t and tostring(t.repair_cost) or "-"))
end)
td.on("tower_destroyed", function(e)
  print(("tower_destroyed: %s on base %d by enemy %d"):format(e.level, e.base, e.enemy))
end)
td.on("repaired", function(e)
  print(("repaired: %s on base %d for %d"):format(e.level, e.base, e.cost))
end)
td.on("rallied", function(e)
  print(("rallied: tower %d on base %d to %g %g"):format(e.tower, e.base, e.x, e.y))
end)
-- a soldier's hit credits its barracks (e.tower) and names the soldier
td.state.soldier_hits = 0
td.on("hit", function(e)
  if e.source == "soldier" then td.state.soldier_hits = td.state.soldier_hits + 1 end
end)
td.on("wave_end", function(e)
  local standing = 0
  for _, s in ipairs(td.soldiers()) do
    if s.state ~= "die" and s.state ~= "respawn" then standing = standing + 1 end
  end
  print(("wave_end: %d: %d hits by soldiers, %d soldiers standing"):format(e.wave,
    td.state.soldier_hits, standing))
end)
-- [/handlers]
