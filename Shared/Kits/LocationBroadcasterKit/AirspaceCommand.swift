import Airspace
import Checksums
import ArgumentParser
import CommandLineSupport
import GroundStation
import QuadMQTT
import QuadProtocol
import QuadService

/// `airspace upload FILE`, `airspace clear` and `airspace show [FILE]` (issue 38): zones to drone-controller and
/// what it holds. One
/// command with the action as its first argument (not two nested subcommands), so the common options may come
/// before `airspace` as before every other subcommand.
struct AirspaceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "airspace",
        abstract: "Upload the zones where the drone may fly (.plan, GeoJSON, KML), clear them, or show what the board "
            + "holds.",
        discussion: """
            upload FILE: FILE's format comes from its extension (.plan, .geojson or .json, .kml), else from its \
            content. Exit 0 once drone-controller reports the upload's checksum as the airspace it holds (stored \
            under its state directory, reloaded on restart); 65 when the file is malformed, has an open or \
            self-intersecting polygon or any other broken zone (printed with the zone, ring, vertex or edge; \
            nothing is sent); 1 when no drone-controller serves --drone, it refuses the upload, or no answer comes \
            within --timeout. clear: replaces the board's airspace with none (only the geofence circle applies \
            again), on the same terms (a file with no zone is refused by upload, so that a broken file never lifts \
            the zones by accident). show [FILE]: prints the board's checksum and zone count and its last airspace \
            refusals; with FILE (and the --ceiling, --floor and --margin it was uploaded with) also the checksum \
            computed here: exit 1 when they differ, or when no airspace status comes within --timeout.
            """)

    enum Action: String, ExpressibleByArgument, CaseIterable {
        case upload, clear, show
    }

    @OptionGroup var options: BroadcasterOptions
    @OptionGroup var limits: Limits

    @Option(parsing: .signedNumber, help: "Seconds to wait for drone-controller's answer or status.")
    var timeout: Double = 5

    @Argument(help: "upload, clear or show.")
    var action: Action

    @Argument(help: "Zone file: a QGroundControl .plan (its geoFence), GeoJSON or KML; optional for show.")
    var file: String?

    func validate() throws {
        guard timeout.isFinite, timeout > 0, timeout <= 3600 else {
            throw ValidationError("--timeout: 0 < S <= 3600")
        }
        if action == .upload, file == nil { throw ValidationError("airspace upload: which FILE?") }
        if action == .clear, file != nil { throw ValidationError("airspace clear takes no FILE") }
        try limits.validate()
    }

    func run() async throws {
        switch action {
        case .upload: try await upload(file: file ?? "")
        case .clear: try await clear()
        case .show: try await show()
        }
    }

    /// The file and the limits that make an airspace of it.
    struct Limits: ParsableArguments {
        @Option(parsing: .signedNumber, help: "Refuse targets above this altitude, metres above takeoff ground.")
        var ceiling: Double = 120

        @Option(parsing: .signedNumber, help: "Refuse targets below this altitude, metres; none if not given.")
        var floor: Double?

        @Option(parsing: .signedNumber, help: "Refuse targets closer than this to a zone's edge, metres.")
        var margin: Double = 0

        /// A limit no airspace can have is a usage error (64), not a broken file (65).
        func validate() throws {
            guard ceiling.isFinite, ceiling > 0 else { throw ValidationError("--ceiling: metres > 0") }
            if let floor, !(floor.isFinite && floor < ceiling) {
                throw ValidationError("--floor: metres below --ceiling")
            }
            guard margin.isFinite, margin >= 0 else { throw ValidationError("--margin: metres >= 0") }
        }

        /// The file's airspace; a broken file exits 65 with where it is broken, before anything is sent.
        func airspace(file: String) throws -> (ZoneFileFormat, Airspace) {
            let bytes: [UInt8]
            do { bytes = try FileBytes.read(file, limit: 16 << 20) } catch {
                throw CLIFailure("airspace: \(TextFormat.printable(file, width: 200)): \(error)")
            }
            do {
                let (format, zones) = try ZoneFileFormat.zones(fileName: file, bytes: bytes)
                return (format, try Airspace(zones: zones, ceilingM: ceiling, floorM: floor, marginM: margin))
            } catch {
                printError("airspace: \(TextFormat.printable(file, width: 200)) refused, nothing sent: \(error)")
                throw ExitStatus.dataError
            }
        }
    }

    func upload(file: String) async throws {
        let resolved = try options.resolve()
        let (format, airspace) = try limits.airspace(file: file)
        let definition = airspace.definition(senderId: resolved.senderId, timestampUs: WallClock.nowUs())
        say("airspace \(TextFormat.printable(file, width: 200)) (\(format.rawValue)): \(airspace.zones.count) "
            + "zones, checksum \(CRC32.text(definition.checksum))")
        try await send(definition, resolved: resolved)
    }

    /// An airspace of no zone: the board holds none, and only its geofence circle applies.
    func clear() async throws {
        let resolved = try options.resolve()
        let definition = AirspaceDefinition(senderId: resolved.senderId, sequence: 0, timestampUs: WallClock.nowUs(),
                                            ceilingM: limits.ceiling, floorM: nil, marginM: 0, zones: [])
        say("airspace: clearing the board's zones, checksum \(CRC32.text(definition.checksum))")
        try await send(definition, resolved: resolved)
    }

    /// Publishes `definition` and waits until drone-controller holds its checksum (or refuses it).
    func send(_ definition: AirspaceDefinition, resolved: BroadcasterOptions.Resolved) async throws {
        var definition = definition
        let checksum = definition.checksum
        let timeoutS = timeout
        try await BusSession.oneShot(resolved) { client in
            let watch = try await ControllerWatch.open(client: client, drone: resolved.common.drone)
            try watch.requireController()
            let before = watch.feed.latest.airspace
            definition.timestampUs = WallClock.nowUs()
            do {
                try await client.publishAndWait(topic: Topics.airspace.topic(for: resolved.common.drone),
                                                payload: definition.encoded(), qos: 1, retain: false,
                                                expiryS: resolved.commandExpiryS)
            } catch {
                throw CLIFailure("airspace not acknowledged by the broker: \(error)")
            }
            let deadlineUs = MonotonicClock.nowUs() + Int64(timeoutS * 1_000_000)
            while MonotonicClock.nowUs() < deadlineUs {
                if let status = watch.feed.latest.airspace, status.sequence != before?.sequence
                    || status.accepted?.checksum == checksum {
                    if status.accepted?.checksum == checksum {
                        say("drone-controller holds airspace \(CRC32.text(checksum)) "
                            + "(\(status.accepted?.zoneCount ?? 0) zones)")
                        return
                    }
                    if let refusal = status.uploadRefusal, refusal.checksum == checksum {
                        throw CLIFailure("airspace refused by drone-controller: \(refusal.reason)")
                    }
                }
                try await Task.sleep(for: .milliseconds(20))
            }
            throw CLIFailure("airspace \(CRC32.text(checksum)): no acknowledgement from drone-controller within "
                + "\(TextFormat.fixed(timeoutS, digits: 1)) s; it holds "
                + (watch.feed.latest.airspace.map(Self.holding) ?? "nothing we heard of"))
        }
    }

    static func holding(_ status: AirspaceStatus) -> String {
        status.accepted.map { "\(CRC32.text($0.checksum)) (\($0.zoneCount) zones)" } ?? "no airspace"
    }

    func show() async throws {
        let resolved = try options.resolve()
        let local = try file.map { try limits.airspace(file: $0).1.definition(senderId: resolved.senderId) }
        let timeoutS = timeout
        try await BusSession.oneShot(resolved) { client in
            let watch = try await ControllerWatch.open(client: client, drone: resolved.common.drone)
            let deadlineUs = MonotonicClock.nowUs() + Int64(timeoutS * 1_000_000)
            while watch.feed.latest.airspace == nil, MonotonicClock.nowUs() < deadlineUs {
                try await Task.sleep(for: .milliseconds(20))
            }
            guard let status = watch.feed.latest.airspace else {
                throw CLIFailure("no airspace status from drone-controller for drone "
                    + "'\(resolved.common.drone)' within \(TextFormat.fixed(timeoutS, digits: 1)) s")
            }
            say("board: " + Self.holding(status))
            if let refusal = status.uploadRefusal {
                say("board's last refused upload: \(CRC32.text(refusal.checksum)): \(refusal.reason)")
            }
            if let refusal = status.targetRefusal {
                say("board's last refused target: \(refusal.latitudeDeg),\(refusal.longitudeDeg) "
                    + "\(refusal.violation.text)" + (refusal.zoneName.isEmpty ? "" : " '\(refusal.zoneName)'"))
            }
            guard let local, let file else { return }
            let same = status.accepted?.checksum == local.checksum
            say("file:  \(CRC32.text(local.checksum)) (\(local.zones.count) zones) "
                + "\(TextFormat.printable(file, width: 200)): " + (same ? "the same" : "differs from the board's"))
            if !same { throw ExitCode.failure }
        }
    }
}
