-- included by base/mod.lua: resolved in base's directory
td.on("wave_start", function(e) print(("base: wave %d starts"):format(e.wave)) end)
