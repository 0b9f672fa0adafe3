/*
 * inflate-floor.c — the least work a gzip reader can do: inflate every member of a gzip file
 * into a reused buffer and throw the bytes away. Timing it gives the floor that
 * `txfold group` on a .gz dump is compared with (compare.sh, BENCHMARKS.md).
 *
 *   cc -O2 -o inflate-floor inflate-floor.c -lz                          # zlib
 *   cc -O2 -DINFLATE_FLOOR_ISAL -o inflate-floor-isal inflate-floor.c -lisal   # ISA-L (libisal-dev)
 *   ./inflate-floor dump.jsonl.gz      # prints the inflated size; exit 1 on damaged input
 *
 * Reads with the same buffer sizes as txfold's GzipSource (256 KiB in, 1 MiB out) and, like it,
 * reads every member to the end (concatenated members, pigz, BGZF). Unlike it, it does not
 * check what follows the last member: it is a yardstick, not a reader.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef INFLATE_FLOOR_ISAL
#include <isa-l/igzip_lib.h>
#else
#include <zlib.h>
#endif

enum { IN_SIZE = 256 * 1024, OUT_SIZE = 1024 * 1024 };

static unsigned char in[IN_SIZE];
static unsigned char out[OUT_SIZE];

static int fail(const char *path, const char *what) {
  fprintf(stderr, "inflate-floor: %s: %s\n", path, what);
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s FILE.gz\n", argv[0]);
    return 2;
  }
  const char *path = argv[1];
  FILE *file = fopen(path, "rb");
  if (!file) return fail(path, "cannot open");
  unsigned long long total = 0;
  size_t avail = 0;
  int in_member = 1, ended = 0;

#ifdef INFLATE_FLOOR_ISAL
  static struct inflate_state state;
  isal_inflate_init(&state);
  state.crc_flag = ISAL_GZIP;
  for (;;) {
    if (state.avail_in == 0 && !ended) {
      avail = fread(in, 1, IN_SIZE, file);
      if (avail == 0) ended = 1;
      state.next_in = in;
      state.avail_in = (uint32_t)avail;
    }
    if (!in_member) {
      if (state.avail_in == 0) break; /* the end, after a whole member */
      isal_inflate_reset(&state);
      state.crc_flag = ISAL_GZIP;
      in_member = 1;
    }
    state.next_out = out;
    state.avail_out = OUT_SIZE;
    int status = isal_inflate(&state);
    if (status != ISAL_DECOMP_OK) return fail(path, "damaged data");
    total += OUT_SIZE - state.avail_out;
    if (state.block_state == ISAL_BLOCK_FINISH) {
      in_member = 0;
    } else if (ended && state.avail_in == 0 && state.avail_out == OUT_SIZE) {
      return fail(path, "truncated");
    }
  }
#else
  z_stream stream;
  memset(&stream, 0, sizeof stream);
  if (inflateInit2(&stream, 15 + 16) != Z_OK) return fail(path, "inflateInit2 failed");
  for (;;) {
    if (stream.avail_in == 0 && !ended) {
      avail = fread(in, 1, IN_SIZE, file);
      if (avail == 0) ended = 1;
      stream.next_in = in;
      stream.avail_in = (uInt)avail;
    }
    if (!in_member) {
      if (stream.avail_in == 0) break;
      if (inflateReset(&stream) != Z_OK) return fail(path, "inflateReset failed");
      in_member = 1;
    }
    if (stream.avail_in == 0) return fail(path, "truncated");
    stream.next_out = out;
    stream.avail_out = OUT_SIZE;
    int status = inflate(&stream, Z_NO_FLUSH);
    if (status != Z_OK && status != Z_STREAM_END && status != Z_BUF_ERROR) return fail(path, "damaged data");
    total += OUT_SIZE - stream.avail_out;
    if (status == Z_STREAM_END) in_member = 0;
  }
  inflateEnd(&stream);
#endif
  fclose(file);
  printf("%llu\n", total);
  return 0;
}
