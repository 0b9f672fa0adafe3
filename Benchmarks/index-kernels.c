// index-kernels.c — times the token index (Sources/CJSONIndex) alone, kernel by kernel, on the
// lines of a JSON-lines file, as the record scanner calls it: one call per line, without its
// line end. BENCHMARKS.md quotes it for what the index costs apart from the rest of a run.
//
// Build with the Swift toolchain's clang, which compiles the package's C (gcc's code for the
// kernels differs: 29 ms against clang's 21 ms for AVX2 on the figures' file), and run from the
// repository root:
//   clang -O2 -I Sources/CJSONIndex/include -o /tmp/index-kernels
//     Benchmarks/index-kernels.c Sources/CJSONIndex/json_index.c
//   /tmp/index-kernels FILE [ROUNDS]
//
// Prints, per round and kernel, the milliseconds for all lines, GB/s of line bytes and the
// tokens listed (the same count on every kernel, or the kernels disagree). A kernel the CPU
// lacks runs as the best it has, so its rows then repeat that kernel's.
#include "CJSONIndex.h"
#include "whole-file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double seconds(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s FILE [ROUNDS]\n", argv[0]);
    return 2;
  }
  const int rounds = argc > 2 ? atoi(argv[2]) : 5;
  long size = 0;
  unsigned char *bytes = read_whole_file(argv[1], 1, &size);
  if (bytes == NULL) return 1;

  // Where each line starts and how long it is; lines over the scanner's 64 KiB are skipped.
  long lines = 0;
  for (long i = 0; i < size; i++) lines += bytes[i] == '\n';
  long *starts = malloc(sizeof(long) * (size_t)(lines + 1));
  long *lengths = malloc(sizeof(long) * (size_t)(lines + 1));
  long count = 0, start = 0, indexed = 0;
  for (long i = 0; i <= size; i++) {
    if (i == size || bytes[i] == '\n') {
      if (i > start && i - start <= 65536) {
        starts[count] = start;
        lengths[count] = i - start;
        indexed += i - start;
        count++;
      }
      start = i + 1;
    }
  }
  uint32_t *tokens = malloc(sizeof(uint32_t) * (65536 + TXFOLD_JSON_INDEX_SLACK));
  uint32_t *specials = malloc(sizeof(uint32_t) * (65536 + TXFOLD_JSON_INDEX_SLACK));

  const int kernels[] = {TXFOLD_JSON_INDEX_KERNEL_PORTABLE, TXFOLD_JSON_INDEX_KERNEL_SSE2,
                         TXFOLD_JSON_INDEX_KERNEL_AVX2, TXFOLD_JSON_INDEX_KERNEL_AVX512,
                         TXFOLD_JSON_INDEX_KERNEL_AVX512_VBMI2};
  const char *names[] = {"portable", "sse2", "avx2", "avx512", "avx512-vbmi2"};
  printf("%ld lines, %ld bytes indexed; best kernel here: %d\n", count, indexed, txfold_json_index_best_kernel());
  for (int round = 1; round <= rounds; round++) {
    for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++) {
      size_t listed = 0, special_count = 0;
      uint32_t flags = 0;
      const double began = seconds();
      for (long line = 0; line < count; line++) {
        listed += txfold_json_index(bytes + starts[line], (size_t)lengths[line], tokens, specials, &special_count,
                                    &flags, kernels[k]);
      }
      const double took = seconds() - began;
      printf("round %d %-13s %8.1f ms %6.2f GB/s %zu tokens\n", round, names[k], took * 1e3, indexed / took / 1e9,
             listed);
    }
  }
  return 0;
}
