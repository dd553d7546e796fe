#include "CChafa.h"
#include <chafa.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// libchafa and glib are dlopened on first use (issue #28): the loading and instructions screens
// never draw a picture. The headers are included for the types and constants only; the calls
// go through the pointers `cchafa_load` resolves.
static const char *const default_names[CCHAFA_LIBRARY_COUNT] = { "libglib-2.0.so.0", "libchafa.so.0" };

const char *cchafa_default_library(int index) {
    return index >= 0 && index < CCHAFA_LIBRARY_COUNT ? default_names[index] : NULL;
}

// Every libchafa / glib function the shim calls, as (library index, return type, name,
// parameters); library 0 is glib, 1 libchafa.
#define CCHAFA_FUNCTIONS(X) \
    X(0, gchar *, g_string_free, (GString *string, gboolean free_segment)) \
    X(1, ChafaCanvasConfig *, chafa_canvas_config_new, (void)) \
    X(1, void, chafa_canvas_config_unref, (ChafaCanvasConfig *config)) \
    X(1, void, chafa_canvas_config_set_pixel_mode, (ChafaCanvasConfig *config, ChafaPixelMode pixel_mode)) \
    X(1, void, chafa_canvas_config_set_canvas_mode, (ChafaCanvasConfig *config, ChafaCanvasMode mode)) \
    X(1, void, chafa_canvas_config_set_geometry, (ChafaCanvasConfig *config, gint width, gint height)) \
    X(1, void, chafa_canvas_config_set_cell_geometry, (ChafaCanvasConfig *config, gint cell_width, gint cell_height)) \
    X(1, void, chafa_canvas_config_set_dither_mode, (ChafaCanvasConfig *config, ChafaDitherMode dither_mode)) \
    X(1, void, chafa_canvas_config_set_work_factor, (ChafaCanvasConfig *config, gfloat work_factor)) \
    X(1, void, chafa_canvas_config_set_symbol_map, (ChafaCanvasConfig *config, const ChafaSymbolMap *symbol_map)) \
    X(1, ChafaSymbolMap *, chafa_symbol_map_new, (void)) \
    X(1, void, chafa_symbol_map_unref, (ChafaSymbolMap *symbol_map)) \
    X(1, void, chafa_symbol_map_add_by_tags, (ChafaSymbolMap *symbol_map, ChafaSymbolTags tags)) \
    X(1, ChafaCanvas *, chafa_canvas_new, (const ChafaCanvasConfig *config)) \
    X(1, void, chafa_canvas_unref, (ChafaCanvas *canvas)) \
    X(1, void, chafa_canvas_draw_all_pixels, (ChafaCanvas *canvas, ChafaPixelType src_pixel_type, const guint8 *src_pixels, \
                                              gint src_width, gint src_height, gint src_rowstride)) \
    X(1, gunichar, chafa_canvas_get_char_at, (ChafaCanvas *canvas, gint x, gint y)) \
    X(1, void, chafa_canvas_get_colors_at, (ChafaCanvas *canvas, gint x, gint y, gint *fg_out, gint *bg_out)) \
    X(1, GString *, chafa_canvas_print, (ChafaCanvas *canvas, ChafaTermInfo *term_info)) \
    X(1, ChafaTermDb *, chafa_term_db_get_default, (void)) \
    X(1, ChafaTermInfo *, chafa_term_db_detect, (ChafaTermDb *term_db, gchar **envp)) \
    X(1, ChafaTermInfo *, chafa_term_db_get_fallback_info, (ChafaTermDb *term_db)) \
    X(1, void, chafa_term_info_supplement, (ChafaTermInfo *term_info, ChafaTermInfo *source)) \
    X(1, void, chafa_term_info_unref, (ChafaTermInfo *term_info))

// One pointer per function (p_NAME), set once under the lock by a successful default load.
#define CCHAFA_POINTER(lib, ret, name, params) static ret (*p_##name) params;
CCHAFA_FUNCTIONS(CCHAFA_POINTER)

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int loaded;

static void report(const char *why, int index, int *failed_index, char *message, size_t length) {
    if (failed_index) *failed_index = index;
    if (message && length > 0) snprintf(message, length, "%s", why ? why : "unknown dlopen error");
}

int cchafa_load(const char *const *names, int *failed_index, char *message, size_t length) {
    pthread_mutex_lock(&lock);
    if (!names && loaded) { pthread_mutex_unlock(&lock); return 0; }
    const char *const *use = names ? names : default_names;
    const int keep = !names;   // only the default load stores pointers and stays open
    void *h[CCHAFA_LIBRARY_COUNT] = { NULL, NULL };
    int rc = 0;
    for (int i = 0; i < CCHAFA_LIBRARY_COUNT && rc == 0; i++) {
        h[i] = dlopen(use[i], RTLD_NOW | RTLD_LOCAL);
        if (!h[i]) { report(dlerror(), i, failed_index, message, length); rc = -1; }
    }
    void *sym;
#define CCHAFA_RESOLVE(lib, ret, name, params) \
    if (rc == 0) { \
        sym = dlsym(h[lib], #name); \
        if (!sym) { report(dlerror(), lib, failed_index, message, length); rc = -1; } \
        else if (keep) { p_##name = (ret (*) params)sym; } }
    CCHAFA_FUNCTIONS(CCHAFA_RESOLVE)
    if (rc == 0 && keep) loaded = 1;
    // The default libraries stay open for the process once loaded (the pointers point into
    // them); any other handle is closed again.
    if (rc != 0 || !keep) for (int i = 0; i < CCHAFA_LIBRARY_COUNT; i++) if (h[i]) dlclose(h[i]);
    pthread_mutex_unlock(&lock);
    return rc;
}

int cchafa_loaded(void) {
    pthread_mutex_lock(&lock);
    int l = loaded;
    pthread_mutex_unlock(&lock);
    return l;
}

struct cchafa_canvas {
    ChafaCanvas *canvas;
    ChafaTermInfo *term;
};

static const ChafaPixelMode pixel_modes[] = {
    CHAFA_PIXEL_MODE_SYMBOLS, CHAFA_PIXEL_MODE_SIXELS, CHAFA_PIXEL_MODE_KITTY, CHAFA_PIXEL_MODE_ITERM2 };
static const ChafaCanvasMode canvas_modes[] = {
    CHAFA_CANVAS_MODE_TRUECOLOR, CHAFA_CANVAS_MODE_INDEXED_256, CHAFA_CANVAS_MODE_INDEXED_240,
    CHAFA_CANVAS_MODE_INDEXED_16, CHAFA_CANVAS_MODE_FGBG };
static const ChafaDitherMode dither_modes[] = {
    CHAFA_DITHER_MODE_NONE, CHAFA_DITHER_MODE_ORDERED, CHAFA_DITHER_MODE_DIFFUSION };

cchafa_canvas *cchafa_canvas_new(int pixel_mode, int canvas_mode, int cols, int rows,
                                 int cell_width, int cell_height, uint32_t symbol_tags,
                                 int dither, float work_factor) {
    if (cchafa_load(NULL, NULL, NULL, 0) != 0) return NULL;
    if (cols <= 0 || rows <= 0 || cell_width <= 0 || cell_height <= 0) return NULL;
    if (pixel_mode < 0 || pixel_mode > 3 || canvas_mode < 0 || canvas_mode > 4 || dither < 0 || dither > 2) return NULL;
    ChafaCanvasConfig *cfg = p_chafa_canvas_config_new();
    p_chafa_canvas_config_set_pixel_mode(cfg, pixel_modes[pixel_mode]);
    p_chafa_canvas_config_set_canvas_mode(cfg, canvas_modes[canvas_mode]);
    p_chafa_canvas_config_set_geometry(cfg, cols, rows);
    p_chafa_canvas_config_set_cell_geometry(cfg, cell_width, cell_height);
    p_chafa_canvas_config_set_dither_mode(cfg, dither_modes[dither]);
    p_chafa_canvas_config_set_work_factor(cfg, work_factor);
    if (pixel_mode == 0) {
        ChafaSymbolMap *map = p_chafa_symbol_map_new();
        p_chafa_symbol_map_add_by_tags(map, (ChafaSymbolTags)symbol_tags);
        p_chafa_canvas_config_set_symbol_map(cfg, map);
        p_chafa_symbol_map_unref(map);
    }
    cchafa_canvas *c = calloc(1, sizeof *c);
    if (!c) { p_chafa_canvas_config_unref(cfg); return NULL; }
    c->canvas = p_chafa_canvas_new(cfg);
    p_chafa_canvas_config_unref(cfg);
    if (!c->canvas) { free(c); return NULL; }
    ChafaTermDb *db = p_chafa_term_db_get_default();
    gchar *envp[] = { "TERM=xterm-256color", NULL };
    c->term = p_chafa_term_db_detect(db, envp);
    ChafaTermInfo *fallback = p_chafa_term_db_get_fallback_info(db);
    p_chafa_term_info_supplement(c->term, fallback);
    p_chafa_term_info_unref(fallback);
    return c;
}

void cchafa_canvas_free(cchafa_canvas *c) {
    if (!c) return;
    p_chafa_canvas_unref(c->canvas);
    p_chafa_term_info_unref(c->term);
    free(c);
}

void cchafa_canvas_draw_rgb(cchafa_canvas *c, const uint8_t *rgb, int width, int height, int rowstride) {
    p_chafa_canvas_draw_all_pixels(c->canvas, CHAFA_PIXEL_RGB8, rgb, width, height, rowstride);
}

void cchafa_canvas_draw_rgba(cchafa_canvas *c, const uint8_t *rgba, int width, int height, int rowstride) {
    p_chafa_canvas_draw_all_pixels(c->canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, rgba, width, height, rowstride);
}

uint32_t cchafa_canvas_char_at(cchafa_canvas *c, int x, int y) {
    return (uint32_t)p_chafa_canvas_get_char_at(c->canvas, x, y);
}

void cchafa_canvas_colors_at(cchafa_canvas *c, int x, int y, int *fg, int *bg) {
    gint f = -1, b = -1;
    p_chafa_canvas_get_colors_at(c->canvas, x, y, &f, &b);
    *fg = f; *bg = b;
}

char *cchafa_canvas_print(cchafa_canvas *c, size_t *length) {
    GString *s = p_chafa_canvas_print(c->canvas, c->term);
    if (!s) { *length = 0; return NULL; }
    char *out = malloc(s->len + 1);
    if (out) { memcpy(out, s->str, s->len + 1); *length = s->len; } else { *length = 0; }
    p_g_string_free(s, TRUE);
    return out;
}

uint32_t cchafa_tag_space(void) { return CHAFA_SYMBOL_TAG_SPACE; }
uint32_t cchafa_tag_solid(void) { return CHAFA_SYMBOL_TAG_SOLID; }
uint32_t cchafa_tag_block(void) { return CHAFA_SYMBOL_TAG_BLOCK; }
uint32_t cchafa_tag_half(void) { return CHAFA_SYMBOL_TAG_HALF; }
uint32_t cchafa_tag_quad(void) { return CHAFA_SYMBOL_TAG_QUAD; }
uint32_t cchafa_tag_sextant(void) { return CHAFA_SYMBOL_TAG_SEXTANT; }
uint32_t cchafa_tag_border(void) { return CHAFA_SYMBOL_TAG_BORDER; }
