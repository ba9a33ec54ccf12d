-- A winding course: six corners of 90 and 45 degrees, either way (the
-- points of test_crowd's 60-agent wave, in tiles of 32 px).
-- The road is 5 tiles wide: the five lanes of the wave fit it as they are.
return {
  properties = { ["road_width"] = 160 },
  orientation = "orthogonal", width = 64, height = 40, tilewidth = 32, tileheight = 32,
  layers = {
    { type = "objectgroup", name = "course", objects = {
      { id = 1, name = "course", type = "path", shape = "polyline", x = 32, y = 64,
        polyline = { { x = 0, y = 0 }, { x = 384, y = 0 }, { x = 384, y = 384 },
                     { x = 768, y = 384 }, { x = 1056, y = 96 }, { x = 1344, y = 96 },
                     { x = 1344, y = 576 }, { x = 1920, y = 576 } } },
      { id = 2, name = "start", type = "spawn", shape = "point", x = 32, y = 64 },
      { id = 3, name = "end", type = "goal", shape = "point", x = 1952, y = 640 },
    } },
  },
}
