#!/usr/bin/env bash
# Soldiers and sappers in the games users play (issue 19): the built-in
# player's whole games on the smaller bundled maps take only arrows of
# unit.h's state machines (td sim --json's "arrows" against its
# "arrow_table", which is the table written in unit.h and docs/world.md),
# and soldiers engage, fight and fall and sappers damage and destroy towers
# in them. A game with barracks and sappers replays bit-identically from its
# recording, and saved mid-fight (soldiers fighting, a sapper at a tower)
# and loaded goes on exactly as the uninterrupted game.
set -u
source "$(dirname "$0")/harness.bash"

maps=(02-grid 03-serpent 04-foundry 05-twin)
for m in "${maps[@]}"; do
  "$td" sim --map "$src/maps/$m.tmx" --auto --ticks 80000 --json >"$tmp/$m.json" 2>"$tmp/err"
  check $? "$m: the auto game failed: $(head -c 300 "$tmp/err")"
done

# Every arrow counted is in the table; the JSON's table is unit.h's and
# docs/world.md's; soldiers and sappers appear in the games.
python3 - "$src" "$tmp" "${maps[@]}" <<'PY'
import json, re, sys
src, tmp, maps = sys.argv[1], sys.argv[2], sys.argv[3:]
fails = []

def header_tables():
    text = open(src + "/engine/sim/unit.h").read()
    enemy, soldier = text.split("Soldiers (td_soldier_state)")
    out = []
    for part in (enemy, soldier):
        rows = re.findall(r"^\*\*   ([A-Z]+|any)\s+([A-Z]+)\s+\S", part, re.M)
        out.append({(a.lower(), b.lower()) for a, b in rows})
    return out

def doc_tables():
    text = open(src + "/docs/world.md").read()
    out = []
    for head in ("**Enemies**", "**Soldiers**"):
        part = text[text.index(head):]
        table = part[part.index("| from | to | when |"):].split("\n\n")[0]
        rows = re.findall(r"^\| ([a-z]+) \| ([a-z]+) \|", table, re.M)
        out.append({(a, b) for a, b in rows if a != "from"})
    return out

def expand_any(arrows, states):
    out = set()
    for a, b in arrows:
        out |= {(s, b) for s in states if s != b} if a == "any" else {(a, b)}
    return out

games = {m: json.load(open("%s/%s.json" % (tmp, m))) for m in maps}
table = {k: [tuple(x.split(">")) for x in games[maps[0]]["arrow_table"][k]]
         for k in ("enemy", "soldier")}
for k in table:
    if not table[k]:
        fails.append("arrow_table.%s is empty" % k)
for name, tabs in (("unit.h", header_tables()), ("docs/world.md", doc_tables())):
    for k, t in zip(("enemy", "soldier"), tabs):
        states = {s for arrow in table[k] for s in arrow}
        if expand_any(t, states) != set(table[k]):
            fails.append("%s's %s table is not td sim's arrow_table: %s" %
                         (name, k, sorted(expand_any(t, states) ^ set(table[k]))))

total = {"enemy": {}, "soldier": {}}
fights = {}
for m, g in games.items():
    assert g["arrow_table"] == games[maps[0]]["arrow_table"]
    for k in ("enemy", "soldier"):
        names = list(g["arrows"][k])
        if names != sorted(names):
            fails.append("%s: arrows.%s not sorted" % (m, k))
        for a, n in g["arrows"][k].items():
            if tuple(a.split(">")) not in table[k] or n <= 0:
                fails.append("%s: %s arrow %s taken %d times: not in the table" % (m, k, a, n))
            total[k][a] = total[k].get(a, 0) + n
    for e, n in g["fights"].items():
        fights[e] = fights.get(e, 0) + n
    pq = g["path_queue"]
    if not (0 <= pq["max_expansions"] <= pq["budget"] == 2048):
        fails.append("%s: the path queue spent %d expansions in a tick, its budget is %d"
                     % (m, pq["max_expansions"], pq["budget"]))
    print("  %-10s %-5s tick %6d  %s" % (m, g["result"], g["ticks"],
          " ".join("%s %d" % kv for kv in sorted(g["fights"].items()))))

# (a tower falling in a whole game: tests/scenarios/soldiers.lua; the
# built-in player's towers are guarded well enough that none falls here)
for e in ("engage", "soldier_death", "tower_damaged"):
    if not fights.get(e):
        fails.append("no %s event in any game" % e)
for k, a in (("enemy", "walk>blocked"), ("enemy", "blocked>attack"), ("enemy", "walk>attack"),
             ("enemy", "attack>walk"), ("soldier", "engage>attack"), ("soldier", "attack>die"),
             ("soldier", "respawn>move")):
    if not total[k].get(a):
        fails.append("%s arrow %s taken in no game" % (k, a))
never = ["%s %s>%s" % (k, a, b) for k in table for a, b in table[k]
         if not total[k].get("%s>%s" % (a, b))]
print("  arrows never taken in these games:", ", ".join(never) or "none")
for f in fails:
    print("FAIL:", f)
sys.exit(1 if fails else 0)
PY
check $? "units: arrows outside the tables, or no soldiers and sappers"

# A game with barracks and sappers, recorded and replayed: every checksum
# and the end match.
map=$src/maps/04-foundry.tmx
"$td" sim --map "$map" --auto --record "$tmp/f.replay" --json >"$tmp/full.json" 2>"$tmp/err"
check $? "foundry: recording failed: $(head -c 300 "$tmp/err")"
"$td" sim --replay "$tmp/f.replay" >"$tmp/out" 2>"$tmp/err"
check $? "foundry: the replay parted: $(head -c 300 "$tmp/err")"
grep -q "^replay: [0-9]* commands, [0-9]* checksums and the end match$" "$tmp/out"
check $? "foundry: the replay's verdict: $(tail -n 2 "$tmp/out")"
"$td" sim --map "$src/maps/05-twin.tmx" --auto --record "$tmp/t.replay" --quiet >/dev/null 2>&1
check $? "twin: recording failed"
"$td" sim --replay "$tmp/t.replay" >"$tmp/out" 2>"$tmp/err"
grep -q "^replay: [0-9]* commands, [0-9]* checksums and the end match$" "$tmp/out"
check $? "twin: the replay parted: $(head -c 300 "$tmp/err") $(tail -n 2 "$tmp/out")"

# Saved mid-fight and loaded: the same game. Each save tick is checked to be
# what it is meant to be (from the saving run's JSON, one tick later: the
# units in a state are the arrows into it less the arrows out of it; an
# enemy in ATTACK without a soldier in ATTACK is a sapper at a tower):
#   30500 and 47000 a soldier fights; 32600 and 32700 a soldier fights and
#   a sapper hits a tower; 19000 is a tick where a load once fitted walkers'
#   lanes to a grid's clearance before the towers' cells were closed again
#   (world_save.c's rebuild).
for at in 30500:fight 32600:both 32700:both 19000:any 47000:fight; do
  t=${at%%:*} want=${at#*:}
  "$td" sim --map "$map" --auto --ticks $((t + 1)) --save-at "$t" --save "$tmp/s.tds" --json \
    >"$tmp/at.json" 2>/dev/null
  check $? "foundry: saving at $t failed"
  python3 - "$tmp/at.json" "$want" <<'PY'
import json, sys
d, want = json.load(open(sys.argv[1])), sys.argv[2]
def inside(kind, st):
    a = d["arrows"][kind]
    return (sum(n for k, n in a.items() if k.split(">")[1] == st) -
            sum(n for k, n in a.items() if k.split(">")[0] == st))
fighting = inside("soldier", "attack")
sieging = inside("enemy", "attack") - fighting
ok = {"fight": fighting > 0, "siege": sieging > 0 and d["fights"]["tower_damaged"] > 0,
      "both": fighting > 0 and sieging > 0, "any": True}[want]
if not ok:
    print("tick %d: %d soldiers fighting, %d sappers at towers: not '%s' (pick the save ticks again)"
          % (d["ticks"], fighting, sieging, want))
sys.exit(0 if ok else 1)
PY
  check $? "foundry: the save at $t is not mid-fight ($want)"
  "$td" sim --map "$map" --load "$tmp/s.tds" --auto --json >"$tmp/load.json" 2>/dev/null
  check $? "foundry: loading the save of $t failed"
  same_game "foundry saved at $t ($want)" "$tmp/full.json" "$tmp/load.json" 3
done

finish
