// Thin shim over libchafa 1.12 (Debian libchafa-dev): one canvas configured from plain ints,
// fed packed RGB, read back cell by cell (symbols) or printed as one escape stream (sixel,
// kitty, iTerm2). No logic: the mode decision and the geometry are Swift (TerminalUI).
//
// The binary does not link libchafa or glib (issue #28: the first screens draw no picture, and
// the two, with pcre2, were 3 of the 41 libraries loaded at start): `cchafa_load` dlopens them
// on first use, and `cchafa_canvas_new` calls it, so a canvas is the first use.
#ifndef CCHAFA_H
#define CCHAFA_H
#include <stddef.h>
#include <stdint.h>

/// The number of libraries `cchafa_load` opens: glib, then libchafa.
#define CCHAFA_LIBRARY_COUNT 2
/// The sonames `cchafa_load` opens by default, in order: "libglib-2.0.so.0", "libchafa.so.0"
/// (libchafa 1.12's soname; glib 2.x). `index` 0...1; NULL outside.
const char *cchafa_default_library(int index);
/// Loads libchafa: dlopen (RTLD_NOW | RTLD_LOCAL) of `names[0...1]` (NULL: the defaults above),
/// then dlsym of every function the shim calls. Thread-safe. Once the default libraries are
/// loaded, later calls with NULL return 0 at once; a call with `names` always tries to open
/// them and keeps nothing (for tests of a missing library).
/// Returns 0, or -1 with `*failed_index` (may be NULL) the library (0...1) that could not be
/// opened or lacks a function, and dlerror's message in `message` (NUL-terminated, truncated to
/// `length`; may be NULL).
int cchafa_load(const char *const *names, int *failed_index, char *message, size_t length);
/// 1 once the default libraries are loaded, else 0 (does not load them).
int cchafa_loaded(void);

typedef struct cchafa_canvas cchafa_canvas;

/// pixel_mode: 0 symbols, 1 sixel, 2 kitty, 3 iTerm2. canvas_mode: 0 truecolor, 1 indexed 256,
/// 2 indexed 240, 3 indexed 16, 4 fg/bg. symbol_tags: ChafaSymbolTags bits (symbols only).
/// dither: 0 none, 1 ordered, 2 diffusion. work_factor 0...1. Loads libchafa first
/// (`cchafa_load(NULL, ...)`). Returns NULL on bad geometry or when libchafa cannot be loaded.
cchafa_canvas *cchafa_canvas_new(int pixel_mode, int canvas_mode, int cols, int rows,
                                 int cell_width, int cell_height, uint32_t symbol_tags,
                                 int dither, float work_factor);
void cchafa_canvas_free(cchafa_canvas *c);
/// Draws packed RGB8 (rowstride bytes per row), scaled to the canvas.
void cchafa_canvas_draw_rgb(cchafa_canvas *c, const uint8_t *rgb, int width, int height, int rowstride);
/// Draws packed RGBA8, unassociated alpha (rowstride bytes per row), scaled to the canvas. At a
/// work factor under 0.25 libchafa 1.12 samples such pixels directly (nearest) instead of
/// running its smooth scaler over them (chafa-pixops.c, prepare_pixels_pass_1).
void cchafa_canvas_draw_rgba(cchafa_canvas *c, const uint8_t *rgba, int width, int height, int rowstride);
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
