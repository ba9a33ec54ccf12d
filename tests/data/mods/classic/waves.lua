-- Ten waves, one td.wave each (its groups spawn in that wave only), and
-- endless mode past wave 10 from td.group.
td.wave { { enemy = "runner", count = 6, spacing = 1.5 } }
td.wave { { enemy = "runner", count = 10, per_row = 2, width = 0.8 } }
td.wave { { enemy = "grunt", count = 8 }, { enemy = "runner", count = 6, delay = 6 } }
td.wave { { enemy = "wisp", count = 8, spacing = 2 } }
td.wave { { enemy = "tank", count = 3, spacing = 2 }, { enemy = "grunt", count = 10, delay = 4 } }
td.wave { { enemy = "splitter", count = 6, spacing = 2 } }
td.wave { { enemy = "grunt", count = 16, per_row = 2, width = 1 }, { enemy = "wisp", count = 8, delay = 8 } }
td.wave { { enemy = "tank", count = 6, spacing = 2 }, { enemy = "splitter", count = 4, delay = 6 } }
td.wave { { enemy = "runner", count = 30, per_row = 3, width = 1.2 }, { enemy = "wisp", count = 12, delay = 5 } }
td.wave { { enemy = "warlord", count = 1 }, { enemy = "grunt", count = 20, per_row = 2, width = 1, delay = 3 } }

-- endless: past the last wave, grunts and tanks that grow
td.group { enemy = "grunt", first = 11, count = 20, count_growth = 4, max_count = 80,
           health_growth = 0.1 }
td.group { enemy = "tank", first = 11, every = 2, count = 4, count_growth = 1, max_count = 20 }
