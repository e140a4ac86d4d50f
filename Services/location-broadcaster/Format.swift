import QuadProtocol

/// Number and name formatting for the CLI's output (no Foundation String(format:)).
enum Format {
    /// `value` with `digits` decimals (0–6), rounded; "-" when not finite or absurdly large.
    static func fixed(_ value: Double, _ digits: Int) -> String {
        let digits = min(max(digits, 0), 6)
        var scale: Int64 = 1
        for _ in 0..<digits { scale *= 10 }
        let scaled = (value * Double(scale)).rounded()
        guard scaled.isFinite, abs(scaled) < 1e15 else { return "-" }
        let n = Int64(scaled)
        let whole = n.magnitude / UInt64(scale)
        var text = (n < 0 ? "-" : "") + String(whole)
        if digits > 0 {
            let fraction = String(n.magnitude % UInt64(scale))
            text += "." + String(repeating: "0", count: digits - fraction.count) + fraction
        }
        return text
    }

    static func coordinate(latitudeDeg: Double, longitudeDeg: Double) -> String {
        fixed(latitudeDeg, 6) + ", " + fixed(longitudeDeg, 6)
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
