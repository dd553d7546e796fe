#include "CDlibFace.h"
// dlib's own matrix code instead of BLAS and LAPACK (issue #28): Debian's dlib/config.h turns on
// DLIB_USE_BLAS and DLIB_USE_LAPACK, which made this file call cblas_dgemm, dgesvd_ and
// dgesdd_ (for the 2×2 similarity transforms of the shape predictor), and so load libblas,
// liblapack, libgfortran and libquadmath at every start. config.h has no include guard: it is
// read here through the two guarded headers that include it, then the two switches are undone
// before any matrix header sees them.
#include <dlib/assert.h>
#include <dlib/test_for_odr_violations.h>
#undef DLIB_USE_BLAS
#undef DLIB_USE_LAPACK
#include <dlib/image_processing/frontal_face_detector.h>
#include <dlib/image_processing/shape_predictor.h>
#include <dlib/image_io.h>
#include <dlib/serialize.h>
#include <dlib/revision.h>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <sys/stat.h>
#include <unistd.h>
#include <fstream>
#include <map>
#include <sstream>
#include <cerrno>
#include <memory>
#include <string>
#include <vector>

struct cdf_detector {
    dlib::frontal_face_detector det;
    /// Copies of `det` that scan only the first N pyramid levels, made on first use.
    std::map<int, dlib::frontal_face_detector> limited;
};

/// dlib's shape predictor (Kazemi & Sullivan 2014 ERT cascade) with the trees packed: dlib keeps
/// each of the 120 000 leaves of the 68-point model in its own heap block, so evaluating a face
/// chases two pointers per tree through a 65 MB model. Here a cascade's splits and leaves are
/// contiguous arrays, and all leaf indices of a cascade are found before the leaves are summed.
/// The arithmetic is dlib's, in dlib's order (features from dlib::impl::extract_feature_pixel_
/// values, the same float sums), so the points are the same (tests compare with dlib's own
/// shape_predictor, kept as `reference`). Measured on shared/media long.avi, one core, model not
/// in cache: 3.0 ms per face with dlib's evaluation, 1.3 ms packed with prefetching.
struct cdf_shape_predictor {
    struct split { uint32_t idx1, idx2; float thresh; };
    struct cascade {
        std::vector<uint32_t> splitStart, splitCount, leafStart;   // per tree
        std::vector<split> splits;
        std::vector<float> leaves;                                 // leafCount x dims floats per tree
        std::vector<uint32_t> anchorIndex;   // per feature pixel: its anchor landmark and offset
        std::vector<float> deltaXY;          // (x, y) pairs; plain arrays, as in the cache file
        std::vector<unsigned long> anchors;  // the same two lists as dlib's feature extraction
        std::vector<dlib::vector<float, 2>> deltas;   // takes them (built by finish_packed)
    };
    dlib::matrix<float, 0, 1> initialShape;
    std::vector<cascade> cascades;
    /// dlib's own predictor (only when loaded as the reference, for tests and the bench).
    std::unique_ptr<dlib::shape_predictor> reference;
    long parts() const { return reference ? (long)reference->num_parts() : (long)initialShape.size() / 2; }
};

static void set_err(char *err, size_t n, const std::string &msg) {
    if (!err || n == 0) return;
    std::strncpy(err, msg.c_str(), n - 1);
    err[n - 1] = 0;
}


// ---- Model cache files ---------------------------------------------------------------------
// Decoding dlib's built-in detector (base64 + entropy coding) takes 350–460 ms and reading the
// 99.7 MB landmark .dat 580–815 ms on one core; from these caches both take a few tens of ms.
// A cache file: header {magic "SCMC", format 1, kind, source id a/b, payload length, payload
// hash}, then the payload. Written to a temporary name and renamed, so a reader sees a whole
// file or none; a header, length or hash mismatch means "rebuild", never an error.
namespace mcache {
static const uint32_t kFormat = 1;
enum kind : uint32_t { detector = 1, landmarks = 2 };
struct header { char magic[4]; uint32_t format, kind, pad; uint64_t sourceA, sourceB, length, hash; };

struct hasher {
    uint64_t h = 0x9E3779B97F4A7C15ULL;
    void add(const void *p, size_t n) {
        const unsigned char *b = (const unsigned char *)p;
        uint64_t part = 0x51ED2701ULL ^ n;
        size_t i = 0;
        for (; i + 8 <= n; i += 8) { uint64_t w; std::memcpy(&w, b + i, 8); part = (part ^ w) * 0x100000001B3ULL; part ^= part >> 29; }
        for (; i < n; i++) part = (part ^ b[i]) * 0x100000001B3ULL;
        h = (h ^ part) * 0x9E3779B97F4A7C15ULL; h ^= h >> 31;
    }
};

struct writer {
    FILE *f = nullptr; hasher h; uint64_t length = 0; bool ok = true;
    void raw(const void *p, size_t n) { if (n && std::fwrite(p, 1, n, f) != n) ok = false; h.add(p, n); length += n; }
    void u64(uint64_t x) { raw(&x, 8); }
    /// A length-prefixed array (std::vector of plain values, or std::string).
    template <class C> void arr(const C &v) { u64(v.size()); raw(v.data(), v.size() * sizeof(typename C::value_type)); }
};

struct reader {
    FILE *f = nullptr; hasher h; uint64_t length = 0, limit = 0; bool ok = true;
    bool raw(void *p, size_t n) {
        if (!ok || n > limit - length || (n && std::fread(p, 1, n, f) != n)) return ok = false;
        h.add(p, n); length += n; return true;
    }
    bool u64(uint64_t &x) { return raw(&x, 8); }
    template <class C> bool arr(C &v) {
        using T = typename C::value_type;
        uint64_t n = 0;
        if (!u64(n) || n > (limit - length) / sizeof(T)) return ok = false;
        v.resize(n);
        return n == 0 || raw(&v[0], n * sizeof(T));
    }
};

/// Opens `path` and checks its header against kind and source; on success the reader is
/// positioned at the payload.
static bool open_for_read(const char *path, kind k, uint64_t a, uint64_t b, reader &r, header &hd) {
    r.f = std::fopen(path, "rb");
    if (!r.f) return false;
    if (std::fread(&hd, sizeof hd, 1, r.f) != 1 || std::memcmp(hd.magic, "SCMC", 4) != 0 || hd.format != kFormat ||
        hd.kind != k || hd.sourceA != a || hd.sourceB != b) { std::fclose(r.f); r.f = nullptr; return false; }
    r.limit = hd.length;
    return true;
}
static bool finish_read(reader &r, const header &hd) {
    bool good = r.ok && r.length == hd.length && r.h.h == hd.hash && std::fgetc(r.f) == EOF;
    std::fclose(r.f); r.f = nullptr;
    return good;
}

/// Writes a cache file through `body(writer&)`; false when it could not be written (the
/// temporary file is removed then).
template <class Body> static bool write(const char *path, kind k, uint64_t a, uint64_t b, Body body) {
    std::string tmp = std::string(path) + ".tmp." + std::to_string((long)getpid());
    writer w;
    w.f = std::fopen(tmp.c_str(), "wb");
    if (!w.f) return false;
    header hd{};
    std::memcpy(hd.magic, "SCMC", 4); hd.format = kFormat; hd.kind = k; hd.sourceA = a; hd.sourceB = b;
    w.ok = std::fwrite(&hd, sizeof hd, 1, w.f) == 1;
    body(w);
    hd.length = w.length; hd.hash = w.h.h;
    w.ok = w.ok && std::fseek(w.f, 0, SEEK_SET) == 0 && std::fwrite(&hd, sizeof hd, 1, w.f) == 1;
    w.ok = (std::fclose(w.f) == 0) && w.ok;
    if (!w.ok || std::rename(tmp.c_str(), path) != 0) { std::remove(tmp.c_str()); return false; }
    return true;
}
/// The cache protocol of both models: `read()` from `cachePath` when there is one; otherwise
/// `build()` and, with a path, `write()` there. `cacheUse` (may be NULL) tells which happened.
template <class Read, class Build, class Write>
static void load_through_cache(const char *cachePath, int *cacheUse, Read read, Build build, Write write) {
    if (cacheUse) *cacheUse = CDF_CACHE_NONE;
    if (cachePath && read()) { if (cacheUse) *cacheUse = CDF_CACHE_READ; return; }
    build();
    if (!cachePath) return;
    bool written = write();
    if (cacheUse) *cacheUse = written ? CDF_CACHE_WRITTEN : CDF_CACHE_UNWRITABLE;
}
}  // namespace mcache

static const uint64_t kDlibVersion = (uint64_t)DLIB_MAJOR_VERSION * 1000000 + DLIB_MINOR_VERSION * 1000 + DLIB_PATCH_VERSION;

static void copy_gray(const uint8_t *gray, int width, int height, int stride, dlib::array2d<unsigned char> &img) {
    img.set_size(height, width);
    for (int r = 0; r < height; r++) std::memcpy(&img[r][0], gray + (size_t)r * stride, (size_t)width);
}

extern "C" cdf_detector *cdf_detector_create(const char *cachePath, int *cacheUse) {
    try {
        std::unique_ptr<cdf_detector> d(new cdf_detector());
        mcache::load_through_cache(cachePath, cacheUse,
            [&] {   // dlib's own serialisation of the detector, inside a cache file
                mcache::reader r; mcache::header hd;
                if (!mcache::open_for_read(cachePath, mcache::detector, kDlibVersion, 0, r, hd)) return false;
                std::string bytes;
                bool read = r.arr(bytes);
                if (!mcache::finish_read(r, hd) || !read) return false;
                try { std::istringstream in(bytes); dlib::deserialize(d->det, in); return true; } catch (...) { return false; }
            },
            [&] { d->det = dlib::get_frontal_face_detector(); },
            [&] {
                std::ostringstream out;
                dlib::serialize(d->det, out);
                const std::string bytes = out.str();
                return mcache::write(cachePath, mcache::detector, kDlibVersion, 0, [&](mcache::writer &w) { w.arr(bytes); });
            });
        return d.release();
    }
    catch (...) { return nullptr; }
}

extern "C" void cdf_detector_destroy(cdf_detector *d) { delete d; }

extern "C" int cdf_detect(cdf_detector *d, const uint8_t *gray, int width, int height, int stride,
                          double adjustThreshold, int maxPyramidLevels, cdf_box *boxes, int maxBoxes, char *err, size_t errSize) {
    if (!d || !gray || width <= 0 || height <= 0 || stride < width) { set_err(err, errSize, "invalid arguments"); return -1; }
    try {
        dlib::array2d<unsigned char> img;
        copy_gray(gray, width, height, stride, img);
        std::vector<dlib::rect_detection> dets;
        if (maxPyramidLevels > 0) {
            auto found = d->limited.find(maxPyramidLevels);
            if (found == d->limited.end()) {
                dlib::scan_fhog_pyramid<dlib::pyramid_down<6>> scanner;
                scanner.copy_configuration(d->det.get_scanner());
                scanner.set_max_pyramid_levels((unsigned long)maxPyramidLevels);
                std::vector<dlib::matrix<double, 0, 1>> weights;
                for (unsigned long i = 0; i < d->det.num_detectors(); i++) weights.push_back(d->det.get_w(i));
                found = d->limited.emplace(maxPyramidLevels, dlib::frontal_face_detector(scanner, d->det.get_overlap_tester(), weights)).first;
            }
            found->second(img, dets, adjustThreshold);
        } else {
            d->det(img, dets, adjustThreshold);
        }
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

/// Checks the packed arrays (from the .dat or from a cache file) so that evaluation cannot
/// index out of range, and builds the anchor and delta lists dlib's feature extraction takes.
static bool finish_packed(cdf_shape_predictor &p) {
    const long dims = p.initialShape.size();
    if (dims == 0 || dims % 2 != 0) return false;
    for (auto &c : p.cascades) {
        const size_t trees = c.splitStart.size();
        if (c.splitCount.size() != trees || c.leafStart.size() != trees || c.anchorIndex.size() * 2 != c.deltaXY.size()) return false;
        for (size_t t = 0; t < trees; t++) {
            if ((uint64_t)c.splitStart[t] + c.splitCount[t] > c.splits.size()) return false;
            if (((uint64_t)c.leafStart[t] + c.splitCount[t] + 1) * (uint64_t)dims > c.leaves.size()) return false;
        }
        for (const auto &sp : c.splits) if (sp.idx1 >= c.anchorIndex.size() || sp.idx2 >= c.anchorIndex.size()) return false;
        for (uint32_t a : c.anchorIndex) if ((long)a >= dims / 2) return false;
        c.anchors.assign(c.anchorIndex.begin(), c.anchorIndex.end());
        c.deltas.resize(c.anchorIndex.size());
        for (size_t i = 0; i < c.deltas.size(); i++) c.deltas[i] = dlib::vector<float, 2>(c.deltaXY[2 * i], c.deltaXY[2 * i + 1]);
    }
    return true;
}

/// Reads the model in the order of dlib::deserialize(shape_predictor&) (version 1: initial shape,
/// forests, anchor indices, deltas), packing one tree at a time so the unpacked trees are never
/// all in memory at once.
static void load_packed(cdf_shape_predictor &p, const char *path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw dlib::serialization_error(std::string("cannot open ") + path);
    int version = 0;
    dlib::deserialize(version, in);
    if (version != 1) throw dlib::serialization_error("unexpected shape_predictor version " + std::to_string(version));
    dlib::deserialize(p.initialShape, in);
    const long dims = p.initialShape.size();
    if (dims == 0 || dims % 2 != 0) throw dlib::serialization_error("initial shape has an odd or zero size");
    unsigned long cascadeCount = 0;
    dlib::deserialize(cascadeCount, in);
    if (cascadeCount > 1000) throw dlib::serialization_error("implausible cascade count");
    p.cascades.resize(cascadeCount);
    for (auto &c : p.cascades) {
        unsigned long trees = 0;
        dlib::deserialize(trees, in);
        if (trees > 100000) throw dlib::serialization_error("implausible tree count");
        for (unsigned long t = 0; t < trees; t++) {
            dlib::impl::regression_tree tree;
            deserialize(tree, in);   // hidden friend, found by ADL
            if (tree.leaf_values.size() != tree.splits.size() + 1)
                throw dlib::serialization_error("a tree's leaves are not its splits + 1");
            c.splitStart.push_back((uint32_t)c.splits.size());
            c.splitCount.push_back((uint32_t)tree.splits.size());
            c.leafStart.push_back((uint32_t)(c.leaves.size() / dims));
            for (const auto &sp : tree.splits) c.splits.push_back({(uint32_t)sp.idx1, (uint32_t)sp.idx2, sp.thresh});
            for (const auto &leaf : tree.leaf_values) {
                if (leaf.size() != dims) throw dlib::serialization_error("a leaf's size differs from the shape's");
                c.leaves.insert(c.leaves.end(), &leaf(0), &leaf(0) + dims);
            }
        }
    }
    std::vector<std::vector<unsigned long>> anchors;
    std::vector<std::vector<dlib::vector<float, 2>>> deltas;
    dlib::deserialize(anchors, in);
    dlib::deserialize(deltas, in);
    if (anchors.size() != cascadeCount || deltas.size() != cascadeCount)
        throw dlib::serialization_error("anchor or delta lists do not match the cascades");
    for (unsigned long k = 0; k < cascadeCount; k++) {
        auto &c = p.cascades[k];
        for (unsigned long a : anchors[k]) c.anchorIndex.push_back(a > UINT32_MAX ? UINT32_MAX : (uint32_t)a);
        for (const auto &d : deltas[k]) { c.deltaXY.push_back(d.x()); c.deltaXY.push_back(d.y()); }
    }
    if (!finish_packed(p)) throw dlib::serialization_error("a tree, split or anchor index is out of range");
}

/// The packed model's arrays, in a fixed order, for the cache file.
template <class Visit> static void visit_packed(cdf_shape_predictor &p, Visit &&v) {
    for (auto &c : p.cascades) {
        v(c.splitStart); v(c.splitCount); v(c.leafStart); v(c.splits); v(c.leaves); v(c.anchorIndex); v(c.deltaXY);
    }
}

static bool read_packed_cache(cdf_shape_predictor &p, const char *cachePath, uint64_t a, uint64_t b) {
    mcache::reader r; mcache::header hd;
    if (!mcache::open_for_read(cachePath, mcache::landmarks, a, b, r, hd)) return false;
    std::vector<float> initial;
    uint64_t cascades = 0;
    bool ok = r.arr(initial) && r.u64(cascades) && cascades <= 1000;
    if (ok) {
        p.cascades.resize(cascades);
        visit_packed(p, [&](auto &v) { ok = ok && r.arr(v); });
    }
    if (!mcache::finish_read(r, hd) || !ok) return false;
    p.initialShape.set_size((long)initial.size());
    for (size_t i = 0; i < initial.size(); i++) p.initialShape((long)i) = initial[i];
    return finish_packed(p);
}

static bool write_packed_cache(cdf_shape_predictor &p, const char *cachePath, uint64_t a, uint64_t b) {
    std::vector<float> initial(&p.initialShape(0), &p.initialShape(0) + p.initialShape.size());
    return mcache::write(cachePath, mcache::landmarks, a, b, [&](mcache::writer &w) {
        w.arr(initial);
        w.u64(p.cascades.size());
        visit_packed(p, [&](auto &v) { w.arr(v); });
    });
}

extern "C" cdf_shape_predictor *cdf_shape_predictor_load(const char *path, int reference, const char *cachePath, int *cacheUse,
                                                         char *err, size_t errSize) {
    return cdf_shape_predictor_load_deferring(path, reference, cachePath, 0, cacheUse, err, errSize);
}

extern "C" int cdf_shape_predictor_write_cache(const cdf_shape_predictor *p, const char *path, const char *cachePath) {
    if (!p || p->reference || !path || !cachePath) return CDF_CACHE_NONE;
    try {
        struct stat st;
        if (::stat(path, &st) != 0) return CDF_CACHE_UNWRITABLE;
        uint64_t a = (uint64_t)st.st_size, b = (uint64_t)st.st_mtim.tv_sec * 1000000000ULL + (uint64_t)st.st_mtim.tv_nsec;
        // Only reads the packed arrays, so it may run while another thread predicts with `p`.
        return write_packed_cache(const_cast<cdf_shape_predictor &>(*p), cachePath, a, b) ? CDF_CACHE_WRITTEN : CDF_CACHE_UNWRITABLE;
    } catch (...) { return CDF_CACHE_UNWRITABLE; }
}

extern "C" cdf_shape_predictor *cdf_shape_predictor_load_deferring(const char *path, int reference, const char *cachePath,
                                                                   int deferWrite, int *cacheUse, char *err, size_t errSize) {
    if (cacheUse) *cacheUse = CDF_CACHE_NONE;   // also when the reference or an error returns early
    try {
        std::unique_ptr<cdf_shape_predictor> p(new cdf_shape_predictor());
        if (reference) {
            p->reference.reset(new dlib::shape_predictor());
            dlib::deserialize(path) >> *p->reference;
            // dlib keeps the initial shape private; it is the file's second field.
            std::ifstream in(path, std::ios::binary);
            int version = 0;
            dlib::deserialize(version, in);
            dlib::deserialize(p->initialShape, in);
            return p.release();
        }
        // The cache is tied to the model file's size and modification time.
        struct stat st;
        if (::stat(path, &st) != 0) throw dlib::serialization_error(std::string("cannot open ") + path + ": " + std::strerror(errno));
        uint64_t a = (uint64_t)st.st_size, b = (uint64_t)st.st_mtim.tv_sec * 1000000000ULL + (uint64_t)st.st_mtim.tv_nsec;
        mcache::load_through_cache(cachePath, cacheUse,
            [&] {
                if (read_packed_cache(*p, cachePath, a, b)) return true;
                p.reset(new cdf_shape_predictor());   // drop what a damaged file left
                return false;
            },
            [&] { load_packed(*p, path); },
            [&] { return deferWrite ? false : write_packed_cache(*p, cachePath, a, b); });
        if (deferWrite && cacheUse && *cacheUse == CDF_CACHE_UNWRITABLE) *cacheUse = CDF_CACHE_DEFERRED;
        return p.release();
    } catch (const std::exception &e) { set_err(err, errSize, e.what()); return nullptr; }
    catch (...) { set_err(err, errSize, "unknown dlib error"); return nullptr; }
}

/// The packed evaluation of `p` on `img` for `rect` (see cdf_shape_predictor).
static dlib::full_object_detection predict_packed(const cdf_shape_predictor &p, const dlib::array2d<unsigned char> &img,
                                                  const dlib::rectangle &rect) {
    dlib::matrix<float, 0, 1> current = p.initialShape;
    const long dims = current.size();
    std::vector<float> features;
    std::vector<uint32_t> leafOf;
    for (const auto &c : p.cascades) {
        dlib::impl::extract_feature_pixel_values(img, rect, current, p.initialShape, c.anchors, c.deltas, features);
        const size_t trees = c.splitStart.size();
        leafOf.resize(trees);
        for (size_t t = 0; t < trees; t++) {
            const cdf_shape_predictor::split *sp = c.splits.data() + c.splitStart[t];
            const uint32_t n = c.splitCount[t];
            uint32_t i = 0;
            while (i < n) i = (features[sp[i].idx1] - features[sp[i].idx2] > sp[i].thresh) ? 2 * i + 1 : 2 * i + 2;
            leafOf[t] = c.leafStart[t] + (i - n);
        }
        // Leaves are 544-byte blocks at random places in 65 MB: ask for the one 8 trees ahead
        // while summing this one (1.8 → 1.3 ms per face on shared/media long.avi, cold cache).
        float *out = &current(0);
        const size_t ahead = 8, leafBytes = (size_t)dims * sizeof(float);
        for (size_t t = 0; t < trees; t++) {
            if (t + ahead < trees) {
                const char *next = (const char *)(c.leaves.data() + (size_t)leafOf[t + ahead] * dims);
                for (size_t b = 0; b < leafBytes; b += 64) __builtin_prefetch(next + b);
            }
            const float *leaf = c.leaves.data() + (size_t)leafOf[t] * dims;
            for (long k = 0; k < dims; k++) out[k] += leaf[k];
        }
    }
    const dlib::point_transform_affine toImage = dlib::impl::unnormalizing_tform(rect);
    std::vector<dlib::point> parts(dims / 2);
    for (size_t i = 0; i < parts.size(); i++) parts[i] = toImage(dlib::impl::location(current, i));
    return dlib::full_object_detection(rect, parts);
}
extern "C" void cdf_shape_predictor_destroy(cdf_shape_predictor *p) { delete p; }

extern "C" int cdf_shape_predictor_parts(const cdf_shape_predictor *p) { return p ? (int)p->parts() : 0; }

extern "C" int cdf_shape_predictor_mean_shape(const cdf_shape_predictor *p, double *xy, int xyCount) {
    if (!p || !xy) return -1;
    const long dims = p->initialShape.size();
    if (xyCount < dims) return -1;
    for (long k = 0; k < dims; k++) xy[k] = p->initialShape(k);
    return (int)(dims / 2);
}

extern "C" int cdf_landmarks(const cdf_shape_predictor *p, const uint8_t *gray, int width, int height, int stride,
                             double x, double y, double w, double h, double *xy, int xyCount, char *err, size_t errSize) {
    if (!p || !gray || width <= 0 || height <= 0 || stride < width) { set_err(err, errSize, "invalid arguments"); return -1; }
    try {
        int parts = (int)p->parts();
        if (xyCount < 2 * parts) { set_err(err, errSize, "output buffer too small"); return -1; }
        dlib::array2d<unsigned char> img;
        copy_gray(gray, width, height, stride, img);
        dlib::rectangle r((long)std::lround(x), (long)std::lround(y),
                          (long)std::lround(x + w) - 1, (long)std::lround(y + h) - 1);
        dlib::full_object_detection s = p->reference ? (*p->reference)(img, r) : predict_packed(*p, img, r);
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
