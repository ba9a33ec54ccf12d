set terminal pngcairo size 1250,458 font 'sans,10' background '#ffffff'
set output 'charts/winrate.png'
set bmargin 4
set title 'Win rate of the built-in player (td sim --auto)'
set cbrange [0:1]
set palette defined (0 '#b2182b', 0.5 '#f7f7f7', 1 '#2166ac')
set xtics ("easy\ndefault" 0, "easy\neconomy" 1, "easy\nmaze" 2, "normal\ndefault" 3, "normal\neconomy" 4, "normal\nmaze" 5, "hard\ndefault" 6, "hard\neconomy" 7, "hard\nmaze" 8)
set ytics ('01-crossroads' 0, '02-grid' 1, '03-serpent' 2, '04-foundry' 3, '05-twin' 4, '06-expanse' 5)
set xrange [-0.5:8.5]
set yrange [5.5:-0.5]
unset key
plot 'charts/winrate.dat' using 1:2:3 with image, '' using 1:2:4 with labels
