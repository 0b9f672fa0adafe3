/* zlib's CRC-32 (the reflected polynomial 0xEDB88320) by folding 64 bytes at a time with
   carry-less multiplication, then a Barrett reduction: the method of Gopal et al., "Fast CRC
   Computation for Generic Polynomials Using PCLMULQDQ Instruction" (Intel, 2009), with that
   paper's constants for this polynomial (k1…k5 are x^n mod P for the fold distances, reflected;
   μ and P for the reduction). zlib's own crc32() reads a byte or a word at a time; a nightly
   state is checksummed as it is read and as it is written, hundreds of megabytes each. */
#include "CCRC32.h"

#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

__attribute__((target("pclmul,sse4.1"))) static uint32_t fold_pclmul(uint32_t crc, const unsigned char *buf,
                                                                       size_t len) {
  /* len >= 64 and a multiple of 16. `crc` is the running CRC without zlib's final inversion. */
  static const uint64_t k1k2[2] __attribute__((aligned(16))) = {0x0154442bd4ULL, 0x01c6e41596ULL};
  static const uint64_t k3k4[2] __attribute__((aligned(16))) = {0x01751997d0ULL, 0x00ccaa009eULL};
  static const uint64_t k5k0[2] __attribute__((aligned(16))) = {0x0163cd6124ULL, 0};
  static const uint64_t poly[2] __attribute__((aligned(16))) = {0x01db710641ULL, 0x01f7011641ULL};
  __m128i x0, x1, x2, x3, x4, x5, x6, x7, x8, y5, y6, y7, y8;

  x1 = _mm_loadu_si128((const __m128i *)(buf + 0x00));
  x2 = _mm_loadu_si128((const __m128i *)(buf + 0x10));
  x3 = _mm_loadu_si128((const __m128i *)(buf + 0x20));
  x4 = _mm_loadu_si128((const __m128i *)(buf + 0x30));
  x1 = _mm_xor_si128(x1, _mm_cvtsi32_si128((int)crc));
  x0 = _mm_load_si128((const __m128i *)k1k2);
  buf += 64;
  len -= 64;

  /* Four lanes of 16 bytes folded 64 bytes ahead at a time. */
  while (len >= 64) {
    x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
    x6 = _mm_clmulepi64_si128(x2, x0, 0x00);
    x7 = _mm_clmulepi64_si128(x3, x0, 0x00);
    x8 = _mm_clmulepi64_si128(x4, x0, 0x00);
    x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
    x2 = _mm_clmulepi64_si128(x2, x0, 0x11);
    x3 = _mm_clmulepi64_si128(x3, x0, 0x11);
    x4 = _mm_clmulepi64_si128(x4, x0, 0x11);
    y5 = _mm_loadu_si128((const __m128i *)(buf + 0x00));
    y6 = _mm_loadu_si128((const __m128i *)(buf + 0x10));
    y7 = _mm_loadu_si128((const __m128i *)(buf + 0x20));
    y8 = _mm_loadu_si128((const __m128i *)(buf + 0x30));
    x1 = _mm_xor_si128(_mm_xor_si128(x1, x5), y5);
    x2 = _mm_xor_si128(_mm_xor_si128(x2, x6), y6);
    x3 = _mm_xor_si128(_mm_xor_si128(x3, x7), y7);
    x4 = _mm_xor_si128(_mm_xor_si128(x4, x8), y8);
    buf += 64;
    len -= 64;
  }

  /* The four lanes into one. */
  x0 = _mm_load_si128((const __m128i *)k3k4);
  x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
  x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
  x1 = _mm_xor_si128(_mm_xor_si128(x1, x2), x5);
  x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
  x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
  x1 = _mm_xor_si128(_mm_xor_si128(x1, x3), x5);
  x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
  x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
  x1 = _mm_xor_si128(_mm_xor_si128(x1, x4), x5);

  /* What is left, 16 bytes at a time. */
  while (len >= 16) {
    x2 = _mm_loadu_si128((const __m128i *)buf);
    x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
    x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
    x1 = _mm_xor_si128(_mm_xor_si128(x1, x2), x5);
    buf += 16;
    len -= 16;
  }

  /* 128 bits to 64. */
  x2 = _mm_clmulepi64_si128(x1, x0, 0x10);
  x3 = _mm_setr_epi32(~0, 0, ~0, 0);
  x1 = _mm_srli_si128(x1, 8);
  x1 = _mm_xor_si128(x1, x2);
  x0 = _mm_loadl_epi64((const __m128i *)k5k0);
  x2 = _mm_srli_si128(x1, 4);
  x1 = _mm_and_si128(x1, x3);
  x1 = _mm_clmulepi64_si128(x1, x0, 0x00);
  x1 = _mm_xor_si128(x1, x2);

  /* Barrett reduction to 32 bits. */
  x0 = _mm_load_si128((const __m128i *)poly);
  x2 = _mm_and_si128(x1, x3);
  x2 = _mm_clmulepi64_si128(x2, x0, 0x10);
  x2 = _mm_and_si128(x2, x3);
  x2 = _mm_clmulepi64_si128(x2, x0, 0x00);
  x1 = _mm_xor_si128(x1, x2);
  return (uint32_t)_mm_extract_epi32(x1, 1);
}

/* 1 when the CPU has PCLMULQDQ and SSE4.1 and TXFOLD_MAX_KERNEL does not say `portable`. */
static int pclmul_usable(void) {
  static int usable = -1;
  int seen = __atomic_load_n(&usable, __ATOMIC_RELAXED);
  if (seen >= 0) return seen;
  __builtin_cpu_init();
  const char *cap = getenv("TXFOLD_MAX_KERNEL");
  int found = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1") &&
              !(cap != NULL && strcmp(cap, "portable") == 0);
  __atomic_store_n(&usable, found, __ATOMIC_RELAXED);
  return found;
}
#endif

size_t txfold_crc32_fold(uint32_t *crc, const unsigned char *buf, size_t len) {
#if defined(__x86_64__) || defined(__i386__)
  if (len < 64 || !pclmul_usable()) return 0;
  size_t folded = len & ~(size_t)15;
  *crc = ~fold_pclmul(~*crc, buf, folded);
  return folded;
#else
  (void)crc;
  (void)buf;
  (void)len;
  return 0;
#endif
}
