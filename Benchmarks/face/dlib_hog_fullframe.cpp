// Anchor for Benchmarks/face.sh: dlib 19.24 HOG frontal detector (0 upsampling) on every full
// 640x480 gray frame read raw from stdin; prints the median detection time in ms. Built at -O3
// like the CDlibFace shim, so the comparison is the search strategy, not the compiler flags.
#include <dlib/image_processing/frontal_face_detector.h>
#include <algorithm>
#include <ctime>
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
        timespec t0, t1;  // CPU time of this thread: other load on the machine does not count
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
        std::vector<dlib::rectangle> d = det(img);
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
        faces += (long)d.size();
        ms.push_back((t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6);
    }
    if (ms.empty()) { std::fprintf(stderr, "no frames\n"); return 1; }
    std::sort(ms.begin(), ms.end());
    std::printf("%.3f %zu %ld\n", ms[ms.size() / 2], ms.size(), faces);
    return 0;
}
