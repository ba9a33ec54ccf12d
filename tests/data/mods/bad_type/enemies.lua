-- health is not a number
td.enemy {
  name = "runner",
  health = "lots",
  speed = 2,
}
