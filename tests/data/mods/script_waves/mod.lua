-- Waves written as scripts (tests/cli/wavescript.sh, docs/modding.md "Wave
-- scripts"): wave 1 is data; wave 2 is a script: five runners half a second
-- apart, a pause, then a brute that calls in runners while it lives.
api_version = 1
td.damage_type "physical"
td.enemy { name = "runner", health = 30, speed = 2, bounty = 2 }
td.enemy { name = "brute", health = 400, speed = 1, bounty = 20 }
td.tower { name = "arrow", levels = { { name = "arrow", cost = 40, range = 4, rate = 2, damage = 8 } } }

td.wave { { enemy = "runner", count = 3 } }

td.wave(function(wave)
  for i = 1, 5 do
    td.spawn("runner")
    td.wait(0.5)
  end
  td.wait(3)
  local brute = td.spawn("brute")
  local escorts = 0
  while td.enemy_info(brute) do
    -- a call that raises leaves nothing on the script's tape: after a load
    -- it raises again, and the pcall goes on the same way
    assert(not pcall(td.spawn, "no such enemy"))
    if math.random(1, 3) == 1 then
      td.spawn("runner", { lane = 0.3 })
      escorts = escorts + 1
    end
    td.wait(1)
  end
  print(("script of wave %d done at tick %d: %d escorts"):format(wave, td.tick(), escorts))
end)

td.on("wave_end", function(e)
  print(("wave_end %d at tick %d"):format(e.wave, e.tick))
end)

td.rules { start_gold = 200, start_lives = 20, first_wave_delay = 2, wave_interval = 30 }
