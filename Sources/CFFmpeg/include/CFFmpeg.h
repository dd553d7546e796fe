// Thin shim over FFmpeg's libavcodec / libavformat / libavutil / libswscale (Debian
// libavcodec-dev, libavformat-dev, libavutil-dev, libswscale-dev; FFmpeg 5.1). No logic:
// macros Swift cannot import as functions, and the libraries loaded on first use.
//
// The binary does not link FFmpeg (issue #28: libavformat alone pulled in 134 of the ~160
// shared libraries loaded at start, although only `--video-format mp4` uses it).
// `cff_load` dlopens the four libraries at the major versions of these headers and resolves
// every function the MP4 writer calls; each `cff_NAME` below then calls FFmpeg's `NAME`.
// The headers are included for the types and constants only.
#ifndef CFFMPEG_H
#define CFFMPEG_H
#include <stddef.h>
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

/// The sonames `cff_load` opens by default, in order (libavutil first: the others need it):
/// "libavutil.so.57", "libavcodec.so.59", "libavformat.so.59", "libswscale.so.6" for FFmpeg
/// 5.1 (from the headers' LIB*_VERSION_MAJOR). `index` 0...3; NULL outside.
const char *cff_default_library(int index);

/// Loads FFmpeg: dlopen (RTLD_NOW | RTLD_LOCAL) of `names[0...3]` (NULL: the defaults above),
/// then dlsym of every `cff_*` function's target. Thread-safe. Once the default libraries are
/// loaded, later calls with NULL return 0 at once; a call with `names` always tries to open
/// them (so a missing library is reported even after FFmpeg was loaded).
/// Returns 0, or -1 with `*failed_index` the library (0...3) that could not be opened or lacks
/// a function, and dlerror's message in `message` (NUL-terminated, truncated to `length`).
int cff_load(const char *const *names, int *failed_index, char *message, size_t length);

// Every FFmpeg function the writer calls, as (library index, return type, name, parameters,
// arguments); `cff_NAME(parameters)` calls it. Call only after `cff_load` returned 0.
#define CFF_FUNCTIONS(X, XV) \
    XV(0, av_log_set_level, (int level), (level)) \
    X(0, AVRational, av_d2q, (double d, int max), (d, max)) \
    X(0, int, av_strerror, (int errnum, char *errbuf, size_t errbuf_size), (errnum, errbuf, errbuf_size)) \
    X(0, int, av_opt_set, (void *obj, const char *name, const char *val, int search_flags), (obj, name, val, search_flags)) \
    X(0, int, av_dict_set, (AVDictionary **pm, const char *key, const char *value, int flags), (pm, key, value, flags)) \
    XV(0, av_dict_free, (AVDictionary **m), (m)) \
    X(0, AVFrame *, av_frame_alloc, (void), ()) \
    XV(0, av_frame_free, (AVFrame **frame), (frame)) \
    X(0, int, av_frame_get_buffer, (AVFrame *frame, int align), (frame, align)) \
    X(0, int, av_frame_make_writable, (AVFrame *frame), (frame)) \
    X(1, const AVCodec *, avcodec_find_encoder_by_name, (const char *name), (name)) \
    X(1, AVCodecContext *, avcodec_alloc_context3, (const AVCodec *codec), (codec)) \
    XV(1, avcodec_free_context, (AVCodecContext **avctx), (avctx)) \
    X(1, int, avcodec_open2, (AVCodecContext *avctx, const AVCodec *codec, AVDictionary **options), (avctx, codec, options)) \
    X(1, int, avcodec_parameters_from_context, (AVCodecParameters *par, const AVCodecContext *codec), (par, codec)) \
    X(1, int, avcodec_send_frame, (AVCodecContext *avctx, const AVFrame *frame), (avctx, frame)) \
    X(1, int, avcodec_receive_packet, (AVCodecContext *avctx, AVPacket *avpkt), (avctx, avpkt)) \
    X(1, AVPacket *, av_packet_alloc, (void), ()) \
    XV(1, av_packet_free, (AVPacket **pkt), (pkt)) \
    XV(1, av_packet_rescale_ts, (AVPacket *pkt, AVRational tb_src, AVRational tb_dst), (pkt, tb_src, tb_dst)) \
    X(2, int, avformat_alloc_output_context2, (AVFormatContext **ctx, const AVOutputFormat *oformat, const char *format_name, const char *filename), (ctx, oformat, format_name, filename)) \
    XV(2, avformat_free_context, (AVFormatContext *s), (s)) \
    X(2, AVStream *, avformat_new_stream, (AVFormatContext *s, const AVCodec *c), (s, c)) \
    X(2, int, avformat_write_header, (AVFormatContext *s, AVDictionary **options), (s, options)) \
    X(2, int, av_interleaved_write_frame, (AVFormatContext *s, AVPacket *pkt), (s, pkt)) \
    X(2, int, av_write_trailer, (AVFormatContext *s), (s)) \
    X(2, int, avio_open, (AVIOContext **s, const char *url, int flags), (s, url, flags)) \
    X(2, int, avio_closep, (AVIOContext **s), (s)) \
    X(3, struct SwsContext *, sws_getContext, (int srcW, int srcH, enum AVPixelFormat srcFormat, int dstW, int dstH, enum AVPixelFormat dstFormat, int flags, SwsFilter *srcFilter, SwsFilter *dstFilter, const double *param), (srcW, srcH, srcFormat, dstW, dstH, dstFormat, flags, srcFilter, dstFilter, param)) \
    X(3, int, sws_scale, (struct SwsContext *c, const uint8_t *const srcSlice[], const int srcStride[], int srcSliceY, int srcSliceH, uint8_t *const dst[], const int dstStride[]), (c, srcSlice, srcStride, srcSliceY, srcSliceH, dst, dstStride)) \
    XV(3, sws_freeContext, (struct SwsContext *swsContext), (swsContext))

#define CFF_PROTOTYPE(lib, ret, name, params, args) ret cff_##name params;
#define CFF_PROTOTYPE_VOID(lib, name, params, args) void cff_##name params;
CFF_FUNCTIONS(CFF_PROTOTYPE, CFF_PROTOTYPE_VOID)
#undef CFF_PROTOTYPE
#undef CFF_PROTOTYPE_VOID
#endif
