api_version = 1
td.damage_type "physical"
td.damage_type "fire"
td.soldier { name = "footman", health = 30, armour = 1, damage = 6, rate = 1.2, speed = 1.8, sight = 3 }
td.soldier { name = "knight", health = 90, damage = 9, damage_type = "fire", rate = 1, speed = 1.2 }
td.tower { name = "barracks", levels = {
  { name = "barracks", cost = 10, range = 3, health = 80, soldier = "footman", soldiers = 3 },
  { name = "keep", cost = 10, soldier = "knight", soldiers = 2, rate = 1, damage = 3 },
} }
td.tower { name = "wall", levels = { { name = "wall", cost = 10, range = 1, health = 40 } } }
td.enemy { name = "sapper", health = 40, speed = 1.5, melee = { damage = 4, rate = 1 },
  siege = { damage = 10, rate = 1, range = 2 } }
td.enemy { name = "brute", health = 60, speed = 1, melee = { damage = 12, rate = 2 } }
td.wave { { enemy = "sapper", count = 4 }, { enemy = "brute", count = 2, delay = 1 } }
td.rules { start_gold = 500, first_wave_delay = 0.5, repair_cost = 1 }
for _, ev in ipairs({ "engage", "soldier_death", "tower_damaged", "tower_destroyed", "repaired",
                      "rallied", "hit" }) do
  td.on(ev, function(e)
    for _, s in ipairs(td.soldiers(e.tower)) do td.soldier_info(s.handle) end
    if e.tower and e.tower ~= 0 then
      local t = td.tower_info(e.tower)
      if t and t.health > 20 then td.damage_tower(e.tower, 5) end
    end
    if e.enemy and e.enemy ~= 0 then td.enemy_info(e.enemy) end
  end)
end
td.every(30, function()
  for _, h in ipairs(td.towers()) do td.damage_tower(h, 3) end
end)
