#include "CCrypto.h"
#include <openssl/evp.h>
#include <openssl/crypto.h>

ccrypto_sha256 *ccrypto_sha256_new(void) {
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    if (ctx == NULL) return NULL;
    if (EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1) { EVP_MD_CTX_free(ctx); return NULL; }
    return (ccrypto_sha256 *)ctx;
}

int ccrypto_sha256_update(ccrypto_sha256 *ctx, const void *data, size_t length) {
    return EVP_DigestUpdate((EVP_MD_CTX *)ctx, data, length);
}

int ccrypto_sha256_final(ccrypto_sha256 *ctx, unsigned char *out) {
    unsigned int n = 0;
    return EVP_DigestFinal_ex((EVP_MD_CTX *)ctx, out, &n) == 1 && n == 32;
}

void ccrypto_sha256_free(ccrypto_sha256 *ctx) { EVP_MD_CTX_free((EVP_MD_CTX *)ctx); }

const char *ccrypto_version(void) { return OpenSSL_version(OPENSSL_VERSION); }
