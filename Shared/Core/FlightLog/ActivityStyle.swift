import QuadProtocol

/// Colours and names for controller activities in plots (colour-blind-friendly where it matters: flying,
/// arrived and emergency differ in lightness as well as hue).
enum ActivityStyle {
    static let unknownColour = "#9aa0a6"

    static func colour(_ activity: ControllerState.Activity?) -> String {
        switch activity {
        case nil, .unknown: unknownColour
        case .landed: "#6b7280"
        case .takingOff: "#f59e0b"
        case .hovering: "#8b5cf6"
        case .flyingToTarget: "#2563eb"
        case .arrived: "#16a34a"
        case .landing: "#0e9fb4"
        case .emergency: "#dc2626"
        case .returningHome: "#db2777"
        }
    }

    static func label(_ activity: ControllerState.Activity?) -> String {
        activity?.name(separator: " ") ?? "no controller state"
    }
}
