import Localization
import Synchronization

/// The capture's string tables, parsed where they are first asked for (issue #28, the first
/// screen): `CaptureSetup.make` checks that the built-in tables are there (and says so in its
/// order of checks), and the runtime first asks for them while the terminal answers the
/// start-up probe (`ScreenPresenter.probeTerminal`), so the parse (~1 ms: the `.strings` and
/// `.stringsdict` files, each text's specifiers) takes the place of that wait. Parsed once; every
/// copy of the setup shares it.
final class LocalizerLoad: Sendable {
    private let parsed: Mutex<Localizer?>
    private let load: @Sendable () -> Localizer

    /// `load` runs on the first `value`.
    init(_ load: @escaping @Sendable () -> Localizer) {
        parsed = Mutex(nil)
        self.load = load
    }

    /// Tables already parsed.
    init(ready: Localizer) {
        parsed = Mutex(ready)
        load = { ready }
    }

    /// The tables (parsed by the first call).
    var value: Localizer {
        parsed.withLock { tables in
            if let tables { return tables }
            let loaded = load()
            tables = loaded
            return loaded
        }
    }
}
