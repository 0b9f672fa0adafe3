/*
 * scan-floor.c — the work every record of a plain JSON-lines dump costs before the record
 * scanner's grammar walk: read the file with read() into a 1 MiB buffer (as txfold's FileSource
 * does), find each line with memchr (as RecordChunk.forEachRecord does) and list each line's
 * tokens with the token index (Sources/CJSONIndex) — on one thread, in C, with nothing else.
 * Its CPU time is the part of a `txfold group` run that no change to the walk, the decoding or
 * the fold can remove; compare.sh prints it beside txfold's own CPU time (BENCHMARKS.md).
 *
 * Build with the Swift toolchain's clang, which compiles the package's C (gcc's code for the
 * kernels is slower), from the repository root:
 *   clang -O2 -I Sources/CJSONIndex/include -o /tmp/scan-floor
 *     Benchmarks/scan-floor.c Sources/CJSONIndex/json_index.c
 *   /tmp/scan-floor FILE [KERNEL]
 * KERNEL: portable, sse2, avx2, avx512, vbmi2 (a kernel the CPU lacks runs as the best it has),
 * or none (reading and finding lines only). Prints the lines and tokens found; exits 1 on a read
 * error, 2 on bad arguments.
 */
#include "CJSONIndex.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { CHUNK = 1024 * 1024 };

/// The kernel named on the command line; -1 for none, -2 for a name that is not one.
static int kernel_named(const char *name) {
  static const struct {
    const char *name;
    int kernel;
  } kernels[] = {
      {"none", -1},
      {"portable", TXFOLD_JSON_INDEX_KERNEL_PORTABLE},
      {"sse2", TXFOLD_JSON_INDEX_KERNEL_SSE2},
      {"avx2", TXFOLD_JSON_INDEX_KERNEL_AVX2},
      {"avx512", TXFOLD_JSON_INDEX_KERNEL_AVX512},
      {"vbmi2", TXFOLD_JSON_INDEX_KERNEL_AVX512_VBMI2},
  };
  for (size_t i = 0; i < sizeof kernels / sizeof *kernels; i++) {
    if (strcmp(name, kernels[i].name) == 0) return kernels[i].kernel;
  }
  return -2;
}

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3) {
    fprintf(stderr, "usage: %s FILE [none|portable|sse2|avx2|avx512|vbmi2]\n", argv[0]);
    return 2;
  }
  const int kernel = argc > 2 ? kernel_named(argv[2]) : txfold_json_index_best_kernel();
  if (kernel == -2) {
    fprintf(stderr, "scan-floor: no kernel named %s\n", argv[2]);
    return 2;
  }
  const int file = open(argv[1], O_RDONLY);
  if (file < 0) {
    perror(argv[1]);
    return 1;
  }
  // A line longer than the buffer is not indexed (txfold hands such a line over as too large).
  unsigned char *buffer = malloc(CHUNK);
  uint32_t *tokens = malloc((CHUNK + TXFOLD_JSON_INDEX_SLACK) * sizeof *tokens);
  uint32_t *specials = malloc((CHUNK + TXFOLD_JSON_INDEX_SLACK) * sizeof *specials);
  if (buffer == NULL || tokens == NULL || specials == NULL) {
    fprintf(stderr, "scan-floor: out of memory\n");
    return 1;
  }
  size_t kept = 0;  // the unfinished line carried to the front of the buffer
  unsigned long long lines = 0, token_total = 0;
  for (;;) {
    if (kept == CHUNK) kept = 0;  // an overlong line: dropped
    const ssize_t got = read(file, buffer + kept, CHUNK - kept);
    if (got < 0) {
      if (errno == EINTR) continue;
      perror(argv[1]);
      return 1;
    }
    const size_t filled = kept + (size_t)got;
    size_t start = 0;
    for (;;) {
      const unsigned char *end = memchr(buffer + start, '\n', filled - start);
      if (end == NULL) {
        if (got == 0 && start < filled) end = buffer + filled;  // a last line without a line end
        else break;
      }
      const size_t length = (size_t)(end - buffer) - start;
      if (kernel >= 0 && length > 0) {
        size_t special_count = 0;
        uint32_t flags = 0;
        token_total += txfold_json_index(buffer + start, length, tokens, specials, &special_count, &flags, kernel);
      }
      lines++;
      start += length + 1;
      if (start >= filled) break;
    }
    if (got == 0) break;
    kept = start < filled ? filled - start : 0;
    memmove(buffer, buffer + start, kept);
  }
  close(file);
  printf("%llu lines, %llu tokens\n", lines, token_total);
  return 0;
}
