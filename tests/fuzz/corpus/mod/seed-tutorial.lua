-- The tutorial mod of docs/modding.md: a whole game built from scratch, one
-- tower, one enemy (and what it splits into) and its waves. The lines
-- between "-- [name]" and "-- [/name]" are quoted by the tutorial;
-- tests/cli/modding.sh checks that the quotes match and plays the mod.

-- [header]
api_version = 1

td.damage_type "physical"
td.damage_type "poison"

;(function()
-- [grub]
-- What a beetle leaves behind: small, quick, weak to poison.
td.enemy {
  name = "grub",
  health = 10, speed = 2, radius = 0.2,
  resist = { poison = -0.5 },
  bounty = 1, lives = 1,
}
-- [/grub]

-- [beetle]
-- The new enemy: armoured (flat armour takes 3 off every hit), shrugs off
-- half of all physical damage, and splits into two grubs when it dies.
td.enemy {
  name = "beetle",
  health = 60, speed = 1.2, radius = 0.35,
  armour = 3,
  resist = { physical = 0.5 },
  split_into = "grub", split_count = 2,
  bounty = 5, lives = 2,
}
-- [/beetle]

end)();(function()
-- [dart]
-- A plain tower to start with: cheap darts, good against grubs.
td.tower {
  name = "dart",
  levels = {
    { name = "dart", cost = 40, range = 3, rate = 2, damage = 6 },
    { name = "dart_2", cost = 50, damage = 10 },
  },
}
-- [/dart]

-- [spitter]
-- The new tower: it spits poison that keeps burning (a "dot" effect, which
-- ignores armour), so it is the answer to beetles. Its upgrade tree forks.
td.tower {
  name = "spitter",
  target = "strongest",
  levels = {
    { name = "spitter", cost = 70, range = 3, rate = 0.8, damage = 4,
      damage_type = "poison", shot = "homing", shot_speed = 6,
      effect = { kind = "dot", magnitude = 8, duration = 3 } },
    -- an upgrade inherits everything it does not set
    { name = "spitter_2", cost = 60,
      effect = { kind = "dot", magnitude = 14, duration = 4 } },
    -- two branches from spitter_2: a cloud that splashes, or a long neck
    { name = "cloud", from = "spitter_2", cost = 100, splash = 1.2 },
    { name = "longneck", from = "spitter_2", cost = 90, range = 5, rate = 1.2 },
  },
}
-- [/spitter]

end)();(function()
-- [waves]
-- Waves one by one: each td.wave is the next wave, a list of groups.
td.wave { { enemy = "grub", count = 6, spacing = 1 } }
td.wave { { enemy = "grub", count = 10, per_row = 2, width = 0.6 } }
td.wave { { enemy = "beetle", count = 3, spacing = 2 } }
td.wave {
  { enemy = "beetle", count = 4, spacing = 2 },
  { enemy = "grub", count = 8, per_row = 2, width = 0.6, delay = 6 },
}
td.wave { { enemy = "beetle", count = 8, per_row = 2, width = 0.8, spacing = 1.5 } }
-- [/waves]

-- [endless]
-- Endless mode, past wave 5: a group that spans waves. From wave 6 on it
-- brings 6 beetles, one more every wave (at most 30), each 15% tougher
-- than the wave before.
td.group { enemy = "beetle", first = 6, count = 6, count_growth = 1, max_count = 30,
           health_growth = 0.15, spacing = 1.5 }
-- [/endless]

end)()-- [/header]

-- [rules]
td.rules {
  wave_count = 5,          -- win after wave 5 (endless mode goes on)
  start_gold = 200,
  start_lives = 10,
  wave_income = 40,
  first_wave_delay = 5,
  wave_interval = 25,
}
-- [/rules]

-- [handler]
-- A bounty on top of the bounty: every fifth beetle killed pays 10 gold.
local beetles = 0
td.on("kill", function(e)
  if e.enemy_type == "beetle" then
    beetles = beetles + 1
    if beetles % 5 == 0 then
      td.give_gold(10)
      print(("%d beetles: +10 gold, %d in hand"):format(beetles, td.gold()))
    end
  end
end)
-- [/handler]
