-- error: object 5 (spawn): cannot reach any goal
return {
  orientation = "orthogonal", width = 10, height = 10, tilewidth = 32, tileheight = 32,
  layers = {
    { type = "objectgroup", name = "paths", objects = {
      { id = 1, type = "path", shape = "polyline", x = 16, y = 16,
        polyline = { { x = 0, y = 0 }, { x = 256, y = 0 } } },
      { id = 2, type = "path", shape = "polyline", x = 16, y = 200,
        polyline = { { x = 0, y = 0 }, { x = 256, y = 0 } } },
      { id = 4, type = "spawn", shape = "point", x = 16, y = 16 },
      { id = 5, type = "spawn", shape = "point", x = 16, y = 200 },
      { id = 6, type = "goal", shape = "point", x = 272, y = 16 }
    } }
  }
}
