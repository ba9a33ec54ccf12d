-- Waves as spawn groups that span waves (td.group, after Mindustry's
-- SpawnGroup): each enemy type joins at its `first` wave and comes back
-- every `every` waves, more of them (count_growth) and tougher
-- (health_growth) each time. The map's profile (maps.lua) sets the number
-- of waves and scales sizes and health, so one curve serves every map.
-- Groups have no `last`: past the last wave, endless mode keeps them coming
-- (and rules.endless_health_growth makes them tougher still).
local P = PROFILE
local N = P.waves

local function group(t)
  t.count = math.max(1, math.floor(t.count * P.count + 0.5))
  t.count_growth = (t.count_growth or 0) * P.count
  t.health_growth = t.health_growth or P.growth
  td.group(t)
end

--       enemy             first      every      count      growth             formation / delay
group { enemy = "grunt", first = 1, count = 4, count_growth = 0.6, max_count = 40,
        spacing = 1.2 }
group { enemy = "runner", first = 3, count = 6, count_growth = 0.7, max_count = 60,
        per_row = 2, width = 0.8, spacing = 1, delay = 4 }
group { enemy = "wisp", first = 5, every = 3, count = 3, count_growth = 0.2, max_count = 30,
        spacing = 1.5, delay = 3 }
group { enemy = "tank", first = 6, every = 2, count = 2, count_growth = 0.25, max_count = 16,
        spacing = 2, delay = 9 }
group { enemy = "splitter", first = 7, every = 3, count = 3, count_growth = 0.3, max_count = 20,
        spacing = 2, delay = 7 }
group { enemy = "salamander", first = 8, every = 3, count = 4, count_growth = 0.4,
        max_count = 30, per_row = 2, width = 0.8, spacing = 1.2, delay = 2 }
group { enemy = "shaman", first = 9, every = 2, count = 1, count_growth = 0.15, max_count = 8,
        spacing = 3, delay = 6 }
group { enemy = "golem", first = 11, every = 4, count = 2, count_growth = 0.25, max_count = 12,
        spacing = 2.5, delay = 10 }
group { enemy = "drake", first = 13, every = 4, count = 2, count_growth = 0.2, max_count = 12,
        spacing = 2, delay = 4 }
-- sappers from the middle of the campaign: they stop at towers and blow
-- them up unless soldiers hold them or the towers kill them first
group { enemy = "sapper", first = math.floor(N / 2), every = 2, count = 2, count_growth = 0.3,
        max_count = 16, per_row = 2, width = 0.8, spacing = 1.5, delay = 5 }
-- the map's boss: the last wave, then every fifth wave of endless mode
group { enemy = P.boss, first = N, every = 5, count = 1, health_growth = 0, delay = 12,
        spawn = P.boss_spawn }
