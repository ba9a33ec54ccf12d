-- The full balance sweep behind docs/balance.md: the 6 bundled maps x 3
-- difficulties x 10 seeds x 3 strategies of the built-in player (540
-- games; 06-expanse takes a minute or more a game). docs/sweep.md has the
-- commands that regenerate docs/balance.md from it.
sweep {
  maps = {"01-crossroads", "02-grid", "03-serpent", "04-foundry", "05-twin", "06-expanse"},
  difficulties = {"easy", "normal", "hard"},
  seeds = range(1, 10),
  players = {"auto"},
  strategies = {"default", "maze", "economy"},
  record = {"result", "wave", "lives", "gold_curve", "lives_curve", "kills_by_tower",
            "leaks_by_enemy", "wave_gold", "wave_lives"},
}
