import FlightControl
import Logging
import QuadMQTT
import QuadProtocol
import QuadService
import ServiceLifecycle

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
    /// New at every start and published in every state, so what was sent to an earlier run is recognised without
    /// comparing clocks (the board may have none). Random: a board without storage cannot count its restarts.
    let runId = UInt32.random(in: 1...UInt32.max)

    func run() async throws {
        let inbox = Inbox<Event>()
        for input in ControllerInput.allCases {
            try input.feed(inbox, from: runtime)
        }
        inbox.tick(everyMs: max(1, Int((1000 / configuration.tickHz).rounded()))) { .tick(nowUs: $0) }
        // RabbitMQ keeps a retained message on the node that got it and hands none to a wildcard: a ground tool on
        // another node learns the state only live. The state is published on every change, and repeated as often
        // as the presence; the same sequence, so a sender waiting for an answer never takes a repeat for one.
        inbox.tick(everyMs: Int(ServiceStatus.reannounceIntervalS * 1000)) { .repeatState(nowUs: $0) }
        await cancelWhenGracefulShutdown {
            var machine = ControllerStateMachine(configuration: configuration, runId: runId)
            runtime.logger.notice("controller run \(runId): acting on what is addressed to it, or unaddressed")
            var rejections = RejectionCounter()
            perform(machine.currentState(nowUs: MonotonicClock.nowUs()).asAction, rejections: &rejections)
            for await event in inbox.events {
                let actions: [ControllerAction]
                switch event {
                case .tick(let nowUs):
                    actions = machine.tick(nowUs: nowUs)
                case .repeatState(let nowUs):
                    var state = machine.currentState(nowUs: nowUs)
                    state.timestampUs = WallClock.nowUs()
                    do { try runtime.publish(Topics.controllerState, payload: state.encoded()) } catch {
                        runtime.logger.debug("controller state not repeated: \(error)")
                    }
                    continue
                case .message(let input, let message, let receivedAtUs):
                    do {
                        actions = try input.feed(message, into: &machine, nowUs: receivedAtUs)
                    } catch {
                        rejections.record(input.rawValue, reason: "\(error)", topic: message.topic, logger: runtime.logger)
                        continue
                    }
                }
                actions.forEach { perform($0, rejections: &rejections) }
            }
            runtime.logger.notice("""
                rejected in total: \(rejections.total) (\(rejections.summary)); dropped unread: \(inbox.droppedCount)
                """)
        }
        inbox.finish()
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
            logger.info("\(state.activity.jsonName)\(state.reason.isEmpty ? "" : " (\(state.reason))")")
            do { try runtime.publish(Topics.controllerState, payload: state.encoded()) } catch {
                logger.warning("controller state not published: \(error)")
            }
        case .rejected(let kind, let reason):
            rejections.record(kind, reason: reason, topic: kind, logger: logger)
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
