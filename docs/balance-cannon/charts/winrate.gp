set terminal pngcairo size 640,380 font 'sans,10' background '#ffffff'
set output 'charts/winrate.png'
set title 'Win rate of the built-in player (td sim --auto)'
set cbrange [0:1]
set palette defined (0 '#b2182b', 0.5 '#f7f7f7', 1 '#2166ac')
set xtics ('easy' 0, 'normal' 1, 'hard' 2)
set ytics ('01-crossroads' 0, '02-grid' 1, '03-serpent' 2, '04-foundry' 3, '05-twin' 4)
set xrange [-0.5:2.5]
set yrange [4.5:-0.5]
unset key
plot 'charts/winrate.dat' using 1:2:3 with image, '' using 1:2:4 with labels
