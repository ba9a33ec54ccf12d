/* app/bench_route.c: being written (placeholder while the tree is assembled). */
typedef int td_placeholder_3799;
