#include "CDlibFace.h"
#include <dlib/image_processing/frontal_face_detector.h>
#include <dlib/image_processing/shape_predictor.h>
#include <dlib/image_io.h>
#include <dlib/serialize.h>
#include <cstring>
#include <cstdlib>
#include <string>
#include <vector>

struct cdf_detector { dlib::frontal_face_detector det; };
struct cdf_shape_predictor { dlib::shape_predictor sp; };

static void set_err(char *err, size_t n, const std::string &msg) {
    if (!err || n == 0) return;
    std::strncpy(err, msg.c_str(), n - 1);
    err[n - 1] = 0;
}

static void copy_gray(const uint8_t *gray, int width, int height, int stride, dlib::array2d<unsigned char> &img) {
    img.set_size(height, width);
    for (int r = 0; r < height; r++) std::memcpy(&img[r][0], gray + (size_t)r * stride, (size_t)width);
}

extern "C" cdf_detector *cdf_detector_create(void) {
    try { auto *d = new cdf_detector(); d->det = dlib::get_frontal_face_detector(); return d; }
    catch (...) { return nullptr; }
}

extern "C" void cdf_detector_destroy(cdf_detector *d) { delete d; }

extern "C" int cdf_detect(cdf_detector *d, const uint8_t *gray, int width, int height, int stride,
                          double adjustThreshold, cdf_box *boxes, int maxBoxes, char *err, size_t errSize) {
    if (!d || !gray || width <= 0 || height <= 0 || stride < width) { set_err(err, errSize, "invalid arguments"); return -1; }
    try {
        dlib::array2d<unsigned char> img;
        copy_gray(gray, width, height, stride, img);
        std::vector<dlib::rect_detection> dets;
        d->det(img, dets, adjustThreshold);
        int n = (int)dets.size();
        for (int i = 0; i < n && i < maxBoxes; i++) {
            const dlib::rectangle &r = dets[i].rect;
            boxes[i].x = r.left(); boxes[i].y = r.top();
            boxes[i].w = r.width(); boxes[i].h = r.height();
            boxes[i].score = dets[i].detection_confidence;
        }
        return n;
    } catch (const std::exception &e) { set_err(err, errSize, e.what()); return -1; }
    catch (...) { set_err(err, errSize, "unknown dlib error"); return -1; }
}

extern "C" cdf_shape_predictor *cdf_shape_predictor_load(const char *path, char *err, size_t errSize) {
    try {
        auto *p = new cdf_shape_predictor();
        try { dlib::deserialize(path) >> p->sp; }
        catch (...) { delete p; throw; }
        return p;
    } catch (const std::exception &e) { set_err(err, errSize, e.what()); return nullptr; }
    catch (...) { set_err(err, errSize, "unknown dlib error"); return nullptr; }
}

extern "C" void cdf_shape_predictor_destroy(cdf_shape_predictor *p) { delete p; }

extern "C" int cdf_shape_predictor_parts(const cdf_shape_predictor *p) { return p ? (int)p->sp.num_parts() : 0; }

extern "C" int cdf_landmarks(const cdf_shape_predictor *p, const uint8_t *gray, int width, int height, int stride,
                             double x, double y, double w, double h, double *xy, int xyCount, char *err, size_t errSize) {
    if (!p || !gray || width <= 0 || height <= 0 || stride < width) { set_err(err, errSize, "invalid arguments"); return -1; }
    try {
        int parts = (int)p->sp.num_parts();
        if (xyCount < 2 * parts) { set_err(err, errSize, "output buffer too small"); return -1; }
        dlib::array2d<unsigned char> img;
        copy_gray(gray, width, height, stride, img);
        dlib::rectangle r((long)std::lround(x), (long)std::lround(y),
                          (long)std::lround(x + w) - 1, (long)std::lround(y + h) - 1);
        dlib::full_object_detection s = p->sp(img, r);
        for (int i = 0; i < parts; i++) { xy[2 * i] = s.part(i).x(); xy[2 * i + 1] = s.part(i).y(); }
        return parts;
    } catch (const std::exception &e) { set_err(err, errSize, e.what()); return -1; }
    catch (...) { set_err(err, errSize, "unknown dlib error"); return -1; }
}

extern "C" uint8_t *cdf_load_image_rgb(const char *path, int *width, int *height, char *err, size_t errSize) {
    try {
        dlib::array2d<dlib::rgb_pixel> img;
        dlib::load_image(img, path);
        int w = (int)img.nc(), h = (int)img.nr();
        uint8_t *out = (uint8_t *)std::malloc((size_t)w * h * 3 + 1);
        if (!out) { set_err(err, errSize, "out of memory"); return nullptr; }
        for (int r = 0; r < h; r++) for (int c = 0; c < w; c++) {
            const dlib::rgb_pixel &p = img[r][c];
            uint8_t *o = out + ((size_t)r * w + c) * 3;
            o[0] = p.red; o[1] = p.green; o[2] = p.blue;
        }
        *width = w; *height = h;
        return out;
    } catch (const std::exception &e) { set_err(err, errSize, e.what()); return nullptr; }
    catch (...) { set_err(err, errSize, "unknown dlib error"); return nullptr; }
}

extern "C" void cdf_free(void *p) { std::free(p); }
