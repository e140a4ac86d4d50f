import Testing
@testable import DroneSimulation

@Suite struct GroundTruthTraceTests {
    @Test func headerStartsWithTheContractColumns() {
        #expect(GroundTruthTrace.header.hasPrefix("time_s,lat,lon,altitude_m,heading_deg,flight_state"))
    }

    @Test func rowHasOneFieldPerHeaderColumn() {
        var drone = DroneHarness.makeDrone(headingDeg: 45.5)
        DroneHarness.takeOff(&drone)
        let row = GroundTruthTrace.row(timeS: 3.25, drone: drone)
        let fields = row.split(separator: ",", omittingEmptySubsequences: false)
        #expect(fields.count == GroundTruthTrace.header.split(separator: ",").count)
        #expect(fields[0] == "3.250")
        #expect(fields[1] == "52.52000000")
        #expect(fields[2] == "13.40500000")
        #expect(fields[4] == "45.50")
        #expect(fields[5] == "hovering")
    }

    @Test func emergencyIsNamedInTheStateColumn() {
        var drone = DroneHarness.makeDrone()
        drone.applyReference(bits: SimulatedDrone.emergencyBit)
        let fields = GroundTruthTrace.row(timeS: 0, drone: drone).split(separator: ",")
        #expect(fields[5] == "emergency")
    }

    @Test(arguments: [(1.5, 2, "1.50"), (-0.004, 2, "0.00"), (-2.345, 1, "-2.3"), (12.0, 0, "12"), (0.05, 3, "0.050")])
    func fixedFormatting(value: Double, decimals: Int, expected: String) {
        #expect(GroundTruthTrace.fixed(value, decimals) == expected)
    }
}
