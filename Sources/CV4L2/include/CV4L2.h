// Thin shim over libv4l2 (Debian libv4l-dev) and <linux/videodev2.h>. No logic: VIDIOC_* request
// codes and V4L2_PIX_FMT_* FourCCs as constants (function-like macros Swift cannot import), and
// fixed-argument wrappers for the variadic v4l2_open / v4l2_ioctl.
#ifndef CV4L2_H
#define CV4L2_H
#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>
#include <linux/videodev2.h>

extern const unsigned long CV4L2_VIDIOC_QUERYCAP;
extern const unsigned long CV4L2_VIDIOC_ENUM_FMT;
extern const unsigned long CV4L2_VIDIOC_ENUM_FRAMESIZES;
extern const unsigned long CV4L2_VIDIOC_ENUM_FRAMEINTERVALS;
extern const unsigned long CV4L2_VIDIOC_G_FMT;
extern const unsigned long CV4L2_VIDIOC_S_FMT;
extern const unsigned long CV4L2_VIDIOC_G_PARM;
extern const unsigned long CV4L2_VIDIOC_S_PARM;
extern const unsigned long CV4L2_VIDIOC_REQBUFS;
extern const unsigned long CV4L2_VIDIOC_QUERYBUF;
extern const unsigned long CV4L2_VIDIOC_QBUF;
extern const unsigned long CV4L2_VIDIOC_DQBUF;
extern const unsigned long CV4L2_VIDIOC_STREAMON;
extern const unsigned long CV4L2_VIDIOC_STREAMOFF;

extern const uint32_t CV4L2_PIX_FMT_MJPEG;
extern const uint32_t CV4L2_PIX_FMT_JPEG;
extern const uint32_t CV4L2_PIX_FMT_YUYV;
extern const uint32_t CV4L2_PIX_FMT_NV12;
extern const uint32_t CV4L2_PIX_FMT_YUV420;
extern const uint32_t CV4L2_PIX_FMT_RGB24;
extern const uint32_t CV4L2_PIX_FMT_GREY;

extern const uint32_t CV4L2_CAP_VIDEO_CAPTURE;
extern const uint32_t CV4L2_CAP_STREAMING;
extern const uint32_t CV4L2_CAP_DEVICE_CAPS;
extern const uint32_t CV4L2_BUF_TYPE_VIDEO_CAPTURE;
extern const uint32_t CV4L2_MEMORY_MMAP;
extern const uint32_t CV4L2_FIELD_ANY;
extern const uint32_t CV4L2_FRMSIZE_TYPE_DISCRETE;
extern const uint32_t CV4L2_FRMIVAL_TYPE_DISCRETE;
extern const uint32_t CV4L2_FRMSIZE_TYPE_CONTINUOUS;
extern const uint32_t CV4L2_FRMSIZE_TYPE_STEPWISE;
extern const uint32_t CV4L2_BUF_FLAG_ERROR;
extern const uint32_t CV4L2_BUF_FLAG_TIMESTAMP_MASK;
extern const uint32_t CV4L2_BUF_FLAG_TIMESTAMP_MONOTONIC;
extern const uint32_t CV4L2_PIX_FMT_BGR24;

int cv4l2_open(const char *path, int flags);
int cv4l2_close(int fd);
/// v4l2_ioctl with one pointer argument. Returns -1 and sets errno on failure.
int cv4l2_ioctl(int fd, unsigned long request, void *arg);
void *cv4l2_mmap(size_t length, int fd, int64_t offset);
int cv4l2_munmap(void *start, size_t length);
/// MAP_FAILED as a pointer value, for comparison from Swift.
void *cv4l2_map_failed(void);
#endif
