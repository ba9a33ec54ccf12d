-- [grub]
-- What a beetle leaves behind: small, quick, weak to poison.
td.enemy {
  name = "grub",
  health = 10, speed = 2, radius = 0.2,
  resist = { poison = -0.5 },
  bounty = 1, lives = 1,
}
-- [/grub]

-- [beetle]
-- The new enemy: armoured (flat armour takes 3 off every hit), shrugs off
-- half of all physical damage, and splits into two grubs when it dies.
td.enemy {
  name = "beetle",
  health = 60, speed = 1.2, radius = 0.35,
  armour = 3,
  resist = { physical = 0.5 },
  split_into = "grub", split_count = 2,
  bounty = 5, lives = 2,
}
-- [/beetle]
