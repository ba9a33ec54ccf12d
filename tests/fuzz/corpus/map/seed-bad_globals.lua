-- error: bad_globals.lua:3: attempt to index a nil value (global 'io')
-- a map file sees no globals: no io, os, require, print, load...
local secrets = io.open("/etc/passwd"):read("a")
return { orientation = "orthogonal", name = secrets }
