/// Where a return home ends.
enum ReturnGoal: Sendable, Equatable {
    /// Geofence breach: back inside the fence by the margin, then hover (a stored target is flown to next).
    case insideFence
    /// `return` command and the failsafes that go home: over the takeoff point, hover, land.
    case home
}
