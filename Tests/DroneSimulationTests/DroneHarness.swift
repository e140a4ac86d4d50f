@testable import DroneSimulation
import Navigation

/// Helpers to fly a SimulatedDrone in tests at 100 Hz.
enum DroneHarness {
    static let home = GeoPoint(latitudeDeg: 52.52, longitudeDeg: 13.405)
    static let takeoffBits: UInt32 = 0x1154_0000 | SimulatedDrone.flyBit
    static let landBits: UInt32 = 0x1154_0000

    static func makeDrone(
        headingDeg: Double = 0, seed: UInt64 = 1, configure: (inout SimulationParameters) -> Void = { _ in }
    ) -> SimulatedDrone {
        var parameters = SimulationParameters()
        configure(&parameters)
        return SimulatedDrone(home: home, headingDeg: headingDeg, parameters: parameters, seed: seed)
    }

    static func run(_ drone: inout SimulatedDrone, seconds: Double, dtS: Double = 0.01) {
        let steps = Int((seconds / dtS).rounded())
        for _ in 0..<steps { drone.step(dtS: dtS) }
    }

    /// Takes off and waits until hovering (or the time limit).
    static func takeOff(_ drone: inout SimulatedDrone, limitS: Double = 10) {
        drone.applyReference(bits: takeoffBits)
        var t = 0.0
        while drone.flightState != .hovering, t < limitS {
            drone.step(dtS: 0.01)
            t += 0.01
        }
    }

    static func pcmd(roll: Double = 0, pitch: Double = 0, gaz: Double = 0, yaw: Double = 0) -> ProgressiveCommand {
        ProgressiveCommand(flag: 1, roll: roll, pitch: pitch, gaz: gaz, yaw: yaw)
    }
}
