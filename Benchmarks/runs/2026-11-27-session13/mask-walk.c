// mask-walk.c — session 13's measurement of the issue's first candidate, "walk the token masks
// directly instead of a token list": on every line of a JSON-lines file, (a) the AVX2 index as
// the scanner calls it, then every listed token read, against (b) the same classification
// keeping each non-empty block's token mask (no listing), then every token popped from the masks
// (`ctz`, clear the lowest bit, the next block's mask when one runs out). Both read the byte at
// each token, as the grammar walk does first, and must find the same bytes.
//
// From the repository root, with the Swift toolchain's clang:
//   clang -O2 -I Sources/CJSONIndex/include -I Sources/CJSONIndex -o /tmp/mask-walk \
//     Benchmarks/runs/2026-11-27-session13/mask-walk.c
//   /tmp/mask-walk FILE
//
// Result (BENCHMARKS.md, "Session 13"): on the dump's first 200,000 lines, (a) 25.8–26.0 ms and (b)
// 31.7–34.2 ms, five rounds each: popping from masks costs more than the listing it saves, because
// each token's place then depends on the one before (a chain through the mask), where listed
// tokens are independent loads the CPU runs ahead on.
#include "json_index.c"
#include "../../whole-file.h"

#include <stdio.h>
#include <time.h>

/// Stands in for the listing in the index's own block step: keeps a block's token mask and offset
/// (three entries: the mask's low and high halves, the block's offset) instead of listing them.
static inline __attribute__((always_inline)) size_t keep_mask(uint64_t bits, uint32_t base, uint32_t *out) {
  if (bits == 0) return 0;
  out[0] = (uint32_t)bits;
  out[1] = (uint32_t)(bits >> 32);
  out[2] = base;
  return 3;
}

/// The AVX2 index (its classification, tail and block steps, from json_index.c) with the masks kept.
TXFOLD_DEFINE_INDEX_BLOCK(index_block_masks, __attribute__((target("avx2,bmi,popcnt,pclmul"))), keep_mask,
                          prefix_xor_clmul)
TXFOLD_DEFINE_INDEX(index_masks, __attribute__((target("avx2,bmi,popcnt,pclmul"))), classify_avx2,
                    classify_tail_avx2, 0, index_block_masks)

static uint32_t *tokens, *specials, *masks;

/// (a) One line indexed by the AVX2 kernel; the sum of the bytes at its listed tokens.
static uint64_t listed_then_read(const uint8_t *line, size_t length) {
  size_t special_count;
  uint32_t flags;
  const size_t count = index_avx2(line, length, tokens, specials, &special_count, &flags);
  uint64_t sum = 0;
  for (size_t k = 0; k < count; k++) sum += line[tokens[k]];
  return sum;
}

/// (b) The same line with the masks kept; the sum of the bytes at the tokens popped from them.
static uint64_t masks_then_popped(const uint8_t *line, size_t length) {
  size_t special_count;
  uint32_t flags;
  const size_t count = index_masks(line, length, masks, specials, &special_count, &flags);
  masks[count] = masks[count + 1] = masks[count + 2] = 0;  // an empty entry after the last
  uint64_t sum = 0;
  size_t entry = 0;
  uint64_t mask = masks[0] | (uint64_t)masks[1] << 32;
  uint32_t base = masks[2];
  while (entry < count) {
    sum += line[base + (uint32_t)__builtin_ctzll(mask)];
    mask &= mask - 1;
    if (mask == 0) {
      entry += 3;
      mask = masks[entry] | (uint64_t)masks[entry + 1] << 32;
      base = masks[entry + 2];
    }
  }
  return sum;
}

/// `per_line` over every line of `data`, with the sum of its results; the seconds taken in `seconds`.
static uint64_t over_lines(const uint8_t *data, long size, uint64_t (*per_line)(const uint8_t *, size_t),
                           double *seconds);

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s FILE\n", argv[0]);
    return 2;
  }
  long size = 0;
  uint8_t *data = read_whole_file(argv[1], 64, &size);
  if (data == NULL) return 1;
  // Room for the longest line's tokens, specials and masks (a line of the dump is under 1 KiB).
  tokens = malloc((size_t)size * 4 + 256);
  specials = malloc((size_t)size * 4 + 256);
  masks = malloc((size_t)size * 4 + 256);
  if (tokens == NULL || specials == NULL || masks == NULL) return 1;
  for (int round = 0; round < 5; round++) {
    double listed_seconds, popped_seconds;
    const uint64_t listed_sum = over_lines(data, size, listed_then_read, &listed_seconds);
    const uint64_t popped_sum = over_lines(data, size, masks_then_popped, &popped_seconds);
    printf("listed, then read: %.1f ms; masks, then popped: %.1f ms (%s)\n", listed_seconds * 1e3,
           popped_seconds * 1e3, listed_sum == popped_sum ? "the same bytes" : "DIFFERENT BYTES");
  }
  return 0;
}

static uint64_t over_lines(const uint8_t *data, long size, uint64_t (*per_line)(const uint8_t *, size_t),
                           double *seconds) {
  uint64_t sum = 0;
  const double start_time = now();
  for (long start = 0; start < size;) {
    const uint8_t *found = memchr(data + start, '\n', (size_t)(size - start));
    const long end = found ? found - data : size;
    sum += per_line(data + start, (size_t)(end - start));
    start = end + 1;
  }
  *seconds = now() - start_time;
  return sum;
}
