#!/usr/bin/env bash
# The game screen's layout at the sizes the settings offer and the smallest
# supported: every HUD label and button (td_client_areas) inside the
# window, none overlapping another, no button's text cut; with the build
# bar holding 7 tower types (the bundled 6 and one more, as a barracks),
# a tower's panel, the pause menu and a confirm dialog. Checked by the
# layout (td play's `expect layout`), not by eye.
set -u
source "$(dirname "$0")/harness.bash"
export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy XDG_CONFIG_HOME="$tmp/config"

mkdir -p "$tmp/seven"
printf 'api_version = 1\ntd.tower { name = "barracks", levels = {\n  { name = "barracks", cost = 120, range = 3, rate = 1, damage = 5 } } }\n' >"$tmp/seven/mod.lua"
cat >"$tmp/layout.txt" <<SCRIPT
wait 3
expect layout
key 1
click base 9
wait 3
click base 9
wait 2
expect layout
key n
wait 30
expect layout
key Escape
key Escape
wait 2
expect layout
click button Restart
wait 1
expect text confirm Restart
expect layout
SCRIPT
for size in 960x600 1024x640 1100x620 1280x720 1600x900 1920x1080; do
  "$td" play --software --map "$src/maps/01-crossroads.lua" --mod "$src/scripts/base" --mod "$tmp/seven" \
    --window "$size" --script "$tmp/layout.txt" >"$tmp/out" 2>"$tmp/err"
  check $? "layout at $size: $(cat "$tmp/err")"
  [ "$(grep -c '^ok: layout' "$tmp/out")" -eq 5 ]; check $? "layout at $size: 5 checks: $(grep layout "$tmp/out")"
done

# the check can fail: a window narrower than the build bar needs
printf 'wait 3\nexpect layout\n' >"$tmp/narrow.txt"
"$td" play --software --map "$src/maps/01-crossroads.lua" --mod "$src/scripts/base" --mod "$tmp/seven" \
  --window 400x600 --script "$tmp/narrow.txt" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 1 ]; check $? "a 400 px window fails the layout check"
grep -q "expect layout: .* overlaps \|leaves the 400x600 window\|is cut" "$tmp/err"; check $? "says what: $(head -2 "$tmp/err")"

finish
