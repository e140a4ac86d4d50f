/// The drone-link's time constants, on a monotonic clock.
public struct LinkTiming: Sendable, Equatable {
    /// One REF + PCMD datagram this often (SDK guide: about 30 ms; the drone's link watchdog is 2 s).
    public var atInterval: Duration
    /// Re-send the navdata trigger (and forget the expected navdata sequence) after this much silence.
    public var navdataRetrigger: Duration
    /// After this much navdata silence the link reports itself disconnected (required: within 1 s).
    public var navdataLost: Duration
    /// With no fresh flight command for this long the link substitutes hover.
    public var commandTimeout: Duration
    /// An AT*CONFIG not acknowledged (navdata state bit 6) within this time is sent again.
    public var configAckTimeout: Duration
    /// The link status is published on every change and at least this often.
    public var statusInterval: Duration
    /// Repeated error log lines (bad navdata) are summarised at most this often.
    public var errorLogInterval: Duration
    /// A flight command goes out at once (instead of with the next tick) when it changes the mode or moves a PCMD
    /// value by at least this fraction.
    public var immediateSendThresholdFrac: Float

    public init(atInterval: Duration = .milliseconds(30), navdataRetrigger: Duration = .milliseconds(200),
                navdataLost: Duration = .milliseconds(900), commandTimeout: Duration = .milliseconds(250),
                configAckTimeout: Duration = .milliseconds(500), statusInterval: Duration = .seconds(1),
                errorLogInterval: Duration = .seconds(5), immediateSendThresholdFrac: Float = 0.1) {
        self.atInterval = atInterval
        self.navdataRetrigger = navdataRetrigger
        self.navdataLost = navdataLost
        self.commandTimeout = commandTimeout
        self.configAckTimeout = configAckTimeout
        self.statusInterval = statusInterval
        self.errorLogInterval = errorLogInterval
        self.immediateSendThresholdFrac = immediateSendThresholdFrac
    }
}
