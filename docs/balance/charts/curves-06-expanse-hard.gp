set terminal pngcairo size 900,340 font 'sans,10' background '#ffffff'
set output 'charts/curves-06-expanse-hard.png'
set multiplot layout 1,2 title '06-expanse, hard: the default auto player at the start of each wave (median, min..max over 10 seeds)'
set grid
set xlabel 'wave'
unset key
set style fill transparent solid 0.25 noborder
set title 'lives'
set yrange [0:*]
plot 'charts/curves-06-expanse-hard.dat' using 1:3:5 with filledcurves lc rgb '#2166ac', '' using 1:4 with lines lw 2 lc rgb '#2166ac'
set title 'gold'
plot 'charts/curves-06-expanse-hard.dat' using 1:6:8 with filledcurves lc rgb '#b8860b', '' using 1:7 with lines lw 2 lc rgb '#b8860b'
unset multiplot
