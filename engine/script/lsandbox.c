/* script/lsandbox.c: being written (placeholder while the tree is assembled). */
typedef int td_placeholder_25364;
