#ifndef CELLAR_CZLIB_SHIM_H
#define CELLAR_CZLIB_SHIM_H

// zlib, for the SQLite archives of the shell's .archive (sqlar_compress, sqlar_uncompress).
#include <zlib.h>

#endif
