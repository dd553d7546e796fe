#include "CTurboJPEG.h"
int ctj_err_warning(void) { return TJERR_WARNING; }
int ctj_err_fatal(void) { return TJERR_FATAL; }
