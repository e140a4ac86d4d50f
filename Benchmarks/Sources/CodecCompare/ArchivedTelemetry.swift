import Foundation
import QuadProtocol

// NSSecureCoding classes for the telemetry messages.

final class ArchivedNavigationSolution: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let sequence: UInt32, timestampUs: Int64, targetSequence: UInt32
    let targetLatitudeDeg: Double, targetLongitudeDeg: Double, droneLatitudeDeg: Double, droneLongitudeDeg: Double
    let distanceM: Double, bearingDeg: Double, headingDeg: Double, directionDifferenceDeg: Double
    let positionAgeMs: UInt32, headingAgeMs: UInt32, targetAgeMs: UInt32

    init(_ m: NavigationSolution) {
        (sequence, timestampUs, targetSequence) = (m.sequence, m.timestampUs, m.targetSequence)
        (targetLatitudeDeg, targetLongitudeDeg) = (m.targetLatitudeDeg, m.targetLongitudeDeg)
        (droneLatitudeDeg, droneLongitudeDeg) = (m.droneLatitudeDeg, m.droneLongitudeDeg)
        (distanceM, bearingDeg, headingDeg, directionDifferenceDeg) =
            (m.distanceM, m.bearingDeg, m.headingDeg, m.directionDifferenceDeg)
        (positionAgeMs, headingAgeMs, targetAgeMs) = (m.positionAgeMs, m.headingAgeMs, m.targetAgeMs)
    }

    func encode(with c: NSCoder) {
        c.put(sequence, "sequence"); c.put(timestampUs, "timestampUs"); c.put(targetSequence, "targetSequence")
        c.put(targetLatitudeDeg, "targetLatitudeDeg"); c.put(targetLongitudeDeg, "targetLongitudeDeg")
        c.put(droneLatitudeDeg, "droneLatitudeDeg"); c.put(droneLongitudeDeg, "droneLongitudeDeg")
        c.put(distanceM, "distanceM"); c.put(bearingDeg, "bearingDeg"); c.put(headingDeg, "headingDeg")
        c.put(directionDifferenceDeg, "directionDifferenceDeg"); c.put(positionAgeMs, "positionAgeMs")
        c.put(headingAgeMs, "headingAgeMs"); c.put(targetAgeMs, "targetAgeMs")
    }

    init?(coder c: NSCoder) {
        (sequence, timestampUs, targetSequence) = (c.int("sequence"), c.int("timestampUs"), c.int("targetSequence"))
        (targetLatitudeDeg, targetLongitudeDeg) = (c.double("targetLatitudeDeg"), c.double("targetLongitudeDeg"))
        (droneLatitudeDeg, droneLongitudeDeg) = (c.double("droneLatitudeDeg"), c.double("droneLongitudeDeg"))
        (distanceM, bearingDeg, headingDeg) = (c.double("distanceM"), c.double("bearingDeg"), c.double("headingDeg"))
        directionDifferenceDeg = c.double("directionDifferenceDeg")
        (positionAgeMs, headingAgeMs, targetAgeMs) =
            (c.int("positionAgeMs"), c.int("headingAgeMs"), c.int("targetAgeMs"))
    }
}

final class ArchivedDroneState: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let sequence: UInt32, timestampUs: Int64, navdataSequence: UInt32, stateBits: UInt32, controlState: UInt8
    let controlMinorState: UInt16, batteryPercent: UInt8, altitudeM: Float, pitchDeg: Float, rollDeg: Float
    let yawDeg: Float, velocityXMps: Float, velocityYMps: Float, velocityZMps: Float, magnetoHeadingDeg: Float?

    init(_ m: DroneState) {
        (sequence, timestampUs, navdataSequence, stateBits) = (m.sequence, m.timestampUs, m.navdataSequence,
            m.stateBits)
        (controlState, controlMinorState, batteryPercent) =
            (m.controlState.rawValue, m.controlMinorState, m.batteryPercent)
        (altitudeM, pitchDeg, rollDeg, yawDeg) = (m.altitudeM, m.pitchDeg, m.rollDeg, m.yawDeg)
        (velocityXMps, velocityYMps, velocityZMps) = (m.velocityXMps, m.velocityYMps, m.velocityZMps)
        magnetoHeadingDeg = m.magnetoHeadingDeg
    }

    func encode(with c: NSCoder) {
        c.put(sequence, "sequence"); c.put(timestampUs, "timestampUs"); c.put(navdataSequence, "navdataSequence")
        c.put(stateBits, "stateBits"); c.put(controlState, "controlState"); c.put(controlMinorState,
            "controlMinorState")
        c.put(batteryPercent, "batteryPercent"); c.put(altitudeM, "altitudeM"); c.put(pitchDeg, "pitchDeg")
        c.put(rollDeg, "rollDeg"); c.put(yawDeg, "yawDeg"); c.put(velocityXMps, "velocityXMps")
        c.put(velocityYMps, "velocityYMps"); c.put(velocityZMps, "velocityZMps")
        c.put(magnetoHeadingDeg, "magnetoHeadingDeg")
    }

    init?(coder c: NSCoder) {
        (sequence, timestampUs, navdataSequence) = (c.int("sequence"), c.int("timestampUs"), c.int("navdataSequence"))
        (stateBits, controlState, controlMinorState) =
            (c.int("stateBits"), c.int("controlState"), c.int("controlMinorState"))
        (batteryPercent, altitudeM) = (c.int("batteryPercent"), c.float("altitudeM"))
        (pitchDeg, rollDeg, yawDeg) = (c.float("pitchDeg"), c.float("rollDeg"), c.float("yawDeg"))
        (velocityXMps, velocityYMps, velocityZMps) =
            (c.float("velocityXMps"), c.float("velocityYMps"), c.float("velocityZMps"))
        magnetoHeadingDeg = c.optionalFloat("magnetoHeadingDeg")
    }
}

final class ArchivedPositionFix: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let sequence: UInt32, timestampUs: Int64, latitudeDeg: Double, longitudeDeg: Double, altitudeM: Float?
    let headingDeg: Float?, horizontalAccuracyM: Float?, satellites: UInt8, source: UInt8

    init(_ m: PositionFix) {
        (sequence, timestampUs, latitudeDeg, longitudeDeg) = (m.sequence, m.timestampUs, m.latitudeDeg, m.longitudeDeg)
        (altitudeM, headingDeg, horizontalAccuracyM) = (m.altitudeM, m.headingDeg, m.horizontalAccuracyM)
        (satellites, source) = (m.satellites, m.source.rawValue)
    }

    func encode(with c: NSCoder) {
        c.put(sequence, "sequence"); c.put(timestampUs, "timestampUs"); c.put(latitudeDeg, "latitudeDeg")
        c.put(longitudeDeg, "longitudeDeg"); c.put(altitudeM, "altitudeM"); c.put(headingDeg, "headingDeg")
        c.put(horizontalAccuracyM, "horizontalAccuracyM"); c.put(satellites, "satellites"); c.put(source, "source")
    }

    init?(coder c: NSCoder) {
        (sequence, timestampUs) = (c.int("sequence"), c.int("timestampUs"))
        (latitudeDeg, longitudeDeg) = (c.double("latitudeDeg"), c.double("longitudeDeg"))
        (altitudeM, headingDeg) = (c.optionalFloat("altitudeM"), c.optionalFloat("headingDeg"))
        horizontalAccuracyM = c.optionalFloat("horizontalAccuracyM")
        (satellites, source) = (c.int("satellites"), c.int("source"))
    }
}

final class ArchivedControllerState: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let sequence: UInt32, timestampUs: Int64, activity: UInt8, reason: String, pilotId: String
    let targetLatitudeDeg: Double?, targetLongitudeDeg: Double?, distanceToTargetM: Float?

    init(_ m: ControllerState) {
        (sequence, timestampUs, activity, reason, pilotId) =
            (m.sequence, m.timestampUs, m.activity.rawValue, m.reason.code, m.pilotId)
        (targetLatitudeDeg, targetLongitudeDeg, distanceToTargetM) =
            (m.targetLatitudeDeg, m.targetLongitudeDeg, m.distanceToTargetM)
    }

    func encode(with c: NSCoder) {
        c.put(sequence, "sequence"); c.put(timestampUs, "timestampUs"); c.put(activity, "activity")
        c.put(reason, "reason"); c.put(pilotId, "pilotId"); c.put(targetLatitudeDeg, "targetLatitudeDeg")
        c.put(targetLongitudeDeg, "targetLongitudeDeg"); c.put(distanceToTargetM, "distanceToTargetM")
    }

    init?(coder c: NSCoder) {
        guard let reason = c.string("reason"), let pilotId = c.string("pilotId") else { return nil }
        (self.reason, self.pilotId) = (reason, pilotId)
        (sequence, timestampUs, activity) = (c.int("sequence"), c.int("timestampUs"), c.int("activity"))
        (targetLatitudeDeg, targetLongitudeDeg) =
            (c.optionalDouble("targetLatitudeDeg"), c.optionalDouble("targetLongitudeDeg"))
        distanceToTargetM = c.optionalFloat("distanceToTargetM")
    }
}

final class ArchivedLinkStatus: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let sequence: UInt32, timestampUs: Int64, connected: Bool, fallbackHover: Bool, reason: UInt8
    let navdataPerSecond: Float, checksumErrors: UInt32, malformedPackets: UInt32
    let lastNavdataAgeMs: UInt32, lastCommandAgeMs: UInt32

    init(_ m: LinkStatus) {
        (sequence, timestampUs, connected, fallbackHover, reason) =
            (m.sequence, m.timestampUs, m.connected, m.fallbackHover, m.reason.rawValue)
        (navdataPerSecond, checksumErrors, malformedPackets) = (m.navdataPerSecond, m.checksumErrors,
            m.malformedPackets)
        (lastNavdataAgeMs, lastCommandAgeMs) = (m.lastNavdataAgeMs, m.lastCommandAgeMs)
    }

    func encode(with c: NSCoder) {
        c.put(sequence, "sequence"); c.put(timestampUs, "timestampUs"); c.put(connected, "connected")
        c.put(fallbackHover, "fallbackHover"); c.put(reason, "reason"); c.put(navdataPerSecond, "navdataPerSecond")
        c.put(checksumErrors, "checksumErrors"); c.put(malformedPackets, "malformedPackets")
        c.put(lastNavdataAgeMs, "lastNavdataAgeMs"); c.put(lastCommandAgeMs, "lastCommandAgeMs")
    }

    init?(coder c: NSCoder) {
        (sequence, timestampUs) = (c.int("sequence"), c.int("timestampUs"))
        (connected, fallbackHover, reason) = (c.bool("connected"), c.bool("fallbackHover"), c.int("reason"))
        (navdataPerSecond, checksumErrors) = (c.float("navdataPerSecond"), c.int("checksumErrors"))
        (malformedPackets, lastNavdataAgeMs, lastCommandAgeMs) =
            (c.int("malformedPackets"), c.int("lastNavdataAgeMs"), c.int("lastCommandAgeMs"))
    }
}
