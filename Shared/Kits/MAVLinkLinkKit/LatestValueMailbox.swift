import Logging
import MAVLinkCompanion
import Mission
import QuadMQTT
import QuadProtocol
import QuadService
import Synchronization

/// The latest value of one retained board topic (the held airspace, the held plan, the mission's progress), waiting
/// for the link thread: only the newest counts (the autopilot keeps what the board holds now, not every one on the
/// way), so one slot, replaced.
final class LatestValueMailbox<Value: Sendable>: Sendable {
    private let slot = Mutex<Value?>(nil)
    /// Payloads that did not decode: counted and logged, never given to the autopilot.
    private let rejected = Atomic<Int>(0)

    func put(_ value: Value) { slot.withLock { $0 = value } }

    /// The newest value not yet taken, or nil.
    func take() -> Value? { slot.withLock { value in defer { value = nil }; return value } }

    /// A mailbox fed from this drone's `spec` topic (retained: the value arrives at every connect). `what` names
    /// the topic in log lines, `consequence` what a failed subscription costs.
    static func subscribed<Payload>(runtime: ServiceRuntime, _ spec: TopicSpec<Payload>, what: String,
                                    consequence: String,
                                    decode: @escaping @Sendable ([UInt8]) throws -> Value) -> LatestValueMailbox {
        let mailbox = LatestValueMailbox()
        let logger = runtime.logger
        do {
            try runtime.client.subscribe(spec.topic(for: runtime.drone), qos: spec.qos.rawValue) { message in
                do {
                    mailbox.put(try decode(message.payload))
                } catch {
                    let count = mailbox.rejected.add(1, ordering: .relaxed).newValue
                    logger.warning("rejected \(what) #\(count) (\(message.payload.count) bytes): \(error)")
                }
            }
        } catch {
            logger.error("cannot subscribe to the \(what): \(consequence): \(error)")
        }
        return mailbox
    }
}

/// What mavlink-link reads from the bus: for the autopilot's own fence and mission, and the controller's arrival.
struct BoardListMailboxes: Sendable {
    let airspace: LatestValueMailbox<AirspaceDefinition>
    /// The held plan; an inner nil: none held (the retained message cleared).
    let plan: LatestValueMailbox<MissionPlan?>
    let progress: LatestValueMailbox<MissionProgressRecord>
    /// The controller's state: its arrival at a target is where a hover settles.
    let controller: LatestValueMailbox<ControllerState>

    static func subscribed(runtime: ServiceRuntime) -> BoardListMailboxes {
        BoardListMailboxes(
            airspace: .subscribed(runtime: runtime, Topics.airspaceHeld, what: "held airspace",
                                  consequence: "the autopilot's fence is not kept") {
                try AirspaceDefinition(decoding: $0)
            },
            plan: .subscribed(runtime: runtime, Topics.missionHeld, what: "held mission plan",
                              consequence: "the autopilot's mission is not kept") {
                $0.isEmpty ? nil : try MissionUpload(decoding: $0).plan
            },
            progress: .subscribed(runtime: runtime, Topics.missionProgress, what: "mission progress",
                                  consequence: "the autopilot's current item does not follow the board's") {
                try MissionProgress(decoding: $0).record
            },
            controller: .subscribed(runtime: runtime, Topics.controllerState, what: "controller state",
                                    consequence: "a hover holds where the vehicle stops, not the target") {
                try ControllerState(decoding: $0)
            })
    }

    /// Hands what arrived since the last pass to the state machine.
    func deliver(to machine: inout CompanionStateMachine, now: MonotonicInstant) -> [CompanionAction] {
        var actions: [CompanionAction] = []
        if let definition = airspace.take() { actions += machine.heldAirspace(definition, now: now) }
        if let plan = plan.take() { actions += machine.heldMission(plan, now: now) }
        if let state = controller.take() { actions += machine.controllerState(state, now: now) }
        if let record = progress.take() {
            actions += machine.missionProgress(planChecksum: record.planChecksum,
                                               currentItem: CompanionStateMachine.boardItem(record),
                                               running: record.state == .running, now: now)
        }
        return actions
    }
}
