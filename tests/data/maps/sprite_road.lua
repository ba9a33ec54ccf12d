-- tests/cli/sprite.sh: a straight road, west to east, 12 x 5 tiles
return {
  orientation = "orthogonal", width = 12, height = 5, tilewidth = 32, tileheight = 32,
  layers = {
    { type = "objectgroup", name = "paths", objects = {
      { id = 1, type = "path", shape = "polyline", x = 16, y = 80,
        polyline = { { x = 0, y = 0 }, { x = 352, y = 0 } } },
      { id = 2, type = "spawn", shape = "point", x = 16, y = 80 },
      { id = 3, type = "goal", shape = "point", x = 368, y = 80 }
    } }
  }
}
