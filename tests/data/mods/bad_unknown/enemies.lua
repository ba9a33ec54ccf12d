td.enemy {
  name = "runner",
  health = 30,
  sped = 2,
}
