import Testing
@testable import TerminalUI

/// The symbol preview hands libchafa its cell blocks as opaque RGBA8, which libchafa 1.12 copies
/// at the symbol work factor instead of running its smooth scaler at 1:1 (issue #28). The oracle
/// is the RGB8 path through that scaler (what was drawn before): every cell's character and
/// colours must be the same, in each colour mode, on the detailed test frame and on noise.
@Suite struct ChafaPreviewTests {
    /// Deterministic noise (xorshift): the worst case for any difference in sampling.
    static func noise(width: Int, height: Int) -> PreviewImage {
        var s: UInt64 = 0x2545_F491_4F6C_DD1D
        let px = (0..<(width * height * 3)).map { _ -> UInt8 in
            s ^= s << 13; s ^= s >> 7; s ^= s << 17; return UInt8(truncatingIfNeeded: s >> 32)
        }
        return PreviewImage(width: width, height: height, rgb: px)
    }

    @Test(arguments: [ColorMode.direct, .palette256, .ansi16], [(40, 12), (100, 30)])
    func rgbaBlocksGiveTheCellsOfTheRGBPath(_ mode: ColorMode, _ size: (Int, Int)) throws {
        let (cols, rows) = size
        let g = CellGeometry.fallback.symbolGrid(cols: cols, rows: rows)
        let r = PreviewRenderer(scaleType: .fit, mirrored: false, oval: .standard, outline: RGB(255, 0, 0), overlay: RGB(0, 0, 0))
        let (grid, _) = try #require(r.composite(DetailFrame.make(), gridWidth: g.width, gridHeight: g.height))
        for picture in [PreviewImage(grid: grid, width: g.width, height: g.height), Self.noise(width: g.width, height: g.height)] {
            var blocks: [UInt8] = []
            #expect(ChafaPreview.cellBlocks(picture, cols: cols, rows: rows, into: &blocks), "the grid divides chafa's 8×8 cells")
            let rgba = try #require(ChafaPreview.symbolCells(picture, cols: cols, rows: rows, mode: mode))
            let rgb = try #require(ChafaPreview.symbolCells(picture, cols: cols, rows: rows, mode: mode, blocksAsRGBA: false))
            #expect(rgba.count == cols * rows)
            #expect(rgba == rgb)
        }
    }
}
