// zlib through one header so Swift sees the same declarations on every distribution.
#include <zlib.h>
