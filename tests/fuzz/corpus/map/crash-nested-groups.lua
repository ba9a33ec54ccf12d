-- 4^16 layers: refused past 4096 layers (issue 17)
local function path(id) return { id = id, type = "path", shape = "polyline", x = 0, y = 0, polyline = { { x = 0, y = 0 }, { x = 640, y = 0 } } } end
local function pt(id, cls, x) return { id = id, type = cls, shape = "point", x = x, y = 0 } end
local g = { type = "objectgroup", objects = {} }
for i = 1, 16 do g = { type = "group", layers = { g, g, g, g } } end
return { orientation = "orthogonal", width = 30, height = 4, tilewidth = 32, tileheight = 32, layers = { g, { type = "objectgroup", objects = { path(1), pt(2, "spawn", 0), pt(3, "goal", 640) } } } }
