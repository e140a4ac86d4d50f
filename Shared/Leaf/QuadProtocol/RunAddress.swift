/// Addressing to the controller's run (format 1.2), the bus's answer to "was this sent to me, or to a controller
/// that has since restarted?" without comparing clocks (board and laptop clocks may differ by years).
///
/// drone-controller picks a random non-zero `runId` at start and publishes it in its retained ControllerState.
/// Senders copy the id they saw into Command, ControlClaim and Target (`controllerRunId`); the controller refuses
/// one addressed to any other run (`…-for-previous-run`). 0 = unaddressed: older formats, the text forms without
/// one, `mosquitto_pub` users. Like Sparkplug's bdSeq, but random: a restarted board has no memory to count with.
public enum RunAddress {
    /// The format minor that appended the run id fields (every earlier payload reads as 0 = unaddressed / none).
    public static let introducedInMinor: UInt8 = 2
    /// No run id: an unaddressed message, or a controller state from a 1.0/1.1 controller.
    public static let none: UInt32 = 0

    /// Whether a message addressed to `addressed` may be acted on by the run `current`: unaddressed messages
    /// (and any message to a controller without a run id) keep the rules that applied before addressing.
    public static func accepts(addressed: UInt32, current: UInt32) -> Bool {
        addressed == none || current == none || addressed == current
    }
}

extension WireReader {
    /// The appended u32 run id of a 1.2+ body; 0 for the older minors that had no such field.
    mutating func runId() throws(WireError) -> UInt32 {
        minor >= RunAddress.introducedInMinor ? try u32() : RunAddress.none
    }
}
