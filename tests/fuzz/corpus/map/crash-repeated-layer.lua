-- one 100x100 tile layer listed 2000 times: refused past 16777216 cells (issue 17)
local d = {} for i = 1, 10000 do d[i] = i % 3 end
local l = { type = "tilelayer", width = 100, height = 100, encoding = "lua", data = d }
local ls = {} for i = 1, 2000 do ls[i] = l end
local function path(id) return { id = id, type = "path", shape = "polyline", x = 0, y = 0, polyline = { { x = 0, y = 0 }, { x = 640, y = 0 } } } end
local function pt(id, cls, x) return { id = id, type = cls, shape = "point", x = x, y = 0 } end
ls[#ls + 1] = { type = "objectgroup", objects = { path(1), pt(2, "spawn", 0), pt(3, "goal", 640) } }
return { orientation = "orthogonal", width = 100, height = 100, tilewidth = 32, tileheight = 32, layers = ls }
