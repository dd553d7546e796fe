/// The command handlers the executable wires in. Each issue that implements a command adds its
/// handler here; a command without one answers "not implemented yet" (exit 69).
public enum CommandRegistry {
    public static var handlers: [String: CommandHandler] {
        [
            "capture": CaptureCommand.handler,
            "analyze": AnalyzeCommand.handler,
            "devices": DevicesCommand.handler,
            "verify": VerifyCommand.handler,
            "strings dump": { try StringsCommands.dump($0, $1) },
            "strings format": { try StringsCommands.format($0, $1) },
            "strings lint": { try StringsCommands.lint($0, $1) },
            "strings convert": { try StringsCommands.convert($0, $1) },
        ]
    }
}
