#include "CICUPlural.h"
#include <unicode/upluralrules.h>
#include <unicode/unum.h>
#include <unicode/uformattedvalue.h>
#include <unicode/uenum.h>
#include <unicode/uversion.h>
#include <unicode/ustring.h>
#include <unicode/ubrk.h>
#include <string.h>
#include <stdio.h>

int cicu_plural_category(const char *locale, double number, int fractionDigits, char *out, size_t outSize) {
    UErrorCode status = U_ZERO_ERROR;
    UPluralRules *rules = uplrules_open(locale, &status);
    if (U_FAILURE(status)) return (int)status;
    UChar keyword[32];
    int32_t len;
    if (fractionDigits < 0) {
        len = uplrules_select(rules, number, keyword, 32, &status);
    } else {
        UNumberFormat *fmt = unum_open(UNUM_DECIMAL, NULL, 0, "en", NULL, &status);
        if (U_FAILURE(status)) { uplrules_close(rules); return (int)status; }
        unum_setAttribute(fmt, UNUM_MIN_FRACTION_DIGITS, fractionDigits);
        unum_setAttribute(fmt, UNUM_MAX_FRACTION_DIGITS, fractionDigits);
        unum_setAttribute(fmt, UNUM_GROUPING_USED, 0);
        len = uplrules_selectWithFormat(rules, number, fmt, keyword, 32, &status);
        unum_close(fmt);
    }
    uplrules_close(rules);
    if (U_FAILURE(status)) return (int)status;
    if ((size_t)len + 1 > outSize) return (int)U_BUFFER_OVERFLOW_ERROR;
    u_austrncpy(out, keyword, len);
    out[len] = 0;
    return 0;
}

int cicu_plural_keywords(const char *locale, char *out, size_t outSize) {
    UErrorCode status = U_ZERO_ERROR;
    UPluralRules *rules = uplrules_open(locale, &status);
    if (U_FAILURE(status)) return (int)status;
    UEnumeration *e = uplrules_getKeywords(rules, &status);
    size_t used = 0;
    out[0] = 0;
    if (U_SUCCESS(status)) {
        const char *kw; int32_t l;
        while ((kw = uenum_next(e, &l, &status)) != NULL && U_SUCCESS(status)) {
            if (used + (size_t)l + 2 > outSize) { status = U_BUFFER_OVERFLOW_ERROR; break; }
            if (used) out[used++] = ' ';
            memcpy(out + used, kw, (size_t)l);
            used += (size_t)l;
            out[used] = 0;
        }
        uenum_close(e);
    }
    uplrules_close(rules);
    return U_FAILURE(status) ? (int)status : 0;
}

const char *cicu_version(void) {
    static char buf[U_MAX_VERSION_STRING_LENGTH];
    UVersionInfo v;
    u_getVersion(v);
    u_versionToString(v, buf);
    return buf;
}

int cicu_line_breaks(const unsigned short *text, int length, const char *locale, int *out, int capacity) {
    UErrorCode status = U_ZERO_ERROR;
    UBreakIterator *bi = ubrk_open(UBRK_LINE, locale, (const UChar *)text, length, &status);
    if (U_FAILURE(status)) return -(int)status;
    int n = 0;
    ubrk_first(bi);
    for (int32_t p = ubrk_next(bi); p != UBRK_DONE; p = ubrk_next(bi)) {
        if (n < capacity) out[n] = p;
        n++;
    }
    ubrk_close(bi);
    return n;
}
