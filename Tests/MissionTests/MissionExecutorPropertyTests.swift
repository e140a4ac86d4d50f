import Clocks
import Mission
import Navigation
import Randomness
import Testing

/// Seeded random plans and event sequences (starts in the air and on the ground, pauses, gotos, late and wrong
/// arrivals, lost pilots, and restarts of the service or the whole board at any point, from the last persisted
/// record): items are reached in plan order from the start or the last goto, each once; a restore resumes at the
/// item that was current; a loiter's time never grows across a restore; after an abort or a landing nothing moves
/// the drone until a start; a takeoff is only asked for by a start on the ground.
@Suite struct MissionExecutorPropertyTests {
    static let runs = 400
    static let steps = 80
    typealias Executor = MissionExecutor

    static func plan(_ rng: inout SplitMix64) -> MissionPlan {
        var kinds: [MissionItem.Kind] = []
        if Bool.random(using: &rng) { kinds.append(.takeoff(altitudeM: .random(in: 2...20, using: &rng))) }
        for _ in 0..<Int.random(in: 1...10, using: &rng) {
            let point = MissionFixtures.point(northM: .random(in: -150...150, using: &rng),
                                              eastM: .random(in: -150...150, using: &rng))
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: kinds.append(.changeSpeed(speedMps: .random(in: 1...8, using: &rng)))
            case 1: kinds.append(.loiterTime(point, altitudeM: 10, time: .seconds(Int.random(in: 1...20, using: &rng))))
            default:
                let hold = Bool.random(using: &rng) ? Duration.zero : .seconds(Int.random(in: 1...6, using: &rng))
                kinds.append(.waypoint(point, altitudeM: 10, holdTime: hold, acceptanceRadiusM: 1))
            }
        }
        switch Int.random(in: 0..<4, using: &rng) {
        case 0: kinds.append(.land(nil))
        case 1: kinds.append(.land(MissionFixtures.point(northM: 5, eastM: 5)))
        case 2: kinds.append(.returnToLaunch)
        default: break
        }
        return MissionPlan(kinds: kinds, cruiseSpeedMps: 4)
    }

    /// What the checker knows across events and restarts.
    struct Model {
        /// The id the next newly reached item must have (nil: nothing started yet).
        var expectedNext: Int?
        /// An abort or a landing was obeyed: nothing may move until a start.
        var frozen = false
        var persisted: MissionProgressRecord?
        var lastEventAt = MonotonicInstant(us: 0)
    }

    @Test func invariantsHoldOverRandomEventSequences() {
        var rng = SplitMix64(seed: 37)
        var restores = 0, loitersRestored = 0, reachedTotal = 0
        for run in 0..<Self.runs {
            let plan = Self.plan(&rng)
            let rule = Executor.LostPilotRule.allCases.randomElement(using: &rng) ?? .continueMission
            let configuration = Executor.Configuration(lostPilotRule: rule)
            var executor = Executor(plan: plan, configuration: configuration)
            var model = Model()
            var now = MonotonicInstant(us: Int64.random(in: 0...1_000_000_000, using: &rng))
            model.lastEventAt = now
            for step in 0..<Self.steps {
                let at = "run \(run) step \(step)"
                now = now.advanced(by: .milliseconds(Int.random(in: 0...3_000, using: &rng)))
                if Int.random(in: 0..<12, using: &rng) == 0, let record = model.persisted {
                    // The board or the service restarts: a new executor from the last persisted record.
                    let live = executor.record(now: now)
                    #expect(record.currentItem == live.currentItem && record.reached == live.reached
                            && record.state == live.state && record.phase == live.phase, "\(at): record stale")
                    // Persisted at the last event at the latest, and at most `persistEvery` before it.
                    let sinceEvent = now - model.lastEventAt
                    #expect(record.stayLeft >= live.stayLeft
                            && record.stayLeft <= live.stayLeft + configuration.persistEvery + sinceEvent,
                            "\(at): stay")
                    let powerCycle = Bool.random(using: &rng)
                    if powerCycle { now = MonotonicInstant(us: Int64.random(in: 0...5_000_000, using: &rng)) }
                    executor = Executor(plan: plan, configuration: configuration)
                    let event = Executor.Event.restored(record, powerCycle: powerCycle,
                                                        airborne: Int.random(in: 0..<5, using: &rng) > 0)
                    let actions = executor.handle(event, now: now)
                    check(actions, event: event, before: record.reached, executor: executor, model: &model, at: at)
                    model.lastEventAt = now
                    // A takeoff restored in the air is done: it is reached at once and the next item begins.
                    let passedOver = record.phase == .takingOff
                        && executor.reached.contains { $0.id == record.currentItem }
                    #expect(executor.currentItem == record.currentItem || passedOver, "\(at): resumed elsewhere")
                    #expect(executor.stayTimeLeft(now: now) <= record.stayLeft, "\(at): loiter grew")
                    restores += 1
                    if record.phase == .staying { loitersRestored += 1 }
                    continue
                }
                let event = Self.event(&rng, executor: executor)
                let before = executor.reached
                let actions = executor.handle(event, now: now)
                check(actions, event: event, before: before, executor: executor, model: &model, at: at)
                model.lastEventAt = now
            }
            reachedTotal += executor.reached.count
        }
        // The sequences got somewhere: restores in every phase, loiters among them, items reached.
        #expect(restores > Self.runs && loitersRestored > 20 && reachedTotal > Self.runs, "\(restores) \(reachedTotal)")
    }

    static func event(_ rng: inout SplitMix64, executor: Executor) -> Executor.Event {
        switch Int.random(in: 0..<100, using: &rng) {
        case 0..<8: .start(airborne: Bool.random(using: &rng))
        case 8..<12: .pause
        case 12..<18: .resume
        case 18..<20: .abort
        case 20..<24: .goto(item: Int.random(in: -1...executor.plan.items.count, using: &rng))
        case 24..<60: .arrived(item: Int.random(in: 0..<8, using: &rng) == 0
                                   ? Int.random(in: 0..<executor.plan.items.count, using: &rng)
                                   : executor.currentItem,
                               errorM: .random(in: 0...2, using: &rng))
        case 60..<64: .position(MissionFixtures.point(northM: .random(in: -50...50, using: &rng), eastM: 0))
        case 64..<67: .pilotLost
        case 67..<70: .pilotBack
        default: .tick
        }
    }

    func check(_ actions: [Executor.Action], event: Executor.Event, before: [ReachedItem], executor: Executor,
               model: inout Model, at: String) {
        let started: Bool
        if case .start = event, !actions.contains(where: { if case .refused = $0 { true } else { false } }) {
            started = true
            model.expectedNext = 0
            model.frozen = false
        } else {
            started = false
        }
        var gotoItem: Int?
        if case let .goto(item) = event, !actions.contains(where: { if case .refused = $0 { true } else { false } }) {
            model.expectedNext = item
            gotoItem = item
        }
        for action in actions {
            if case .takeoff = action {
                #expect(event == .start(airborne: false), "\(at): a takeoff without a start on the ground")
            }
            if model.frozen { #expect(!action.moves, "\(at): moved after an abort or landing: \(action)") }
            if case let .persist(record) = action { model.persisted = record }
        }
        let ids = executor.reached.map(\.id)
        #expect(Set(ids).count == ids.count, "\(at): an item reached twice \(ids)")
        // Kept entries stay as they were; new ones follow in plan order from the start or the goto.
        let kept = started ? [] : before.filter { entry in entry.id < gotoItem ?? Int.max }
        #expect(Array(executor.reached.prefix(kept.count)) == kept, "\(at): reached items rewritten")
        for entry in executor.reached.dropFirst(kept.count) {
            #expect(entry.id == model.expectedNext,
                    "\(at): reached \(entry.id), expected \(String(describing: model.expectedNext))")
            model.expectedNext = entry.id + 1
        }
        if case .abort = event, executor.state == .aborted { model.frozen = true }
        if actions.contains(where: { if case .land = $0 { true } else { false } }) { model.frozen = true }
        if executor.state.isFinished { model.frozen = true }
    }
}
