import Clocks
import Navigation
import QuadProtocol

/// `location-broadcaster route FILE`: sends the drone to each waypoint in turn. It advances only when the
/// controller reports `arrived` for the waypoint it is currently flying to, so a retained or late `arrived` for
/// the previous waypoint cannot skip one. The current target is re-published every interval, because targets are
/// not retained and carry a TTL.
///
/// Two clocks: `now` (monotonic) times the re-publishing, `wallClock` stamps each target (the controller ages a
/// target by its sender's wall clock).
public struct RouteStateMachine: Sendable {
    public struct Configuration: Sendable, Equatable {
        public var senderId: String
        public var republishInterval: Duration
        public var targetTTLS: Float
        /// How close the controller's reported target must be to the waypoint to count as "this" target.
        public var targetMatchToleranceM: Double

        public init(senderId: String, republishInterval: Duration = .seconds(1), targetTTLS: Float = 5,
                    targetMatchToleranceM: Double = 0.5) {
            self.senderId = senderId
            self.republishInterval = max(.microseconds(1), republishInterval)
            self.targetTTLS = targetTTLS
            self.targetMatchToleranceM = targetMatchToleranceM
        }
    }

    public enum Action: Sendable, Equatable {
        case publishTarget(Target, waypointIndex: Int)
        /// Reached waypoint `index` (0-based) of `count`.
        case reportArrived(waypointIndex: Int, count: Int)
        /// The last waypoint was reached; nothing more is published.
        case finished
    }

    public enum Phase: Sendable, Equatable {
        case notStarted
        case flying(waypointIndex: Int)
        case done
    }

    public let configuration: Configuration
    public let waypoints: [Waypoint]
    public private(set) var phase: Phase = .notStarted
    private var sequence: UInt32 = 0
    private var lastPublishUs: Int64 = 0
    /// Whether the controller has been seen in a non-arrived state since the current waypoint was published; used
    /// when the controller does not echo its target coordinates.
    private var sawNotArrivedSincePublish = false
    /// Targets are addressed to the run of the last controller state (format 1.2); none seen = unaddressed.
    public private(set) var controllerRunId = RunAddress.none

    public init(waypoints: [Waypoint], configuration: Configuration) {
        self.waypoints = waypoints
        self.configuration = configuration
    }

    public mutating func start(now: MonotonicInstant, wallClock: WallInstant) -> [Action] {
        guard case .notStarted = phase else { return [] }
        guard !waypoints.isEmpty else {
            phase = .done
            return [.finished]
        }
        return fly(to: 0, now: now, wallClock: wallClock)
    }

    public mutating func controllerState(_ state: ControllerState, now: MonotonicInstant,
                                         wallClock: WallInstant) -> [Action] {
        controllerRunId = state.runId
        guard case .flying(let index) = phase, index < waypoints.count else { return [] }
        guard state.activity == .arrived else {
            sawNotArrivedSincePublish = true
            return []
        }
        guard isCurrentTarget(state, waypoint: waypoints[index]) else { return [] }
        var actions: [Action] = [.reportArrived(waypointIndex: index, count: waypoints.count)]
        if index + 1 < waypoints.count {
            actions += fly(to: index + 1, now: now, wallClock: wallClock)
        } else {
            phase = .done
            actions.append(.finished)
        }
        return actions
    }

    public mutating func tick(now: MonotonicInstant, wallClock: WallInstant) -> [Action] {
        guard case .flying(let index) = phase else { return [] }
        let elapsed = now.us &- lastPublishUs
        guard elapsed >= configuration.republishInterval.us || elapsed < 0 else { return [] }
        return [publish(index, now: now, wallClock: wallClock)]
    }

    private mutating func fly(to index: Int, now: MonotonicInstant, wallClock: WallInstant) -> [Action] {
        phase = .flying(waypointIndex: index)
        sawNotArrivedSincePublish = false
        return [publish(index, now: now, wallClock: wallClock)]
    }

    private mutating func publish(_ index: Int, now: MonotonicInstant, wallClock: WallInstant) -> Action {
        sequence &+= 1
        lastPublishUs = now.us
        let w = waypoints[index]
        let altitude = w.altitudeM.map { Float($0) }
        return .publishTarget(Target(
            senderId: configuration.senderId, sequence: sequence, timestampUs: wallClock.us, latitudeDeg: w.latitudeDeg,
            longitudeDeg: w.longitudeDeg, altitudeM: altitude, ttlS: configuration.targetTTLS,
            controllerRunId: controllerRunId), waypointIndex: index)
    }

    private func isCurrentTarget(_ state: ControllerState, waypoint: Waypoint) -> Bool {
        guard let lat = state.targetLatitudeDeg, let lon = state.targetLongitudeDeg else {
            // No coordinates to compare: accept only a fresh transition into `arrived`.
            return sawNotArrivedSincePublish
        }
        guard lat.isFinite, lon.isFinite else { return false }
        let distance = Geodesy.inverse(
            from: GeoPoint(latitudeDeg: lat, longitudeDeg: lon),
            to: GeoPoint(latitudeDeg: waypoint.latitudeDeg, longitudeDeg: waypoint.longitudeDeg)).distanceM
        return distance <= configuration.targetMatchToleranceM
    }
}
