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
// Result (BENCHMARKS.md, "Session 13"): on the dump's first 200,000 lines, (a) 26.0 ms and (b)
// 29.8 ms, five rounds each: popping from masks costs more than the listing it saves, because
// each token's place then depends on the one before (a chain through the mask), where listed
// tokens are independent loads the CPU runs ahead on.
#include "json_index.c"
#include "../../whole-file.h"

#include <stdio.h>
#include <time.h>

typedef struct {
  uint64_t mask;
  uint32_t base;
  uint32_t unused;
} block_entry;

/// The AVX2 index's steps, keeping each non-empty block's token mask instead of listing it.
__attribute__((target("avx2,bmi,popcnt,pclmul"))) static size_t index_masks(const uint8_t *bytes, size_t length,
                                                                              block_entry *out) {
  block_state state = {0, 0, 0, 0};
  block_classes c;
  size_t count = 0;
  for (size_t offset = 0; offset < length; offset += 64) {
    if (offset + 64 <= length) {
      classify_avx2(bytes + offset, &c);
    } else if (length >= 64) {
      classify_avx2(bytes + length - 64, &c);
      keep_last(&c, length - offset);
    } else {
      classify_tail_avx2(bytes + offset, length - offset, &c);
    }
    uint64_t escaped = 0;
    if (c.backslash | state.escape_carry) escaped = escaped_bytes(c.backslash, &state.escape_carry);
    const uint64_t quotes = c.quote & ~escaped;
    const uint64_t in_string = prefix_xor_clmul(quotes) ^ state.in_string_carry;
    state.in_string_carry = (uint64_t)((int64_t)in_string >> 63);
    const uint64_t scalar = ~(c.op | c.whitespace | quotes) & ~in_string;
    const uint64_t scalar_starts = scalar & ~((scalar << 1) | state.scalar_carry);
    state.scalar_carry = scalar >> 63;
    out[count].mask = (c.op & ~in_string) | quotes | scalar_starts;
    out[count].base = (uint32_t)offset;
    count += out[count].mask != 0;
  }
  out[count].mask = 0;
  out[count].base = 0;
  return count;
}

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
  // Room for the longest line's tokens, specials and blocks (a line of the dump is under 1 KiB).
  uint32_t *tokens = malloc((size_t)size * 4 + 256), *specials = malloc((size_t)size * 4 + 256);
  block_entry *blocks = malloc(((size_t)size / 64 + 2) * sizeof *blocks);
  if (tokens == NULL || specials == NULL || blocks == NULL) return 1;
  for (int round = 0; round < 5; round++) {
    uint64_t listed_sum = 0, popped_sum = 0;
    const double start_time = now();
    for (long start = 0; start < size;) {
      const uint8_t *line_end = memchr(data + start, '\n', (size_t)(size - start));
      const long end = line_end ? line_end - data : size;
      size_t special_count;
      uint32_t flags;
      const size_t count = index_avx2(data + start, (size_t)(end - start), tokens, specials, &special_count, &flags);
      for (size_t k = 0; k < count; k++) listed_sum += data[start + tokens[k]];
      start = end + 1;
    }
    const double middle_time = now();
    for (long start = 0; start < size;) {
      const uint8_t *line_end = memchr(data + start, '\n', (size_t)(size - start));
      const long end = line_end ? line_end - data : size;
      const size_t count = index_masks(data + start, (size_t)(end - start), blocks);
      size_t block = 0;
      uint64_t mask = blocks[0].mask;
      uint32_t base = blocks[0].base;
      while (block < count) {
        popped_sum += data[start + base + (uint32_t)__builtin_ctzll(mask)];
        mask &= mask - 1;
        if (mask == 0) {
          block++;
          mask = blocks[block].mask;
          base = blocks[block].base;
        }
      }
      start = end + 1;
    }
    const double end_time = now();
    printf("listed, then read: %.1f ms; masks, then popped: %.1f ms (%s)\n", (middle_time - start_time) * 1e3,
           (end_time - middle_time) * 1e3, listed_sum == popped_sum ? "the same bytes" : "DIFFERENT BYTES");
  }
  return 0;
}
