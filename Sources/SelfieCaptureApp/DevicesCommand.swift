import Camera

/// `selfie-capture devices`: lists V4L2 nodes with driver, card, formats (FourCC), frame sizes
/// and frame rates. No device is not an error (exit 0) — it says so and suggests `--source demo`.
public enum DevicesCommand {
    public static let handler: CommandHandler = { _, console in
        console.out(V4L2Devices.report(V4L2Devices.list(system: LibV4L2System())))
        return .ok
    }
}
