-- Is the cannon's price right? The built-in player (default strategy) on
-- the five smaller maps, normal and hard, with the cannon's cost (every
-- level) scaled from 0.6 to 1.6: 60 games, a few seconds on two cores.
-- docs/balance-cannon.md is its report (docs/sweep.md has the commands).
-- One seed: the bundled game's outcomes do not depend on it.
sweep {
  maps = {"01-crossroads", "02-grid", "03-serpent", "04-foundry", "05-twin"},
  difficulties = {"normal", "hard"},
  seeds = {1},
  players = {"auto"},
  overrides = {
    {param = "tower.cannon.cost", scale = {0.6, 0.8, 1.0, 1.2, 1.4, 1.6}},
  },
  record = {"result", "wave", "lives", "gold_curve", "lives_curve", "kills_by_tower",
            "leaks_by_enemy", "wave_gold", "wave_lives"},
}
