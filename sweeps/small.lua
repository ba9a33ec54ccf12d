-- The full balance sweep (sweeps/full.lua) on the five smaller maps: 5 maps
-- x 3 difficulties x 10 seeds x 3 strategies of the built-in player (450
-- games, about two minutes on two cores). CI runs it (.ci/run) and reports
-- games/s per core; docs/balance.md is made from full.lua (docs/sweep.md).
sweep {
  maps = {"01-crossroads", "02-grid", "03-serpent", "04-foundry", "05-twin"},
  difficulties = {"easy", "normal", "hard"},
  seeds = range(1, 10),
  players = {"auto"},
  strategies = {"default", "maze", "economy"},
  record = {"result", "wave", "lives", "gold_curve", "lives_curve", "kills_by_tower",
            "leaks_by_enemy", "wave_gold", "wave_lives"},
}
