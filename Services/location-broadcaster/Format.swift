import GroundStation
import QuadProtocol

/// Number and name formatting for the CLI's output (no Foundation String(format:)).
enum Format {
    static func coordinate(latitudeDeg: Double, longitudeDeg: Double) -> String {
        TextFormat.fixed(latitudeDeg, digits: 6) + ", " + TextFormat.fixed(longitudeDeg, digits: 6)
    }

    /// Printable ASCII only, at most `width` characters: reasons and names come from the bus.
    static func clean(_ text: String, width: Int = 64) -> String {
        String(text.unicodeScalars.map { $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?" }.prefix(width))
    }
}

/// Kebab-case activity names, as printed and as accepted by `status --until`.
extension ControllerState.Activity {
    var cliName: String {
        switch self {
        case .landed: "landed"
        case .takingOff: "taking-off"
        case .hovering: "hovering"
        case .flyingToTarget: "flying-to-target"
        case .arrived: "arrived"
        case .landing: "landing"
        case .emergency: "emergency"
        case .returningHome: "returning-home"
        }
    }

    init?(cliName: String) {
        guard let match = Self.allCases.first(where: { $0.cliName == cliName.lowercased() }) else { return nil }
        self = match
    }
}

extension ControllerState {
    /// `hovering (takeoff)`, or just the activity when there is no reason.
    var summary: String {
        reason.isEmpty ? activity.cliName : "\(activity.cliName) (\(Format.clean(reason)))"
    }
}
