/* Compresses a state body (the decompressed records of a state file) at a zstd level with N workers and 1 MiB
   jobs, as StateFileWriter does, then decompresses it; prints the ratio and the process CPU of each half.
   gcc -O2 zstd-levels.c -lzstd -o zstd-levels && ./zstd-levels body.raw LEVEL WORKERS */
#include <zstd.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void){struct timespec t; clock_gettime(CLOCK_PROCESS_CPUTIME_ID,&t); return t.tv_sec+t.tv_nsec/1e9;}
int main(int argc, char **argv) {
  FILE *f = fopen(argv[1], "rb"); fseek(f, 0, SEEK_END); long n = ftell(f); fseek(f, 0, SEEK_SET);
  char *in = malloc(n); fread(in, 1, n, f); fclose(f);
  int level = atoi(argv[2]); int workers = atoi(argv[3]);
  ZSTD_CCtx *c = ZSTD_createCCtx();
  ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, level);
  ZSTD_CCtx_setParameter(c, ZSTD_c_nbWorkers, workers); ZSTD_CCtx_setParameter(c, ZSTD_c_jobSize, 1<<20);
  char *out = malloc(n + n/8 + 1000); size_t total = 0; size_t chunk = 1 << 17;
  double t0 = now();
  for (long off = 0; off < n; off += chunk) {
    size_t len = off + chunk > n ? n - off : chunk; int end = off + chunk >= n;
    ZSTD_inBuffer ib = { in + off, len, 0 };
    for (;;) { ZSTD_outBuffer ob = { out + total, 1<<17, 0 }; size_t left = ZSTD_compressStream2(c, &ob, &ib, end ? ZSTD_e_end : ZSTD_e_continue);
      total += ob.pos; if (end ? left == 0 : ib.pos == ib.size) break; }
  }
  double t1 = now();
  ZSTD_DStream *d = ZSTD_createDStream(); char *body = malloc(1<<18); size_t pos = 0, outn = 0;
  ZSTD_inBuffer ib = { out, total, 0 };
  while (ib.pos < ib.size) { ZSTD_outBuffer ob = { body, 1<<18, 0 }; size_t r = ZSTD_decompressStream(d, &ob, &ib); if (ZSTD_isError(r)) return 2; outn += ob.pos; }
  double t2 = now();
  printf("level %3d: ratio %.2f, compress cpu %.3f s, decompress cpu %.3f s (%zu)\n", level, (double)n/total, t1-t0, t2-t1, outn);
  return 0;
}
