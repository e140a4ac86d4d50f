import ArgumentParser
import CommandLineSupport
import GroundStation
import Navigation
import QuadMQTT
import QuadProtocol
import QuadService

/// `target LAT LON`: one Target, QoS 1; exits 0 once the controller accepted it (or, with --no-wait, once the
/// broker acknowledged it).
struct TargetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "target", abstract: "Send the drone one target (LAT LON or LAT,LON, decimal degrees).",
        discussion: """
            Exit 0 once drone-controller reports the target as its own (flying to it, or stored for after \
            takeoff); exit 1 with its reason when it refuses (e.g. target-refused-geofence, not-pilot), when no \
            drone-controller serves --drone, or after --timeout. A target farther than --max-distance from the \
            drone's last position (or 10 km from the controller's current target when the position is unknown) \
            is not sent without --force; the message suggests the swap when latitude and longitude look swapped.
            """)

    @OptionGroup var options: BroadcasterOptions

    @Option(parsing: .signedNumber,
        help: "Altitude above ground to fly there, metres (default: the controller's cruise altitude).")
    var alt: Double?

    @Option(parsing: .signedNumber,
        help: """
            Seconds the target stays valid, counted from its receipt on the board: the drone drops it (hovers) when \
            nobody re-sends it in time. Default 0: valid until reached or replaced (at the 1 m/s cruise a 45 m leg \
            takes most of a minute); it may still wait only --command-ttl in a broker queue.
            """)
    var ttl: Double = 0

    @Option(parsing: .signedNumber,
        help: "Seconds to wait for the controller to accept or refuse the target (exit 1 after it).")
    var timeout: Double = 5

    @Flag(help: "Exit 0 once the broker acknowledged the target; no check that a controller took it (scripts).")
    var noWait = false

    @Option(parsing: .signedNumber,
        help: "Refuse (without --force) a target farther than this from the drone's last position, metres.")
    var maxDistance: Double = TargetPlausibility.defaultLimitM

    @Flag(help: "Send a target even when it is implausibly far (a warning is still printed).")
    var force = false

    /// `.allUnrecognized` so that negative coordinates (`-33.9 151.2`) are not taken for options.
    @Argument(parsing: .allUnrecognized, help: "LAT LON or LAT,LON")
    var position: [String] = []

    /// Bad values are usage errors (exit 64, docs/ground-tools.md "Exit codes"), found before anything is sent.
    func validate() throws {
        do { _ = try CoordinateInput.parse(position) } catch { throw ValidationError("\(error)") }
        if let alt, !(0...1000).contains(alt) { throw ValidationError("--alt \(alt): expected 0...1000 m") }
        guard ttl.isFinite, (0...3600).contains(ttl) else { throw ValidationError("--ttl \(ttl): expected 0...3600 s") }
        guard timeout.isFinite, timeout > 0, timeout <= 3600 else { throw ValidationError("--timeout: 0 < S <= 3600") }
        guard maxDistance.isFinite, maxDistance > 0 else { throw ValidationError("--max-distance: expected > 0 m") }
    }

    func run() async throws {
        let resolved = try options.resolve()
        let point: GeoPoint
        do { point = try CoordinateInput.parse(position) } catch { throw ValidationError("\(error)") }
        let target = Target(
            senderId: resolved.senderId, sequence: 1, timestampUs: WallClock.nowUs(), latitudeDeg: point.latitudeDeg,
            longitudeDeg: point.longitudeDeg, altitudeM: alt.map { Float($0) }, ttlS: Float(ttl))
        let (noWait, force, timeoutS, maxDistanceM) = (self.noWait, self.force, self.timeout, self.maxDistance)
        try await BusSession.oneShot(resolved) { client in
            let startUs = MonotonicClock.nowUs()
            let watch = try await ControllerWatch.open(client: client, drone: resolved.common.drone, telemetry: true)
            // The drone's last known position, if it is talking: telemetry is not retained, so listen until a fix
            // arrives (at most 1.5 s: a busy laptop may take a while to hear the first one).
            while watch.feed.latest.position == nil, MonotonicClock.nowUs() - startUs < 1_500_000 {
                try await Task.sleep(for: .milliseconds(20))
            }
            // Whether anyone serves the drone comes first: nothing else matters when nobody does.
            if !noWait { try watch.requireController() }
            let reference = Self.reference(watch.feed.latest, maxDistanceM: maxDistanceM)
            if let reference, let warning = TargetPlausibility.warning(
                point, TargetPlausibility.check(point, against: reference), reference: reference) {
                guard force else { throw CLIFailure("target not sent: \(warning); send it anyway with --force") }
                printError("warning: \(warning)")
            }
            var before = watch.last
            var sent = target
            sent.controllerRunId = try watch.runAddress(for: "the target", unaddressedIfUnknown: noWait)
            let deadlineUs = MonotonicClock.nowUs() + Int64(timeoutS * 1_000_000)
            // A second round only when the controller restarted between reading its state and our target.
            for round in 1...2 {
                watch.markPublished()
                sent.timestampUs = WallClock.nowUs()
                do {
                    try await client.publishAndWait(topic: Topics.target.topic(for: resolved.common.drone),
                                                    payload: sent.encoded(), qos: 1, retain: false,
                                                    expiryS: MessageExpiry.seconds(forTTL: sent.ttlS)
                                                        ?? resolved.commandExpiryS)
                } catch {
                    throw CLIFailure("target not acknowledged by the broker: \(error)")
                }
                say("target \(TextFormat.coordinate(latitudeDeg: point.latitudeDeg, longitudeDeg: point.longitudeDeg))"
                    + (alt.map { " alt \(TextFormat.fixed($0, digits: 1)) m" } ?? "") + " sent as \(resolved.senderId)"
                    + (sent.controllerRunId == RunAddress.none ? "" : " to controller run \(sent.controllerRunId)"))
                if round == 1, let drone = Self.dronePosition(watch.feed.latest) {
                    let leg = Geodesy.inverse(from: drone, to: point)
                    say("from the drone: \(TextFormat.fixed(leg.distanceM, digits: 1)) m, bearing "
                        + "\(TextFormat.bearing(leg.initialBearingDeg)) deg")
                }
                if noWait { return }
                let reply = ControllerReply(request: .target(latitudeDeg: point.latitudeDeg,
                                                             longitudeDeg: point.longitudeDeg),
                                            before: before, addressedRunId: sent.controllerRunId)
                do {
                    if try await watch.answer(reply, what: "target", timeoutS: timeoutS,
                        deadlineUs: deadlineUs) == nil {
                        say("controller: target accepted (it already had this target: \(before?.summary ?? "-"))")
                    } else {
                        say("controller: target accepted")
                    }
                    return
                } catch let changed as ControllerWatch.RunChanged where round == 1 {
                    say("drone-controller restarted (run \(sent.controllerRunId) → \(changed.runId)) and refused the "
                        + "target as sent to its previous run; sending it again, to the new run")
                    (sent.controllerRunId, before) = (changed.runId, changed.state)
                } catch let changed as ControllerWatch.RunChanged {
                    throw CLIFailure("target refused by the controller: \(changed.state.reason) (it restarted twice)")
                }
            }
        }
    }

    /// The drone's position with the --max-distance limit, else the controller's current target with 10 km.
    static func reference(_ latest: BusFeed.Latest, maxDistanceM: Double) -> TargetPlausibility.Reference? {
        if let drone = dronePosition(latest) {
            return .init(point: drone, name: "the drone", limitM: maxDistanceM)
        }
        if let c = latest.controller, let lat = c.targetLatitudeDeg, let lon = c.targetLongitudeDeg,
           (try? GeoPoint.validated(latitudeDeg: lat, longitudeDeg: lon)) != nil {
            return .init(point: GeoPoint(latitudeDeg: lat, longitudeDeg: lon),
                         name: "the controller's current target",
                         limitM: max(maxDistanceM, TargetPlausibility.unknownPositionLimitM),
                         note: "drone position unknown")
        }
        return nil
    }

    static func dronePosition(_ latest: BusFeed.Latest) -> GeoPoint? {
        if let p = latest.position { return GeoPoint(latitudeDeg: p.latitudeDeg, longitudeDeg: p.longitudeDeg) }
        if let n = latest.navigation {
            return GeoPoint(latitudeDeg: n.droneLatitudeDeg, longitudeDeg: n.droneLongitudeDeg)
        }
        return nil
    }
}
