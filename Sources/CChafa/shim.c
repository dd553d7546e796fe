#include "CChafa.h"
#include <chafa.h>
#include <stdlib.h>
#include <string.h>

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
    if (cols <= 0 || rows <= 0 || cell_width <= 0 || cell_height <= 0) return NULL;
    if (pixel_mode < 0 || pixel_mode > 3 || canvas_mode < 0 || canvas_mode > 4 || dither < 0 || dither > 2) return NULL;
    ChafaCanvasConfig *cfg = chafa_canvas_config_new();
    chafa_canvas_config_set_pixel_mode(cfg, pixel_modes[pixel_mode]);
    chafa_canvas_config_set_canvas_mode(cfg, canvas_modes[canvas_mode]);
    chafa_canvas_config_set_geometry(cfg, cols, rows);
    chafa_canvas_config_set_cell_geometry(cfg, cell_width, cell_height);
    chafa_canvas_config_set_dither_mode(cfg, dither_modes[dither]);
    chafa_canvas_config_set_work_factor(cfg, work_factor);
    if (pixel_mode == 0) {
        ChafaSymbolMap *map = chafa_symbol_map_new();
        chafa_symbol_map_add_by_tags(map, (ChafaSymbolTags)symbol_tags);
        chafa_canvas_config_set_symbol_map(cfg, map);
        chafa_symbol_map_unref(map);
    }
    cchafa_canvas *c = calloc(1, sizeof *c);
    if (!c) { chafa_canvas_config_unref(cfg); return NULL; }
    c->canvas = chafa_canvas_new(cfg);
    chafa_canvas_config_unref(cfg);
    if (!c->canvas) { free(c); return NULL; }
    ChafaTermDb *db = chafa_term_db_get_default();
    gchar *envp[] = { "TERM=xterm-256color", NULL };
    c->term = chafa_term_db_detect(db, envp);
    ChafaTermInfo *fallback = chafa_term_db_get_fallback_info(db);
    chafa_term_info_supplement(c->term, fallback);
    chafa_term_info_unref(fallback);
    return c;
}

void cchafa_canvas_free(cchafa_canvas *c) {
    if (!c) return;
    chafa_canvas_unref(c->canvas);
    chafa_term_info_unref(c->term);
    free(c);
}

void cchafa_canvas_draw_rgb(cchafa_canvas *c, const uint8_t *rgb, int width, int height, int rowstride) {
    chafa_canvas_draw_all_pixels(c->canvas, CHAFA_PIXEL_RGB8, rgb, width, height, rowstride);
}

uint32_t cchafa_canvas_char_at(cchafa_canvas *c, int x, int y) {
    return (uint32_t)chafa_canvas_get_char_at(c->canvas, x, y);
}

void cchafa_canvas_colors_at(cchafa_canvas *c, int x, int y, int *fg, int *bg) {
    gint f = -1, b = -1;
    chafa_canvas_get_colors_at(c->canvas, x, y, &f, &b);
    *fg = f; *bg = b;
}

char *cchafa_canvas_print(cchafa_canvas *c, size_t *length) {
    GString *s = chafa_canvas_print(c->canvas, c->term);
    if (!s) { *length = 0; return NULL; }
    char *out = malloc(s->len + 1);
    if (out) { memcpy(out, s->str, s->len + 1); *length = s->len; } else { *length = 0; }
    g_string_free(s, TRUE);
    return out;
}

uint32_t cchafa_tag_space(void) { return CHAFA_SYMBOL_TAG_SPACE; }
uint32_t cchafa_tag_solid(void) { return CHAFA_SYMBOL_TAG_SOLID; }
uint32_t cchafa_tag_block(void) { return CHAFA_SYMBOL_TAG_BLOCK; }
uint32_t cchafa_tag_half(void) { return CHAFA_SYMBOL_TAG_HALF; }
uint32_t cchafa_tag_quad(void) { return CHAFA_SYMBOL_TAG_QUAD; }
uint32_t cchafa_tag_sextant(void) { return CHAFA_SYMBOL_TAG_SEXTANT; }
uint32_t cchafa_tag_border(void) { return CHAFA_SYMBOL_TAG_BORDER; }
