set terminal pngcairo size 900,380 font 'sans,10' background '#ffffff'
set output 'charts/param1.png'
set multiplot layout 1,2 title 'tower.cannon.cost* (auto player; mean over seeds, difficulties, strategies)'
set key outside bottom center horizontal
set grid
set xlabel 'tower.cannon.cost*'
set yrange [0:1.05]
set title 'wave reached (share of the waves)'
plot 'charts/param1.dat' index 0 using 1:2 with linespoints title '01-crossroads', 'charts/param1.dat' index 1 using 1:2 with linespoints title '02-grid', 'charts/param1.dat' index 2 using 1:2 with linespoints title '03-serpent', 'charts/param1.dat' index 3 using 1:2 with linespoints title '04-foundry', 'charts/param1.dat' index 4 using 1:2 with linespoints title '05-twin'
set title 'lives left (share of start)'
plot 'charts/param1.dat' index 0 using 1:3 with linespoints title '01-crossroads', 'charts/param1.dat' index 1 using 1:3 with linespoints title '02-grid', 'charts/param1.dat' index 2 using 1:3 with linespoints title '03-serpent', 'charts/param1.dat' index 3 using 1:3 with linespoints title '04-foundry', 'charts/param1.dat' index 4 using 1:3 with linespoints title '05-twin'
unset multiplot
