-- Roads of several widths: a wide avenue (4 tiles), a lane one tile wide,
-- a street of two tiles, then the avenue again; 32 px tiles. One tower base
-- beside the narrow lane (it closes nothing).
return {
  orientation = "orthogonal", width = 48, height = 24, tilewidth = 32, tileheight = 32,
  properties = { ["road_width"] = 64 },
  layers = {
    { type = "objectgroup", name = "roads", objects = {
      { id = 1, name = "avenue", type = "path", shape = "polyline", x = 48, y = 112,
        properties = { ["road_width"] = 128 },
        polyline = { { x = 0, y = 0 }, { x = 320, y = 0 } } },
      { id = 2, name = "lane", type = "path", shape = "polyline", x = 368, y = 112,
        properties = { ["road_width"] = 32 },
        polyline = { { x = 0, y = 0 }, { x = 256, y = 0 }, { x = 256, y = 320 } } },
      { id = 3, name = "street", type = "path", shape = "polyline", x = 624, y = 432,
        polyline = { { x = 0, y = 0 }, { x = 384, y = 0 }, { x = 384, y = -256 } } },
      { id = 4, name = "avenue-2", type = "path", shape = "polyline", x = 1008, y = 176,
        properties = { ["road_width"] = 128 },
        polyline = { { x = 0, y = 0 }, { x = 448, y = 0 } } },
      { id = 5, name = "start", type = "spawn", shape = "point", x = 48, y = 112 },
      { id = 6, name = "end", type = "goal", shape = "point", x = 1456, y = 176 },
    } },
    { type = "objectgroup", name = "bases", objects = {
      { id = 7, name = "beside", type = "tower_base", shape = "rectangle",
        x = 448, y = 144, width = 64, height = 64, properties = { ["blocking"] = false } },
    } },
  },
}
