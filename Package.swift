// swift-tools-version:6.0
// selfie-capture: guided liveness selfie capture in the terminal.
// Module layout: see DESIGN.md ("Package layout"). C libraries come from Debian -dev packages
// through the thin shim targets C*; only those targets include C headers.
import PackageDescription

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
            linkerSettings: [.linkedLibrary("dlib"), .linkedLibrary("blas"), .linkedLibrary("lapack"),
                             .linkedLibrary("png"), .linkedLibrary("jpeg"), .linkedLibrary("pthread")]),
        // FFmpeg is dlopened on first use (issue #28: libavformat pulled in 134 of the ~160 shared
        // libraries at start); only its headers are used at build time (libav*-dev).
        .target(name: "CFFmpeg", linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "CICUPlural", linkerSettings: [.linkedLibrary("icui18n"), .linkedLibrary("icuuc"),
                                                     .linkedLibrary("icudata")]),
        .target(name: "CCrypto", linkerSettings: [.linkedLibrary("crypto")]),   // OpenSSL libcrypto (SHA-256)
        .target(name: "CZlib", linkerSettings: [.linkedLibrary("z")]),   // zlib: kitty pictures sent with o=z
        // libchafa 1.12 (terminal pictures): include dirs (chafa, glib) from pkg-config, used only by
        // CChafa's C file; Swift sees CChafa's glib-free header.
        .systemLibrary(name: "CChafaSys", pkgConfig: "chafa", providers: [.apt(["libchafa-dev"])]),
        .target(name: "CChafa", dependencies: ["CChafaSys"],
                linkerSettings: [.linkedLibrary("chafa"), .linkedLibrary("glib-2.0")]),

        // MARK: Swift modules
        .target(name: "Localization", dependencies: ["CICUPlural"]),
        .target(name: "CaptureFlow"),
        .target(name: "Media", dependencies: ["CTurboJPEG", "CFFmpeg"]),
        .target(name: "Digest", dependencies: ["CCrypto"]),
        .target(name: "Evidence"),
        .target(name: "Camera", dependencies: ["CV4L2", "Media", "CaptureFlow", "Evidence"]),
        .target(name: "FaceAnalysis", dependencies: ["CDlibFace", "Media", "CaptureFlow"]),
        .target(name: "TerminalUI", dependencies: ["CNcursesw", "CChafa", "CZlib", "CaptureFlow", "Localization"]),
        .target(name: "SelfieCaptureApp",
                dependencies: ["Localization", "CaptureFlow", "FaceAnalysis", "Media", "Camera", "TerminalUI",
                               "Digest", "Evidence"]),
        .executableTarget(name: "selfie-capture", dependencies: ["SelfieCaptureApp"]),
        // MARK: Benchmark drivers (Benchmarks/: the one home of the benchmarks, run by `make bench`)
        // bench-ui: render + send capture frames on a pty (Benchmarks/ui.sh); also the
        // signal-restore helper of TerminalUITests.
        .executableTarget(name: "bench-ui", dependencies: ["TerminalUI", "CaptureFlow", "Localization"], path: "Benchmarks/bench-ui"),
        .executableTarget(name: "MediaBench", dependencies: ["Media"], path: "Benchmarks/MediaBench"),   // Benchmarks/media.sh, mp4.sh

        // MARK: Tests
        .target(name: "TestSupport", path: "Sources/TestSupport"),
        .testTarget(name: "LocalizationTests", dependencies: ["Localization", "TestSupport"]),
        .testTarget(name: "CaptureFlowTests", dependencies: ["CaptureFlow", "TestSupport"]),
        .testTarget(name: "MediaTests", dependencies: ["Media", "TestSupport"]),
        .testTarget(name: "CameraTests", dependencies: ["Camera", "CaptureFlow", "Evidence", "SelfieCaptureApp", "TestSupport"]),
        .testTarget(name: "EvidenceTests", dependencies: ["Digest", "Evidence", "TestSupport"]),
        .testTarget(name: "FaceAnalysisTests", dependencies: ["FaceAnalysis", "TestSupport"]),
        .testTarget(name: "TerminalUITests", dependencies: ["TerminalUI", "TestSupport"],
                    exclude: ["Snapshots"]),   // read by path (#filePath), not bundled
        .testTarget(name: "SelfieCaptureAppTests", dependencies: ["SelfieCaptureApp", "Digest", "Evidence", "TestSupport"],
                    exclude: ["Snapshots"]),   // read by path (#filePath), not bundled
        .testTarget(name: "EndToEndTests", dependencies: ["TestSupport", "Media", "TerminalUI", "CaptureFlow"]),
    ]
)
