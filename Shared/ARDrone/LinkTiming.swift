/// The drone-link's time constants, in microseconds of a monotonic clock.
public struct LinkTiming: Sendable, Equatable {
    /// One REF + PCMD datagram this often (SDK guide: about 30 ms; the drone's link watchdog is 2 s).
    public var atIntervalUs: Int64
    /// Re-send the navdata trigger (and forget the expected navdata sequence) after this much silence.
    public var navdataRetriggerUs: Int64
    /// After this much navdata silence the link reports itself disconnected (required: within 1 s).
    public var navdataLostUs: Int64
    /// With no fresh flight command for this long the link substitutes hover.
    public var commandTimeoutUs: Int64
    /// An AT*CONFIG not acknowledged (navdata state bit 6) within this time is sent again.
    public var configAckTimeoutUs: Int64
    /// The link status is published on every change and at least this often.
    public var statusIntervalUs: Int64
    /// Repeated error log lines (bad navdata) are summarised at most this often.
    public var errorLogIntervalUs: Int64
    /// A flight command goes out at once (instead of with the next tick) when it changes the mode or moves a PCMD
    /// value by at least this fraction.
    public var immediateSendThresholdFrac: Float

    public init(atIntervalUs: Int64 = 30_000, navdataRetriggerUs: Int64 = 200_000, navdataLostUs: Int64 = 900_000,
                commandTimeoutUs: Int64 = 250_000, configAckTimeoutUs: Int64 = 500_000,
                statusIntervalUs: Int64 = 1_000_000, errorLogIntervalUs: Int64 = 5_000_000,
                immediateSendThresholdFrac: Float = 0.1) {
        self.atIntervalUs = atIntervalUs
        self.navdataRetriggerUs = navdataRetriggerUs
        self.navdataLostUs = navdataLostUs
        self.commandTimeoutUs = commandTimeoutUs
        self.configAckTimeoutUs = configAckTimeoutUs
        self.statusIntervalUs = statusIntervalUs
        self.errorLogIntervalUs = errorLogIntervalUs
        self.immediateSendThresholdFrac = immediateSendThresholdFrac
    }
}
