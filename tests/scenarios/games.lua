-- Whole games: a defended one is won, an undefended one is lost, and the
-- world refuses a tower that would cut the only path.

scenario {
  name = "three bolts defend the crossroads",
  map = "../../maps/01-crossroads.tmx",
  mod = "mods/defence",
  seed = 4,
  ticks = 60 * 300,               -- at most; the game ends at about 80 s
  towers = {
    { tick = 0, base = 13, tower = "bolt" },
    { tick = 0, base = 15, tower = "bolt" },
    { tick = 600, target = 15, mode = "strongest" },
    { tick = 900, base = 17, tower = "bolt" },
    { tick = 2400, upgrade = 13, to = "bolt_2" },
  },
  call_wave = { 1200 },           -- wave 2 ten seconds early, for the bonus
  expect = {
    result = "won",
    lives = ">= 15",
    kills = ">= 26",
    leaks = "<= 5",
    refused = "== 0",
    wave = "== 3",
    script_errors = "== 0",
  },
}

scenario {
  name = "the bundled game without towers is lost",
  map = "../../maps/01-crossroads.tmx",
  mod = "../../scripts/base",
  ticks = 60 * 600,
  call_wave = { 0 },              -- wave 1 waits for the player: called at once
  expect = {
    result = "lost",
    lives = "== 0",
    kills = "== 0",
    leaks = ">= 10",
    wave = ">= 1",                 -- which wave ends it is the rules' business
  },
}

scenario {
  name = "a tower on the only path is refused",
  map = "maps/two-corners.lua",
  mod = "mods/lanes",
  towers = {
    { tick = 0, base = 4, tower = "post" },     -- would cut the spawn off
    { tick = 60, sell = 4 },                    -- so there is nothing to sell
  },
  expect = {
    refused = "== 2",
    leaks = "== 3",
    result = "won",
    gold = "== 100",
  },
}
