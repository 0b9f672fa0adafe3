// libzstd through one header so Swift sees the same declarations on every distribution.
// ZSTD_STATIC_LINKING_ONLY is not defined: only the stable API (ZSTD_decompressStream,
// ZSTD_DCtx_setParameter with ZSTD_d_windowLogMax, ZSTD_compressStream2) is used.
#include <zstd.h>
#include <zstd_errors.h>
