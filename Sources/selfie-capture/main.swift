// Wiring only: build the app with its command handlers and run it on the process arguments.
import SelfieCaptureApp
#if canImport(Glibc)
import Glibc
#endif

let app = App(handlers: CommandRegistry.handlers)
exit(app.run(CommandLine.arguments, console: .standard))
