-- A mod for tests/test_game.c: handlers that call the world.
api_version = 1
td.damage_type "physical"
td.damage_type "fire"
td.enemy { name = "runner", health = 40, speed = 2, bounty = 3 }
td.enemy { name = "imp", health = 10, speed = 2, bounty = 1 }
td.tower { name = "arrow", levels = {
  { name = "arrow", cost = 50, range = 4, rate = 2, damage = 10 },
  { name = "arrow_2", cost = 30, damage = 20 },
} }
td.wave { { enemy = "runner", count = 4 } }
td.wave { { enemy = "runner", count = 6 } }
td.rules { wave_count = 2, start_gold = 200, start_lives = 8, first_wave_delay = 2, wave_interval = 20 }

local spawned, kills = 0, 0

td.on("spawn", function(e)
  spawned = spawned + 1
  if td.enemy_info(e.enemy).type == "runner" then
    td.damage(e.enemy, 5, "fire")          -- every runner starts hurt
  end
end)

td.on("kill", function(e)
  kills = kills + 1
  td.give_gold(100)                        -- a generous bounty on top
  if e.enemy_type == "runner" and kills == 1 then
    td.spawn("imp", { x = e.x, y = e.y })  -- the first kill spawns an imp
  end
end)

td.every(60, function(tick)
  print(("tick %d gold %d lives %d wave %d roll %d enemies %d towers %d"):format(
    tick, td.gold(), td.lives(), td.current_wave(), math.random(1, 1000),
    #td.enemies(), #td.towers()))
end)
