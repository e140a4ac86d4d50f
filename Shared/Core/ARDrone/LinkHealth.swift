import Clocks
import QuadProtocol

/// The link's health as the state machine sees it; the executable stamps it into a `LinkStatus`.
public struct LinkHealth: Sendable, Equatable {
    /// Navdata arrived within `LinkTiming.navdataLost`.
    public var connected: Bool
    /// Hover is being sent because flight commands stopped.
    public var fallbackHover: Bool
    public var reason: LinkStatus.Reason
    /// Accepted navdata packets per second over the last completed window of about 1 s.
    public var navdataPerSecond: Float
    public var checksumErrors: UInt32
    public var malformedPackets: UInt32
    /// Packets dropped because their sequence was not above the last accepted one.
    public var stalePackets: UInt32
    /// `UInt32.max` when nothing has arrived yet.
    public var lastNavdataAgeMs: UInt32
    public var lastCommandAgeMs: UInt32

    public init(connected: Bool, fallbackHover: Bool, reason: LinkStatus.Reason, navdataPerSecond: Float,
                checksumErrors: UInt32, malformedPackets: UInt32, stalePackets: UInt32, lastNavdataAgeMs: UInt32,
                lastCommandAgeMs: UInt32) {
        self.connected = connected
        self.fallbackHover = fallbackHover
        self.reason = reason
        self.navdataPerSecond = navdataPerSecond
        self.checksumErrors = checksumErrors
        self.malformedPackets = malformedPackets
        self.stalePackets = stalePackets
        self.lastNavdataAgeMs = lastNavdataAgeMs
        self.lastCommandAgeMs = lastCommandAgeMs
    }

    /// The bus message (`stalePackets` has no field there; it is logged instead).
    public func linkStatus(sequence: UInt32, stamp: WallInstant) -> LinkStatus {
        LinkStatus(sequence: sequence, timestampUs: stamp.us, connected: connected, fallbackHover: fallbackHover,
                   reason: reason, navdataPerSecond: navdataPerSecond, checksumErrors: checksumErrors,
                   malformedPackets: malformedPackets, lastNavdataAgeMs: lastNavdataAgeMs,
                   lastCommandAgeMs: lastCommandAgeMs)
    }

    /// Milliseconds since `thenUs`, saturating; `UInt32.max` when there was no such event.
    static func ageMs(since thenUs: Int64?, nowUs: Int64) -> UInt32 {
        guard let thenUs else { return .max }
        let ms = max(0, nowUs &- thenUs) / 1000
        return ms >= Int64(UInt32.max) ? .max : UInt32(ms)
    }
}
