// Thin shim over libjpeg-turbo's TurboJPEG 2.1 API (Debian libturbojpeg0-dev). No logic.
#ifndef CTURBOJPEG_H
#define CTURBOJPEG_H
#include <turbojpeg.h>
/// TJERR_WARNING / TJERR_FATAL as ints.
int ctj_err_warning(void);
int ctj_err_fatal(void);
#endif
