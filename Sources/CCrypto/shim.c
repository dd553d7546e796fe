#include "CCrypto.h"
#include <openssl/evp.h>
#include <openssl/crypto.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// libcrypto is dlopened on first use (issue #28): only the manifest's hashes at a run's end,
// `verify` and a signing key's fingerprint need it, and linked it was 4,200 of the loader's
// 7,100 relocations at every start and ~1.4 MB of resident pages during the capture. The
// headers are included for the types only; the calls go through the pointers resolved here.
#define CCRYPTO_FUNCTIONS(X) \
    X(EVP_MD_CTX *, EVP_MD_CTX_new, (void)) \
    X(void, EVP_MD_CTX_free, (EVP_MD_CTX *ctx)) \
    X(const EVP_MD *, EVP_sha256, (void)) \
    X(int, EVP_DigestInit_ex, (EVP_MD_CTX *ctx, const EVP_MD *type, ENGINE *impl)) \
    X(int, EVP_DigestUpdate, (EVP_MD_CTX *ctx, const void *d, size_t cnt)) \
    X(int, EVP_DigestFinal_ex, (EVP_MD_CTX *ctx, unsigned char *md, unsigned int *s)) \
    X(const char *, OpenSSL_version, (int type))

#define CCRYPTO_POINTER(ret, name, params) static ret (*p_##name) params;
CCRYPTO_FUNCTIONS(CCRYPTO_POINTER)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char load_error[512];

static void load(void) {
    void *h = dlopen(CCRYPTO_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (!h) { snprintf(load_error, sizeof load_error, "%s", dlerror()); return; }
    void *sym;
#define CCRYPTO_RESOLVE(ret, name, params) \
    sym = dlsym(h, #name); \
    if (!sym) { snprintf(load_error, sizeof load_error, "%s", dlerror()); dlclose(h); return; } \
    p_##name = (ret (*) params)sym;
    CCRYPTO_FUNCTIONS(CCRYPTO_RESOLVE)
    loaded = 1;   // the library stays open for the process (the pointers point into it)
}

const char *ccrypto_load(void) {
    pthread_once(&once, load);
    return loaded ? NULL : load_error;
}

ccrypto_sha256 *ccrypto_sha256_new(void) {
    if (ccrypto_load() != NULL) return NULL;
    EVP_MD_CTX *ctx = p_EVP_MD_CTX_new();
    if (ctx == NULL) return NULL;
    if (p_EVP_DigestInit_ex(ctx, p_EVP_sha256(), NULL) != 1) { p_EVP_MD_CTX_free(ctx); return NULL; }
    return (ccrypto_sha256 *)ctx;
}

int ccrypto_sha256_update(ccrypto_sha256 *ctx, const void *data, size_t length) {
    return p_EVP_DigestUpdate((EVP_MD_CTX *)ctx, data, length);
}

int ccrypto_sha256_final(ccrypto_sha256 *ctx, unsigned char *out) {
    unsigned int n = 0;
    return p_EVP_DigestFinal_ex((EVP_MD_CTX *)ctx, out, &n) == 1 && n == 32;
}

void ccrypto_sha256_free(ccrypto_sha256 *ctx) { if (ctx && loaded) p_EVP_MD_CTX_free((EVP_MD_CTX *)ctx); }

const char *ccrypto_version(void) { return ccrypto_load() == NULL ? p_OpenSSL_version(OPENSSL_VERSION) : NULL; }

int ccrypto_is_loaded(void) { return loaded; }
