#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Navigation

extension SimulatedDrone {
    /// The true position as latitude/longitude: home moved by the local east/north offsets.
    public var truePosition: GeoPoint {
        SimulatedDrone.offset(home, eastM: eastM, northM: northM)
    }

    /// The true position moved by an estimator's error (metres north and east).
    public func truePosition(erredByNorthM errorNorthM: Double, eastM errorEastM: Double) -> GeoPoint {
        SimulatedDrone.offset(home, eastM: eastM + errorEastM, northM: northM + errorNorthM)
    }

    /// Samples the sensors. Mutating because the noise comes from the drone's seeded generator.
    public mutating func readSensors() -> SensorReadings {
        let gps = readGPS().reading
        let magneto = Geodesy.wrapDeg360(headingDeg + random.nextGaussian() * parameters.magnetoNoiseDeg)
        return SensorReadings(gps: gps, magnetoHeadingDeg: magneto, demo: demoReadings)
    }

    /// One GPS fix: the true position plus independent Gaussian noise per fix (`gpsNoiseM` per horizontal axis,
    /// 1.5× that vertically), and the horizontal noise drawn, in metres, for an estimator that fuses the fix.
    /// The simulator's one GPS noise model: navdata and the MAVLink faces both read it here.
    public mutating func readGPS() -> (reading: GPSReading, noiseNorthM: Double, noiseEastM: Double) {
        let noiseEastM = random.nextGaussian() * parameters.gpsNoiseM
        let noiseNorthM = random.nextGaussian() * parameters.gpsNoiseM
        let noiseUpM = random.nextGaussian() * parameters.gpsNoiseM * 1.5
        let fix = SimulatedDrone.offset(home, eastM: eastM + noiseEastM, northM: northM + noiseNorthM)
        let gps = GPSReading(
            latitudeDeg: fix.latitudeDeg, longitudeDeg: fix.longitudeDeg, elevationM: altitudeM + noiseUpM,
            speedMps: groundSpeedMps, satelliteCount: 9
        )
        return (gps, noiseNorthM, noiseEastM)
    }

    /// Demo navdata fields from the true state (the real drone's fused estimates are good enough for this).
    public var demoReadings: DemoReadings {
        let headingRad = headingDeg * .pi / 180
        let forwardMps = velocityEastMps * sin(headingRad) + velocityNorthMps * cos(headingRad)
        let rightMps = velocityEastMps * cos(headingRad) - velocityNorthMps * sin(headingRad)
        return DemoReadings(
            controlState: UInt32(flightState.rawValue) << 16 | UInt32(minorState),
            batteryPct: UInt32(batteryPct.rounded(.up).clamped(0, 100)),
            pitchMdeg: Float(pitchDeg * 1000),
            rollMdeg: Float(rollDeg * 1000),
            yawMdeg: Float(Geodesy.wrapDeg180(headingDeg) * 1000),
            altitudeMm: Int32((altitudeM * 1000).rounded().clamped(0, 1_000_000)),
            vxMmps: Float(forwardMps * 1000),
            vyMmps: Float(rightMps * 1000),
            vzMmps: Float(verticalSpeedMps * 1000)
        )
    }

    static func offset(_ origin: GeoPoint, eastM: Double, northM: Double) -> GeoPoint {
        LocalTangentPlane(origin: origin).point(.init(eastM: eastM, northM: northM))
    }
}

extension Double {
    func clamped(_ low: Double, _ high: Double) -> Double {
        guard !isNaN else { return low }
        return Swift.min(high, Swift.max(low, self))
    }
}
