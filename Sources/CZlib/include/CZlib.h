// Thin shim over zlib (Debian zlib1g-dev): one-shot compress2, for kitty's `o=z` pictures. No logic.
#ifndef CZLIB_H
#define CZLIB_H
#include <stddef.h>

/// compressBound(sourceLength): the most bytes czlib_compress can produce.
size_t czlib_bound(size_t sourceLength);
/// compress2 at `level` (0–9; 1 = fastest): an RFC 1950 zlib stream of `source` into `dest`
/// (capacity `*destLength`, set to the bytes written). Returns zlib's code: 0 (Z_OK) on success.
int czlib_compress(unsigned char *dest, size_t *destLength, const unsigned char *source, size_t sourceLength, int level);
#endif
