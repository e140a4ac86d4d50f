import Foundation
import Navigation
import ProcessSupport
import Testing

/// Issue 26, item 4 for PX4: the same scenario (parity_px4.py: arm after home, takeoff, offboard, setpoints lost)
/// flown against the real PX4 SITL and against drone-sim; the acknowledgements, the mode/armed sequence, the story
/// told in STATUSTEXT and the failsafe's delay must be the same. Needs the real autopilot: `make autopilots`
/// (QUAD_AUTOPILOTS=1) runs it; `make test` skips it.
@Suite("Parity: drone-sim's PX4 face and the real PX4 SITL", .offPool, .serialized,
       .enabled(if: ProcessInfo.processInfo.environment["QUAD_AUTOPILOTS"] == "1" && AutopilotSITL.available
                && PythonTools.available))
struct PX4ParityTests {
    struct Outcome: Decodable, Equatable {
        var acks: [String]
        var modes: [String]
        var texts: [String]
        var takeoffAltitudeM: Double
        var failsafeAfterS: Double?

        enum CodingKeys: String, CodingKey {
            case acks, modes, texts
            case takeoffAltitudeM = "takeoff_alt_m"
            case failsafeAfterS = "failsafe_after_s"
        }
    }

    static func fly(listenPort: UInt16, logDirectory: URL) async throws -> Outcome {
        let run = try await PythonTools.run("parity_px4.py", ["\(listenPort)"], logDirectory: logDirectory,
                                            timeoutS: 150)
        let line = run.output.split(separator: "\n").last { $0.hasPrefix("{") }
        guard run.status == 0, let line else {
            throw TestEnvironmentError.missing("a parity outcome: \(run.output.suffix(3000))")
        }
        return try JSONDecoder().decode(Outcome.self, from: Data(line.utf8))
    }

    @Test("MIS_TAKEOFF_ALT 4, takeoff; setpoints lost: the same acks, modes, story, takeoff altitude, failsafe delay")
    func offboardLoss() async throws {
        let home = GeoPoint(latitudeDeg: 52.5163, longitudeDeg: 13.3777)
        let px4 = try await AutopilotSITL.start(.px4, home: home)
        defer { px4.stop() }
        let real = try await Self.fly(listenPort: px4.linkPort, logDirectory: px4.directory)
        px4.stop()

        let sim = try MAVLinkFlightTests.Simulator(label: "parity")
        let simulated = try await Self.fly(listenPort: sim.clientPort, logDirectory: sim.directory)
        let both = "real PX4: \(real)\ndrone-sim: \(simulated)"
        #expect(simulated.acks == real.acks, "\(both)")
        #expect(simulated.modes == real.modes, "\(both)")
        #expect(simulated.texts == real.texts, "\(both)")
        // Issue 33, item 14: both climb to the MIS_TAKEOFF_ALT set (4 m), not to a default or a ceiling.
        print(String(format: "autopilots: px4 parity: MIS_TAKEOFF_ALT 4: the real PX4 held %.2f m, drone-sim %.2f m",
                     real.takeoffAltitudeM, simulated.takeoffAltitudeM))
        #expect(abs(real.takeoffAltitudeM - 4) < 0.5 && abs(simulated.takeoffAltitudeM - real.takeoffAltitudeM) < 0.5,
                "\(both)")
        // COM_OF_LOSS_T is 1 s; the real PX4 measured 1.06–1.73 s on this shared 2-core machine (it runs late
        // under load), so it gets more slack than the simulator.
        #expect(real.failsafeAfterS.map { (0.8...2.5).contains($0) } == true, "\(both)")
        #expect(simulated.failsafeAfterS.map { (0.8...1.6).contains($0) } == true, "\(both)")
    }
}
