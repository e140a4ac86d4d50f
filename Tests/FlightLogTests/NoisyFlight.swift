#if canImport(Glibc)
import Glibc
#endif
import DroneSimulation
import FlightLog
import Navigation
import QuadProtocol

/// An out-and-back flight as drone-sim flies and reports it: 10 s landed, takeoff, 44.35 m out at 1 m/s (speed
/// following its command with drone-sim's 0.7 s lag), 10 s hover, back, 10 s hover, landing: 88.7 m flown. Fixes
/// carry drone-sim's default GPS noise, made the way it makes it (`SeededRandom.nextGaussian`, white, σ per axis),
/// at its navdata rate; a DroneState goes with every fix.
struct NoisyFlight {
    static let origin = GeoPoint(latitudeDeg: 52.516_27, longitudeDeg: 13.377_70)
    static let startUs: Int64 = 1_714_566_896_000_000
    static let legM = 44.35
    static let bearingDeg = 40.0

    var noiseM = 1.5
    var rateHz = 15.0
    var seed: UInt64 = 1

    struct Sample {
        var atUs: Int64
        var alongM: Double
        var state: DroneState.ControlState
    }

    /// The true distance from home along the leg at each fix, and the drone's state then.
    func truth() -> [Sample] {
        let dtS = 1 / rateHz
        var samples: [Sample] = []
        var alongM = 0.0, speedMps = 0.0
        func advance(towardMps target: Double, state: DroneState.ControlState) {
            speedMps += (target - speedMps) * dtS / 0.7
            alongM += speedMps * dtS
            let atUs = Self.startUs + Int64((Double(samples.count) / rateHz * 1_000_000).rounded())
            samples.append(Sample(atUs: atUs, alongM: alongM, state: state))
        }
        func hold(_ seconds: Double, _ state: DroneState.ControlState) {
            for _ in 0..<Int(seconds * rateHz) { advance(towardMps: 0, state: state) }
        }
        hold(10, .landed)
        hold(3, .takingOff)
        hold(2, .hovering)
        // Commanded speed drops to 0 where the lag lets it stop at the end of the leg.
        while alongM < Self.legM - 0.7 { advance(towardMps: 1, state: .flying) }
        hold(10, .hovering)
        while alongM > 0.7 { advance(towardMps: -1, state: .flying) }
        hold(10, .hovering)
        hold(2, .landing)
        hold(5, .landed)
        return samples
    }

    /// The true distance flown (the sum of the true steps).
    func truthDistanceM() -> Double {
        zip(truth(), truth().dropFirst()).reduce(0) { $0 + abs($1.1.alongM - $1.0.alongM) }
    }

    func entries() -> [DecodedLogEntry] {
        var random = SeededRandom(seed: seed)
        let plane = LocalTangentPlane(origin: Self.origin)
        let bearingRad = Self.bearingDeg * .pi / 180
        var entries: [DecodedLogEntry] = []
        for (index, sample) in truth().enumerated() {
            let sequence = UInt32(index)
            entries.append(DecodedLogEntry(receiveTimeUs: sample.atUs, topic: "quad/drone1/telemetry/drone",
                message: DroneState(sequence: sequence, timestampUs: sample.atUs, navdataSequence: sequence,
                                    stateBits: 0, controlState: sample.state, batteryPercent: 90,
                                    altitudeM: sample.state == .landed ? 0 : 1, pitchDeg: 0, rollDeg: 0, yawDeg: 40,
                                    velocityXMps: 0, velocityYMps: 0, velocityZMps: 0)))
            let fix = plane.point(.init(eastM: sample.alongM * sin(bearingRad) + random.nextGaussian() * noiseM,
                                        northM: sample.alongM * cos(bearingRad) + random.nextGaussian() * noiseM))
            entries.append(DecodedLogEntry(receiveTimeUs: sample.atUs + 1_000, topic: "quad/drone1/telemetry/position",
                message: PositionFix(sequence: sequence, timestampUs: sample.atUs, latitudeDeg: fix.latitudeDeg,
                                     longitudeDeg: fix.longitudeDeg, altitudeM: 35, satellites: 9, source: .gpsd)))
        }
        return entries
    }
}
