import ArgumentParser
import CommandLineSupport
import GPSD
import GroundStation
import QuadService

/// `follow`: this laptop's GPS position (from gpsd) is the drone's target, re-sent every interval.
struct FollowCommand: AsyncParsableCommand, ServiceCommand {
    static let configuration = CommandConfiguration(
        commandName: "follow", abstract: "Send this computer's GPS position (from gpsd) as the target, continuously.")

    @OptionGroup var options: BroadcasterOptions

    @Option(help: "gpsd HOST[:PORT] (env QUAD_GPSD; default 127.0.0.1:2947).")
    var gpsd: String?

    @Option(parsing: .signedNumber, help: "How often to send the target, e.g. 1s or 500ms.")
    var interval = DurationText(seconds: 1)

    @Option(parsing: .signedNumber,
        help: "Seconds the target stays valid; the drone drops it if the broadcaster goes quiet.")
    var ttl: Double = 5

    @Flag(help: "Do not judge fixes by their own timestamps at all, and say nothing about them (gpsfake replays).")
    var noFixTimeCheck = false

    @Flag(help: """
        Send fixes whose time is more than 3 s off this computer's clock or off the previous fix (a receiver with \
        a wrong clock, a replayed log); without it they are reported and not sent.
        """)
    var acceptStale = false

    @Flag(help: "Claim pilot control (and release it on exit).")
    var claim = false

    func validate() throws {
        guard interval.seconds >= 0.05 else { throw ValidationError("--interval: at least 50ms") }
        guard ttl.isFinite, (0...3600).contains(ttl) else { throw ValidationError("--ttl: expected 0...3600 s") }
    }

    func run() async throws {
        let resolved = try options.resolve()
        let gpsdText = gpsd ?? ProcessEnvironment.value("QUAD_GPSD") ?? "127.0.0.1:2947"
        let address: GPSDAddress
        do { address = try GPSDAddress(parsing: gpsdText) } catch { throw ValidationError("--gpsd: \(error)") }
        let configuration = FollowStateMachine.Configuration(
            senderId: resolved.senderId, publishInterval: interval.duration, checkFixTime: !noFixTimeCheck,
            acceptStaleFix: acceptStale,
            targetTTLS: Float(ttl))
        let claim = self.claim
        try await BusSession.withPresence(resolved, body: { runtime in
            let watch = try await ControllerWatch.openServed(runtime: runtime, broker: resolved.common.brokerList)
            // The follower reads only the latest state (its run address): nothing should queue up for it.
            watch.feed.remove(watch.inbox)
            let follower = GPSFollower(runtime: runtime, feed: watch.feed, gpsd: address,
                                       configuration: configuration)
            try await PilotSession.alongside(claim ? runtime : nil, resolved) { _ in
                await follower.run()
            }
        })
    }
}
