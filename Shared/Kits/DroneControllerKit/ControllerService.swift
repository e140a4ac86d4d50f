import Airspace
import FlightControl
import Mission
import Logging
import QuadMQTT
import QuadProtocol
import QuadService
import ServiceLifecycle

/// Feeds every input and a periodic tick into the pure `ControllerStateMachine` and performs its actions.
struct ControllerService: Service {
    enum Event: Sendable {
        case message(ControllerInput, MQTTMessage, receivedAt: MonotonicInstant)
        case tick(now: MonotonicInstant)
        /// Publish the current state again, unchanged (same sequence).
        case repeatState(now: MonotonicInstant)
        /// The paths around an airspace's zones, built on a thread of their own (`buildPathPlanner`).
        case pathPlanner(PathPlanner, checksum: UInt32)
    }

    let runtime: ServiceRuntime
    let configuration: ControllerConfiguration
    /// Where the flight is kept for a restart (nil: not kept).
    var memoryFile: FlightMemoryFile? = nil
    /// Where the accepted airspace is kept (nil: held only until a restart).
    var airspaceFile: AirspaceFile? = nil
    /// Where the accepted mission and its progress are kept (nil: held only until a restart).
    var missionFile: MissionFile? = nil
    /// New at every start and published in every state, so what was sent to an earlier run is recognised without
    /// comparing clocks (the board may have none). Random: a board without storage cannot count its restarts.
    let runId = UInt32.random(in: 1...UInt32.max)

    func run() async throws {
        // The controller's own `ServiceThread` owns the machine: it sleeps in poll() on the inbox until an event waits
        // or the next tick is due, then takes every waiting event in arrival order and ticks.
        var machine = ControllerStateMachine(configuration: configuration, runId: runId)
        var restored: [ControllerAction] = []
        if let missionFile { machine.bootId = missionFile.bootId }
        if let memoryFile {
            machine.bootId = FlightMemoryFile.bootId()
            if let memory = memoryFile.load(logger: runtime.logger) {
                restored = machine.restore(memory, now: MonotonicClock.now())
            }
        }
        restored += restoreAirspace(into: &machine)
        if let stored = missionFile?.load(logger: runtime.logger) {
            restored += machine.restoreMission(stored.upload, record: stored.record, recordBootId: stored.bootId,
                                               now: MonotonicClock.now())
        } else {
            // A plan retained from an earlier run is not held now: mavlink-link must not keep it on the autopilot.
            restored.append(.publishMissionHeld(nil))
        }
        restored.append(.publishMissionStatus(machine.missionStatus()))
        var loop = Loop(machine: machine)
        runtime.logger.notice("controller run \(runId): acting on what is addressed to it, or unaddressed")
        // The start state (unknown until navdata says more) is published on a connected client: a publish while the
        // client starts its loop is refused, and the next state would be navdata's already (a restart test saw a
        // restarted controller's first state be `flying_to_target`). Nothing arrives before the feeds below.
        if !(await runtime.client.waitUntilConnected(timeout: .seconds(5))) {
            runtime.logger.warning("not connected to the broker after 5 s: the start state may not be published")
        }
        // Before the restored actions: a restored airspace's paths are built meanwhile and come back through it.
        let inbox = try Inbox<Event>.polled(limit: 4096)
        restored.forEach { perform($0, rejections: &loop.rejections, inbox: inbox) }
        perform(loop.machine.currentState(now: MonotonicClock.now()).asAction, rejections: &loop.rejections,
                inbox: inbox)
        for input in ControllerInput.allCases {
            try input.feed(inbox, from: runtime)
        }
        let started = loop
        let thread = try ServiceThread { [self] in
            var loop = started
            drive(&loop, from: inbox)
            return loop.rejections
        }
        try? await gracefulShutdown()
        inbox.finish()
        let rejections = await thread.value ?? loop.rejections
        runtime.logger.notice("""
            rejected in total: \(rejections.total) (\(rejections.summary)); dropped unread: \(inbox.droppedCount)
            """)
    }

    /// The airspace the previous run stored, taken as an upload is (not stored again), and the status published
    /// either way: the retained one on the broker may be an older run's.
    private func restoreAirspace(into machine: inout ControllerStateMachine) -> [ControllerAction] {
        // None held is said too: the retained one on the broker may be an older run's zones. So is no route: a
        // restored target's way is judged on its first solution, and an older run's route must not stay drawn.
        let noRoute = ControllerAction.publishAirspaceRoute(.none())
        let none = ControllerAction.publishAirspaceHeld(.none(senderId: "drone-controller", timestampUs: 0))
        guard let definition = airspaceFile?.load(logger: runtime.logger) else {
            return [none, .publishAirspaceStatus(machine.airspaceStatus()), noRoute]
        }
        let actions = machine.airspace(definition, store: false, now: MonotonicClock.now())
        // Refused (its status is among the actions): none held.
        return (machine.airspace.current == nil ? [none] + actions : actions) + [noRoute]
    }

    /// What the event loop owns: the state machine and the count of what it refused.
    struct Loop: Sendable {
        var machine: ControllerStateMachine
        var rejections = RejectionCounter()
    }

    /// The controller's thread, until the inbox finishes: every waiting event in arrival order, then the ticks due.
    /// A late tick is followed at once by the ones it missed (deadlines are absolute, on the monotonic clock).
    private func drive(_ loop: inout Loop, from inbox: Inbox<Event>) {
        let tickPeriod = Duration.milliseconds(max(1, Int((1000 / configuration.tickHz).rounded())))
        // RabbitMQ keeps a retained message on the node that got it and hands none to a wildcard: a ground tool on
        // another node learns the state only live. The state is published on every change, and repeated as often
        // as the presence; the same sequence, so a sender waiting for an answer never takes a repeat for one.
        // While a flight is under way the repeat carries the distance as it changes, once a second: `status`
        // shows the distance to home during a return from it (every 5 s, it lagged the drone by up to 15 m).
        func repeatInterval() -> Duration { ControllerState.repeatInterval(activity: loop.machine.activity) }
        let start = MonotonicClock.now()
        var nextTick = start.advanced(by: tickPeriod)
        var nextRepeat = start.advanced(by: repeatInterval())
        while true {
            inbox.wait(until: min(nextTick, nextRepeat))
            let (events, finished) = inbox.take()
            // Nothing is handled once the service stops.
            if finished { return }
            for event in events { handle(event, in: &loop, inbox: inbox) }
            while MonotonicClock.now() >= nextTick {
                handle(.tick(now: MonotonicClock.now()), in: &loop, inbox: inbox)
                nextTick = nextTick.advanced(by: tickPeriod)
            }
            if MonotonicClock.now() >= nextRepeat {
                handle(.repeatState(now: MonotonicClock.now()), in: &loop, inbox: inbox)
                nextRepeat = MonotonicClock.now().advanced(by: repeatInterval())
            }
        }
    }

    private func handle(_ event: Event, in loop: inout Loop, inbox: Inbox<Event>) {
        let actions: [ControllerAction]
        switch event {
        case .tick(let now):
            actions = loop.machine.tick(now: now)
        case .pathPlanner(let planner, let checksum):
            actions = loop.machine.pathPlannerBuilt(planner, checksum: checksum, now: MonotonicClock.now())
        case .repeatState(let now):
            var state = loop.machine.currentState(now: now)
            state.timestampUs = WallClock.nowUs()
            do { try runtime.publish(Topics.controllerState, payload: state.encoded()) } catch {
                runtime.logger.debug("controller state not repeated: \(error)")
            }
            return
        case .message(let input, let message, let receivedAt):
            do {
                actions = try input.feed(message, into: &loop.machine, now: receivedAt)
            } catch {
                loop.rejections.record(input.rawValue, reason: "\(error)", topic: message.topic, logger: runtime.logger)
                return
            }
        }
        actions.forEach { perform($0, rejections: &loop.rejections, inbox: inbox) }
    }

    private func perform(_ action: ControllerAction, rejections: inout RejectionCounter, inbox: Inbox<Event>) {
        let logger = runtime.logger
        switch action {
        case .sendFlight(var command):
            // The machine leaves the stamp 0 (it runs on the monotonic clock); the wire carries wall time, for logs.
            command.timestampUs = WallClock.nowUs()
            do { try runtime.publish(Topics.flightCommand, payload: command.encoded()) } catch {
                logger.debug("flight command not sent: \(error)")
            }
        case .publishState(var state):
            // As for a flight command: the machine leaves the stamp 0, the wire carries wall time.
            state.timestampUs = WallClock.nowUs()
            logger.info("\(state.activity.jsonName)\(state.reason == .unspecified ? "" : " (\(state.reason.code))")")
            do { try runtime.publish(Topics.controllerState, payload: state.encoded()) } catch {
                logger.warning("controller state not published: \(error)")
            }
        case .rejected(let kind, let reason):
            rejections.record(kind, reason: reason.code, topic: kind, logger: logger)
        case .rememberFlight(let memory):
            memoryFile?.save(memory, logger: logger)
        case .storeAirspace(let definition):
            airspaceFile?.save(definition, logger: logger)
        case .publishAirspaceHeld(var definition):
            if definition.isNone { definition.timestampUs = WallClock.nowUs() }
            do { try runtime.publish(Topics.airspaceHeld, payload: definition.encoded()) } catch {
                logger.warning("held airspace not published: \(error)")
            }
        case .publishAirspaceStatus(var status):
            status.timestampUs = WallClock.nowUs()
            do { try runtime.publish(Topics.airspaceStatus, payload: status.encoded()) } catch {
                logger.warning("airspace status not published: \(error)")
            }
        case .publishAirspaceRoute(var plan):
            plan.timestampUs = WallClock.nowUs()
            do { try runtime.publish(Topics.airspaceRoute, payload: plan.encoded()) } catch {
                logger.warning("airspace route not published: \(error)")
            }
        case .storeMission(let upload):
            missionFile?.save(upload, logger: logger)
        case .persistMission(let record):
            missionFile?.save(record, logger: logger)
        case .publishMissionProgress(let progress):
            do { try runtime.publish(Topics.missionProgress, payload: progress.encoded()) } catch {
                logger.warning("mission progress not published: \(error)")
            }
        case .publishMissionHeld(let upload):
            do {
                try runtime.publish(Topics.missionHeld, payload: try upload?.encoded() ?? [])
            } catch {
                logger.warning("held mission plan not published: \(error)")
            }
        case .publishMissionStatus(let status):
            do { try runtime.publish(Topics.missionStatus, payload: status.encoded()) } catch {
                logger.warning("mission status not published: \(error)")
            }
        case .buildPathPlanner(let request):
            // Off the controller's thread: a large airspace takes most of a second (BENCHMARKS.md).
            do {
                try ServiceThread.detach {
                    inbox.send(.pathPlanner(PathPlanner(airspace: request.airspace), checksum: request.checksum))
                }
            } catch {
                logger.error("no thread to plan paths around the zones (\(error)): targets behind them are refused")
            }
        case .log(let level, let text):
            logger.log(level: level, "\(text)")
        }
    }
}

extension ControllerState {
    fileprivate var asAction: ControllerAction { .publishState(self) }
}
