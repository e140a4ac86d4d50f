import Clocks
import FlightControl
import Navigation
import QuadProtocol

/// Drives a ControllerStateMachine with explicit times and readable event helpers.
struct ControllerHarness {
    static let startUs: Int64 = 1_700_000_000_000_000
    static let home = GeoPoint(latitudeDeg: 52.0, longitudeDeg: 4.0)

    var machine: ControllerStateMachine
    var nowUs: Int64 = ControllerHarness.startUs
    var sequence: UInt32 = 0
    /// The last target sent, for building matching navigation solutions.
    var lastTarget: Target?
    /// Navdata altitude while airborne (default: the cruise altitude, so the altitude hold stays quiet).
    var altitudeM: Float
    /// Navdata ground velocity, body frame.
    var velocityXMps: Float = 0
    /// Navdata battery unless a call says otherwise.
    var batteryPercent: UInt8 = 80

    /// Wind compensation is off unless asked for: most tests check the article's law exactly.
    init(configuration: ControllerConfiguration = ControllerConfiguration(), windCompensation: Bool = false,
         runId: UInt32 = RunAddress.none) {
        var configuration = configuration
        if !windCompensation { configuration.windCompensation.gainPerMps = 0 }
        machine = ControllerStateMachine(configuration: configuration, runId: runId)
        altitudeM = Float(configuration.altitude.cruiseAltitudeM)
    }

    static func point(northM: Double, eastM: Double = 0) -> GeoPoint {
        let north = Geodesy.destination(from: home, bearingDeg: 0, distanceM: northM)
        return Geodesy.destination(from: north, bearingDeg: 90, distanceM: eastM)
    }

    /// `nowUs` as the instant the machine takes (the harness keeps microseconds for its arithmetic).
    var now: MonotonicInstant { MonotonicInstant(us: nowUs) }

    mutating func advance(ms: Int64) { nowUs += ms * 1000 }
    mutating func nextSequence() -> UInt32 { sequence += 1; return sequence }

    @discardableResult
    mutating func drone(_ controlState: DroneState.ControlState, battery: UInt8? = nil, bits: UInt32 = 0,
                        headingDeg: Float? = nil) -> [ControllerAction] {
        let battery = battery ?? batteryPercent
        let flying: UInt32 = controlState.isAirborne ? 1 : 0
        let state = DroneState(
            sequence: nextSequence(), timestampUs: nowUs, navdataSequence: sequence, stateBits: bits | flying,
            controlState: controlState, batteryPercent: battery, altitudeM: flying == 1 ? altitudeM : 0, pitchDeg: 0,
            rollDeg: 0, yawDeg: 0, velocityXMps: velocityXMps, velocityYMps: 0, velocityZMps: 0,
            magnetoHeadingDeg: headingDeg)
        return machine.droneState(state, now: now)
    }

    @discardableResult
    mutating func position(_ point: GeoPoint = ControllerHarness.home) -> [ControllerAction] {
        let fix = PositionFix(sequence: nextSequence(), timestampUs: nowUs, latitudeDeg: point.latitudeDeg,
                              longitudeDeg: point.longitudeDeg, source: .manual)
        return machine.position(fix, now: now)
    }

    @discardableResult
    mutating func target(_ point: GeoPoint, from sender: String = "", retained: Bool = false,
                         timestampUs: Int64? = nil, ttlS: Float = 0, altitudeM: Float? = nil,
                         toRun runId: UInt32 = RunAddress.none) -> [ControllerAction] {
        let target = Target(senderId: sender, sequence: nextSequence(), timestampUs: timestampUs ?? nowUs,
                            latitudeDeg: point.latitudeDeg, longitudeDeg: point.longitudeDeg, altitudeM: altitudeM,
                            ttlS: ttlS, controllerRunId: runId)
        lastTarget = target
        return machine.target(target, retained: retained, now: now)
    }

    /// A navigator solution for `target` (default: the last one sent).
    @discardableResult
    mutating func navigation(distanceM: Double, differenceDeg: Double = 0, for target: Target? = nil,
                             bearingDeg: Double = 0, positionAgeMs: UInt32 = 0,
                             still: Bool = false) -> [ControllerAction] {
        let target = target ?? lastTarget
        let sequence = nextSequence()
        // Each solution comes from a fix of its own (arrival counts distinct fixes); `still`: the very same
        // coordinates every time, as a vehicle holding a point reports them.
        let solution = NavigationSolution(
            sequence: sequence, timestampUs: nowUs, targetSequence: target?.sequence ?? 0,
            targetLatitudeDeg: target?.latitudeDeg ?? 0, targetLongitudeDeg: target?.longitudeDeg ?? 0,
            droneLatitudeDeg: Self.home.latitudeDeg + (still ? 0 : Double(sequence) * 1e-9),
            droneLongitudeDeg: Self.home.longitudeDeg,
            distanceM: distanceM,
            bearingDeg: bearingDeg, headingDeg: Geodesy.wrapDeg360(bearingDeg - differenceDeg),
            directionDifferenceDeg: differenceDeg, positionAgeMs: positionAgeMs, headingAgeMs: 0, targetAgeMs: 0)
        return machine.navigation(solution, now: now)
    }

    /// `count` solutions at `distanceM`, 100 ms apart, after the arrival window has forgotten earlier ones
    /// (arrival is judged on the mean of several fixes).
    @discardableResult
    mutating func settle(distanceM: Double, count: Int = 3) -> [ControllerAction] {
        advance(ms: machine.configuration.arrivalWindow.us / 1000 + 1)
        drone(.hovering)
        position()
        var actions: [ControllerAction] = []
        for index in 0..<count {
            if index > 0 { advance(ms: 100) }
            actions += navigation(distanceM: distanceM)
        }
        return actions
    }

    /// Ticks every 100 ms for `ms` with navdata, position and a solution at `distanceM` (a drone holding its
    /// distance to the target).
    @discardableResult
    mutating func hold(distanceM: Double, ms: Int64) -> [ControllerAction] {
        var actions: [ControllerAction] = []
        var elapsed: Int64 = 0
        while elapsed < ms {
            advance(ms: 100)
            elapsed += 100
            actions += drone(.hovering)
            actions += position()
            actions += navigation(distanceM: distanceM)
            actions += tick()
        }
        return actions
    }

    @discardableResult
    mutating func command(_ kind: Command.Kind, from sender: String = "", timestampUs: Int64? = nil,
                          retained: Bool = false, toRun runId: UInt32 = RunAddress.none) -> [ControllerAction] {
        let command = Command(senderId: sender, sequence: nextSequence(), timestampUs: timestampUs ?? nowUs, kind: kind,
                              controllerRunId: runId)
        return machine.command(command, retained: retained, now: now)
    }

    @discardableResult
    mutating func claim(_ sender: String, _ action: ControlClaim.Action = .claim,
                        toRun runId: UInt32 = RunAddress.none) -> [ControllerAction] {
        let claim = ControlClaim(senderId: sender, sequence: nextSequence(), timestampUs: nowUs, action: action,
                                 controllerRunId: runId)
        return machine.controlClaim(claim, now: now)
    }

    @discardableResult
    mutating func presence(_ service: String, online: Bool) -> [ControllerAction] {
        machine.presence(serviceName: service, online: online, now: now)
    }

    /// A tick now. It sends no flight command when one went out within the last 0.9 periods and nothing changed
    /// on the tick (drone-link repeats the latest): right after an event that sent one, ask `nextTick()`.
    @discardableResult
    mutating func tick() -> [ControllerAction] { machine.tick(now: now) }

    /// The control loop's next tick, one period (30 Hz) from now: the command the drone flies on from here.
    @discardableResult
    mutating func nextTick() -> [ControllerAction] {
        nowUs += 33_334
        return machine.tick(now: now)
    }

    /// Ticks every `stepMs` for `ms`, keeping navdata (and optionally position) alive; returns all actions.
    @discardableResult
    mutating func run(ms: Int64, stepMs: Int64 = 100, drone controlState: DroneState.ControlState? = .hovering,
                      position: GeoPoint? = nil) -> [ControllerAction] {
        var actions: [ControllerAction] = []
        var elapsed: Int64 = 0
        while elapsed < ms {
            advance(ms: stepMs)
            elapsed += stepMs
            if let controlState { actions += drone(controlState) }
            if let position { actions += self.position(position) }
            actions += tick()
        }
        return actions
    }

    var activity: ControllerState.Activity { machine.activity }
    var reason: Reason { machine.reason }

    // MARK: Reaching each activity through events only.

    /// Landed, navdata and a position at home.
    mutating func landed() {
        drone(.landed)
        position()
        tick()
    }

    mutating func takingOff() {
        landed()
        command(.takeoff)
    }

    mutating func hovering() {
        takingOff()
        advance(ms: 500)
        drone(.hovering)
        position()
    }

    /// Flying to a target 100 m north with a matching solution.
    mutating func flyingToTarget(northM: Double = 100) {
        hovering()
        target(Self.point(northM: northM))
        navigation(distanceM: northM)
    }

    mutating func arrived() {
        flyingToTarget()
        advance(ms: 100)
        settle(distanceM: 0.5)
    }

    mutating func landing() {
        hovering()
        command(.land)
    }

    mutating func emergency() {
        hovering()
        command(.emergency)
    }

    /// Hovering at 250 m from home: outside the 200 m fence.
    mutating func returningHome() {
        hovering()
        position(Self.point(northM: 250))
    }

    mutating func reach(_ activity: ControllerState.Activity) {
        switch activity {
        // The mode at start, before any navdata.
        case .unknown: break
        case .landed: landed()
        case .takingOff: takingOff()
        case .hovering: hovering()
        case .flyingToTarget: flyingToTarget()
        case .arrived: arrived()
        case .landing: landing()
        case .emergency: emergency()
        case .returningHome: returningHome()
        }
    }
}

extension Array where Element == ControllerAction {
    var states: [ControllerState] {
        compactMap { if case .publishState(let state) = $0 { state } else { nil } }
    }
    var flights: [FlightCommand] {
        compactMap { if case .sendFlight(let command) = $0 { command } else { nil } }
    }
    var rejections: [String] {
        compactMap { if case .rejected(let kind, let reason) = $0 { "\(kind): \(reason)" } else { nil } }
    }
    var activities: [ControllerState.Activity] { states.map(\.activity) }
    var logs: [String] {
        compactMap { if case .log(_, let text) = $0 { text } else { nil } }
    }
}
