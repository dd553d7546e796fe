// Thin shim over OpenSSL's libcrypto EVP digest API (Debian libssl-dev), SHA-256 only. No logic.
// OpenSSL headers stay inside the .c file: the handle is opaque to Swift. libcrypto is dlopened
// on first use (issue #28), so a process that never hashes never maps it.
#ifndef CCRYPTO_H
#define CCRYPTO_H
#include <stddef.h>

/// The library dlopened on first use (OpenSSL 3's soname).
#define CCRYPTO_LIBRARY "libcrypto.so.3"

/// An EVP_MD_CTX set up for SHA-256 (opaque).
typedef struct ccrypto_sha256 ccrypto_sha256;

/// Loads libcrypto once (later calls return the first outcome): NULL when loaded, else the
/// dlopen/dlsym message.
const char *ccrypto_load(void);
/// Whether libcrypto was loaded in this process (tests: not before the first hash).
int ccrypto_is_loaded(void);
/// EVP_MD_CTX_new + EVP_DigestInit_ex(EVP_sha256()). NULL when either fails or libcrypto
/// cannot be loaded (`ccrypto_load` says why).
ccrypto_sha256 *ccrypto_sha256_new(void);
/// EVP_DigestUpdate. Returns 1 on success, 0 on failure.
int ccrypto_sha256_update(ccrypto_sha256 *ctx, const void *data, size_t length);
/// EVP_DigestFinal_ex into `out` (32 bytes). Returns 1 on success, 0 on failure. The context
/// cannot be updated afterwards.
int ccrypto_sha256_final(ccrypto_sha256 *ctx, unsigned char *out);
/// EVP_MD_CTX_free (NULL is fine).
void ccrypto_sha256_free(ccrypto_sha256 *ctx);
/// OpenSSL_version(OPENSSL_VERSION), e.g. "OpenSSL 3.0.19 ..."; NULL when libcrypto cannot be loaded.
const char *ccrypto_version(void);
#endif
