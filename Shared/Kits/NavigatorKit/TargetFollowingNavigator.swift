import Clocks
import GPSD
import Navigation
import NavigatorCore
import QuadProtocol

/// The navigator's decisions around the pure solver: which heading to use, and which target to follow.
/// The controller is the authority on the target (it may refuse one: wrong pilot, geofence, stale); the navigator
/// follows a new target at once when it would be acceptable, and falls back to the controller's target when the
/// controller reports a different one, so both always agree on the target sequence.
/// Position comes from `telemetry/position` or, with `--position gpsd`, only from gpsd fixes; heading from navdata.
struct TargetFollowingNavigator {
    struct Configuration: Sendable, Equatable {
        var mountOffsetDeg: Double = 0
        var positionSource: PositionSource = .telemetry
        /// gpsd fixes whose own time is further than this from the receive time are not used; nil = no check
        /// (gpsfake replays old timestamps).
        var maxFixAgeS: Double? = 3
    }

    enum GPSFixRefusal: Error, Equatable, CustomStringConvertible {
        case stale(fixTime: String?, maxAgeS: Double)

        var description: String {
            switch self {
            case .stale(let time, let maxAgeS):
                "fix time \(time ?? "missing") is more than \(maxAgeS) s from the board's clock"
            }
        }
    }

    let configuration: Configuration
    private var solver: NavigationSolver
    private var recentTargets: [Target] = []
    private var pilotId = ""
    private var hasCompass = false

    init(configuration: Configuration) {
        self.configuration = configuration
        solver = NavigationSolver(mountOffsetDeg: configuration.mountOffsetDeg)
    }

    private var positionFromTelemetry: Bool { configuration.positionSource == .telemetry }

    mutating func handle(_ event: NavigatorService.Event) throws -> NavigationSolution? {
        switch event {
        case .target(let message, let receivedAt, let wallClock):
            // A stored target predates us; the controller never acts on it either.
            guard !message.retain else { return nil }
            let target = try InboundTarget.decode(payload: message.payload, receivedAt: wallClock)
            remember(target)
            guard pilotId.isEmpty || target.senderId == pilotId else { return nil }
            return solver.updateTarget(target, receivedAt: receivedAt)
        case .position(let message, let receivedAt):
            guard positionFromTelemetry else { return nil }
            let fix = try PositionFix(decoding: message.payload)
            let point = GeoPoint(latitudeDeg: fix.latitudeDeg, longitudeDeg: fix.longitudeDeg)
            if !hasCompass, let heading = fix.headingDeg {
                _ = solver.updateHeading(Double(heading), at: receivedAt)
            }
            return solver.updatePosition(point, at: receivedAt)
        case .drone(let message, let receivedAt):
            let state = try DroneState(decoding: message.payload)
            // The magnetometer is a compass; yaw is the gyro-fused attitude, good enough when there is no compass.
            hasCompass = state.magnetoHeadingDeg != nil
            let heading = state.magnetoHeadingDeg.map(Double.init) ?? Geodesy.wrapDeg360(Double(state.yawDeg))
            return solver.updateHeading(heading, at: receivedAt)
        case .gpsFix(let fix, let receivedAt, let wallClock):
            guard !positionFromTelemetry else { return nil }
            if let maxAgeS = configuration.maxFixAgeS, fix.isStale(wallClock: wallClock, maxAgeS: maxAgeS) {
                throw GPSFixRefusal.stale(fixTime: fix.time, maxAgeS: maxAgeS)
            }
            // Course over ground is not a heading (noise when hovering): heading stays with navdata.
            let point = GeoPoint(latitudeDeg: fix.latitudeDeg, longitudeDeg: fix.longitudeDeg)
            return solver.updatePosition(point, at: receivedAt)
        case .controller(let message, let receivedAt):
            let state = try ControllerState(decoding: message.payload)
            pilotId = state.pilotId
            guard let lat = state.targetLatitudeDeg, let lon = state.targetLongitudeDeg else { return nil }
            if let current = solver.target?.value, Self.same(current, lat, lon),
               state.targetSequence == 0 || current.sequence == state.targetSequence { return nil }
            if let accepted = recentTargets.last(where: { Self.same($0, lat, lon) }),
               state.targetSequence == 0 || accepted.sequence == state.targetSequence {
                return solver.updateTarget(accepted, receivedAt: receivedAt)
            }
            // A target this navigator never received (it restarted, or it was sent while it was down): the
            // controller's state is the one source of truth. Its sequence is 0 for a JSON target (unsequenced); the
            // controller matches solutions by the target's point.
            let adopted = Target(senderId: state.pilotId.isEmpty ? "controller" : state.pilotId,
                                 sequence: state.targetSequence, timestampUs: 0, latitudeDeg: lat, longitudeDeg: lon)
            return solver.updateTarget(adopted, receivedAt: receivedAt)
        }
    }

    private mutating func remember(_ target: Target) {
        recentTargets.append(target)
        if recentTargets.count > 16 { recentTargets.removeFirst() }
    }

    private static func same(_ target: Target, _ lat: Double, _ lon: Double) -> Bool {
        abs(target.latitudeDeg - lat) < 1e-9 && abs(target.longitudeDeg - lon) < 1e-9
    }
}
