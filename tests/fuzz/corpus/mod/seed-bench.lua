-- The mod of `td bench sim` (engine/app/bench_sim.c): rules that keep ten
-- thousand enemies alive under two hundred towers, and handlers on every hit
-- and kill that do a little real work, as a mod would. Waves never come (the
-- bench spawns the enemies itself); leaks cost nothing.
api_version = 1

td.damage_type "physical"
td.damage_type "fire"
td.damage_type "magic"

-- most enemies are brutes that towers wear down but rarely kill in a run;
-- runners die in a few hits and feed the kill handlers. One speed for both:
-- overtaking in the two-tile corridor doubles the crowd's cost (docs/world.md).
td.enemy { name = "brute", health = 6000, speed = 1, armour = 2, bounty = 3, lives = 0,
           resist = { fire = 0.2 } }
td.enemy { name = "runner", health = 60, speed = 1, bounty = 1, lives = 0,
           resist = { magic = 0.3 } }

-- one tower type per kind of shot: the bench places them in turn
td.tower { name = "arrow", target = "first", levels = {
  { name = "arrow", cost = 50, range = 3, rate = 4, damage = 10, damage_type = "physical" } } }
td.tower { name = "cannon", target = "strongest", levels = {
  { name = "cannon", cost = 80, range = 3, rate = 1.5, damage = 30, damage_type = "fire",
    shot = "ballistic", shot_speed = 6, splash = 1.2 } } }
td.tower { name = "frost", target = "closest", levels = {
  { name = "frost", cost = 60, range = 2.5, rate = 2, damage = 6, damage_type = "magic",
    shot = "homing", shot_speed = 8, effect = { kind = "slow", magnitude = 0.4, duration = 2 } } } }
td.tower { name = "tesla", target = "first", levels = {
  { name = "tesla", cost = 90, range = 3, rate = 1.5, damage = 25, damage_type = "magic",
    shot = "chain", chain = 4, chain_range = 1.8, chain_falloff = 0.8 } } }
td.tower { name = "volley", target = "last", levels = {
  { name = "volley", cost = 90, range = 3.5, rate = 2, damage = 15, damage_type = "physical",
    shot = "pierce", pierce = 4, shot_speed = 12 } } }
td.tower { name = "firebomb", target = "first", levels = {
  { name = "firebomb", cost = 110, range = 3, rate = 1, damage = 20, damage_type = "fire",
    shot = "homing", shot_speed = 7, splash = 1,
    effect = { kind = "dot", magnitude = 15, duration = 3 } } } }

td.wave { { enemy = "runner", count = 1 } }
td.rules { wave_count = 1, start_gold = 1000000, start_lives = 1000, first_wave_delay = 100000,
           wave_interval = 100000 }

-- ---- handlers ---------------------------------------------------------------

local hits, kills, damage, wounded = 0, 0, 0, 0
local hits_by_tower = {}      -- tower handle -> hits
local kills_by_type = {}      -- enemy type name -> kills
local bounty = 0

td.on("hit", function(e)
  hits = hits + 1
  damage = damage + e.damage
  hits_by_tower[e.tower] = (hits_by_tower[e.tower] or 0) + 1
  if hits % 64 == 0 then      -- now and then, a look at the enemy hit
    local info = td.enemy_info(e.enemy)
    if info and info.health < 0.25 * info.max_health then wounded = wounded + 1 end
  end
end)

td.on("kill", function(e)
  kills = kills + 1
  kills_by_type[e.enemy_type] = (kills_by_type[e.enemy_type] or 0) + 1
  bounty = bounty + e.bounty
  td.give_gold(e.bounty)      -- the bounty again, as a mod's bonus
end)

td.every(600, function(tick)
  local parts = {}
  for name, n in sorted_pairs(kills_by_type) do parts[#parts + 1] = name .. "=" .. n end
  print(("tick %d: %d hits (%.0f damage), %d kills (%s), %d wounded, %d bounty"):format(
    tick, hits, damage, kills, table.concat(parts, " "), wounded, bounty))
end)
