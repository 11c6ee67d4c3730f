#ifndef CELLAR_CLIBEDIT_SHIM_H
#define CELLAR_CLIBEDIT_SHIM_H

/* libedit's readline-compatible interface (BSD licence); chosen with CELLAR_LINE_EDITOR=libedit. */
#include <stdio.h>
#include <editline/readline.h>

#endif
