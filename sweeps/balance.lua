-- The bundled content's balance check (tests/cli/balance.sh, docs/sweep.md):
-- every map played by the built-in player (auto) and by nobody (idle) at
-- seed 1, on the three difficulties. `td sweep report DIR --check` then
-- asserts that auto wins every map on normal and idle loses it.
sweep {
  maps = {"01-crossroads", "02-grid", "03-serpent", "04-foundry", "05-twin", "06-expanse"},
  difficulties = {"easy", "normal", "hard"},
  players = {"auto", "idle"},
  seeds = {1},
}
