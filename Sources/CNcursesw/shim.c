#include "CNcursesw.h"

WINDOW *cnc_stdscr(void) { return stdscr; }
int cnc_colors(void) { return COLORS; }
int cnc_color_pairs(void) { return COLOR_PAIRS; }
int cnc_lines(void) { return LINES; }
int cnc_cols(void) { return COLS; }
void cnc_getmaxyx(WINDOW *w, int *y, int *x) { int yy, xx; getmaxyx(w, yy, xx); *y = yy; *x = xx; }
int cnc_getcurx(WINDOW *w) { return getcurx(w); }
int cnc_key_f(int n) { return KEY_F(n); }
int cnc_key_resize(void) { return KEY_RESIZE; }
int cnc_key_backspace(void) { return KEY_BACKSPACE; }
int cnc_key_enter(void) { return KEY_ENTER; }
int cnc_ok(void) { return OK; }
int cnc_err(void) { return ERR; }
attr_t cnc_a_normal(void) { return WA_NORMAL; }
attr_t cnc_a_bold(void) { return WA_BOLD; }
attr_t cnc_a_dim(void) { return WA_DIM; }
attr_t cnc_a_reverse(void) { return WA_REVERSE; }
attr_t cnc_a_underline(void) { return WA_UNDERLINE; }
attr_t cnc_a_italic(void) { return WA_ITALIC; }
int cnc_mvadd_cell(int y, int x, const wchar_t *wch, attr_t attrs, int pair) {
    cchar_t c;
    if (setcchar(&c, wch, attrs, (short)(pair > 32767 ? 0 : pair), &pair) != OK) return ERR;
    return mvadd_wch(y, x, &c);
}
int cnc_tigetnum(const char *capname) { return tigetnum((char *)capname); }
int cnc_tigetflag(const char *capname) { return tigetflag((char *)capname); }
