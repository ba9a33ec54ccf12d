td.on("spawn", function(e)
  if e.tick < 200 or printed then return end
  printed = true -- a global of extra's own
  print(("extra: %s spawned with %g health"):format(e.enemy_type or td.enemy_info(e.enemy).type,
                                                     td.enemy_info(e.enemy).health))
end)
td.on("wave_start", function(e) print(("extra: wave %d starts"):format(e.wave)) end)
