-- The tutorial mod of docs/modding.md: a whole game built from scratch, one
-- tower, one enemy (and what it splits into) and its waves. The lines
-- between "-- [name]" and "-- [/name]" are quoted by the tutorial;
-- tests/cli/modding.sh checks that the quotes match and plays the mod.

-- [header]
api_version = 1

td.damage_type "physical"
td.damage_type "poison"

include "enemies.lua"
include "towers.lua"
include "waves.lua"
-- [/header]

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
-- The count lives in td.state, which saves carry (a local would restart
-- at 0 in a loaded game, and the gold would part from the saved one's).
td.state.beetles = 0
td.on("kill", function(e)
  if e.enemy_type == "beetle" then
    td.state.beetles = td.state.beetles + 1
    if td.state.beetles % 5 == 0 then
      td.give_gold(10)
      print(("%d beetles: +10 gold, %d in hand"):format(td.state.beetles, td.gold()))
    end
  end
end)
-- [/handler]
