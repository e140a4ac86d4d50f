import GroundStation
import QuadProtocol

/// Kebab-case activity names, as printed and as accepted by `status --until` (derived from the one table in
/// QuadProtocol/WireEnumNames).
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
        reason == .unspecified ? activity.cliName : "\(activity.cliName) (\(TextFormat.clean(reason.code, width: 64)))"
    }
}
