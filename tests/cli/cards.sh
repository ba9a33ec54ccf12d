#!/usr/bin/env bash
# What a player reads (render/cards.h): tooltips after a rest on a button,
# a tower's card before it is bought, an enemy's card on a click and when a
# kind first appears, the boss bar, refusals in a player's words, and no
# id or file name on screen (td play --script: expect shown/hidden,
# expect drawn, expect no_raw_ids, click enemy).
set -u
source "$(dirname "$0")/harness.bash"
export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
export XDG_CONFIG_HOME="$tmp/config"
map="$src/maps/01-crossroads.tmx"

play() { # play NAME SCRIPT [td play options]: a scripted session must pass
  local name=$1 script=$2
  shift 2
  "$td" play --map "$map" --window 1280x720 --software --script "$script" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  check $rc "$name (status $rc): $(cat "$tmp/err") $(tail -1 "$tmp/out")"
}

# the bundled game: a build button's card after 0.4 s, gone when the pointer
# leaves; a plain tooltip on Call wave; the first kind of enemy's card; a
# click on an enemy gives its card
cat >"$tmp/bundled.txt" <<SCRIPT
wait 3
expect no_raw_ids
expect drawn Archers
expect not_drawn arrow
move button Archers
wait 10
expect hidden tooltip
wait 20
expect shown tooltip
expect shown card
expect drawn Archer Tower II
expect drawn Targets  ground and air
expect drawn Cheap single-target shots
expect no_raw_ids
shot $tmp/card.png
move 640 300
wait 2
expect hidden tooltip
move button Call wave
wait 30
expect shown tooltip
expect hidden card
expect drawn Key: N
key n
wait 200
expect shown intro
expect drawn New enemy
click enemy
wait 2
expect shown enemy
expect drawn Health
expect drawn Speed
expect drawn Resists
expect no_raw_ids
shot $tmp/enemy.png
click 640 120
wait 2
expect hidden enemy
SCRIPT
play "bundled cards" "$tmp/bundled.txt"
for f in card enemy; do
  [ "$(head -c 4 "$tmp/$f.png" | od -An -c | tr -d ' ')" = "211PNG" ]; check $? "$f.png is a PNG"
done

# refusals in a player's words: with towers on bases 9 and 15, one on 16
# would close the last way (the ghost says so, and so does the refusal)
cat >"$tmp/refuse.txt" <<SCRIPT
wait 3
key 1
click base 9
wait 3
key 1
click base 15
wait 3
key 1
move base 16
wait 3
expect drawn It would block the last way to the exit
expect not_drawn object
expect no_raw_ids
click base 16
wait 2
expect toast Cannot build here: it would block the last way to the exit
expect no_raw_ids
SCRIPT
play "refusal words" "$tmp/refuse.txt"

# a mod whose ids read badly: titles made from them, a barracks' card with
# its soldiers, a maxed tower, a boss and its bar
mkdir -p "$tmp/mod"
cat >"$tmp/mod/mod.lua" <<'LUA'
api_version = 1
td.damage_type "physical"
td.damage_type "fire"
td.enemy { name = "imp_2", health = 50, speed = 1, resist = { physical = 0.5, fire = -0.5 } }
td.enemy { name = "big_boss", title = "Lord of Ash", description = "It burns.", health = 5000,
  speed = 0.5, radius = 0.5, boss = true, armour = 3 }
td.soldier { name = "foot_man", health = 100, damage = 5, rate = 1, speed = 2 }
td.tower { name = "bolt_1", levels = {
  { name = "bolt_1", cost = 10, range = 3, damage = 5 },
  { name = "bolt_2", cost = 10 } } }
td.tower { name = "camp_1", levels = {
  { name = "camp_1", cost = 10, range = 2, soldiers = 2, soldier = "foot_man" } } }
td.rules { start_gold = 500 }
td.wave { { enemy = "imp_2", count = 3 }, { enemy = "big_boss", count = 1, delay = 1 } }
LUA
cat >"$tmp/mod.txt" <<SCRIPT
wait 3
expect drawn Bolt I
expect drawn Camp I
expect no_raw_ids
move button Camp I
wait 30
expect shown card
expect drawn Soldiers 2 x Foot Man
key 1
click base 9
wait 3
click base 9
wait 2
move button Upgrade
wait 30
expect shown card
expect drawn Bolt II
key u
wait 2
expect drawn Fully upgraded
expect hidden card
expect no_raw_ids
key u
wait 2
expect toast Fully upgraded
key Escape
key n
wait 240
expect shown boss
expect shown intro
expect drawn A boss arrives
expect drawn Lord of Ash
expect drawn It burns.
expect no_raw_ids
shot $tmp/boss.png
SCRIPT
play "a mod's titles" "$tmp/mod.txt" --mod "$tmp/mod"

# the check can fail: a title that is an id is caught
sed 's/name = "bolt_1", levels/name = "bolt_1", title = "bolt_1", levels/' "$tmp/mod/mod.lua" >"$tmp/bad.lua"
mkdir -p "$tmp/badmod" && mv "$tmp/bad.lua" "$tmp/badmod/mod.lua"
printf 'wait 3\nexpect no_raw_ids\n' >"$tmp/raw.txt"
"$td" play --map "$map" --software --mod "$tmp/badmod" --script "$tmp/raw.txt" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ]; check $? "an id on screen fails the check"
grep -q "expect no_raw_ids failed: 'bolt_1' is on screen" "$tmp/err"; check $? "names it: $(cat "$tmp/err")"

# the end screen and the menu name the map by its title, not its file
cat >"$tmp/lose.lua" <<'LUA'
api_version = 1
td.damage_type "physical"
td.enemy { name = "dash_1", health = 50, speed = 12 }
td.tower { name = "t", levels = { { name = "t", cost = 10, range = 3 } } }
td.rules { start_lives = 1 }
td.wave { { enemy = "dash_1", count = 3 } }
LUA
mkdir -p "$tmp/losemod" && mv "$tmp/lose.lua" "$tmp/losemod/mod.lua"
printf 'wait 3\nkey n\nwait 400\nexpect state lost\nexpect drawn Crossroads\nexpect no_raw_ids\n' >"$tmp/over.txt"
play "end screen" "$tmp/over.txt" --mod "$tmp/losemod"
cat >"$tmp/menu.txt" <<SCRIPT
wait 2
expect drawn Crossroads
expect no_raw_ids
move button Start
wait 30
expect shown tooltip
expect drawn Key: Enter
SCRIPT
"$td" play --software --script "$tmp/menu.txt" >"$tmp/out" 2>"$tmp/err"
check $? "menu titles: $(cat "$tmp/err")"

finish
