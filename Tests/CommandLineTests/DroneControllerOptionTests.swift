import ArgumentParser
import Foundation
import FlightControl
import Testing
@testable import DroneControllerKit

@Suite("drone-controller options")
struct DroneControllerOptionTests {
    static let numeric = [
        "--arrival-radius", "--yaw-gain", "--forward-speed", "--aligned-within", "--slowdown-radius", "--wind-gain",
        "--tick-hz", "--stale-after-ms", "--lost-pilot-land-after", "--land-battery", "--geofence-radius",
        "--takeoff-timeout", "--progress-margin", "--progress-timeout", "--abandoned-return-land-after",
        "--arrival-window-ms", "--cruise-altitude", "--max-altitude", "--altitude-tolerance", "--return-hover",
        "--battery-reserve", "--lost-pilot-return-after", "--ground-link-timeout",
        "--command-max-age", "--autopilot-cruise",
    ]

    @Test("every numeric flag takes a negative value up to its own range check", arguments: numeric)
    func negative(_ option: String) {
        expectNegativeReaches(DroneControllerCommand.self, option)
    }

    @Test("a negative gain is refused by name, not as a missing value")
    func refusedByName() throws {
        let options = try ControllerOptions.parse(["--wind-gain", "-0.1"])
        #expect(options.windGain == -0.1)
        #expect(throws: ValidationError.self) { try options.configuration() }
    }

    @Test("--on-airspace-breach leave|return|land reaches the failsafe policy; anything else is refused by name")
    func airspaceBreach() throws {
        #expect(try ControllerOptions.parse([]).failsafes().airspaceBreach == .leave)
        let choices: [(String, FailsafePolicy.AirspaceBreach)] = [("leave", .leave), ("return", .returnHome),
                                                                 ("land", .land)]
        for (value, policy) in choices {
            #expect(try ControllerOptions.parse(["--on-airspace-breach", value]).failsafes().airspaceBreach == policy)
        }
        let wrong = try ControllerOptions.parse(["--on-airspace-breach", "hover"])
        #expect(throws: ValidationError.self) { try wrong.failsafes() }
    }

    @Test("--autopilot-cruise reaches the configuration (default 5 m/s); 0 turns it off; above 5 m/s is refused")
    func autopilotCruise() throws {
        #expect(try ControllerOptions.parse([]).configuration().autopilotCruiseSpeedMps == 5)
        for arguments in bothSpellings("--autopilot-cruise", "3.5") {
            #expect(try ControllerOptions.parse(arguments).configuration().autopilotCruiseSpeedMps == 3.5)
        }
        #expect(try ControllerOptions.parse(["--autopilot-cruise", "0"]).configuration().autopilotCruiseSpeedMps == nil)
        for bad in ["5.5", "-1", "nan"] {
            #expect(throws: ValidationError.self) {
                try ControllerOptions.parse(["--autopilot-cruise", bad]).configuration()
            }
        }
    }

    @Test("--ground-link-timeout reaches the configuration; 0 turns it off; between 0 and 0.2 s is refused")
    func groundLinkTimeout() throws {
        for arguments in bothSpellings("--ground-link-timeout", "3") {
            #expect(try ControllerOptions.parse(arguments).configuration().groundLinkTimeout == .seconds(3))
        }
        #expect(try ControllerOptions.parse(["--ground-link-timeout", "0"]).configuration().groundLinkTimeout == .zero)
        #expect(try ControllerOptions.parse([]).configuration().groundLinkTimeout == .milliseconds(1500))
        for bad in ["0.1", "-1"] {
            #expect(
                throws: ValidationError.self) {
                    try ControllerOptions.parse(["--ground-link-timeout", bad]).configuration()
                }
        }
        for arguments in bothSpellings("--command-max-age", "2.5") {
            #expect(try ControllerOptions.parse(arguments).configuration().commandMaxAge == .milliseconds(2500))
        }
        #expect(
            throws: ValidationError.self) { try ControllerOptions.parse(["--command-max-age", "-1"]).configuration() }
    }

    /// docs/flying.md's list of drone-controller's flags (README's table row until issue 28): `--flag` (default)
    /// pairs must match what the code parses.
    @Test("docs/flying.md documents the defaults the code has")
    func readmeDefaults() throws {
        let page = try String(contentsOf: repoRoot.appendingPathComponent("docs/flying.md"), encoding: .utf8)
        let section = try #require(Self.section("## drone-controller's flags", of: page))
        let documented = Self.documentedDefaults(section)
        #expect(Set(documented.keys) == Set(Self.numeric), "docs/flying.md lists \(documented.keys.sorted())")
        let o = try ControllerOptions.parse([])
        let parsed: [String: Double] = [
            "--arrival-radius": o.arrivalRadius, "--yaw-gain": o.yawGain, "--forward-speed": o.forwardSpeed,
            "--aligned-within": o.alignedWithin, "--slowdown-radius": o.slowdownRadius, "--wind-gain": o.windGain,
            "--tick-hz": o.tickHz, "--stale-after-ms": Double(o.staleAfterMs),
            "--lost-pilot-land-after": o.lostPilotLandAfter, "--land-battery": Double(o.landBattery),
            "--geofence-radius": o.geofenceRadius, "--takeoff-timeout": o.takeoffTimeout,
            "--autopilot-cruise": o.autopilotCruise,
            "--progress-margin": o.progressMargin, "--progress-timeout": o.progressTimeout,
            "--abandoned-return-land-after": o.abandonedReturnLandAfter,
            "--arrival-window-ms": Double(o.arrivalWindowMs),
            "--cruise-altitude": o.cruiseAltitude, "--max-altitude": o.maxAltitude,
            "--altitude-tolerance": o.altitudeTolerance, "--return-hover": o.returnHover,
            "--battery-reserve": o.batteryReserve, "--lost-pilot-return-after": o.lostPilotReturnAfter,
            "--ground-link-timeout": o.groundLinkTimeout, "--command-max-age": o.commandMaxAge,
        ]
        for (flag, readmeValue) in documented {
            #expect(parsed[flag] == readmeValue,
                    "\(flag): docs/flying.md says \(readmeValue), the code \(parsed[flag] ?? .nan)")
        }
    }

    /// The lines under `heading` up to the next heading, joined into one line (the list wraps anywhere).
    static func section(_ heading: String, of page: String) -> String? {
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0 == heading }) else { return nil }
        let body = lines[(start + 1)...].prefix { !$0.hasPrefix("#") }
        return body.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }

    /// "`--arrival-radius` (1), `--wind-gain` (0.15; 0 = …)" → flag: number.
    static func documentedDefaults(_ row: String) -> [String: Double] {
        var result: [String: Double] = [:]
        var rest = Substring(row)
        while let open = rest.range(of: "`--") {
            guard let close = rest[open.upperBound...].firstIndex(of: "`") else { break }
            let flag = "--" + rest[open.upperBound..<close]
            rest = rest[rest.index(after: close)...]
            let trimmed = rest.drop { $0 == " " }
            guard trimmed.first == "(" else { continue }
            let number = trimmed.dropFirst().prefix { $0.isNumber || $0 == "." || $0 == "-" }
            if let value = Double(number) { result[flag] = value }
        }
        return result
    }

    /// Issue 33, item 17: `--max-speed 2` is a maximum. The commands it configures never ask for more than 2 m/s
    /// (pitch and roll together, at 5 m/s full tilt), even at the start of a leg (measured 0, so the speed feedback
    /// wants more) or with a lagging autopilot read as a headwind; before, they asked for up to 3 m/s.
    @Test("--max-speed 2: no command asks for more than 2 m/s, in the law or the position hold")
    func maxSpeedIsAMaximum() throws {
        let configuration = try ControllerOptions.parse(["--max-speed", "2"]).configuration()
        let wind = configuration.windCompensation
        let cruise = configuration.controlLaw.cruiseForwardFrac
        let hold = PositionHold(gainPerS: configuration.positionGainPerS, maxSpeedMps: 2, compensation: wind)
        for (forwardMps, rightMps, headwindMps) in [(0.0, 0.0, 0.0), (1.0, 0.5, 1.0), (2.0, -1.5, 3.0)] {
            let law = wind.correct(pitchFrac: Float(-cruise), forwardMps: forwardMps, rightMps: rightMps,
                                   windForwardMps: -headwindMps, windRightMps: headwindMps)
            let held = hold.steer(northM: 4, eastM: 3, headingDeg: 0, forwardMps: forwardMps, rightMps: rightMps,
                                  windForwardMps: -headwindMps, windRightMps: headwindMps)
            for tilt in [law, held] {
                let tiltFrac = (tilt.pitchFrac * tilt.pitchFrac + tilt.rollFrac * tilt.rollFrac).squareRoot()
                let speedMps = Double(tiltFrac) * 5
                #expect(speedMps <= 2 + 1e-5, "asks for \(speedMps) m/s: \(tilt)")
            }
        }
    }
}
