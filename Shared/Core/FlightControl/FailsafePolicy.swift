/// What each failsafe does (docs/flying.md, "Safety rules"): one row per rule, each set by a drone-controller flag.
public struct FailsafePolicy: Sendable, Equatable {
    public enum StaleNavigation: String, Sendable, CaseIterable { case hover, land }
    public enum LowBattery: String, Sendable, CaseIterable {
        /// Return home if the battery left covers the way home at the measured speed, else land in place.
        case returnIfReachable = "return"
        case land
    }
    public enum AirspaceBreach: String, Sendable, CaseIterable {
        /// Brake, fly straight out to the nearest point the margin clears, then hover.
        case leave
        /// As `leave`, then return home by the safe way (around keep-out zones) and land there.
        case returnHome = "return"
        case land
    }
    public enum Geofence: String, Sendable, CaseIterable {
        /// Brake, fly back until inside the fence by the margin, then hover.
        case returnInside = "return"
        case land
    }

    /// Navigation or position older than `staleAfter` while flying to a target.
    public var staleNavigation: StaleNavigation
    /// Battery below `landBatteryPercent` in the air.
    public var lowBattery: LowBattery
    /// Drone outside the geofence.
    public var geofence: Geofence
    /// Drone in an airspace zone it may not be in, or within half the margin of one (issue 38).
    public var airspaceBreach: AirspaceBreach
    /// Pilot offline: hover at once, return home after this many seconds (nil: never return, only land after
    /// `lostPilotLandAfter`). A return that ends at home lands there.
    public var lostPilotReturnAfter: Duration?
    /// Battery (percent) that must be left on arrival at home for the low-battery return to be tried.
    public var batteryReservePercent: Double

    public init(staleNavigation: StaleNavigation = .hover, lowBattery: LowBattery = .returnIfReachable,
                geofence: Geofence = .returnInside, lostPilotReturnAfter: Duration? = .seconds(10),
                batteryReservePercent: Double = 6, airspaceBreach: AirspaceBreach = .leave) {
        self.airspaceBreach = airspaceBreach
        self.staleNavigation = staleNavigation
        self.lowBattery = lowBattery
        self.geofence = geofence
        self.lostPilotReturnAfter = lostPilotReturnAfter
        self.batteryReservePercent = batteryReservePercent
    }
}
