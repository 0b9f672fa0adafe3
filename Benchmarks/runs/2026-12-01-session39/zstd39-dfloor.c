// decompress a .zst to nowhere with ZSTD_decompressStream into a BUF-sized buffer
#include <zstd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc,char**argv){
  size_t outsz = argc>2? strtoul(argv[2],0,10): (1<<20);
  size_t insz = argc>3? strtoul(argv[3],0,10): 256*1024;
  FILE*f=fopen(argv[1],"rb"); char*in=malloc(insz); char*out=malloc(outsz);
  ZSTD_DStream*d=ZSTD_createDStream(); ZSTD_DCtx_setParameter(d,ZSTD_d_windowLogMax,27);
  ZSTD_inBuffer ib={in,0,0}; unsigned long long total=0; unsigned x=0;
  for(;;){ if(ib.pos==ib.size){ ib.size=fread(in,1,insz,f); ib.pos=0; if(!ib.size)break;}
    ZSTD_outBuffer ob={out,outsz,0}; size_t r=ZSTD_decompressStream(d,&ob,&ib);
    if(ZSTD_isError(r)){fprintf(stderr,"%s\n",ZSTD_getErrorName(r));return 1;}
    total+=ob.pos; if(ob.pos) x+=((unsigned char*)out)[ob.pos-1]; }
  printf("%llu %u\n",total,x); return 0;}
