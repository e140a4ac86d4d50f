import ArgumentParser
import CommandLineSupport
import QuadProtocol
import QuadService

/// `beacon`: the ground's heartbeat for the board. Across the radio bridge no Last Will can tell the drone that the
/// laptop or the link is gone; the controller hears this beacon and, once it has, treats its silence as a lost
/// ground (`ground-link-lost`: the lost-pilot policy). deploy/ground runs it as a service.
struct BeaconCommand: AsyncParsableCommand, ServiceCommand {
    static let configuration = CommandConfiguration(
        commandName: "beacon",
        abstract: "Publish the ground beacon (quad/<id>/ground/beacon) until stopped; the board's controller takes "
            + "its silence as a lost ground link.")

    @OptionGroup var options: BroadcasterOptions

    @Option(parsing: .signedNumber, help: """
        Milliseconds between beacons, 50–1000 (keep it well under the controller's --ground-link-timeout, 1.5 s).
        """)
    var intervalMs: Int = 200

    func validate() throws {
        guard (50...1000).contains(intervalMs) else { throw ValidationError("--interval-ms: expected 50–1000") }
    }

    func run() async throws {
        var resolved = try options.resolve()
        let senderId = resolved.senderId
        // Its own presence (a `claim` under the same sender id must not see this process's goodbye as its own).
        resolved.presenceName = "beacon-\(senderId)"
        let intervalMs = Int64(intervalMs)
        say("ground beacon for \(resolved.common.drone) every \(intervalMs) ms as \(senderId)")
        try await BusSession.withPresence(resolved, body: { runtime in
            // The connection is being made as this starts: a first beacon before it is not "lost", only early
            // (every start logged `beacon not sent … not connected`). A broker that stays away is reported below.
            let connectUntilUs = MonotonicClock.nowUs() + Int64(BusSession.connectTimeoutS * 1_000_000)
            while !runtime.client.isConnected, MonotonicClock.nowUs() < connectUntilUs {
                try await Task.sleep(for: .milliseconds(10))  // throws at Ctrl-C: a stop stays prompt
            }
            var sequence: UInt32 = 0
            var nextUs = MonotonicClock.nowUs()
            var failures = 0
            while !Task.isCancelled {
                sequence &+= 1
                do {
                    let beacon = GroundBeacon(senderId: senderId, sequence: sequence, timestampUs: WallClock.nowUs())
                    try runtime.publish(Topics.groundBeacon, payload: beacon.encoded())
                } catch {
                    // Not connected (QoS 0): the board will notice the silence, which is the truth.
                    failures += 1
                    if failures == 1 || failures % 50 == 0 {
                        runtime.logger.warning("beacon not sent (\(failures) so far): \(error)")
                    }
                }
                // Paced on the monotonic clock, so a slow publish does not slow the beat.
                nextUs += intervalMs * 1000
                let waitUs = max(0, nextUs - MonotonicClock.nowUs())
                if waitUs == 0 { nextUs = MonotonicClock.nowUs() }
                try await Task.sleep(for: .microseconds(waitUs))
            }
        })
    }
}
