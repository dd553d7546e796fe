#include "CZlib.h"
#include <zlib.h>

size_t czlib_bound(size_t sourceLength) { return (size_t)compressBound((uLong)sourceLength); }

int czlib_compress(unsigned char *dest, size_t *destLength, const unsigned char *source, size_t sourceLength, int level) {
    uLongf n = (uLongf)*destLength;
    int r = compress2(dest, &n, source, (uLong)sourceLength, level);
    *destLength = (size_t)n;
    return r;
}
