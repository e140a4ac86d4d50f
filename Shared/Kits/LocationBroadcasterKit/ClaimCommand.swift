import ArgumentParser
import CommandLineSupport
import GroundStation
import QuadProtocol
import QuadService

/// `claim`: become the pilot and stay it until Ctrl-C (control ends when this process's presence goes offline).
struct ClaimCommand: AsyncParsableCommand, ServiceCommand {
    static let configuration = CommandConfiguration(
        commandName: "claim", abstract: "Claim pilot control and hold it until Ctrl-C, then release it.")

    @OptionGroup var options: BroadcasterOptions

    func run() async throws {
        let resolved = try options.resolve()
        say("claiming pilot control as \(resolved.senderId); Ctrl-C releases it")
        try await BusSession.withPresence(resolved, body: { runtime in
            try await PilotSession.alongside(runtime, resolved) { _ in
                while !Task.isCancelled { try await Task.sleep(for: .seconds(1)) }
            }
        })
    }
}

/// `release`: give pilot control back (e.g. for a sender id whose claiming process is still running elsewhere).
/// Exit 0 only when the controller reports that this sender id let go of control.
struct ReleaseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "release",
        abstract: """
            Release pilot control held under this sender id (exit 1 when the controller refuses: not the pilot).
            """)

    @OptionGroup var options: BroadcasterOptions

    @Option(parsing: .signedNumber, help: "Seconds to wait for the controller's answer (exit 1 after it).")
    var timeout: Double = 5

    func validate() throws {
        guard timeout.isFinite, timeout > 0, timeout <= 3600 else { throw ValidationError("--timeout: 0 < S <= 3600") }
    }

    func run() async throws {
        let resolved = try options.resolve()
        let drone = resolved.common.drone
        let timeoutS = timeout
        try await BusSession.oneShot(resolved) { client in
            let watch = try await ControllerWatch.open(client: client, drone: drone)
            try watch.requireController()
            let runId = try watch.runAddress(for: "the release", unaddressedIfUnknown: false)
            let before = watch.last
            watch.markPublished()
            // Addressed: a release queued for an earlier run must not take control from a later claim.
            let release = ControlClaim(senderId: resolved.senderId, sequence: 1, timestampUs: WallClock.nowUs(),
                                       action: .release, controllerRunId: runId)
            do {
                try await client.publishAndWait(topic: Topics.controlClaim.topic(for: drone),
                                                payload: release.encoded(), qos: 1, retain: false,
                                                expiryS: resolved.commandExpiryS)
            } catch {
                throw CLIFailure("release: not acknowledged by the broker: \(error)")
            }
            say("release sent as \(resolved.senderId)")
            let reply = ControllerReply(request: .release(senderId: resolved.senderId), before: before,
                                        addressedRunId: runId)
            let deadlineUs = MonotonicClock.nowUs() + Int64(timeoutS * 1_000_000)
            let state: ControllerState?
            do {
                state = try await watch.answer(reply, what: "release", timeoutS: timeoutS, deadlineUs: deadlineUs)
            } catch let changed as ControllerWatch.RunChanged {
                // A restarted controller starts with no pilot: this sender holds nothing there unless it claimed again.
                guard changed.state.pilotId != resolved.senderId else {
                    throw CLIFailure("release refused by the controller: \(changed.state.reason) (it restarted)")
                }
                say("drone-controller restarted (run \(runId) → \(changed.runId)): \(resolved.senderId) holds no "
                    + "pilot control in its new run")
                state = changed.state
            }
            say("pilot control released; pilot now: " + (state.map(ControllerWatch.pilot) ?? "none"))
        }
    }
}
