// ICU plural rules behind an ICU-free header (Debian libicu-dev). ICU headers stay inside the .c
// file: exposing <unicode/*.h> to Swift clashes with Foundation's own ICU module.
#ifndef CICUPLURAL_H
#define CICUPLURAL_H
#include <stddef.h>
/// Writes the CLDR plural category keyword ("zero", "one", "two", "few", "many", "other") for
/// `number` in `locale` (ICU locale ID, e.g. "fr", "pl_PL") into `out` (NUL-terminated).
/// `fractionDigits` < 0 formats the number as an integer when it is whole; otherwise it is the
/// number of visible fraction digits (CLDR operand v). Returns 0, or an ICU UErrorCode (> 0).
int cicu_plural_category(const char *locale, double number, int fractionDigits, char *out, size_t outSize);
/// Writes the locale's plural keywords, space-separated, into `out`. Returns 0 or a UErrorCode.
int cicu_plural_keywords(const char *locale, char *out, size_t outSize);
/// Line-break opportunities of UAX #14 (ICU's line-break iterator, `ubrk_open(UBRK_LINE)`) in
/// `length` UTF-16 code units at `text`, for `locale` ("" = root). Writes up to `capacity`
/// offsets (UTF-16 code units, ascending; each is a position where a line may start, the last
/// one is `length`; 0 is not included) into `out`. Returns how many there are (it may exceed
/// `capacity`: call again with more room), or -(UErrorCode) on failure.
int cicu_line_breaks(const unsigned short *text, int length, const char *locale, int *out, int capacity);
/// ICU's version string (e.g. "72.1").
const char *cicu_version(void);
#endif
