import Foundation
import Testing

/// Issue 25 in wind and noise, judged by drone-sim's ground truth: a 20 m leg, arrival, `return`, landing. The
/// return lands within 1 m of the takeoff point with GPS noise 0.2 and 0.5 m (2 m with the default 1.5 m: the
/// closed-loop suite), ≤ 25 s after the drone came within 5 m of it, in still air and in 3 m/s wind from 0°, 90°,
/// 180° and 270°; the yaw is never at full scale near the goal. Slow: `make faults` (QUAD_FAULTS=1) runs it.
@Suite("Fault injection: arrive and return in wind and GPS noise", .offPool,
       .enabled(if: ProcessInfo.processInfo.environment["QUAD_FAULTS"] == "1"
                && TestEnvironment.available("mosquitto", "mosquitto_pub")))
struct FaultInjectionReturnTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var gpsNoiseM: Double
        var windFromDeg: Double?
        var testDescription: String {
            "noise \(gpsNoiseM) m, " + (windFromDeg.map { "3 m/s wind from \(Int($0))°" } ?? "still air")
        }
        var simArguments: [String] {
            ["--gps-noise", "\(gpsNoiseM)"] + (windFromDeg.map { ["--wind", "3,\(Int($0))"] } ?? [])
        }
    }

    static let cases = [Case(gpsNoiseM: 0.2), Case(gpsNoiseM: 0.5)]
        + [0.0, 90, 180, 270].map { Case(gpsNoiseM: 0.2, windFromDeg: $0) }

    @Test(arguments: cases)
    func returnLandsOnHome(_ row: Case) async throws {
        try await FlightSlots.run {
            let flight = try await ReturnFlight.fly(simArguments: row.simArguments)
            FaultInjectionTests.measured("return, \(row.testDescription)", "\(flight)")
            #expect(flight.arrivedWithinM < 1, "hovered up to \(flight.arrivedWithinM) m from the target")
            #expect(flight.landedFromHomeM < 1, "landed \(flight.landedFromHomeM) m from home")
            #expect(flight.landedAfterWithin5mS <= 25, "landed \(flight.landedAfterWithin5mS) s after within 5 m")
            #expect(flight.maxYawNearGoal < 1, "full yaw near the goal")
        }
    }
}
