import Navigation

/// Everything the simulator session needs to start, as plain values.
public struct SimulatorConfiguration: Sendable {
    /// Pariser Platz, Berlin: drone-sim's default home, the one `make demo` and docs/flying.md's "Run it by hand" fly
    /// from (its example target lies ~45 m north of it, inside the controller's 200 m geofence).
    public static let defaultHome = GeoPoint(latitudeDeg: 52.5163, longitudeDeg: 13.3777)

    public var home: GeoPoint
    public var headingDeg: Double
    public var seed: UInt64
    public var parameters = SimulationParameters()
    /// Navdata period in demo and bootstrap mode. The real drone sends ~15 Hz in demo mode (SDK: 200 Hz / 13).
    public var navdataInterval: Duration = .microseconds(66_667)
    /// Ground-truth trace period (20 Hz).
    public var traceInterval: Duration = .milliseconds(50)
    /// Longest single physics step; longer gaps between ticks are split.
    public var maxPhysicsStep: Duration = .milliseconds(10)
    /// No AT command for longer than this sets the com-watchdog bit (30).
    public var comWatchdog: Duration = .milliseconds(50)
    /// No AT command for this long: link lost (navdata stops, AT sequence resets, the drone hovers then lands).
    public var linkLoss: Duration = .seconds(2)

    public init(home: GeoPoint, headingDeg: Double = 0, seed: UInt64 = 1) {
        self.home = home
        self.headingDeg = headingDeg
        self.seed = seed
    }
}

/// What the executable must do on the session's behalf.
public enum SimulatorAction: Sendable, Equatable {
    /// Send from the navdata port (5554) to the client that triggered navdata.
    case sendNavdata([UInt8], to: UDPEndpoint)
    /// Send from the simulator's one MAVLink socket (drone-sim --protocol mavlink).
    case sendDatagram([UInt8], to: UDPEndpoint)
    /// One ground-truth CSV row (see `GroundTruthTrace.header`).
    case trace(String)
    /// A human-readable protocol event.
    case log(String)
}
