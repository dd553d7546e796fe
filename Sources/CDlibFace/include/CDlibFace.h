// extern "C" shim over dlib 19.24 (Debian libdlib-dev, libdlib-data). Opaque handles, no logic;
// C++ exceptions never cross this boundary (each call catches and reports an error string).
#ifndef CDLIBFACE_H
#define CDLIBFACE_H
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

typedef struct cdf_detector cdf_detector;
typedef struct cdf_shape_predictor cdf_shape_predictor;

/// One detection: bounding box in pixels of the buffer given, and dlib's detection confidence.
typedef struct { double x, y, w, h, score; } cdf_box;

/// How a model cache file was used (`cacheUse` out-parameters).
/// CDF_CACHE_DEFERRED: built from the source, the cache left for `cdf_shape_predictor_write_cache`.
enum { CDF_CACHE_NONE = 0, CDF_CACHE_READ = 1, CDF_CACHE_WRITTEN = 2, CDF_CACHE_UNWRITABLE = 3, CDF_CACHE_DEFERRED = 4 };

/// dlib::get_frontal_face_detector() (HOG + linear SVM, 5 rotated/frontal filters). With a
/// `cachePath`, the detector is read from that file when it holds this dlib version's detector,
/// else built and written there (temporary name, then rename). `cacheUse` (may be NULL) tells
/// which. Returns NULL when dlib fails.
cdf_detector *cdf_detector_create(const char *cachePath, int *cacheUse);
void cdf_detector_destroy(cdf_detector *d);
/// Detects faces on an 8-bit gray buffer (`stride` bytes per row). `adjustThreshold` is dlib's
/// adjust_threshold (0 = default). `maxPyramidLevels` > 0 scans only that many levels of the
/// 5/6 image pyramid (level k finds faces of about 80·1.2^k px); 0 scans them all. Writes at
/// most `maxBoxes` boxes; returns the number of faces found (may exceed maxBoxes), or -1 on
/// error with a message in `err`.
int cdf_detect(cdf_detector *d, const uint8_t *gray, int width, int height, int stride,
               double adjustThreshold, int maxPyramidLevels, cdf_box *boxes, int maxBoxes, char *err, size_t errSize);

/// Loads a shape predictor (.dat, dlib serialization version 1). With `reference` = 0 the trees
/// are packed for speed (same points as dlib); with 1 dlib's own shape_predictor evaluates them
/// (the oracle for tests). With a `cachePath` (packed only), the packed trees are read from that
/// file when it was made from this model file (same size and modification time; checked by a
/// hash), else packed from `path` and written there. `cacheUse` (may be NULL) tells which.
/// Returns NULL with a message in `err` on failure.
cdf_shape_predictor *cdf_shape_predictor_load(const char *path, int reference, const char *cachePath, int *cacheUse,
                                              char *err, size_t errSize);
/// As cdf_shape_predictor_load; with `deferWrite` a cache that has to be made is not written
/// (`cacheUse` CDF_CACHE_DEFERRED), so the caller can use the model first and write it later.
cdf_shape_predictor *cdf_shape_predictor_load_deferring(const char *path, int reference, const char *cachePath,
                                                        int deferWrite, int *cacheUse, char *err, size_t errSize);
/// Writes the packed model's cache for model file `path` to `cachePath` (temporary name, then
/// rename). Only reads `p`: safe while another thread predicts with it. Returns
/// CDF_CACHE_WRITTEN or CDF_CACHE_UNWRITABLE (CDF_CACHE_NONE for a reference model).
int cdf_shape_predictor_write_cache(const cdf_shape_predictor *p, const char *path, const char *cachePath);
void cdf_shape_predictor_destroy(cdf_shape_predictor *p);
/// Number of parts (68 for the iBUG 300-W model).
int cdf_shape_predictor_parts(const cdf_shape_predictor *p);
/// The model's initial (mean) shape: where each landmark starts, in coordinates normalised to the
/// face box given to cdf_landmarks ((0,0) its top-left, (1,1) its bottom-right). Writes 2*parts
/// doubles into `xy` (capacity `xyCount`); returns parts, or -1 when the buffer is too small.
int cdf_shape_predictor_mean_shape(const cdf_shape_predictor *p, double *xy, int xyCount);
/// Landmarks for the face in box (x, y, w, h) on a gray buffer. Writes 2*parts doubles
/// (x0, y0, x1, y1, ...) into `xy` (capacity `xyCount` doubles). Returns parts, or -1 on error.
int cdf_landmarks(const cdf_shape_predictor *p, const uint8_t *gray, int width, int height, int stride,
                  double x, double y, double w, double h, double *xy, int xyCount, char *err, size_t errSize);

/// Loads an image file (PNG, JPEG, BMP via dlib::load_image) as packed RGB8. Returns a malloc'd
/// buffer of width*height*3 bytes (free with cdf_free), or NULL with a message in `err`.
uint8_t *cdf_load_image_rgb(const char *path, int *width, int *height, char *err, size_t errSize);
void cdf_free(void *p);

#ifdef __cplusplus
}
#endif
#endif
