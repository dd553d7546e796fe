// Thin shim over libchafa 1.12 (Debian libchafa-dev): one canvas configured from plain ints,
// fed packed RGB, read back cell by cell (symbols) or printed as one escape stream (sixel,
// kitty, iTerm2). No logic: the mode decision and the geometry are Swift (TerminalUI).
#ifndef CCHAFA_H
#define CCHAFA_H
#include <stddef.h>
#include <stdint.h>

typedef struct cchafa_canvas cchafa_canvas;

/// pixel_mode: 0 symbols, 1 sixel, 2 kitty, 3 iTerm2. canvas_mode: 0 truecolor, 1 indexed 256,
/// 2 indexed 240, 3 indexed 16, 4 fg/bg. symbol_tags: ChafaSymbolTags bits (symbols only).
/// dither: 0 none, 1 ordered, 2 diffusion. work_factor 0...1. Returns NULL on bad geometry.
cchafa_canvas *cchafa_canvas_new(int pixel_mode, int canvas_mode, int cols, int rows,
                                 int cell_width, int cell_height, uint32_t symbol_tags,
                                 int dither, float work_factor);
void cchafa_canvas_free(cchafa_canvas *c);
/// Draws packed RGB8 (rowstride bytes per row), scaled to the canvas.
void cchafa_canvas_draw_rgb(cchafa_canvas *c, const uint8_t *rgb, int width, int height, int rowstride);
/// The cell's character (Unicode scalar) and colours as packed 0xRRGGBB (-1: none).
uint32_t cchafa_canvas_char_at(cchafa_canvas *c, int x, int y);
void cchafa_canvas_colors_at(cchafa_canvas *c, int x, int y, int *fg, int *bg);
/// The canvas as terminal output (chafa's term-db info for TERM=xterm-256color supplemented
/// with its fallback sequences). Returns a malloc'd buffer the caller frees with free(), and
/// its length in *length; NULL when printing failed.
char *cchafa_canvas_print(cchafa_canvas *c, size_t *length);
/// The symbol tags named in chafa-symbol-map.h (block, half, quad, sextant, space, solid ...).
uint32_t cchafa_tag_space(void);
uint32_t cchafa_tag_solid(void);
uint32_t cchafa_tag_block(void);
uint32_t cchafa_tag_half(void);
uint32_t cchafa_tag_quad(void);
uint32_t cchafa_tag_sextant(void);
uint32_t cchafa_tag_border(void);
#endif
