import Airspace
import Navigation

/// What a plan must keep to on this drone: the ceiling, a circle around home and optionally an airspace's zones.
public struct MissionLimits: Sendable {
    /// The largest altitude above home any item may ask for, metres.
    public var ceilingM: Double
    /// Every point must lie within this distance of `home`, metres.
    public var fenceRadiusM: Double
    public var home: GeoPoint
    /// Keep-out and inclusion zones (Shared/Core/Airspace); its own ceiling applies too.
    public var airspace: Airspace?
    /// The fastest a plan may ask for (cruise or change-speed), m/s.
    public var maxSpeedMps: Double
    /// The longest hold or loiter; it also bounds the u32 milliseconds of the payload.
    public var maxStayTime: Duration

    public init(ceilingM: Double, fenceRadiusM: Double, home: GeoPoint, airspace: Airspace? = nil,
                maxSpeedMps: Double = 15, maxStayTime: Duration = .seconds(3_600)) {
        self.ceilingM = ceilingM
        self.fenceRadiusM = fenceRadiusM
        self.home = home
        self.airspace = airspace
        self.maxSpeedMps = maxSpeedMps
        self.maxStayTime = maxStayTime
    }
}
