td.enemy {
  name = "runner",
  health = 30,
  speed = 2,
}
