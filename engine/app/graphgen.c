/* app/graphgen.c: being written (placeholder while the tree is assembled). */
typedef int td_placeholder_13008;
