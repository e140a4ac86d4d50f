import BrokerNodes
import Foundation
import ProcessSupport
import Navigation
import QuadMQTT
import QuadProtocol
import Testing

/// `navigator --position gpsd:HOST:PORT`: the drone's position comes from a real gpsd (`ReplayedGPSD` with
/// walk.nmea, one epoch every 0.4 s), the heading from navdata; `telemetry/position` is ignored.
@Suite("navigator --position gpsd", .offPool, .serialized,
       .enabled(if: TestEnvironment.available("mosquitto", "gpsd")))
struct NavigatorGPSDTests {
    static let drone = "gpsnav1"
    static let walk = TestEnvironment.repoRoot.appendingPathComponent("Tests/GroundStationTests/Fixtures/walk.nmea")
    static let headingDeg: Float = 42
    /// North-east of the whole walk.
    static let target = GeoPoint(latitudeDeg: 52.5175, longitudeDeg: 13.3800)
    let broker: BrokerProcess

    init() throws { broker = try BrokerProcess() }

    func topic(_ path: String) -> String { "quad/\(Self.drone)/\(path)" }

    @Test("solutions follow the NMEA positions; heading from navdata; telemetry/position ignored")
    func followsGPSD() async throws {
        let walk = try Self.walkPositions()
        let bus = try await BusRecorder(port: broker.port, id: "rec-gpsnav",
                                        filters: [topic("telemetry/navigation"), topic("status/navigator")])
        let gpsd = try ReplayedGPSD(log: Self.walk, cycleS: 0.2, directory: broker.directory)
        defer { gpsd.stop() }
        let gpsdPort = gpsd.port
        let navigator = try ChildProcess(
            executable: TestEnvironment.executable("navigator").path,
            arguments: ["--broker", broker.address, "--drone", Self.drone,
                        "--position", "gpsd:127.0.0.1:\(gpsdPort)", "--no-fix-time-check"],
            logDirectory: broker.directory)
        defer { navigator.stop(signal: SIGKILL) }
        try await eventually(timeout: TestEnvironment.readinessTimeout, "navigator online\n\(navigator.output())") {
            bus.messages(on: topic("status/navigator")).contains {
                String(decoding: $0.message.payload, as: UTF8.self).contains(#""state":"online""#)
            } && navigator.output().contains("connected to gpsd")
        }
        gpsd.startReplay()

        // Navdata with a compass, a JSON target re-sent every second, and a telemetry position far away that the
        // navigator must not use.
        let talker = Task {
            var sequence: UInt32 = 0
            while !Task.isCancelled {
                sequence += 1
                let state = DroneState(
                    sequence: sequence, timestampUs: Int64(Date().timeIntervalSince1970 * 1e6),
                    navdataSequence: sequence, stateBits: 0, controlState: .hovering, batteryPercent: 80,
                    altitudeM: 2, pitchDeg: 0, rollDeg: 0, yawDeg: 0, velocityXMps: 0, velocityYMps: 0,
                    velocityZMps: 0, magnetoHeadingDeg: Self.headingDeg)
                _ = try? await bus.publish(topic("telemetry/drone"), state.encoded())
                let decoy = PositionFix(sequence: sequence, timestampUs: 1, latitudeDeg: 10, longitudeDeg: 10,
                                        source: .manual)
                _ = try? await bus.publish(topic("telemetry/position"), decoy.encoded())
                if sequence % 10 == 1 {
                    let json = #"{"lat":\#(Self.target.latitudeDeg),"lon":\#(Self.target.longitudeDeg)}"#
                    _ = try? await bus.publish(topic("target"), Array(json.utf8))
                }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        defer { talker.cancel() }

        func solutions() throws -> [NavigationSolution] {
            try bus.messages(on: topic("telemetry/navigation")).map {
                try NavigationSolution(decoding: $0.message.payload)
            }
        }
        let lastWalk = try #require(walk.last)
        try await eventually(timeout: .seconds(90),
                             "the walk's last position\n\(navigator.output())\n\(gpsd.gpsd.output())") {
            try solutions().contains { $0.droneLatitudeDeg > lastWalk.latitudeDeg - 1e-6 }
        }
        talker.cancel()
        #expect(navigator.stop(signal: SIGTERM) == 0, "\(navigator.output())")
        let all = try solutions()
        let output = navigator.output()
        #expect(output.contains("position from gpsd at 127.0.0.1:\(gpsdPort)"), "\(output)")
        #expect(output.contains("connected to gpsd"), "\(output)")
        // Every solution's drone position is one of the walk's fixes, never the telemetry decoy.
        for solution in all {
            let nearest = walk.map { abs($0.latitudeDeg - solution.droneLatitudeDeg)
                + abs($0.longitudeDeg - solution.droneLongitudeDeg) }.min() ?? .infinity
            #expect(nearest < 1e-6, "drone at \(solution.droneLatitudeDeg),\(solution.droneLongitudeDeg)")
            #expect(solution.headingDeg == Double(Self.headingDeg))
            #expect(abs(solution.targetLatitudeDeg - Self.target.latitudeDeg) < 1e-9)
        }
        // The positions advance along the walk, in its order, reaching its end. How many of the 30 epochs gpsd
        // reports is gpsd's business: on a starved machine it read several bunched epochs at once and reported 8
        // distinct positions (the navigator publishes one solution per fix it is given: NavigatorKit's tests).
        let distinct = all.map { GeoPoint(latitudeDeg: $0.droneLatitudeDeg, longitudeDeg: $0.droneLongitudeDeg) }
            .reduce(into: [GeoPoint]()) { if $0.last != $1 { $0.append($1) } }
        let walkIndices = distinct.map { point in
            walk.lastIndex {
                abs($0.latitudeDeg - point.latitudeDeg) + abs($0.longitudeDeg - point.longitudeDeg) < 1e-6
            }
        }
        #expect(distinct.count >= 3, "\(distinct)")
        for (a, b) in zip(walkIndices, walkIndices.dropFirst()) {
            #expect((a ?? .max) < (b ?? .min),
                "walk fix \(a.map(String.init) ?? "?") then \(b.map(String.init) ?? "?")")
        }
        #expect(walkIndices.last == walk.count - 1, "\(walkIndices)")
        // Distance and bearing are computed from the gpsd position.
        if let last = all.last {
            let from = GeoPoint(latitudeDeg: last.droneLatitudeDeg, longitudeDeg: last.droneLongitudeDeg)
            #expect(abs(Geodesy.inverse(from: from, to: Self.target).distanceM - last.distanceM) < 0.01)
        }
    }

    /// The fixes in walk.nmea (GGA sentences with a fix), in order.
    static func walkPositions() throws -> [GeoPoint] {
        try String(contentsOf: walk, encoding: .utf8).split(whereSeparator: \.isNewline)
            .compactMap { line -> GeoPoint? in
            let f = line.split(separator: ",", omittingEmptySubsequences: false)
            guard f.count > 6, f[0].hasSuffix("GGA"), f[6] != "0",
                  let lat = degrees(f[2], hemisphere: f[3], degreeDigits: 2),
                  let lon = degrees(f[4], hemisphere: f[5], degreeDigits: 3) else { return nil }
            return GeoPoint(latitudeDeg: lat, longitudeDeg: lon)
        }
    }

    /// NMEA `(d)ddmm.mmmm` → decimal degrees.
    static func degrees(_ text: Substring, hemisphere: Substring, degreeDigits: Int) -> Double? {
        guard text.count > degreeDigits, let d = Double(text.prefix(degreeDigits)),
              let m = Double(text.dropFirst(degreeDigits)) else { return nil }
        let value = d + m / 60
        return hemisphere == "S" || hemisphere == "W" ? -value : value
    }
}

/// `--position` is checked before anything connects: garbage exits non-zero with a message naming the problem.
@Suite("navigator --position parsing", .offPool)
struct NavigatorPositionOptionTests {
    @Test("bad --position values are refused clearly", arguments: [
        ("garbage", "--position: expected telemetry, gpsd or gpsd:HOST:PORT, got 'garbage'"),
        ("gpsd:", "--position: 'gpsd:': gpsd address is empty"),
        ("gpsd:127.0.0.1:99999", "--position: 'gpsd:127.0.0.1:99999': gpsd port '99999' is not a number in 1…65535"),
        ("GPSD", "got 'GPSD'"),
    ])
    func rejectsGarbage(value: String, message: String) async throws {
        let directory = try TestEnvironment.temporaryDirectory("navigator-options")
        defer { TestEnvironment.removeTemporaryDirectory(directory) }
        // Port 9 (discard): nothing is listening, and nothing must be tried before the options are validated.
        let run = try await runToEnd("navigator", ["--broker", "127.0.0.1:9", "--position", value],
                                     logDirectory: directory, timeoutS: 30)
        #expect(run.code != 0)
        #expect(run.output.contains(message), "\(run.output)")
    }
}
