// swift-tools-version:6.0
// selfie-capture: guided liveness selfie capture in the terminal.
// Module layout: see DESIGN.md ("Package layout"). C libraries come from Debian -dev packages
// through the thin shim targets C*; only those targets include C headers.
import PackageDescription

/// Swift settings of the modules that touch every pixel of every frame (see the note at the
/// Swift modules).
let hotPath: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

/// Swift settings of the modules on the way to the first screen (issue #28): concrete generic
/// types (`[Key: Value]` of our own key types, arrays of our own types…) are reached through
/// metadata accessor functions that pass their conformances directly, not by mangled name, which
/// the runtime demangles and whose conformances it looks up by scanning every conformance record
/// of the static binary (5,700 records: ~0.05 ms each the first time; a fifth of the first
/// screen's time after `main`, perf). DECISIONS 2026-12-02.
let startupPath: [SwiftSetting] = [.unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"])]

/// `pkg-config --cflags chafa` on Debian 12 (libchafa-dev 1.12, libglib2.0-dev 2.74): the
/// headers, and the two configuration headers under the multiarch library folder.
#if arch(arm64)
let multiarch = "aarch64-linux-gnu"
#else
let multiarch = "x86_64-linux-gnu"
#endif
let chafaIncludes = ["-I/usr/include/chafa", "-I/usr/lib/\(multiarch)/chafa/include",
                     "-I/usr/include/glib-2.0", "-I/usr/lib/\(multiarch)/glib-2.0/include"]

let package = Package(
    name: "selfie-capture",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "selfie-capture", targets: ["selfie-capture"]),
    ],
    targets: [
        // MARK: C shims (no logic)
        .target(name: "CNcursesw", linkerSettings: [.linkedLibrary("ncursesw")]),
        .target(name: "CV4L2", linkerSettings: [.linkedLibrary("v4l2")]),
        .target(name: "CTurboJPEG", linkerSettings: [.linkedLibrary("turbojpeg")]),
        .target(
            name: "CDlibFace",
            cxxSettings: [.unsafeFlags(["-O3", "-std=c++14"])],
            // dlib's static archive (Debian libdlib-dev; its objects are PIE): only the members the
            // shim uses are linked (base64 and the entropy decoder for the built-in detector, the
            // PNG and JPEG loaders), and the shim does its matrix work without BLAS and LAPACK
            // (shim.cpp). libdlib.so pulled in libblas, liblapack, libgfortran and libquadmath:
            // 5 of the libraries loaded at every start (issue #28), which the loading and
            // instructions screens do not need. libpng and libjpeg stay (dlib's image loaders).
            linkerSettings: [.unsafeFlags(["-Xlinker", "-l:libdlib.a"]), .linkedLibrary("stdc++"),
                             .linkedLibrary("png"), .linkedLibrary("jpeg"), .linkedLibrary("pthread")]),
        // FFmpeg is dlopened on first use (issue #28: libavformat pulled in 134 of the ~160 shared
        // libraries at start); only its headers are used at build time (libav*-dev).
        .target(name: "CFFmpeg", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "CICUPlural", linkerSettings: [.linkedLibrary("icui18n"), .linkedLibrary("icuuc"),
                                                     .linkedLibrary("icudata")]),
        // OpenSSL libcrypto (SHA-256), dlopened on first use (issue #28: only a run's end and
        // `verify` hash); only its headers are used at build time (libssl-dev).
        .target(name: "CCrypto", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "CZlib", linkerSettings: [.linkedLibrary("z")]),   // zlib: kitty pictures sent with o=z
        // libchafa 1.12 (terminal pictures), dlopened with glib on first use (issue #28: the first
        // screens draw no picture); only its headers are used at build time (libchafa-dev). The
        // include dirs are `pkg-config --cflags chafa`'s, written out: a pkg-config system library
        // would also link -lchafa -lglib-2.0. Swift sees CChafa's glib-free header.
        .target(name: "CChafa",
                cSettings: [.unsafeFlags(chafaIncludes)],
                linkerSettings: [.linkedLibrary("dl")]),

        // MARK: Swift modules
        // The per-pixel and per-frame modules are optimised in debug builds too: the tests run the
        // debug binary on every clip, and unoptimised Swift there spent over half of a run's CPU
        // in generic-metadata lookups and bounds-checked loops (perf on `analyze approach.avi`,
        // DECISIONS 2026-12-02). `-enable-testing` still applies, so `@testable import` works.
        .target(name: "JSON", swiftSettings: startupPath),   // the one JSON value type and writer (imports nothing; DESIGN.md "Package layout")
        .target(name: "Localization", dependencies: ["CICUPlural", "JSON"], swiftSettings: startupPath),
        .target(name: "CaptureModel", swiftSettings: startupPath),   // value types the modules exchange (DESIGN.md "Package layout")
        .target(name: "CaptureFlow", dependencies: ["CaptureModel", "JSON"], swiftSettings: startupPath),
        .target(name: "SharedLibraries"),   // a C shim's lazy loader, from Swift (libchafa, FFmpeg)
        .target(name: "Media", dependencies: ["CTurboJPEG", "CFFmpeg", "SharedLibraries"], swiftSettings: hotPath),
        .target(name: "Digest", dependencies: ["CCrypto"]),
        .target(name: "Spawn"),
        .target(name: "Worker"),   // the one worker-thread primitive (WorkerThread), for FaceAnalysis and the app   // the one spawn primitive (ChildProcess), for the app and the tests
        .target(name: "Evidence", dependencies: ["JSON"]),
        .target(name: "Camera", dependencies: ["CV4L2", "Media", "CaptureModel"]),
        .target(name: "FaceAnalysis", dependencies: ["CDlibFace", "Media", "CaptureModel", "Worker"], swiftSettings: hotPath),
        .target(name: "TerminalUI", dependencies: ["CNcursesw", "CChafa", "CZlib", "CaptureModel", "Localization", "SharedLibraries"],
                swiftSettings: hotPath + startupPath),
        .target(name: "SelfieCaptureApp",
                dependencies: ["Localization", "CaptureModel", "CaptureFlow", "FaceAnalysis", "Media", "Camera", "TerminalUI",
                               "Digest", "Evidence", "Spawn", "JSON", "Worker"],
                swiftSettings: startupPath),
        .executableTarget(name: "selfie-capture", dependencies: ["SelfieCaptureApp"]),
        // MARK: Benchmark drivers (Benchmarks/: the one home of the benchmarks, run by `make bench`)
        // bench-ui: render + send capture frames on a pty (Benchmarks/ui.sh); also the
        // signal-restore helper of TerminalUITests.
        .executableTarget(name: "bench-ui", dependencies: ["TerminalUI", "CaptureFlow", "Localization"], path: "Benchmarks/bench-ui"),
        .executableTarget(name: "MediaBench", dependencies: ["Media"], path: "Benchmarks/MediaBench"),   // Benchmarks/media.sh, mp4.sh

        // MARK: Tests
        .target(name: "TestSupport", dependencies: ["Spawn"], path: "Sources/TestSupport", swiftSettings: hotPath),
        // A scripted V4L2 device behind Camera's syscall seam, for CameraTests and SelfieCaptureAppTests.
        .target(name: "FakeV4L2", dependencies: ["Camera", "CV4L2", "Media", "CaptureModel"], path: "Sources/FakeV4L2"),
        .testTarget(name: "JSONTests", dependencies: ["JSON", "TestSupport"]),
        .testTarget(name: "WorkerTests", dependencies: ["Worker"]),
        // The media tests' fixtures (shared clips' ground truth, ffmpeg-decoded frames, the dlib models, a synthetic
        // face), for FaceAnalysisTests and the analysis-with-guidance tests of SelfieCaptureAppTests.
        .target(name: "FaceFixtures", dependencies: ["FaceAnalysis", "Media", "CaptureModel", "TestSupport"], path: "Sources/FaceFixtures",
                swiftSettings: hotPath),
        .testTarget(name: "LocalizationTests", dependencies: ["Localization", "TestSupport"]),
        .testTarget(name: "CaptureFlowTests", dependencies: ["CaptureFlow", "TestSupport"]),
        .testTarget(name: "MediaTests", dependencies: ["Media", "TestSupport"]),
        .testTarget(name: "CameraTests", dependencies: ["Camera", "FakeV4L2", "TestSupport"]),
        .testTarget(name: "DigestTests", dependencies: ["Digest", "TestSupport"]),
        .testTarget(name: "EvidenceTests", dependencies: ["Evidence", "TestSupport"]),
        // Optimised like its module (hotPath): its tests analyse and synthesise whole clips.
        .testTarget(name: "FaceAnalysisTests", dependencies: ["FaceAnalysis", "FaceFixtures", "TestSupport"],
                    swiftSettings: hotPath),
        .testTarget(name: "TerminalUITests", dependencies: ["TerminalUI", "TestSupport"],
                    exclude: ["Snapshots"]),   // read by path (#filePath), not bundled
        .testTarget(name: "SelfieCaptureAppTests", dependencies: ["SelfieCaptureApp", "FakeV4L2", "FaceFixtures", "TestSupport"],
                    exclude: ["Snapshots"]),   // read by path (#filePath), not bundled
        .testTarget(name: "EndToEndTests", dependencies: ["TestSupport", "Media", "TerminalUI", "CaptureFlow"]),
    ]
)
