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
/// ICU's version string (e.g. "72.1").
const char *cicu_version(void);
#endif
