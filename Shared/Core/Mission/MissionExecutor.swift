import Clocks
import Navigation

/// Flies a validated plan on the board (issue 37), pure: events in, actions out, time passed in. It never reads a
/// clock, and its state is what `MissionProgressRecord` holds, so a restart resumes at the item that was current,
/// with no item skipped or flown twice and a loiter's time left (never more than when it was persisted).
///
/// Rules: an item is reached once (an explicit `goto` back may reach it again); items are reached in plan order
/// from the start or the last `goto`; a takeoff is asked for only by `start` on the ground; after `abort`, a land
/// (item or lost-pilot rule) or a return item nothing moves the drone until the next `start`.
public struct MissionExecutor: Sendable {
    public let plan: MissionPlan
    public let configuration: Configuration
    public internal(set) var state: MissionState = .idle
    public internal(set) var phase: MissionPhase = .approaching
    public internal(set) var currentItem = 0
    public internal(set) var reached: [ReachedItem] = []

    /// When the running hold or loiter ends.
    var stayUntil: MonotonicInstant?
    /// A paused (or persisted) hold or loiter's time left.
    var stayLeft: Duration = .zero
    /// Mission time 0 on the monotonic clock (restores move it back by the record's elapsed time).
    var origin: MonotonicInstant?
    /// Restored on the ground: `resume` cannot take off.
    var onGround = false
    var position: GeoPoint?
    var lastPersisted: MissionProgressRecord?
    var lastPersistAt: MonotonicInstant?
    var lastProgressAt: MonotonicInstant?

    public init(plan: MissionPlan, configuration: Configuration = Configuration()) {
        self.plan = plan
        self.configuration = configuration
    }

    public mutating func handle(_ event: Event, now: MonotonicInstant) -> [Action] {
        var actions: [Action]
        switch event {
        case let .start(airborne): actions = start(airborne: airborne, now: now)
        case .pause: actions = pause(now: now)
        case .resume: actions = resume(now: now)
        case .abort:
            guard !state.isFinished else { return [.refused(.finished)] }
            guard state != .idle else { return [.refused(.notRunning)] }
            state = .aborted
            stayUntil = nil
            actions = [.hold]
        case let .goto(item): actions = goto(item, now: now)
        case let .arrived(item, errorM): actions = arrived(item, errorM: errorM, now: now)
        case let .position(point):
            position = point
            actions = []
        case .tick: actions = tick(now: now)
        case let .restored(record, powerCycle, airborne):
            actions = restore(record, powerCycle: powerCycle, airborne: airborne, now: now)
        case .pilotLost: actions = pilotLost(now: now)
        case .pilotBack: actions = []
        }
        return actions + bookkeeping(now: now)
    }

    /// The stay's time left at `now` (zero when not staying).
    public func stayTimeLeft(now: MonotonicInstant) -> Duration {
        guard phase == .staying else { return .zero }
        if let stayUntil { return max(.zero, stayUntil - now) }
        return stayLeft
    }

    func missionTime(_ now: MonotonicInstant) -> Duration { origin.map { max(.zero, now - $0) } ?? .zero }
}
