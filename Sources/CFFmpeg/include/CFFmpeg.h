// Thin shim over FFmpeg's libavcodec / libavformat / libavutil / libswscale (Debian
// libavcodec-dev, libavformat-dev, libavutil-dev, libswscale-dev; FFmpeg 5.1). No logic:
// macros Swift cannot import as functions, nothing else.
#ifndef CFFMPEG_H
#define CFFMPEG_H
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>

/// AVERROR(EAGAIN): "send more input" / "read output first".
int cff_error_again(void);
/// AVERROR_EOF: the encoder is fully drained.
int cff_error_eof(void);
/// AV_NOPTS_VALUE.
int64_t cff_nopts_value(void);
/// AV_LOG_QUIET (silences FFmpeg's stderr logging process-wide; errors are returned as codes).
int cff_log_quiet(void);
/// AVFMT_NOFILE for `oformat->flags`.
int cff_fmt_nofile(void);
/// AVIO_FLAG_WRITE.
int cff_avio_flag_write(void);
/// AV_CODEC_FLAG_GLOBAL_HEADER (for `AVCodecContext.flags`).
int cff_codec_flag_global_header(void);
/// AVFMT_GLOBALHEADER (a container that wants codec headers out of band, as MP4 does).
int cff_fmt_globalheader(void);
/// SWS_BILINEAR (swscale's algorithm flags are macros).
int cff_sws_bilinear(void);
#endif
