// zero-copy floor with a ring: buffer-less API (ZSTD_decompressContinue) decoding each block
// straight into a ring of window + EXTRA bytes, as a design where workers read the ring would.
#define ZSTD_STATIC_LINKING_ONLY
#include <zstd.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc,char**argv){
  size_t extra = argc>2? strtoul(argv[2],0,10): (8<<20);
  FILE*f=fopen(argv[1],"rb"); fseek(f,0,SEEK_END); long n=ftell(f); fseek(f,0,SEEK_SET);
  unsigned char*src=malloc(n); if(fread(src,1,n,f)!=(size_t)n) return 2;
  ZSTD_frameHeader h; ZSTD_getFrameHeader(&h,src,n);
  size_t R = h.windowSize + extra; unsigned char*ring=malloc(R);
  ZSTD_DCtx*d=ZSTD_createDCtx(); ZSTD_decompressBegin(d);
  size_t pos=0, p=0; unsigned long long total=0; unsigned x=0;
  for(;;){ size_t need=ZSTD_nextSrcSizeToDecompress(d); if(!need) break;
    if(p + (128<<10) > R) p=0;
    size_t r=ZSTD_decompressContinue(d, ring+p, R-p, src+pos, need);
    if(ZSTD_isError(r)){fprintf(stderr,"%s\n",ZSTD_getErrorName(r));return 1;}
    pos+=need; if(r){ x+=ring[p+r-1]; p+=r; total+=r; } }
  printf("%llu %u\n", total, x); return 0;}
