-- 120,000 spawns and goals (two tables): refused past 100000 objects (issue 17)
local function path(id) return { id = id, type = "path", shape = "polyline", x = 0, y = 0, polyline = { { x = 0, y = 0 }, { x = 640, y = 0 } } } end
local function pt(id, cls, x) return { id = id, type = cls, shape = "point", x = x, y = 0 } end
local o = { path(1) } local s, g = pt(2, "spawn", 0), pt(3, "goal", 640)
for i = 1, 60000 do o[#o + 1] = s o[#o + 1] = g end
return { orientation = "orthogonal", width = 30, height = 4, tilewidth = 32, tileheight = 32, layers = { { type = "objectgroup", name = "crowd", objects = o } } }
