import Foundation
import QuadProtocol

// NSSecureCoding classes for the ground → drone messages (the article archived its messages this way).

final class ArchivedTarget: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let senderId: String, sequence: UInt32, timestampUs: Int64, latitudeDeg: Double, longitudeDeg: Double
    let altitudeM: Float?, ttlS: Float

    init(_ m: Target) {
        (senderId, sequence, timestampUs, latitudeDeg, longitudeDeg, altitudeM, ttlS) =
            (m.senderId, m.sequence, m.timestampUs, m.latitudeDeg, m.longitudeDeg, m.altitudeM, m.ttlS)
    }

    func encode(with c: NSCoder) {
        c.put(senderId, "senderId"); c.put(sequence, "sequence"); c.put(timestampUs, "timestampUs")
        c.put(latitudeDeg, "latitudeDeg"); c.put(longitudeDeg, "longitudeDeg"); c.put(altitudeM, "altitudeM")
        c.put(ttlS, "ttlS")
    }

    init?(coder c: NSCoder) {
        guard let senderId = c.string("senderId") else { return nil }
        self.senderId = senderId
        (sequence, timestampUs) = (c.int("sequence"), c.int("timestampUs"))
        (latitudeDeg, longitudeDeg) = (c.double("latitudeDeg"), c.double("longitudeDeg"))
        (altitudeM, ttlS) = (c.optionalFloat("altitudeM"), c.float("ttlS"))
    }
}

final class ArchivedCommand: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let senderId: String, sequence: UInt32, timestampUs: Int64, kind: UInt8

    init(_ m: Command) {
        (senderId, sequence, timestampUs, kind) = (m.senderId, m.sequence, m.timestampUs, m.kind.rawValue)
    }

    func encode(with c: NSCoder) {
        c.put(senderId, "senderId"); c.put(sequence, "sequence"); c.put(timestampUs, "timestampUs"); c.put(kind, "kind")
    }

    init?(coder c: NSCoder) {
        guard let senderId = c.string("senderId") else { return nil }
        self.senderId = senderId
        (sequence, timestampUs, kind) = (c.int("sequence"), c.int("timestampUs"), c.int("kind"))
    }
}

final class ArchivedControlClaim: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let senderId: String, sequence: UInt32, timestampUs: Int64, action: UInt8

    init(_ m: ControlClaim) {
        (senderId, sequence, timestampUs, action) = (m.senderId, m.sequence, m.timestampUs, m.action.rawValue)
    }

    func encode(with c: NSCoder) {
        c.put(senderId, "senderId"); c.put(sequence, "sequence"); c.put(timestampUs, "timestampUs")
        c.put(action, "action")
    }

    init?(coder c: NSCoder) {
        guard let senderId = c.string("senderId") else { return nil }
        self.senderId = senderId
        (sequence, timestampUs, action) = (c.int("sequence"), c.int("timestampUs"), c.int("action"))
    }
}

final class ArchivedFlightCommand: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let sequence: UInt32, timestampUs: Int64, refMode: UInt8, flatTrim: Bool, progressive: Bool
    let rollFrac: Float, pitchFrac: Float, gazFrac: Float, yawFrac: Float

    init(_ m: FlightCommand) {
        (sequence, timestampUs, refMode, flatTrim, progressive) =
            (m.sequence, m.timestampUs, m.refMode.rawValue, m.flatTrim, m.progressive)
        (rollFrac, pitchFrac, gazFrac, yawFrac) = (m.rollFrac, m.pitchFrac, m.gazFrac, m.yawFrac)
    }

    func encode(with c: NSCoder) {
        c.put(sequence, "sequence"); c.put(timestampUs, "timestampUs"); c.put(refMode, "refMode")
        c.put(flatTrim, "flatTrim"); c.put(progressive, "progressive"); c.put(rollFrac, "rollFrac")
        c.put(pitchFrac, "pitchFrac"); c.put(gazFrac, "gazFrac"); c.put(yawFrac, "yawFrac")
    }

    init?(coder c: NSCoder) {
        (sequence, timestampUs, refMode) = (c.int("sequence"), c.int("timestampUs"), c.int("refMode"))
        (flatTrim, progressive) = (c.bool("flatTrim"), c.bool("progressive"))
        (rollFrac, pitchFrac, gazFrac, yawFrac) =
            (c.float("rollFrac"), c.float("pitchFrac"), c.float("gazFrac"), c.float("yawFrac"))
    }
}
