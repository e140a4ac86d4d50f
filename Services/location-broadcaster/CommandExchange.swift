import QuadMQTT
import QuadProtocol
import QuadService

/// One pilot command: send it (QoS 1, wait for the broker), then follow the controller's state until the goal,
/// a refusal or the deadline.
struct CommandExchange: Sendable {
    let kind: Command.Kind
    let senderId: String
    let drone: DroneID
    let timeoutS: Double
    /// On the monotonic clock.
    let deadlineUs: Int64

    func run(client: MQTTClient) async throws {
        let feed = try BusFeed(client: client, drone: drone, telemetry: false)
        let inbox = feed.inbox()
        // The retained controller state arrives right after subscribing; give it a moment.
        let settleUntilUs = min(deadlineUs, WallClock.monotonicUs() + 500_000)
        while feed.latest.controller == nil, WallClock.monotonicUs() < settleUntilUs {
            try await Task.sleep(for: .milliseconds(20))
        }
        var last = feed.latest.controller
        _ = inbox.drain()
        let command = Command(senderId: senderId, sequence: 1, timestampUs: WallClock.nowUs(), kind: kind)
        do {
            try await client.publishAndWait(topic: Topics.command.topic(for: drone), payload: command.encoded(),
                                            qos: 1, retain: false, timeoutS: max(1, min(5, timeoutS)))
        } catch {
            throw CLIFailure("\(kind.word): not acknowledged by the broker: \(error)")
        }
        say("\(kind.word) sent as \(senderId)")
        let goal = CommandGoal.activities(for: kind)
        if goal.isEmpty { return }
        if let last, goal.contains(last.activity) {
            say("controller: already \(last.summary)")
            return
        }
        while WallClock.monotonicUs() < deadlineUs {
            for case .controller(let state, let retained) in inbox.drain() where !retained {
                last = state
                say("controller: \(state.summary)")
                switch CommandGoal.verdict(kind, after: state) {
                case .reached: return
                case .refused(let reason):
                    throw CLIFailure("\(kind.word) refused by the controller: \(Format.clean(reason)) "
                        + "(activity \(state.activity.cliName), pilot \(state.pilotId.isEmpty ? "none" : Format.clean(state.pilotId)))")
                case .pending: break
                }
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        let status = last.map { "the controller's last state: \($0.summary)" }
            ?? "no controller state received (is drone-controller running?)"
        throw CLIFailure("\(kind.word): no confirmation within \(Format.fixed(timeoutS, 1)) s; \(status)")
    }
}
