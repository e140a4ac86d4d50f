import ArgumentParser
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
            try await PilotSession.alongside(runtime, senderId: resolved.senderId) { _ in
                while !Task.isCancelled { try await Task.sleep(for: .seconds(1)) }
            }
        })
    }
}

/// `release`: give pilot control back (e.g. for a sender id whose claiming process is still running elsewhere).
struct ReleaseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "release", abstract: "Release pilot control held under this sender id.")

    @OptionGroup var options: BroadcasterOptions

    func run() async throws {
        let resolved = try options.resolve()
        let drone = resolved.common.drone
        try await BusSession.oneShot(resolved) { client in
            let feed = try BusFeed(client: client, drone: drone, telemetry: false)
            let release = ControlClaim(senderId: resolved.senderId, sequence: 1, timestampUs: WallClock.nowUs(),
                                       action: .release)
            do {
                try await client.publishAndWait(topic: Topics.controlClaim.topic(for: drone),
                                                payload: release.encoded(), qos: 1, retain: false)
            } catch {
                throw CLIFailure("release: not acknowledged by the broker: \(error)")
            }
            try await Task.sleep(for: .milliseconds(500))
            let pilot = feed.latest.controller.map { $0.pilotId.isEmpty ? "none" : Format.clean($0.pilotId) }
            say("release sent as \(resolved.senderId)" + (pilot.map { "; pilot now: \($0)" } ?? ""))
        }
    }
}
