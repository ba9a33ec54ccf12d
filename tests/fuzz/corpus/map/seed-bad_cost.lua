-- error: object 1 (path): property 'cost' must be > 0 and <= 1000, is -2
return {
  orientation = "orthogonal", width = 10, height = 10, tilewidth = 32, tileheight = 32,
  layers = {
    { type = "objectgroup", name = "paths", objects = {
      { id = 1, type = "path", shape = "polyline", x = 16, y = 16,
        polyline = { { x = 0, y = 0 }, { x = 256, y = 0 } },
        properties = { ["cost"] = -2 } },
      { id = 2, type = "spawn", shape = "point", x = 16, y = 16 },
      { id = 3, type = "goal", shape = "point", x = 272, y = 16 }
    } }
  }
}
