import QuadProtocol

/// Turns the drone's control state stream into one takeoff event per flight, for `LogRotationPolicy`.
public struct TakeoffDetector: Sendable, Equatable {
    private var inFlight = false

    public init() {}

    /// True exactly once when the drone leaves the ground (taking off or airborne after being on it);
    /// re-armed when it is landed again.
    public mutating func observe(_ state: DroneState.ControlState) -> Bool {
        switch state {
        case .takingOff, .flying, .hovering, .goingToFix, .looping:
            defer { inFlight = true }
            return !inFlight
        case .landed, .initializing:
            inFlight = false
            return false
        case .unknown, .test, .landing:
            return false
        }
    }
}
