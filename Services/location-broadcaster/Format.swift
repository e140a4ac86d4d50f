import GroundStation
import QuadProtocol

/// Number and name formatting for the CLI's output (no Foundation String(format:)).
enum Format {
    static func coordinate(latitudeDeg: Double, longitudeDeg: Double) -> String {
        TextFormat.fixed(latitudeDeg, digits: 6) + ", " + TextFormat.fixed(longitudeDeg, digits: 6)
    }
}

/// Kebab-case activity names, as printed and as accepted by `status --until`.
extension ControllerState.Activity {
    var cliName: String { name(separator: "-") }

    init?(cliName: String) {
        guard let match = Self.allCases.first(where: { $0.cliName == cliName.lowercased() }) else { return nil }
        self = match
    }
}

extension ControllerState {
    /// `hovering (takeoff)`, or just the activity when there is no reason.
    var summary: String {
        reason.isEmpty ? activity.cliName : "\(activity.cliName) (\(TextFormat.clean(reason, width: 64)))"
    }
}
