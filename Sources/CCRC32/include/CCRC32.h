#ifndef TXFOLD_CCRC32_H
#define TXFOLD_CCRC32_H

#include <stddef.h>
#include <stdint.h>

/* Folds a prefix of `buf` into `*crc` — zlib's CRC-32, taken and left as zlib's crc32() takes and
   returns it — with carry-less multiplication (PCLMULQDQ), where the CPU has it: the longest prefix
   of at least 64 bytes whose length is a multiple of 16. Returns how many bytes it folded; 0 on a
   CPU without it, on another architecture, with TXFOLD_MAX_KERNEL=portable, or for a shorter
   buffer. The caller folds the rest (zlib's crc32()). */
size_t txfold_crc32_fold(uint32_t *crc, const unsigned char *buf, size_t len);

#endif
