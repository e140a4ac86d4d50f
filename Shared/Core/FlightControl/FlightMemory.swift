import Clocks
import Navigation
import QuadProtocol
import TextSupport

/// What the controller keeps on the board (a file in its state directory) so that a restarted controller resumes
/// the flight it was flying: the target with its receipt time, the pilot, home and the altitude to hold. Times are
/// the board's monotonic clock, which runs on across a process restart but not across a reboot: `bootId` says
/// which boot they belong to, and a memory of another boot is void. Pure: the service reads and writes the text.
public struct FlightMemory: Sendable, Equatable {
    public var bootId: String
    public var activity: ControllerState.Activity
    public var pilotId: String?
    public var target: Target?
    public var targetReceivedAt: MonotonicInstant
    public var home: GeoPoint?
    public var wantedAltitudeM: Double?

    public init(bootId: String, activity: ControllerState.Activity, pilotId: String?, target: Target?,
                targetReceivedAt: MonotonicInstant, home: GeoPoint?, wantedAltitudeM: Double?) {
        self.bootId = bootId
        self.activity = activity
        self.pilotId = pilotId
        self.target = target
        self.targetReceivedAt = targetReceivedAt
        self.home = home
        self.wantedAltitudeM = wantedAltitudeM
    }

    public enum DecodeError: Error, Equatable, CustomStringConvertible {
        case badLine(Int, String)
        case missing(String)
        case invalid(String, String)

        public var description: String {
            switch self {
            case .badLine(let n, let text):
                "line \(n): expected key=value, found '\(PrintableText.ascii(text, width: 40))'"
            case .missing(let key): "missing '\(key)'"
            case .invalid(let key, let value):
                "'\(key)' has an invalid value '\(PrintableText.ascii(value, width: 40))'"
            }
        }
    }

    /// `key=value` lines, one field each (no value holds a newline: sender ids are printable, ≤ 64 bytes).
    public var text: String {
        var lines = ["format=1", "boot=\(bootId)", "activity=\(activity.rawValue)",
                     "target_received_us=\(targetReceivedAt.us)"]
        if let pilotId { lines.append("pilot=\(pilotId)") }
        if let target {
            lines += ["target_sender=\(target.senderId)", "target_sequence=\(target.sequence)",
                      "target_lat=\(target.latitudeDeg)", "target_lon=\(target.longitudeDeg)",
                      "target_ttl_s=\(target.ttlS)", "target_run=\(target.controllerRunId)",
                      "target_stamp_us=\(target.timestampUs)"]
            if let alt = target.altitudeM { lines.append("target_alt_m=\(alt)") }
        }
        if let home { lines += ["home_lat=\(home.latitudeDeg)", "home_lon=\(home.longitudeDeg)"] }
        if let wantedAltitudeM { lines.append("altitude_m=\(wantedAltitudeM)") }
        return lines.joined(separator: "\n") + "\n"
    }

    public init(text: String) throws(DecodeError) {
        var fields: [String: String] = [:]
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: true).enumerated() {
            guard let equals = line.firstIndex(of: "=") else { throw .badLine(index + 1, String(line)) }
            fields[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        func value(_ key: String) throws(DecodeError) -> String {
            guard let value = fields[key] else { throw .missing(key) }
            return value
        }
        func number<T: LosslessStringConvertible>(_ key: String, _: T.Type) throws(DecodeError) -> T {
            let text = try value(key)
            guard let number = T(text) else { throw .invalid(key, text) }
            return number
        }
        func double(_ key: String) throws(DecodeError) -> Double {
            let number = try number(key, Double.self)
            guard number.isFinite else { throw .invalid(key, "\(number)") }
            return number
        }
        guard fields["format"] == "1" else { throw .invalid("format", fields["format"] ?? "") }
        bootId = try value("boot")
        let rawActivity = try number("activity", UInt8.self)
        guard let activity = ControllerState.Activity(rawValue: rawActivity) else {
            throw .invalid("activity", "\(rawActivity)")
        }
        self.activity = activity
        targetReceivedAt = MonotonicInstant(us: try number("target_received_us", Int64.self))
        pilotId = fields["pilot"]
        if fields["target_sequence"] != nil {
            let lat = try double("target_lat"), lon = try double("target_lon")
            guard GeoPoint(latitudeDeg: lat, longitudeDeg: lon).isValid else { throw .invalid("target_lat", "\(lat)") }
            let altitude = try fields["target_alt_m"].map { (_: String) throws(DecodeError) in
                Float(try double("target_alt_m"))
            }
            target = Target(senderId: try value("target_sender"), sequence: try number("target_sequence", UInt32.self),
                            timestampUs: try number("target_stamp_us", Int64.self), latitudeDeg: lat,
                            longitudeDeg: lon, altitudeM: altitude, ttlS: Float(try double("target_ttl_s")),
                            controllerRunId: try number("target_run", UInt32.self))
        } else {
            target = nil
        }
        if fields["home_lat"] != nil {
            home = GeoPoint(latitudeDeg: try double("home_lat"), longitudeDeg: try double("home_lon"))
        } else {
            home = nil
        }
        wantedAltitudeM = fields["altitude_m"] != nil ? try double("altitude_m") : nil
    }
}

