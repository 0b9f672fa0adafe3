// whole-file.h — reads a file into memory for the C benchmarks that time a kernel on bytes already
// in memory (index-kernels.c, and the experiments under Benchmarks/runs/).
#ifndef TXFOLD_BENCHMARKS_WHOLE_FILE_H
#define TXFOLD_BENCHMARKS_WHOLE_FILE_H

#include <stdio.h>
#include <stdlib.h>

/// The bytes of the file at `path`, with `padding` more bytes allocated after them (zeroed), and
/// their count in `size`; NULL, after saying why on standard error, when it cannot be read.
static unsigned char *read_whole_file(const char *path, size_t padding, long *size) {
  FILE *file = fopen(path, "rb");
  if (file == NULL) {
    perror(path);
    return NULL;
  }
  unsigned char *bytes = NULL;
  if (fseek(file, 0, SEEK_END) == 0 && (*size = ftell(file)) >= 0 && fseek(file, 0, SEEK_SET) == 0) {
    bytes = calloc((size_t)*size + padding, 1);
    if (bytes != NULL && fread(bytes, 1, (size_t)*size, file) != (size_t)*size) {
      free(bytes);
      bytes = NULL;
    }
  }
  if (bytes == NULL) fprintf(stderr, "cannot read %s\n", path);
  fclose(file);
  return bytes;
}

#endif
