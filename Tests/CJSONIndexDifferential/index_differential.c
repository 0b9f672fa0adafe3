// Differential test of the CJSONIndex kernels: every vector kernel this build
// and CPU have (NEON on arm64; SSE2, AVX2, AVX-512, AVX-512 VBMI2 on x86, as
// far as the CPU goes) must produce exactly what the portable kernel produces:
// the same token count, tokens, specials count, specials and flags, for every
// input; and the document walker's skim (`txfold_json_skim`) must stop at the
// same byte with the same state, from a few starting bytes of each input. Plain C with no dependencies, so it builds with a cross compiler
// (`aarch64-linux-gnu-gcc -static`) and runs under `qemu-aarch64` where no
// Swift toolchain exists for the target; Scripts/neon-check.sh drives it.
//
// Inputs: random bytes from four alphabets, dense blocks of 0 to 64 tokens,
// every length across the first block boundaries for a set of patterns, every
// byte value at every position around them, and every line (and the whole
// text, in pieces of at most 64 KiB) of each file named on the command line.
// Each input is placed so that its last byte is the last byte before an
// unreadable page, so a kernel that reads past `length` crashes the test;
// the entries past the slack the header allows are checked untouched.
//
// Usage: index_differential [--rounds N] [FILE...]; exits 1 on any difference.
#include "CJSONIndex.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/// The longest input checked at once (the scanner's `indexedLimit`).
#define MAX_INPUT (1u << 16)
#define CAPACITY (MAX_INPUT + TXFOLD_JSON_INDEX_SLACK + 64)
#define SENTINEL 0xA5A5A5A5u

static const char *kernel_names[] = {"portable", "sse2", "avx2", "avx512", "avx512-vbmi2", "neon"};

static int kernels[8];
static int kernel_count;
static unsigned long long passed;
static unsigned long long failed;

/// An input buffer whose end touches a page mapped with no access.
static uint8_t *guarded_end;
static uint8_t *guarded_start;

static uint32_t expected_tokens[CAPACITY], expected_specials[CAPACITY];
static uint32_t tokens[CAPACITY], specials[CAPACITY];

static void set_up_guarded_buffer(void) {
  const size_t page = (size_t)sysconf(_SC_PAGESIZE);
  const size_t usable = (MAX_INPUT + page - 1) / page * page;
  uint8_t *map = mmap(NULL, usable + page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (map == MAP_FAILED || mprotect(map + usable, page, PROT_NONE) != 0) {
    perror("index_differential: guard page");
    exit(2);
  }
  guarded_start = map;
  guarded_end = map + usable;
}

static void fill(uint32_t *entries) {
  for (size_t i = 0; i < CAPACITY; i++) entries[i] = SENTINEL;
}

/// Whether the entries past `length` + slack are all still the sentinel.
static int untouched_past_slack(const uint32_t *entries, size_t length) {
  for (size_t i = length + TXFOLD_JSON_INDEX_SLACK; i < length + TXFOLD_JSON_INDEX_SLACK + 64 && i < CAPACITY; i++) {
    if (entries[i] != SENTINEL) return 0;
  }
  return 1;
}

static void report_failure(const char *what, const char *kernel, const uint8_t *bytes, size_t length,
                           const char *detail) {
  failed++;
  if (failed > 10) return;
  fprintf(stderr, "FAIL [%s] kernel %s, %zu bytes: %s\n  input:", what, kernel, length, detail);
  for (size_t i = 0; i < length && i < 160; i++) fprintf(stderr, " %02x", bytes[i]);
  fprintf(stderr, length > 160 ? " …\n" : "\n");
}

/// Skims `bytes` (`txfold_json_skim`) from `from` with each kernel, as the document walker does
/// inside a record whose object opened just before `from` (or, with `in_array`, whose array did),
/// expecting `expect`, and compares where each stops and the state it leaves with the portable kernel's.
static void check_skim_from(const char *what, const uint8_t *bytes, size_t length, size_t from, int in_array,
                            uint8_t expect, uint8_t cross_lines) {
  uint8_t expected_objects[257], objects[257];
  memset(expected_objects, 7, sizeof expected_objects);
  expected_objects[2] = in_array ? 0 : 1;
  txfold_skim_state expected = {2, 2, 1, 256, expect, cross_lines, 0, 0, 0};
  const size_t expected_stop =
      txfold_json_skim(bytes, from, length, &expected, expected_objects, TXFOLD_JSON_INDEX_KERNEL_PORTABLE);
  for (int k = 0; k < kernel_count; k++) {
    memset(objects, 7, sizeof objects);
    objects[2] = in_array ? 0 : 1;
    txfold_skim_state state = {2, 2, 1, 256, expect, cross_lines, 0, 0, 0};
    const size_t stop = txfold_json_skim(bytes, from, length, &state, objects, kernels[k]);
    if (stop != expected_stop || state.depth != expected.depth || state.deepest != expected.deepest ||
        state.expect != expected.expect || state.lines != expected.lines ||
        state.last_line_feed != expected.last_line_feed || state.at_line_start != expected.at_line_start ||
        memcmp(objects, expected_objects, sizeof objects) != 0) {
      char detail[200];
      snprintf(detail, sizeof detail,
               "skim from %zu: stop %zu depth %d deepest %d expect %u; portable: stop %zu depth %d deepest %d expect %u",
               from, stop, state.depth, state.deepest, state.expect, expected_stop, expected.depth, expected.deepest,
               expected.expect);
      report_failure(what, kernel_names[kernels[k]], bytes, length, detail);
    } else {
      passed++;
    }
  }
}

/// `check_skim_from` from the first byte (after a record's `{`), over lines and not, from after the
/// first `{` (a whole record: a line of a file) and from a byte chosen by the input's length.
static void check_skim(const char *what, const uint8_t *bytes, size_t length) {
  check_skim_from(what, bytes, length, 0, 0, 3, 0);
  check_skim_from(what, bytes, length, 0, 0, 3, 1);
  if (length > 0 && bytes[0] == '{') check_skim_from(what, bytes, length, 1, 0, 3, 1);
  if (length > 2) {
    check_skim_from(what, bytes, length, length * 7 / 13, (int)(length & 1), (uint8_t)(length % 6), (uint8_t)(length & 2));
  }
}

/// Indexes `bytes` with the portable kernel and every other kernel, and compares.
static void check(const char *what, const uint8_t *source, size_t length) {
  if (length > MAX_INPUT) length = MAX_INPUT;
  uint8_t *bytes = guarded_end - length;
  memcpy(bytes, source, length);

  fill(expected_tokens);
  fill(expected_specials);
  size_t expected_special_count = 0;
  uint32_t expected_flags = 0;
  const size_t expected_count = txfold_json_index(bytes, length, expected_tokens, expected_specials,
                                                  &expected_special_count, &expected_flags,
                                                  TXFOLD_JSON_INDEX_KERNEL_PORTABLE);
  for (int k = 0; k < kernel_count; k++) {
    const char *name = kernel_names[kernels[k]];
    fill(tokens);
    fill(specials);
    size_t special_count = 0;
    uint32_t flags = 0;
    const size_t count = txfold_json_index(bytes, length, tokens, specials, &special_count, &flags, kernels[k]);
    char detail[160];
    if (count != expected_count || special_count != expected_special_count || flags != expected_flags) {
      snprintf(detail, sizeof detail, "tokens %zu vs %zu, specials %zu vs %zu, flags %u vs %u (kernel vs portable)",
               count, expected_count, special_count, expected_special_count, flags, expected_flags);
      report_failure(what, name, bytes, length, detail);
    } else if (memcmp(tokens, expected_tokens, count * sizeof *tokens) != 0) {
      size_t at = 0;
      while (tokens[at] == expected_tokens[at]) at++;
      snprintf(detail, sizeof detail, "token %zu is %u, portable says %u", at, tokens[at], expected_tokens[at]);
      report_failure(what, name, bytes, length, detail);
    } else if (memcmp(specials, expected_specials, special_count * sizeof *specials) != 0) {
      size_t at = 0;
      while (specials[at] == expected_specials[at]) at++;
      snprintf(detail, sizeof detail, "special %zu is %u, portable says %u", at, specials[at], expected_specials[at]);
      report_failure(what, name, bytes, length, detail);
    } else if (!untouched_past_slack(tokens, length) || !untouched_past_slack(specials, length)) {
      report_failure(what, name, bytes, length, "wrote past length + TXFOLD_JSON_INDEX_SLACK");
    } else {
      passed++;
    }
  }
  if (!untouched_past_slack(expected_tokens, length) || !untouched_past_slack(expected_specials, length)) {
    report_failure(what, "portable", bytes, length, "wrote past length + TXFOLD_JSON_INDEX_SLACK");
  }
  check_skim(what, bytes, length);
}

/// SplitMix64: a small, seedable generator, so every run checks the same inputs.
static uint64_t random_state = 7;
static uint64_t next_random(void) {
  uint64_t z = (random_state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

static uint8_t buffer[MAX_INPUT];

static void check_random(unsigned rounds) {
  // JSON's own bytes (strings and escapes form), structural characters and
  // digits (up to 64 tokens a block), and every byte value.
  static const char json_alphabet[] = "{}[]:,\"\\ \t\r\nabcdefnrtu0123456789.-+eE\x01\x1f\x0c\x1a\x7f\x80\xc3\xa9\xff";
  static const char dense_alphabet[] = "{}[]:,1\"";
  // Minified JSON's bytes with, now and then, a backslash, a control byte or a byte above
  // 0x7F: most blocks have none of those (the wide kernels' shortcut) and some have one,
  // next to blocks without.
  static const char plain_alphabet[] = "{}[]:,\"abcdefnrtu0123456789.-+eE";
  static const char rare_alphabet[] = "\\\t\r\n\x01\x1f\x0c\x1a\x80\xc3\xa9\xff";
  for (unsigned round = 0; round < rounds; round++) {
    const size_t length = (size_t)(next_random() % 700);
    for (size_t i = 0; i < length; i++) {
      const uint64_t r = next_random();
      switch (round % 4) {
        case 0: buffer[i] = (uint8_t)json_alphabet[r % (sizeof json_alphabet - 1)]; break;
        case 1: buffer[i] = (uint8_t)dense_alphabet[r % (sizeof dense_alphabet - 1)]; break;
        case 2:
          buffer[i] = r % 97 == 0 ? (uint8_t)rare_alphabet[(r >> 8) % (sizeof rare_alphabet - 1)]
                                  : (uint8_t)plain_alphabet[(r >> 8) % (sizeof plain_alphabet - 1)];
          break;
        default: buffer[i] = (uint8_t)r; break;
      }
    }
    check("random", buffer, length);
  }
}

/// Blocks holding exactly 0 to 64 tokens (structural characters and one-byte
/// scalars, with whitespace between), one to four blocks long; the count is
/// checked against the portable kernel's too, so the portable kernel is not
/// merely agreed with.
static int is_digit(uint8_t byte) { return byte >= '0' && byte <= '9'; }

static void check_dense_blocks(unsigned rounds) {
  static const char tokens_alphabet[] = "{}[]:,";
  for (unsigned round = 0; round < rounds; round++) {
    const int wanted = (int)(round % 65);
    const size_t blocks = 1 + round % 4;
    memset(buffer, ' ', 64 * blocks);
    const size_t end = 64 * blocks;
    for (size_t b = 0; b < blocks; b++) {
      int placed = 0;
      while (placed < wanted) {
        const size_t at = 64 * b + (size_t)(next_random() % 64);
        if (buffer[at] != ' ') continue;
        // A scalar byte only where its neighbours (in this block or the next) are not
        // scalars, so it starts a run of its own.
        const int scalar_ok = (at == 0 || !is_digit(buffer[at - 1])) && (at + 1 == end || !is_digit(buffer[at + 1]));
        const uint64_t r = next_random();
        buffer[at] = scalar_ok && r % 3 == 0 ? (uint8_t)('0' + r % 10) : (uint8_t)tokens_alphabet[r % 6];
        placed++;
      }
    }
    size_t special_count = 0;
    uint32_t flags = 0;
    const size_t count = txfold_json_index(buffer, 64 * blocks, expected_tokens, expected_specials, &special_count,
                                           &flags, TXFOLD_JSON_INDEX_KERNEL_PORTABLE);
    if (count != (size_t)wanted * blocks) {
      char detail[96];
      snprintf(detail, sizeof detail, "portable found %zu tokens, %zu placed", count, (size_t)wanted * blocks);
      report_failure("dense", "portable", buffer, 64 * blocks, detail);
    }
    check("dense", buffer, 64 * blocks);
  }
}

/// Every length from 0 to 3 blocks + 2 of patterns that put strings, escapes,
/// scalars and odd bytes across the block boundaries.
static void check_boundary_lengths(void) {
  static const char *patterns[] = {
      " ",          "{",          "\"",    "\\",   "\\\\\"",  "\"a\\\"b\",", "12345678", "\"\xc3\xa9\\n\"",
      "\"\x01\"",   "\x0c\x1a",   "\t\r\n", "[1,2]", "\"\\\\\"", "\xff\x80",   "tru",      "\"{}[]:,\\u00e9\"",
  };
  for (size_t p = 0; p < sizeof patterns / sizeof *patterns; p++) {
    const size_t period = strlen(patterns[p]);
    for (size_t phase = 0; phase < period; phase++) {
      for (size_t i = 0; i < 3 * 64 + 2; i++) buffer[i] = (uint8_t)patterns[p][(i + phase) % period];
      for (size_t length = 0; length <= 3 * 64 + 2; length++) check("boundary", buffer, length);
    }
  }
  // A string, an escape or a scalar that ends exactly at each block boundary.
  for (size_t length = 1; length <= 3 * 64 + 2; length++) {
    static const uint8_t fills[] = {'a', '"', '\\', '1', 0x80, 0x05};
    for (size_t f = 0; f < sizeof fills; f++) {
      memset(buffer, fills[f], length);
      check("boundary", buffer, length);
      buffer[0] = '"';
      check("boundary", buffer, length);
      buffer[length - 1] = '\\';
      check("boundary", buffer, length);
    }
  }
}

/// Every byte value at each position around the block boundaries, outside a
/// string and inside one: a wrong entry in a kernel's classification shows.
static void check_every_byte(void) {
  static const size_t positions[] = {0, 1, 15, 16, 17, 31, 32, 33, 47, 48, 62, 63, 64, 65, 127, 128};
  for (int value = 0; value < 256; value++) {
    for (size_t p = 0; p < sizeof positions / sizeof *positions; p++) {
      memset(buffer, ' ', 130);
      buffer[positions[p]] = (uint8_t)value;
      check("byte", buffer, 130);
      memset(buffer, 'x', 130);
      buffer[0] = '"';
      buffer[129] = '"';
      if (positions[p] > 0) buffer[positions[p]] = (uint8_t)value;
      check("byte", buffer, 130);
    }
    memset(buffer, value, 64);
    check("byte", buffer, 64);
  }
}

/// Every line of the file (without its line feed) and the whole text in pieces of at most MAX_INPUT bytes.
static int check_file(const char *path, unsigned long long *records) {
  FILE *file = fopen(path, "rb");
  if (!file) {
    perror(path);
    return 0;
  }
  size_t size = 0, capacity = 1 << 20;
  uint8_t *text = malloc(capacity);
  size_t got;
  while (text && (got = fread(text + size, 1, capacity - size, file)) > 0) {
    size += got;
    if (size == capacity) {
      uint8_t *grown = realloc(text, capacity *= 2);
      if (!grown) free(text);
      text = grown;
    }
  }
  fclose(file);
  if (!text) {
    fprintf(stderr, "index_differential: out of memory reading %s\n", path);
    return 0;
  }
  size_t start = 0;
  for (size_t i = 0; i <= size; i++) {
    if (i == size || text[i] == '\n') {
      if (!(i == size && start == size)) {  // not the nothing after a final line feed
        check(path, text + start, i - start);
        (*records)++;
      }
      start = i + 1;
    }
  }
  for (size_t at = 0; at < size; at += MAX_INPUT) {
    check(path, text + at, size - at < MAX_INPUT ? size - at : MAX_INPUT);
  }
  free(text);
  return 1;
}

int main(int argc, char **argv) {
  unsigned rounds = 20000;
  int first_file = 1;
  if (argc > 2 && strcmp(argv[1], "--rounds") == 0) {
    rounds = (unsigned)strtoul(argv[2], NULL, 10);
    first_file = 3;
  }
  const int best = txfold_json_index_best_kernel();
#if defined(__aarch64__)
  if (best == TXFOLD_JSON_INDEX_KERNEL_NEON) kernels[kernel_count++] = TXFOLD_JSON_INDEX_KERNEL_NEON;
#elif defined(__x86_64__) || defined(__i386__)
  for (int k = TXFOLD_JSON_INDEX_KERNEL_SSE2; k <= best && k <= TXFOLD_JSON_INDEX_KERNEL_AVX512_VBMI2; k++) {
    kernels[kernel_count++] = k;
  }
#endif
  if (kernel_count == 0) {
    fprintf(stderr, "index_differential: this build has no vector kernel to compare (best kernel: %s)\n",
            kernel_names[best]);
    return 2;
  }
  printf("index_differential: comparing with the portable kernel:");
  for (int k = 0; k < kernel_count; k++) printf(" %s", kernel_names[kernels[k]]);
  printf("\n");
  fflush(stdout);

  set_up_guarded_buffer();
  check_random(rounds);
  check_dense_blocks(rounds / 4 < 65 * 4 ? 65 * 4 : rounds / 4);
  check_boundary_lengths();
  check_every_byte();
  const unsigned long long generated = passed + failed;
  unsigned long long records = 0;
  int files = 0;
  for (int i = first_file; i < argc; i++) files += check_file(argv[i], &records);
  if (files < argc - first_file) failed++;

  printf("index_differential: %llu comparisons on generated inputs, %llu on %d files (%llu lines): "
         "%llu passed, %llu failed\n",
         generated, passed + failed - generated, files, records, passed, failed);
  return failed == 0 ? 0 : 1;
}
