// Intel ISA-L's deflate library (Debian: libisal-dev), through one header. Only the TxFold
// target's ISAL trait imports it; without the trait the header is never read.
#include <isa-l/igzip_lib.h>
