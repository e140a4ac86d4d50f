import Navigation

/// Where a return home ends.
enum ReturnGoal: Sendable, Equatable {
    /// Airspace breach (issue 38): out of the zone, or its half margin, to this point cleared by the margin, then
    /// hover. No climb: the drone leaves at the altitude it has.
    case leaveZone(GeoPoint)
    /// Geofence breach: back inside the fence by the margin, then hover (a stored target is flown to next).
    case insideFence
    /// `return` command and the failsafes that go home: over the takeoff point, hover, land.
    case home
}
