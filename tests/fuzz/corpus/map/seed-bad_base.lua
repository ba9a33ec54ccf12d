-- error: object 7 (tower_base): touches no path edge
return {
  orientation = "orthogonal", width = 10, height = 10, tilewidth = 32, tileheight = 32,
  layers = {
    { type = "objectgroup", name = "paths", objects = {
      { id = 1, type = "path", shape = "polyline", x = 16, y = 16,
        polyline = { { x = 0, y = 0 }, { x = 256, y = 0 } } },
      { id = 2, type = "spawn", shape = "point", x = 16, y = 16 },
      { id = 3, type = "goal", shape = "point", x = 272, y = 16 }
    } },
    { type = "objectgroup", name = "bases", objects = {
      { id = 6, type = "tower_base", shape = "rectangle", x = 64, y = 0, width = 32, height = 32 },
      { id = 7, type = "tower_base", shape = "rectangle", x = 64, y = 64, width = 32, height = 32 }
    } }
  }
}
