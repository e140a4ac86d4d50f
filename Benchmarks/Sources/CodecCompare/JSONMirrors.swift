import QuadProtocol

// Codable twins of the bus messages (same fields, enums as their raw values), for JSONEncoder/JSONDecoder.

struct JSONTarget: Codable, Equatable {
    var senderId: String, sequence: UInt32, timestampUs: Int64, latitudeDeg: Double, longitudeDeg: Double
    var altitudeM: Float?, ttlS: Float
    init(_ m: Target) {
        (senderId, sequence, timestampUs, latitudeDeg, longitudeDeg, altitudeM, ttlS) =
            (m.senderId, m.sequence, m.timestampUs, m.latitudeDeg, m.longitudeDeg, m.altitudeM, m.ttlS)
    }
}

struct JSONCommand: Codable, Equatable {
    var senderId: String, sequence: UInt32, timestampUs: Int64, kind: UInt8
    init(_ m: Command) {
        (senderId, sequence, timestampUs, kind) = (m.senderId, m.sequence, m.timestampUs, m.kind.rawValue)
    }
}

struct JSONControlClaim: Codable, Equatable {
    var senderId: String, sequence: UInt32, timestampUs: Int64, action: UInt8
    init(_ m: ControlClaim) {
        (senderId, sequence, timestampUs, action) = (m.senderId, m.sequence, m.timestampUs, m.action.rawValue)
    }
}

struct JSONNavigationSolution: Codable, Equatable {
    var sequence: UInt32, timestampUs: Int64, targetSequence: UInt32
    var targetLatitudeDeg: Double, targetLongitudeDeg: Double, droneLatitudeDeg: Double, droneLongitudeDeg: Double
    var distanceM: Double, bearingDeg: Double, headingDeg: Double, directionDifferenceDeg: Double
    var positionAgeMs: UInt32, headingAgeMs: UInt32, targetAgeMs: UInt32
    init(_ m: NavigationSolution) {
        (sequence, timestampUs, targetSequence) = (m.sequence, m.timestampUs, m.targetSequence)
        (targetLatitudeDeg, targetLongitudeDeg) = (m.targetLatitudeDeg, m.targetLongitudeDeg)
        (droneLatitudeDeg, droneLongitudeDeg) = (m.droneLatitudeDeg, m.droneLongitudeDeg)
        (distanceM, bearingDeg, headingDeg, directionDifferenceDeg) =
            (m.distanceM, m.bearingDeg, m.headingDeg, m.directionDifferenceDeg)
        (positionAgeMs, headingAgeMs, targetAgeMs) = (m.positionAgeMs, m.headingAgeMs, m.targetAgeMs)
    }
}

struct JSONFlightCommand: Codable, Equatable {
    var sequence: UInt32, timestampUs: Int64, refMode: UInt8, flatTrim: Bool, progressive: Bool
    var rollFrac: Float, pitchFrac: Float, gazFrac: Float, yawFrac: Float
    init(_ m: FlightCommand) {
        (sequence, timestampUs, refMode, flatTrim, progressive) =
            (m.sequence, m.timestampUs, m.refMode.rawValue, m.flatTrim, m.progressive)
        (rollFrac, pitchFrac, gazFrac, yawFrac) = (m.rollFrac, m.pitchFrac, m.gazFrac, m.yawFrac)
    }
}

struct JSONDroneState: Codable, Equatable {
    var sequence: UInt32, timestampUs: Int64, navdataSequence: UInt32, stateBits: UInt32, controlState: UInt8
    var controlMinorState: UInt16, batteryPercent: UInt8, altitudeM: Float, pitchDeg: Float, rollDeg: Float
    var yawDeg: Float, velocityXMps: Float, velocityYMps: Float, velocityZMps: Float, magnetoHeadingDeg: Float?
    init(_ m: DroneState) {
        (sequence, timestampUs, navdataSequence, stateBits) = (m.sequence, m.timestampUs, m.navdataSequence,
            m.stateBits)
        (controlState, controlMinorState, batteryPercent) =
            (m.controlState.rawValue, m.controlMinorState, m.batteryPercent)
        (altitudeM, pitchDeg, rollDeg, yawDeg) = (m.altitudeM, m.pitchDeg, m.rollDeg, m.yawDeg)
        (velocityXMps, velocityYMps, velocityZMps) = (m.velocityXMps, m.velocityYMps, m.velocityZMps)
        magnetoHeadingDeg = m.magnetoHeadingDeg
    }
}

struct JSONPositionFix: Codable, Equatable {
    var sequence: UInt32, timestampUs: Int64, latitudeDeg: Double, longitudeDeg: Double, altitudeM: Float?
    var headingDeg: Float?, horizontalAccuracyM: Float?, satellites: UInt8, source: UInt8
    init(_ m: PositionFix) {
        (sequence, timestampUs, latitudeDeg, longitudeDeg) = (m.sequence, m.timestampUs, m.latitudeDeg, m.longitudeDeg)
        (altitudeM, headingDeg, horizontalAccuracyM) = (m.altitudeM, m.headingDeg, m.horizontalAccuracyM)
        (satellites, source) = (m.satellites, m.source.rawValue)
    }
}

struct JSONControllerState: Codable, Equatable {
    var sequence: UInt32, timestampUs: Int64, activity: UInt8, reason: String, pilotId: String
    var targetLatitudeDeg: Double?, targetLongitudeDeg: Double?, distanceToTargetM: Float?
    init(_ m: ControllerState) {
        (sequence, timestampUs, activity, reason, pilotId) =
            (m.sequence, m.timestampUs, m.activity.rawValue, m.reason.code, m.pilotId)
        (targetLatitudeDeg, targetLongitudeDeg, distanceToTargetM) =
            (m.targetLatitudeDeg, m.targetLongitudeDeg, m.distanceToTargetM)
    }
}

struct JSONLinkStatus: Codable, Equatable {
    var sequence: UInt32, timestampUs: Int64, connected: Bool, fallbackHover: Bool, reason: UInt8
    var navdataPerSecond: Float, checksumErrors: UInt32, malformedPackets: UInt32
    var lastNavdataAgeMs: UInt32, lastCommandAgeMs: UInt32
    init(_ m: LinkStatus) {
        (sequence, timestampUs, connected, fallbackHover, reason) =
            (m.sequence, m.timestampUs, m.connected, m.fallbackHover, m.reason.rawValue)
        (navdataPerSecond, checksumErrors, malformedPackets) = (m.navdataPerSecond, m.checksumErrors,
            m.malformedPackets)
        (lastNavdataAgeMs, lastCommandAgeMs) = (m.lastNavdataAgeMs, m.lastCommandAgeMs)
    }
}
