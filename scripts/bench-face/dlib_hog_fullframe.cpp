// Anchor for scripts/bench-face.sh: dlib 19.24 HOG frontal detector (0 upsampling) on every full
// 640x480 gray frame read raw from stdin; prints the median detection time in ms. Built at -O3
// like the CDlibFace shim, so the comparison is the search strategy, not the compiler flags.
#include <dlib/image_processing/frontal_face_detector.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

int main(int argc, char **argv) {
    if (argc < 3) { std::fprintf(stderr, "usage: dlib_hog_fullframe W H < frames.gray\n"); return 2; }
    const long w = std::atol(argv[1]), h = std::atol(argv[2]);
    dlib::frontal_face_detector det = dlib::get_frontal_face_detector();
    std::vector<unsigned char> buf(w * h);
    std::vector<double> ms;
    long faces = 0;
    while (std::fread(buf.data(), 1, buf.size(), stdin) == buf.size()) {
        dlib::array2d<unsigned char> img;
        img.set_size(h, w);
        for (long r = 0; r < h; r++) std::memcpy(&img[r][0], buf.data() + r * w, w);
        auto t0 = std::chrono::steady_clock::now();
        std::vector<dlib::rectangle> d = det(img);
        auto t1 = std::chrono::steady_clock::now();
        faces += (long)d.size();
        ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
    if (ms.empty()) { std::fprintf(stderr, "no frames\n"); return 1; }
    std::sort(ms.begin(), ms.end());
    std::printf("%.3f %zu %ld\n", ms[ms.size() / 2], ms.size(), faces);
    return 0;
}
