import ArgumentParser
import Navigation
import QuadMQTT
import QuadProtocol
import QuadService

/// `target LAT LON`: one Target, QoS 1; exits once the broker acknowledged it.
struct TargetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "target", abstract: "Send the drone one target (LAT LON or LAT,LON, decimal degrees).")

    @OptionGroup var options: BroadcasterOptions

    @Option(help: "Altitude above ground to fly there, metres (default: the controller's cruise altitude).")
    var alt: Double?

    @Option(help: "Seconds the target stays valid in transit; 0 = no expiry.")
    var ttl: Double = 10

    /// `.allUnrecognized` so that negative coordinates (`-33.9 151.2`) are not taken for options.
    @Argument(parsing: .allUnrecognized, help: "LAT LON or LAT,LON")
    var position: [String] = []

    func run() async throws {
        let resolved = try options.resolve()
        let point: GeoPoint
        do {
            point = try CoordinateArguments.parse(position)
            if let alt, !(0...1000).contains(alt) { throw CLIFailure("--alt \(alt): expected 0...1000 m") }
            guard ttl.isFinite, (0...3600).contains(ttl) else { throw CLIFailure("--ttl \(ttl): expected 0...3600 s") }
        } catch {
            printError("target: \(error)")
            throw ExitCode.failure
        }
        let target = Target(
            senderId: resolved.senderId, sequence: 1, timestampUs: WallClock.nowUs(), latitudeDeg: point.latitudeDeg,
            longitudeDeg: point.longitudeDeg, altitudeM: alt.map { Float($0) }, ttlS: Float(ttl))
        try await BusSession.oneShot(resolved) { client in
            let feed = BusFeed(client: client, drone: resolved.common.drone)
            // The drone's last known position, if it is talking: telemetry is not retained, so listen briefly.
            try await Task.sleep(for: .milliseconds(500))
            var sent = target
            sent.timestampUs = WallClock.nowUs()
            do {
                try await client.publishAndWait(topic: Topics.target.topic(for: resolved.common.drone),
                                                payload: sent.encoded(), qos: 1, retain: false)
            } catch {
                throw CLIFailure("target not acknowledged by the broker: \(error)")
            }
            say("target \(Format.coordinate(latitudeDeg: point.latitudeDeg, longitudeDeg: point.longitudeDeg))"
                + (alt.map { " alt \(Format.fixed($0, 1)) m" } ?? "") + " sent as \(resolved.senderId)")
            if let drone = Self.dronePosition(feed.latest) {
                let leg = Geodesy.inverse(from: drone, to: point)
                say("from the drone: \(Format.fixed(leg.distanceM, 1)) m, bearing "
                    + "\(Format.fixed(leg.initialBearingDeg, 0)) deg")
            }
        }
    }

    static func dronePosition(_ latest: BusFeed.Latest) -> GeoPoint? {
        if let p = latest.position { return GeoPoint(latitudeDeg: p.latitudeDeg, longitudeDeg: p.longitudeDeg) }
        if let n = latest.navigation {
            return GeoPoint(latitudeDeg: n.droneLatitudeDeg, longitudeDeg: n.droneLongitudeDeg)
        }
        return nil
    }
}
