// Thin shim over ncursesw 6.x (Debian libncurses-dev). No logic: accessors for globals that
// Swift 6 rejects as unsafe, and the macros Swift cannot import.
#ifndef CNCURSESW_H
#define CNCURSESW_H
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <ncursesw/curses.h>
#include <ncursesw/term.h>
#include <locale.h>
#include <wchar.h>

WINDOW *cnc_stdscr(void);
int cnc_colors(void);
int cnc_color_pairs(void);
int cnc_lines(void);
int cnc_cols(void);
void cnc_getmaxyx(WINDOW *w, int *y, int *x);
/// getcurx (a macro): the cursor's column in `w`.
int cnc_getcurx(WINDOW *w);
int cnc_key_f(int n);
int cnc_key_resize(void);
int cnc_key_backspace(void);
int cnc_key_enter(void);
int cnc_ok(void);
int cnc_err(void);
/// Attribute bits (A_* / WA_*), as attr_t.
attr_t cnc_a_normal(void);
attr_t cnc_a_bold(void);
attr_t cnc_a_dim(void);
attr_t cnc_a_reverse(void);
attr_t cnc_a_underline(void);
attr_t cnc_a_italic(void);
/// Sets one wide-character cell (a grapheme of up to 4 code points) at y,x with attrs and an
/// extended colour pair. Returns OK/ERR.
int cnc_mvadd_cell(int y, int x, const wchar_t *wch, attr_t attrs, int pair);
/// Number of colours reported by terminfo's `colors` capability (tigetnum), -1 if absent.
int cnc_tigetnum(const char *capname);
/// Boolean terminfo capability (tigetflag): 1, 0, or -1.
int cnc_tigetflag(const char *capname);
#endif
