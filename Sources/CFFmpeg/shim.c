#include "CFFmpeg.h"
int cff_error_again(void) { return AVERROR(EAGAIN); }
int cff_error_eof(void) { return AVERROR_EOF; }
int64_t cff_nopts_value(void) { return AV_NOPTS_VALUE; }
int cff_log_quiet(void) { return AV_LOG_QUIET; }
int cff_fmt_nofile(void) { return AVFMT_NOFILE; }
int cff_avio_flag_write(void) { return AVIO_FLAG_WRITE; }
int cff_sws_bilinear(void) { return SWS_BILINEAR; }
int cff_codec_flag_global_header(void) { return AV_CODEC_FLAG_GLOBAL_HEADER; }
int cff_fmt_globalheader(void) { return AVFMT_GLOBALHEADER; }
