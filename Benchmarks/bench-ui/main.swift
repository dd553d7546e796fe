// bench-ui: renders and sends capture frames through the curses backend on a pseudo-terminal
// and reports ms per frame and bytes written per frame (Benchmarks/ui.sh).
// Usage: bench-ui TERM COLS ROWS FRAMES camera|worst
//   camera: a still scene with sensor noise (±3 levels) and a face-sized blob drifting slowly;
//   worst:  the gradients jump 40 levels and carry 4-bit noise every frame, so every cell changes.
import Foundation
import Glibc
import CaptureFlow
import Localization
import TerminalUI

struct KeyStrings: Localizing {
    var locale: String { "en" }
    func text(_ key: String, _ args: [FormatArgument]) -> String { key }
}

let args = CommandLine.arguments
if args.count >= 2, args[1] == "--preview" { PreviewBench.run(Array(args.dropFirst(2))); exit(0) }   // PreviewBench.swift

// `bench-ui --show`: draw a capture screen with a synthetic frame on this terminal until a key
// (q/Esc) is pressed; for eyeballing the real terminal output (e.g. in tmux).
if args.count == 2, args[1] == "--show" {
    let backend = try CursesBackend(environment: ProcessInfo.processInfo.environment)
    var k = 0
    loop: while true {
        let ctx = RenderContext(backend: backend, strings: KeyStrings(), theme: .dark)
        backend.draw(Screens.render(.capture(CaptureViewState(image: cameraFrame(k), phase: .countdown, hint: .holdStill,
                                                              isValid: true, countdownRemaining: 3)), context: ctx))
        switch backend.readInput(timeoutMs: 100) {
        case .key(.character("q"))?, .key(.escape)?, .key(.interrupt)?: break loop
        default: k += 1
        }
    }
    backend.end()
    exit(0)
}

// `bench-ui --signal-check SIGNAL`: draw once with curses on stdout, then raise SIGNAL; the
// terminal must come back restored (Tests/TerminalUITests: signal restore test).
if args.count == 3, args[1] == "--signal-check", let sig = Int32(args[2]) {
    let backend = try CursesBackend(outputFD: 1, inputFD: 0, environment: ProcessInfo.processInfo.environment, quietStderr: false)
    var canvas = Canvas(width: backend.size.cols, height: backend.size.rows)
    canvas.put("SIGNAL-CHECK", x: 0, y: 0, style: .plain)
    backend.draw(RenderedScreen(canvas: canvas, lines: [], status: nil))
    var noCore = rlimit(rlim_cur: 0, rlim_max: 0)   // no core file from the SIGSEGV case
    setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &noCore)
    raise(sig)
    exit(99)
}
guard args.count == 6, let cols = UInt16(args[2]), let rows = UInt16(args[3]), let frames = Int(args[4]),
      args[5] == "camera" || args[5] == "worst" else {
    print("usage: bench-ui TERM COLS ROWS FRAMES camera|worst"); exit(64)
}
let worst = args[5] == "worst"
let term = args[1]

var master: Int32 = -1, slave: Int32 = -1
guard openpty(&master, &slave, nil, nil, nil) == 0 else { print("openpty failed"); exit(71) }
var ws = winsize(ws_row: rows, ws_col: cols, ws_xpixel: 0, ws_ypixel: 0)
_ = ioctl(slave, UInt(TIOCSWINSZ), &ws)

final class Counter: @unchecked Sendable {
    let lock = NSLock()
    var bytes = 0
    func add(_ n: Int) { lock.lock(); bytes += n; lock.unlock() }
    func value() -> Int { lock.lock(); defer { lock.unlock() }; return bytes }
}
let counter = Counter()
let masterFD = master
let reader = Thread {
    var buf = [UInt8](repeating: 0, count: 1 << 16)
    while true { let n = read(masterFD, &buf, buf.count); if n <= 0 { break }; counter.add(n) }
}
reader.start()

func settle() { var last = -1; while counter.value() != last { last = counter.value(); usleep(2000) } }

/// A 640×480 frame like a webcam's: a fixed background, a blob that drifts 2 px per frame, noise.
func cameraFrame(_ k: Int) -> PreviewImage {
    let w = 640, h = 480
    var px = [UInt8](repeating: 0, count: w * h * 3)
    var seed = UInt32(truncatingIfNeeded: k &* 2654435761 &+ 1)
    let bx = 320 + 2 * k, by = 240
    for y in 0..<h {
        for x in 0..<w {
            seed = seed &* 1664525 &+ 1013904223
            let n = Int(seed >> 29) - 3
            let dx = x - bx, dy = y - by
            let inBlob = dx * dx * 16 + dy * dy * 9 < 120 * 120 * 16
            let base: (Int, Int, Int) = inBlob ? (205, 160, 130) : (60 + x / 8, 70 + y / 8, 90)
            let p = (y * w + x) * 3
            px[p] = UInt8(clamping: base.0 + n); px[p + 1] = UInt8(clamping: base.1 + n); px[p + 2] = UInt8(clamping: base.2 + n)
        }
    }
    return PreviewImage(width: w, height: h, rgb: px)
}

/// Worst case: gradients that move each frame plus 4-bit noise, so every cell changes.
func worstFrame(_ k: Int) -> PreviewImage {
    let w = 640, h = 480
    var px = [UInt8](repeating: 0, count: w * h * 3)
    var seed = UInt32(truncatingIfNeeded: k &* 2654435761)
    for y in 0..<h {
        for x in 0..<w {
            seed = seed &* 1664525 &+ 1013904223
            let n = Int(seed >> 28)
            let p = (y * w + x) * 3
            px[p] = UInt8((x + 40 * k) & 0xFF ^ n)
            px[p + 1] = UInt8((y * 2 + 40 * k) & 0xFF)
            px[p + 2] = UInt8((x + y) / 5 & 0xFF ^ n)
        }
    }
    return PreviewImage(width: w, height: h, rgb: px)
}

// Anchor: writing 24 KB (the per-frame byte budget) to the same pty, in ms.
let chunk = [UInt8](repeating: 0x41, count: 24 * 1024)
settle()
let a0 = DispatchTime.now().uptimeNanoseconds
for _ in 0..<20 { _ = chunk.withUnsafeBufferPointer { write(slave, $0.baseAddress, $0.count) } }
settle()
let anchorMs = Double(DispatchTime.now().uptimeNanoseconds - a0) / 1e6 / 20

let backend = try CursesBackend(term: term, outputFD: slave, inputFD: slave, environment: ["TERM": term], quietStderr: false)
let ctx = RenderContext(size: backend.size, strings: KeyStrings(), theme: .dark, colorMode: backend.colorMode, glyphs: backend.glyphs)
let images = (0..<8).map(worst ? worstFrame : cameraFrame)
// Warm-up frame (full paint).
backend.draw(Screens.render(.capture(CaptureViewState(image: images[0], phase: .positioning, hint: .holdStill, isValid: true)), context: ctx))
settle()
let startBytes = counter.value()
var renderNs: UInt64 = 0, sendNs: UInt64 = 0
for k in 0..<frames {
    let t0 = DispatchTime.now().uptimeNanoseconds
    let screen = Screens.render(.capture(CaptureViewState(image: images[(k + 1) % images.count], phase: .positioning,
                                                          hint: k % 30 < 15 ? .holdStill : .moveLeft, isValid: true)), context: ctx)
    let t1 = DispatchTime.now().uptimeNanoseconds
    backend.draw(screen)
    let t2 = DispatchTime.now().uptimeNanoseconds
    renderNs += t1 - t0; sendNs += t2 - t1
}
settle()
let bytesPerFrame = Double(counter.value() - startBytes) / Double(frames)
backend.end()
close(slave)
let renderMs = Double(renderNs) / 1e6 / Double(frames), sendMs = Double(sendNs) / 1e6 / Double(frames)
let total = renderMs + sendMs
print(String(format: "%@ %@ %dx%d (%@): render %.3f ms + send %.3f ms = %.3f ms/frame (%.1fx anchor %.3f ms = write 24 KB), %.1f KB/frame",
             args[5], term, Int(cols), Int(rows), backend.colorMode.rawValue, renderMs, sendMs, total, total / anchorMs, anchorMs,
             bytesPerFrame / 1024))
