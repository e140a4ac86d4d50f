import FlightControl
import Logging
import QuadMQTT
import QuadProtocol
import QuadService
import ServiceLifecycle
import Synchronization

/// Feeds every input and a periodic tick into the pure `ControllerStateMachine` and performs its actions.
struct ControllerService: Service {
    enum Event: Sendable {
        case message(ControllerInput, MQTTMessage, receivedAtUs: Int64)
        case tick(nowUs: Int64)
        /// Publish the current state again, unchanged (same sequence).
        case repeatState(nowUs: Int64)
    }

    let runtime: ServiceRuntime
    let configuration: ControllerConfiguration
    /// Where the flight is kept for a restart (nil: not kept).
    var memoryFile: FlightMemoryFile? = nil
    /// New at every start and published in every state, so what was sent to an earlier run is recognised without
    /// comparing clocks (the board may have none). Random: a board without storage cannot count its restarts.
    let runId = UInt32.random(in: 1...UInt32.max)

    func run() async throws {
        // The machine is driven right where each event arrives (`Inbox(handler:)`): on the network thread for a
        // message, on the tick's thread for a tick, one at a time under the inbox's lock, in arrival order.
        var machine = ControllerStateMachine(configuration: configuration, runId: runId)
        var restored: [ControllerAction] = []
        if let memoryFile {
            machine.bootId = FlightMemoryFile.bootId()
            if let memory = memoryFile.load(logger: runtime.logger) {
                restored = machine.restore(memory, nowUs: MonotonicClock.nowUs())
            }
        } else {
            runtime.logger.info("no --state-dir: a restart of this controller will not resume the flight")
        }
        let loop = Mutex(Loop(machine: machine))
        let inbox = Inbox<Event> { event in loop.withLock { handle(event, in: &$0) } }
        runtime.logger.notice("controller run \(runId): acting on what is addressed to it, or unaddressed")
        loop.withLock { loop in
            restored.forEach { perform($0, rejections: &loop.rejections) }
            perform(loop.machine.currentState(nowUs: MonotonicClock.nowUs()).asAction, rejections: &loop.rejections)
        }
        for input in ControllerInput.allCases {
            try input.feed(inbox, from: runtime)
        }
        inbox.tick(everyMs: max(1, Int((1000 / configuration.tickHz).rounded()))) { .tick(nowUs: $0) }
        // RabbitMQ keeps a retained message on the node that got it and hands none to a wildcard: a ground tool on
        // another node learns the state only live. The state is published on every change, and repeated as often
        // as the presence; the same sequence, so a sender waiting for an answer never takes a repeat for one.
        inbox.tick(everyMs: Int(ServiceStatus.reannounceIntervalS * 1000)) { .repeatState(nowUs: $0) }
        try? await gracefulShutdown()
        inbox.finish()
        let rejections = loop.withLock { $0.rejections }
        runtime.logger.notice("""
            rejected in total: \(rejections.total) (\(rejections.summary)); dropped unread: \(inbox.droppedCount)
            """)
    }

    /// What the event loop owns: the state machine and the count of what it refused.
    struct Loop {
        var machine: ControllerStateMachine
        var rejections = RejectionCounter()
    }

    private func handle(_ event: Event, in loop: inout Loop) {
        let actions: [ControllerAction]
        switch event {
        case .tick(let nowUs):
            actions = loop.machine.tick(nowUs: nowUs)
        case .repeatState(let nowUs):
            var state = loop.machine.currentState(nowUs: nowUs)
            state.timestampUs = WallClock.nowUs()
            do { try runtime.publish(Topics.controllerState, payload: state.encoded()) } catch {
                runtime.logger.debug("controller state not repeated: \(error)")
            }
            return
        case .message(let input, let message, let receivedAtUs):
            do {
                actions = try input.feed(message, into: &loop.machine, nowUs: receivedAtUs)
            } catch {
                loop.rejections.record(input.rawValue, reason: "\(error)", topic: message.topic, logger: runtime.logger)
                return
            }
        }
        actions.forEach { perform($0, rejections: &loop.rejections) }
    }

    private func perform(_ action: ControllerAction, rejections: inout RejectionCounter) {
        let logger = runtime.logger
        switch action {
        case .sendFlight(var command):
            // The machine runs on the monotonic clock; what goes on the wire carries wall time, for logs only.
            command.timestampUs = WallClock.nowUs()
            do { try runtime.publish(Topics.flightCommand, payload: command.encoded()) } catch {
                logger.debug("flight command not sent: \(error)")
            }
        case .publishState(var state):
            state.timestampUs = WallClock.nowUs()
            logger.info("\(state.activity.jsonName)\(state.reason == .unspecified ? "" : " (\(state.reason.code))")")
            do { try runtime.publish(Topics.controllerState, payload: state.encoded()) } catch {
                logger.warning("controller state not published: \(error)")
            }
        case .rejected(let kind, let reason):
            rejections.record(kind, reason: reason.code, topic: kind, logger: logger)
        case .rememberFlight(let memory):
            memoryFile?.save(memory, logger: logger)
        case .log(let level, let text):
            switch level {
            case .debug: logger.debug("\(text)")
            case .info: logger.info("\(text)")
            case .warning: logger.warning("\(text)")
            case .error: logger.error("\(text)")
            }
        }
    }
}

extension ControllerState {
    fileprivate var asAction: ControllerAction { .publishState(self) }
}
