import GroundStation
import QuadMQTT
import QuadProtocol
import QuadService

/// One pilot command: check a controller serves the drone, send it (QoS 1, wait for the broker) addressed to the
/// controller's run, then follow the controller's state until it accepted (exit 0), refused or failed (exit 1
/// with its reason), or the deadline.
struct CommandExchange: Sendable {
    let kind: Command.Kind
    let senderId: String
    let drone: DroneID
    /// MQTT 5 Message Expiry (`--command-ttl`).
    let expiryS: UInt32
    let timeoutS: Double
    /// On the monotonic clock.
    let deadlineUs: Int64
    /// How long to wait for the retained presence and controller state before judging whether a controller serves
    /// the drone (they normally arrive at once; a unit test on a starved machine gives more).
    var settleS = 0.5

    func run(client: any MQTTConnection) async throws {
        let watch = try await ControllerWatch.open(client: client, drone: drone, settleS: settleS)
        // An emergency goes out even when no controller is known: withholding it could never be the safer choice.
        var missing: CLIFailure?
        do { try watch.requireController() } catch let failure as CLIFailure {
            guard kind == .emergency else { throw failure }
            missing = failure
        }
        var runId = try watch.runAddress(for: kind.word, unaddressedIfUnknown: kind == .emergency)
        var before = watch.last
        // A second round only when the controller restarted between reading its state and our command.
        for round in 1...2 {
            watch.markPublished()
            try await send(runId: runId, client: client)
            if let missing { throw CLIFailure("\(kind.word) sent, but \(missing.message)") }
            // Already in the command's goal or not, a refusal (`not-pilot`) is waited for and exits 1.
            let reply = ControllerReply(request: .command(kind), before: before, addressedRunId: runId)
            do {
                if try await watch.answer(reply, what: kind.word, timeoutS: timeoutS, deadlineUs: deadlineUs) == nil {
                    if let before, ControllerReply.goal(kind).contains(before.activity) {
                        say("controller: already \(before.activity.cliName): \(kind.word) accepted, nothing to change")
                    } else {
                        say("controller: \(kind.word) accepted (state unchanged: \(before?.summary ?? "-"))")
                    }
                }
                return
            } catch let changed as ControllerWatch.RunChanged where round == 1 {
                say("drone-controller restarted (run \(runId) → \(changed.runId)) and refused \(kind.word) as sent "
                    + "to its previous run; sending it again, to the new run")
                (runId, before) = (changed.runId, changed.state)
            } catch let changed as ControllerWatch.RunChanged {
                throw CLIFailure("\(kind.word) refused by the controller: \(changed.state.reason) (it restarted twice)")
            }
        }
    }

    private func send(runId: UInt32, client: any MQTTConnection) async throws {
        let command = Command(senderId: senderId, sequence: 1, timestampUs: WallClock.nowUs(), kind: kind,
                              controllerRunId: runId)
        do {
            try await client.publishAndWait(topic: Topics.command.topic(for: drone), payload: command.encoded(),
                                            qos: 1, retain: false, expiryS: expiryS,
                                            timeout: .seconds(max(1, min(5, timeoutS))))
        } catch {
            throw CLIFailure("\(kind.word): not acknowledged by the broker: \(error)")
        }
        say("\(kind.word) sent as \(senderId)" + (runId == RunAddress.none ? "" : " to controller run \(runId)"))
    }
}
