-- two tower bases with one id: refused naming both (issue 17)
local function path(id) return { id = id, type = "path", shape = "polyline", x = 0, y = 0, polyline = { { x = 0, y = 0 }, { x = 640, y = 0 } } } end
local function pt(id, cls, x) return { id = id, type = cls, shape = "point", x = x, y = 0 } end
return { orientation = "orthogonal", width = 30, height = 4, tilewidth = 32, tileheight = 32, layers = { { type = "objectgroup", name = "a", objects = { path(1), pt(2, "spawn", 0), pt(3, "goal", 640),
  { id = 4, type = "tower_base", shape = "rectangle", x = 300, y = -10, width = 20, height = 20 } } },
  { type = "objectgroup", name = "b", objects = {
  { id = 4, type = "tower_base", shape = "rectangle", x = 400, y = -10, width = 20, height = 20 } } } } }
