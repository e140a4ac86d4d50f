import ArgumentParser
import CommandLineSupport
import GroundStation
import QuadProtocol
import QuadService

/// `claim`: become the pilot and stay it until Ctrl-C (control ends when this process's presence goes offline).
struct ClaimCommand: AsyncParsableCommand {
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
        abstract: "Release pilot control held under this sender id (exit 1 when the controller refuses: not the pilot).")

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
            let before = watch.last
            watch.markPublished()
            let release = ControlClaim(senderId: resolved.senderId, sequence: 1, timestampUs: WallClock.nowUs(),
                                       action: .release)
            do {
                try await client.publishAndWait(topic: Topics.controlClaim.topic(for: drone),
                                                payload: release.encoded(), qos: 1, retain: false,
                                                expiryS: resolved.commandExpiryS)
            } catch {
                throw CLIFailure("release: not acknowledged by the broker: \(error)")
            }
            say("release sent as \(resolved.senderId)")
            let reply = ControllerReply(request: .release(senderId: resolved.senderId), before: before)
            let deadlineUs = WallClock.monotonicUs() + Int64(timeoutS * 1_000_000)
            let state = try await watch.answer(reply, what: "release", timeoutS: timeoutS, deadlineUs: deadlineUs)
            say("pilot control released; pilot now: " + (state.map(ControllerWatch.pilot) ?? "none"))
        }
    }
}
