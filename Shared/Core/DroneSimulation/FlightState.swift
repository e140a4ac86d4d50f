/// The SDK's `ctrl_state` major states the simulator uses (navdata demo field, high 16 bits).
/// Emergency is not a major state here: it is `SimulatedDrone.isEmergency` with the motors off.
public enum FlightState: UInt16, Sendable, Equatable, CaseIterable {
    case landed = 2
    case flying = 3
    case hovering = 4
    case takingOff = 6
    case landing = 8

    /// Name used in the ground-truth trace.
    public var traceName: String {
        switch self {
        case .landed: "landed"
        case .flying: "flying"
        case .hovering: "hovering"
        case .takingOff: "taking_off"
        case .landing: "landing"
        }
    }

    public var isAirborne: Bool { self != .landed }
}

/// Minor states from the SDK's `control_states.h`, only those the simulator produces.
public enum MinorState {
    public static let ok: UInt16 = 0
    public static let takeoffGround: UInt16 = 0
    public static let takeoffAuto: UInt16 = 1
    public static let hoveringLostCom: UInt16 = 8
    public static let landingClosedLoop: UInt16 = 0
}
