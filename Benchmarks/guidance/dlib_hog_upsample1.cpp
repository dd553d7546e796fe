// Reference for Benchmarks/guidance.sh on the real footage: plain full-frame dlib HOG
// (`dlib::get_frontal_face_detector()`), the image upsampled once with `pyramid_up` as dlib's
// examples do (the same as Python's `detector(img, 1)`), on every frame. Boxes are mapped back to
// the original pixels with the pyramid's `rect_down`, as dlib's own Python binding does.
//
// usage: dlib_hog_upsample1 W H FRAMES.gray [THREADS]
//   FRAMES.gray: raw 8-bit gray frames of W x H (ffmpeg -f rawvideo -pix_fmt gray).
// Prints one line per frame, in frame order:
//   INDEX N  x y w h score  x y w h score ...
// (x, y the top-left corner, w, h dlib's rectangle width()/height(), in original pixels).
// THREADS (default 1) splits the frames between threads, each with its own detector copy; the
// output does not depend on it.
#include <dlib/image_processing/frontal_face_detector.h>
#include <dlib/image_transforms.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

int main(int argc, char **argv) {
    if (argc < 4) { std::fprintf(stderr, "usage: dlib_hog_upsample1 W H FRAMES.gray [THREADS]\n"); return 2; }
    const long w = std::atol(argv[1]), h = std::atol(argv[2]);
    const int threads = argc > 4 ? std::max(1, std::atoi(argv[4])) : 1;
    if (w <= 0 || h <= 0) { std::fprintf(stderr, "bad size\n"); return 2; }
    std::FILE *f = std::fopen(argv[3], "rb");
    if (!f) { std::perror(argv[3]); return 1; }
    std::fseek(f, 0, SEEK_END);
    const long bytes = std::ftell(f);
    std::fclose(f);
    const long frameBytes = w * h, n = bytes / frameBytes;
    if (n <= 0 || bytes % frameBytes != 0) { std::fprintf(stderr, "%s: not a whole number of %ldx%ld frames\n", argv[3], w, h); return 1; }

    std::vector<std::string> lines(n);
    const dlib::frontal_face_detector proto = dlib::get_frontal_face_detector();
    bool failed = false;
    auto work = [&](int t) {
        dlib::frontal_face_detector det = proto;
        dlib::pyramid_down<2> pyr;
        std::FILE *in = std::fopen(argv[3], "rb");
        if (!in) { failed = true; return; }
        std::vector<unsigned char> buf(frameBytes);
        for (long i = t; i < n; i += threads) {
            if (std::fseek(in, i * frameBytes, SEEK_SET) != 0 || std::fread(buf.data(), 1, frameBytes, in) != (size_t)frameBytes) { failed = true; break; }
            dlib::array2d<unsigned char> img;
            img.set_size(h, w);
            for (long r = 0; r < h; r++) std::memcpy(&img[r][0], buf.data() + r * w, w);
            dlib::pyramid_up(img, pyr);
            std::vector<dlib::rect_detection> dets;
            det(img, dets);
            std::string s = std::to_string(i) + " " + std::to_string(dets.size());
            char tmp[128];
            for (const auto &d : dets) {
                const dlib::rectangle r = pyr.rect_down(d.rect);
                std::snprintf(tmp, sizeof tmp, "  %ld %ld %lu %lu %.3f", r.left(), r.top(), r.width(), r.height(), d.detection_confidence);
                s += tmp;
            }
            lines[i] = s;
        }
        std::fclose(in);
    };
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; t++) pool.emplace_back(work, t);
    for (auto &th : pool) th.join();
    if (failed) { std::fprintf(stderr, "dlib_hog_upsample1: read error\n"); return 1; }
    for (const auto &l : lines) std::printf("%s\n", l.c_str());
    return 0;
}
