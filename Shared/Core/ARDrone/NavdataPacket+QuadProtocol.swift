import Clocks
import QuadProtocol

extension NavdataPacket {
    /// The bus message for this packet; nil when there is no demo option (bootstrap packets, or the
    /// status-only packets sent while a config is applied).
    public func droneState(sequence: UInt32, stamp: WallInstant) -> DroneState? {
        guard let demo else { return nil }
        let controlState = DroneState.ControlState(rawValue: UInt8(clamping: demo.majorState)) ?? .unknown
        return DroneState(
            sequence: sequence, timestampUs: stamp.us, navdataSequence: self.sequence, stateBits: state.rawValue,
            controlState: controlState, controlMinorState: demo.minorState,
            batteryPercent: UInt8(clamping: min(demo.batteryPercent, 100)), altitudeM: demo.altitudeM,
            pitchDeg: demo.pitchDeg, rollDeg: demo.rollDeg, yawDeg: demo.yawDeg,
            velocityXMps: demo.velocityXMps, velocityYMps: demo.velocityYMps, velocityZMps: demo.velocityZMps,
            magnetoHeadingDeg: magneto.flatMap { Self.compassDeg($0.headingFusionUnwrappedDeg) })
    }

    /// A position from the GPS option when it carries a fix (see `NavdataGPS.hasFix`), else nil.
    /// Heading stays nil: the GPS `degree` is a course over ground, and a quadcopter can fly sideways.
    public func positionFix(sequence: UInt32, stamp: WallInstant) -> PositionFix? {
        guard let gps, gps.hasFix else { return nil }
        let altitudeM = gps.elevationM.isFinite ? Float(gps.elevationM) : nil
        let accuracyM = gps.ehpe.isFinite && gps.ehpe > 0 ? gps.ehpe : nil
        return PositionFix(sequence: sequence, timestampUs: stamp.us, latitudeDeg: gps.latitudeDeg,
                           longitudeDeg: gps.longitudeDeg, altitudeM: altitudeM, headingDeg: nil,
                           horizontalAccuracyM: accuracyM, satellites: UInt8(clamping: gps.satelliteCount),
                           source: .droneGPS)
    }

    /// An unwrapped heading folded into [0, 360); nil when not finite.
    static func compassDeg(_ unwrappedDeg: Float) -> Float? {
        guard unwrappedDeg.isFinite else { return nil }
        var heading = unwrappedDeg.truncatingRemainder(dividingBy: 360)
        if heading < 0 {
            heading += 360
        }
        // -1e-6 + 360 rounds to 360 in Float.
        return heading >= 360 ? 0 : heading
    }
}

extension NavdataGPS {
    /// The receiver reports data (`dataAvailable` ≠ 0) and the coordinates are a real position: finite, in range,
    /// and not the 0/0 a receiver without a fix fills in. `gpsState` is not used: no source documents its values.
    public var hasFix: Bool {
        dataAvailable != 0
            && latitudeDeg.isFinite && longitudeDeg.isFinite
            && (-90...90).contains(latitudeDeg) && (-180...180).contains(longitudeDeg)
            && !(latitudeDeg == 0 && longitudeDeg == 0)
    }
}
