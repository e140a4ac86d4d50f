import Testing
import Navigation
@testable import DroneSimulation

@Suite struct SensorReadingsTests {
    @Test func gpsIsNearTheTruePositionWithNoise() {
        var drone = DroneHarness.makeDrone { $0.gpsNoiseM = 2 }
        DroneHarness.takeOff(&drone)
        drone.applyProgressiveCommand(DroneHarness.pcmd(pitch: -1))
        DroneHarness.run(&drone, seconds: 4)
        let truth = drone.truePosition
        #expect(Geodesy.inverse(from: DroneHarness.home, to: truth).distanceM > 10)
        var errors: [Double] = []
        for _ in 0..<200 {
            let gps = drone.readSensors().gps
            let fix = GeoPoint(latitudeDeg: gps.latitudeDeg, longitudeDeg: gps.longitudeDeg)
            errors.append(Geodesy.inverse(from: truth, to: fix).distanceM)
        }
        #expect(errors.contains { $0 > 0.5 })
        #expect(errors.allSatisfy { $0 < 15 })
    }

    @Test func truePositionMatchesLocalOffsets() {
        var drone = DroneHarness.makeDrone(headingDeg: 90)
        DroneHarness.takeOff(&drone)
        drone.applyProgressiveCommand(DroneHarness.pcmd(pitch: -0.5))
        DroneHarness.run(&drone, seconds: 4)
        let inverse = Geodesy.inverse(from: DroneHarness.home, to: drone.truePosition)
        #expect(abs(inverse.distanceM - drone.eastM) < 0.05)
        #expect(abs(inverse.initialBearingDeg - 90) < 0.5)
    }

    @Test func demoFieldsUseWireUnitsAndBodyFrame() {
        var drone = DroneHarness.makeDrone(headingDeg: 270)
        DroneHarness.takeOff(&drone)
        drone.applyProgressiveCommand(DroneHarness.pcmd(pitch: -0.5))
        DroneHarness.run(&drone, seconds: 3)
        let demo = drone.demoReadings
        #expect(demo.controlState >> 16 == UInt32(FlightState.flying.rawValue))
        #expect(abs(Double(demo.altitudeMm) - drone.altitudeM * 1000) < 1)
        #expect(demo.vxMmps > 2000)
        #expect(abs(demo.vyMmps) < 10)
        #expect(demo.pitchMdeg < -5000)
        #expect(abs(demo.yawMdeg + 90_000) < 1)
        #expect(demo.batteryPct <= 100 && demo.batteryPct > 90)
    }

    @Test func sameSeedGivesIdenticalReadingsDifferentSeedDifferentNoise() {
        func trajectory(seed: UInt64) -> [SensorReadings] {
            var drone = DroneHarness.makeDrone(seed: seed) { $0.wind = Wind(speedMps: 1, fromDeg: 45) }
            drone.applyReference(bits: DroneHarness.takeoffBits)
            var readings: [SensorReadings] = []
            for step in 0..<600 {
                if step == 300 { drone.applyProgressiveCommand(DroneHarness.pcmd(roll: 0.3, yaw: 0.2)) }
                drone.step(dtS: 0.01)
                if step % 10 == 0 { readings.append(drone.readSensors()) }
            }
            return readings
        }
        #expect(trajectory(seed: 5) == trajectory(seed: 5))
        #expect(trajectory(seed: 5) != trajectory(seed: 6))
    }
}
