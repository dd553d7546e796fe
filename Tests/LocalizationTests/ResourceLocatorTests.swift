import Foundation
import Testing
@testable import Localization

/// `ResourceLocator` (issue #18): installed tree first, then the build tree, overrides kept, and
/// nothing found means nil with the places searched.
@Suite struct ResourceLocatorTests {
    @Test func installedTreeRelativeToTheBinary() {
        let inputs = memoryInputs(["/opt/sc/share/selfie-capture/Localizations/en.lproj/Localizable.strings": "",
                                   "/opt/sc/share/selfie-capture/demo/astronaut.png": "png",
                                   // A build tree above must not win over the installed tree.
                                   "/opt/Localizations/en.lproj/Localizable.strings": ""],
                                  exe: "/opt/sc/bin/selfie-capture")
        let loc = ResourceLocator.locate(inputs: inputs)
        #expect(loc.localizations == "/opt/sc/share/selfie-capture/Localizations")
        #expect(loc.demoPhoto == "/opt/sc/share/selfie-capture/demo/astronaut.png")
    }

    @Test func buildTreeWalkingUp() {
        let inputs = memoryInputs(["/src/p/Localizations/en.lproj/Localizable.strings": "",
                                   "/src/p/Resources/demo/astronaut.png": "png"],
                                  exe: "/src/p/.build/x86_64-unknown-linux-gnu/debug/selfie-capture")
        let loc = ResourceLocator.locate(inputs: inputs)
        #expect(loc.localizations == "/src/p/Localizations")
        #expect(loc.demoPhoto == "/src/p/Resources/demo/astronaut.png")
    }

    @Test func nothingFoundSaysWhereItLooked() {
        let inputs = memoryInputs(["/elsewhere/Localizations/en.lproj/Localizable.strings": ""], exe: "/tmp/x/selfie-capture")
        let loc = ResourceLocator.locate(inputs: inputs)
        #expect(loc.localizations == nil && loc.demoPhoto == nil)
        #expect(loc.searchedLocalizations.first == "/tmp/share/selfie-capture/Localizations")
        #expect(loc.searchedLocalizations.last?.hasPrefix("/tmp/x and the folders above it") == true)
        #expect(loc.searchedDemoPhoto == ["/tmp/share/selfie-capture/demo/astronaut.png"])
    }

    @Test func overridesWinAndAreNotSecondGuessed() {
        let files = ["/src/p/Localizations/en.lproj/Localizable.strings": "", "/src/p/Resources/demo/astronaut.png": "png",
                     "/my/L/en.lproj/Localizable.strings": "", "/my/face.png": "png"]
        let exe = "/src/p/.build/debug/selfie-capture"
        let good = ResourceLocator.locate(inputs: memoryInputs(files, env: ["SELFIE_CAPTURE_LOCALIZATIONS": "/my/L",
                                                                           "SELFIE_CAPTURE_DEMO_PHOTO": "/my/face.png"], exe: exe))
        #expect(good.localizations == "/my/L" && good.demoPhoto == "/my/face.png")
        let wrong = ResourceLocator.locate(inputs: memoryInputs(files, env: ["SELFIE_CAPTURE_LOCALIZATIONS": "/my/none",
                                                                            "SELFIE_CAPTURE_DEMO_PHOTO": "/my/none.png"], exe: exe))
        #expect(wrong.localizations == nil && wrong.searchedLocalizations == ["/my/none"])
        #expect(wrong.demoPhoto == nil && wrong.searchedDemoPhoto == ["/my/none.png"])
    }

    @Test func dotDotIsResolved() {
        #expect(ResourceLocator.normalize("/usr/local/bin/../share/selfie-capture") == "/usr/local/share/selfie-capture")
        #expect(ResourceLocator.normalize("/bin/../../share") == "/share")
        // Joined by hand since issue #28: the root, empty, `.` and trailing slashes as before.
        #expect(ResourceLocator.normalize("/") == "/")
        #expect(ResourceLocator.normalize("") == "/")
        #expect(ResourceLocator.normalize("/..") == "/")
        #expect(ResourceLocator.normalize("a/./b//c/") == "/a/b/c")
        #expect(ResourceLocator.normalize("/opt/sc/bin/./../share/é") == "/opt/sc/share/é")
    }
}

/// The demo photo is found without reading it (issue #28: 791 kB read at every start, ~1 ms
/// of the first screen), and a folder or a missing file is not a photo.
@Suite struct ResourceLocatorReadsNothingTests {
    @Test func photoFoundByItsPathAlone() {
        var inputs = memoryInputs(["/src/p/Localizations/en.lproj/Localizable.strings": "",
                                   "/src/p/Resources/demo/astronaut.png": "png"], exe: "/src/p/.build/release/selfie-capture")
        // `fileReadable` answers from the listing; reading any file now is a failure.
        inputs.readFile = { path in Issue.record("\(path) was read"); return nil }
        let loc = ResourceLocator.locate(inputs: inputs)
        #expect(loc.demoPhoto == "/src/p/Resources/demo/astronaut.png")
    }

    @Test func realFileSystem() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("rl-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: dir + "/folder.png", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(FileManager.default.createFile(atPath: dir + "/a.png", contents: Data([1, 2, 3])))
        #expect(LocalizationInputs.readableFile(dir + "/a.png"))
        #expect(!LocalizationInputs.readableFile(dir + "/folder.png"))
        #expect(!LocalizationInputs.readableFile(dir + "/missing.png"))
        #expect(LocalizationInputs.current().fileReadable(dir + "/a.png"))
    }
}
