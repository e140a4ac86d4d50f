import QuadProtocol

/// Turns the drone's control state stream into one takeoff event per flight, for `LogRotationPolicy`.
public struct TakeoffDetector: Sendable, Equatable {
    /// nil until the drone is first seen on the ground or in the air.
    private var inFlight: Bool?

    public init() {}

    /// True exactly once when the drone leaves the ground (taking off or airborne after being on it);
    /// re-armed when it is landed again. Airborne when first seen (a logger started mid-flight, the retained
    /// state) is no takeoff: the flight began before, and splitting it would leave a stub file.
    public mutating func observe(_ state: DroneState.ControlState) -> Bool {
        switch state {
        case .takingOff, .flying, .hovering, .goingToFix, .looping:
            defer { inFlight = true }
            return inFlight == false
        case .landed, .initializing:
            inFlight = false
            return false
        case .unknown, .test, .landing:
            return false
        }
    }
}
