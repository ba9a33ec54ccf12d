-- 1,000 spawns on one node: refused past 64 spawns (issue 17)
local function path(id) return { id = id, type = "path", shape = "polyline", x = 0, y = 0, polyline = { { x = 0, y = 0 }, { x = 640, y = 0 } } } end
local function pt(id, cls, x) return { id = id, type = cls, shape = "point", x = x, y = 0 } end
local o = { path(1), pt(2, "goal", 640) }
for i = 1, 1000 do o[#o + 1] = pt(2 + i, "spawn", 0) end
return { orientation = "orthogonal", width = 30, height = 4, tilewidth = 32, tileheight = 32, layers = { { type = "objectgroup", objects = o } } }
