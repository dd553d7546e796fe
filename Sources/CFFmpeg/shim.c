#include "CFFmpeg.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

int cff_error_again(void) { return AVERROR(EAGAIN); }
int cff_error_eof(void) { return AVERROR_EOF; }
int64_t cff_nopts_value(void) { return AV_NOPTS_VALUE; }
int cff_log_quiet(void) { return AV_LOG_QUIET; }
int cff_fmt_nofile(void) { return AVFMT_NOFILE; }
int cff_avio_flag_write(void) { return AVIO_FLAG_WRITE; }
int cff_sws_bilinear(void) { return SWS_BILINEAR; }
int cff_codec_flag_global_header(void) { return AV_CODEC_FLAG_GLOBAL_HEADER; }
int cff_fmt_globalheader(void) { return AVFMT_GLOBALHEADER; }

static const char *const default_names[4] = {
    "libavutil.so." AV_STRINGIFY(LIBAVUTIL_VERSION_MAJOR),
    "libavcodec.so." AV_STRINGIFY(LIBAVCODEC_VERSION_MAJOR),
    "libavformat.so." AV_STRINGIFY(LIBAVFORMAT_VERSION_MAJOR),
    "libswscale.so." AV_STRINGIFY(LIBSWSCALE_VERSION_MAJOR),
};

const char *cff_default_library(int index) { return index >= 0 && index < 4 ? default_names[index] : NULL; }

// One pointer per function, set once under the lock by a successful default load.
#define CFF_POINTER(lib, ret, name, params, args) static ret (*p_##name) params;
#define CFF_POINTER_VOID(lib, name, params, args) static void (*p_##name) params;
CFF_FUNCTIONS(CFF_POINTER, CFF_POINTER_VOID)

#define CFF_DEFINE(lib, ret, name, params, args) ret cff_##name params { return p_##name args; }
#define CFF_DEFINE_VOID(lib, name, params, args) void cff_##name params { p_##name args; }
CFF_FUNCTIONS(CFF_DEFINE, CFF_DEFINE_VOID)

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int loaded;

static void report(const char *why, int index, int *failed_index, char *message, size_t length) {
    if (failed_index) *failed_index = index;
    if (message && length > 0) snprintf(message, length, "%s", why ? why : "unknown dlopen error");
}

int cff_load(const char *const *names, int *failed_index, char *message, size_t length) {
    pthread_mutex_lock(&lock);
    if (!names && loaded) { pthread_mutex_unlock(&lock); return 0; }
    const char *const *use = names ? names : default_names;
    const int keep = !names;   // only the default load stores pointers and stays open
    void *h[4] = { NULL, NULL, NULL, NULL };
    int rc = 0;
    for (int i = 0; i < 4 && rc == 0; i++) {
        h[i] = dlopen(use[i], RTLD_NOW | RTLD_LOCAL);
        if (!h[i]) { report(dlerror(), i, failed_index, message, length); rc = -1; }
    }
    void *sym;
#define CFF_RESOLVE(lib, ret, name, params, args) \
    if (rc == 0) { \
        sym = dlsym(h[lib], #name); \
        if (!sym) { report(dlerror(), lib, failed_index, message, length); rc = -1; } \
        else if (keep) { p_##name = (ret (*) params)sym; } }
#define CFF_RESOLVE_VOID(lib, name, params, args) \
    if (rc == 0) { \
        sym = dlsym(h[lib], #name); \
        if (!sym) { report(dlerror(), lib, failed_index, message, length); rc = -1; } \
        else if (keep) { p_##name = (void (*) params)sym; } }
    CFF_FUNCTIONS(CFF_RESOLVE, CFF_RESOLVE_VOID)
    if (rc == 0 && keep) loaded = 1;
    // The default libraries stay open for the process once loaded (the pointers point into
    // them); any other handle is closed again (dlopen counts references).
    if (rc != 0 || !keep) for (int i = 0; i < 4; i++) if (h[i]) dlclose(h[i]);
    pthread_mutex_unlock(&lock);
    return rc;
}
