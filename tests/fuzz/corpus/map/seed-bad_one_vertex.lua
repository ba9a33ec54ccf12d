-- error: object 4 (path): a path needs at least 2 vertices, has 1
return {
  orientation = "orthogonal", width = 10, height = 10, tilewidth = 32, tileheight = 32,
  layers = {
    { type = "objectgroup", name = "paths", objects = {
      { id = 4, name = "stub", type = "path", shape = "polyline", x = 16, y = 16,
        polyline = { { x = 0, y = 0 } } }
    } }
  }
}
