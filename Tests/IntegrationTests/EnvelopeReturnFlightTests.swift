import Foundation
import Navigation
import Testing

/// The envelope's returns flown for real (drone-sim's ground truth is the judge): `return` from 80 m and the
/// low-battery rule. Its own suite, beside `EnvelopeFlightTests` (whose helpers it uses), so the two run in parallel.
@Suite("Envelope flights: returns", .offPool, .serialized,
       .enabled(if: TestEnvironment.available("mosquitto", "mosquitto_pub")))
struct EnvelopeReturnFlightTests {
    @Test("location-broadcaster return from 80 m: flies home, hovers, lands within 2 m of the takeoff point")
    func returnHome() async throws {
        let stack = try await EnvelopeFlightTests.flownOut(bearingDeg: 60, distanceM: 80,
                                                           controllerArguments: ["--max-speed", "3"])
        defer { stack.stop() }
        let run = try await runToEnd("location-broadcaster", ["return", "--timeout", "10"] + stack.common,
                                     logDirectory: stack.broker.directory)
        #expect(run.code == 0, "\(run.output)")
        try await eventually(timeout: .seconds(EnvelopeFlightTests.phaseS) * 3, "landed\n\(stack.logs())") {
            stack.lastRow()?.flightState == "landed"
        }
        let landed = try #require(stack.trace().last)
        #expect(landed.distanceM(to: stack.home) < 2, "landed \(landed.distanceM(to: stack.home)) m from home")
        let log = EnvelopeFlightTests.controllerLog(stack)
        #expect(log.contains("returning_home (return)") && log.contains("landing (returned-home)"),
                "\(log.suffix(2000))")
    }

    /// drone-sim drains a full battery in 3 minutes; --land-battery 65 fires about 10 s after the drone reached
    /// a target 120 m away. Whether it comes home depends only on the battery it must keep (--battery-reserve).
    static func lowBatteryFlight(reservePercent: Int) async throws -> FlightStack {
        let stack = try FlightStack(simArguments: EnvelopeFlightTests.quietGPS + ["--battery-minutes", "3"],
                                    controllerArguments: ["--max-speed", "3", "--land-battery", "65",
                                                          "--battery-reserve", "\(reservePercent)"])
        try await stack.waitUntilReady()
        try await EnvelopeFlightTests.takeOffToCruise(stack)
        try stack.publishTarget(stack.target(bearingDeg: 0, distanceM: 120))
        // A hang guard: out 120 m, the battery's 10 s, back and down take ~100 s of the flight.
        try await eventually(timeout: .seconds(EnvelopeFlightTests.phaseS) * 5, "landed\n\(stack.logs())") {
            let trace = stack.trace()
            return trace.contains { $0.distanceM(to: stack.home) > 100 } && trace.last?.flightState == "landed"
        }
        return stack
    }

    @Test("low battery 120 m from home, the battery left covers the way: returns and lands at home")
    func lowBatteryReturns() async throws {
        let stack = try await Self.lowBatteryFlight(reservePercent: 6)
        defer { stack.stop() }
        let landed = try #require(stack.trace().last)
        #expect(landed.distanceM(to: stack.home) < 2, "landed \(landed.distanceM(to: stack.home)) m from home")
        let log = EnvelopeFlightTests.controllerLog(stack)
        #expect(log.contains("returning_home (battery-low-return)") && log.contains("landing (returned-home)"),
                "\(log.suffix(2000))")
    }

    @Test("low battery 120 m from home, too far for what it must keep: lands in place (battery-low-cannot-return)")
    func lowBatteryTooFarLands() async throws {
        let stack = try await Self.lowBatteryFlight(reservePercent: 50)
        defer { stack.stop() }
        let landed = try #require(stack.trace().last)
        #expect(landed.distanceM(to: stack.home) > 100, "landed \(landed.distanceM(to: stack.home)) m from home")
        #expect(EnvelopeFlightTests.controllerLog(stack).contains("landing (battery-low-cannot-return)"))
    }
}
