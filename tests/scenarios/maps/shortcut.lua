-- A short way and a long way from a junction to the goal (32 px cells): the
-- approach from the spawn meets the junction (4, 2); the shortcut goes up
-- one cell and along the top row (11 cells to the goal), the long way down,
-- along the bottom and up again (27 cells). Base 3, the shortcut's mouth
-- (4, 1), is beside the junction: a tower there closes the shortcut and
-- stands within a sapper's reach of every enemy that passes. Base 4 is a
-- pad (it closes nothing) in the rock beside the approach, for a guard.
-- For tests/scenarios/soldiers.lua.
--
--   spawn: (1, 2); goal: (14, 1); base 3: (4, 1); pad 4: (3, 3)
--
--   ################
--   ####...........#
--   #....#########.#
--   ####.#########.#
--   ####.#########.#
--   ####.#########.#
--   ####.#########.#
--   ####.#########.#
--   ####.#########.#
--   ####.#########.#
--   ####...........#
--   ################
return {
  orientation = "orthogonal", width = 16, height = 12, tilewidth = 32, tileheight = 32,
  tilesets = {
    { name = "maze", firstgid = 1, tiles = {
      { id = 0, properties = { ["walkable"] = true } },
      { id = 1, properties = { ["walkable"] = false } } } }
  },
  layers = {
    { type = "tilelayer", name = "floor", width = 16, height = 12, encoding = "lua",
      data = {
        2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
        2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2,
        2, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 2,
        2, 2, 2, 2, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 2,
        2, 2, 2, 2, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 2,
        2, 2, 2, 2, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 2,
        2, 2, 2, 2, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 2,
        2, 2, 2, 2, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 2,
        2, 2, 2, 2, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 2,
        2, 2, 2, 2, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 2,
        2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2,
        2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2
      } },
    { type = "objectgroup", name = "things", objects = {
      { id = 1, name = "start", type = "spawn", shape = "point", x = 48, y = 80 },
      { id = 2, name = "end", type = "goal", shape = "point", x = 464, y = 48 },
      { id = 3, name = "mouth", type = "tower_base", shape = "rectangle",
        x = 128, y = 32, width = 32, height = 32 },
      { id = 4, name = "guard", type = "tower_base", shape = "rectangle",
        x = 96, y = 96, width = 32, height = 32,
        properties = { ["blocking"] = false } },
    } },
  },
}
