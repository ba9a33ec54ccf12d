-- [waves]
-- Waves one by one: each td.wave is the next wave, a list of groups.
td.wave { { enemy = "grub", count = 6, spacing = 1 } }
td.wave { { enemy = "grub", count = 10, per_row = 2, width = 0.6 } }
td.wave { { enemy = "beetle", count = 3, spacing = 2 } }
td.wave {
  { enemy = "beetle", count = 4, spacing = 2 },
  { enemy = "grub", count = 8, per_row = 2, width = 0.6, delay = 6 },
}
td.wave { { enemy = "beetle", count = 8, per_row = 2, width = 0.8, spacing = 1.5 } }
-- [/waves]

-- [endless]
-- Endless mode, past wave 5: a group that spans waves. From wave 6 on it
-- brings 6 beetles, one more every wave (at most 30), each 15% tougher
-- than the wave before.
td.group { enemy = "beetle", first = 6, count = 6, count_growth = 1, max_count = 30,
           health_growth = 0.15, spacing = 1.5 }
-- [/endless]
