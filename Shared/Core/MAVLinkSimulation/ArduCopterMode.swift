/// ArduCopter's flight modes: HEARTBEAT `custom_mode` and DO_SET_MODE param2 (ArduCopter's `Mode::Number`).
public enum ArduCopterMode: UInt32, Sendable, CaseIterable, CustomStringConvertible {
    case stabilize = 0, acro = 1, altHold = 2, auto = 3, guided = 4, loiter = 5, rtl = 6, circle = 7, land = 9
    case drift = 11, sport = 13, flip = 14, autotune = 15, posHold = 16, brake = 17, throwMode = 18
    case avoidADSB = 19, guidedNoGPS = 20, smartRTL = 21, flowHold = 22, follow = 23, zigzag = 24
    case systemID = 25, autorotate = 26, autoRTL = 27, turtle = 28

    /// As ArduPilot names it (log lines, ground stations).
    public var description: String {
        switch self {
        case .stabilize: "STABILIZE"
        case .acro: "ACRO"
        case .altHold: "ALT_HOLD"
        case .auto: "AUTO"
        case .guided: "GUIDED"
        case .loiter: "LOITER"
        case .rtl: "RTL"
        case .circle: "CIRCLE"
        case .land: "LAND"
        case .drift: "DRIFT"
        case .sport: "SPORT"
        case .flip: "FLIP"
        case .autotune: "AUTOTUNE"
        case .posHold: "POSHOLD"
        case .brake: "BRAKE"
        case .throwMode: "THROW"
        case .avoidADSB: "AVOID_ADSB"
        case .guidedNoGPS: "GUIDED_NOGPS"
        case .smartRTL: "SMART_RTL"
        case .flowHold: "FLOWHOLD"
        case .follow: "FOLLOW"
        case .zigzag: "ZIGZAG"
        case .systemID: "SYSTEMID"
        case .autorotate: "AUTOROTATE"
        case .autoRTL: "AUTO_RTL"
        case .turtle: "TURTLE"
        }
    }

    /// HEARTBEAT base_mode's "guided enabled" bit: the modes that fly by themselves (ArduCopter's base_mode()).
    var isGuidedFlagged: Bool {
        [.auto, .autoRTL, .rtl, .loiter, .avoidADSB, .follow, .guided, .circle, .posHold, .brake, .smartRTL]
            .contains(self)
    }

    /// Needs a position estimate to arm in (ArduCopter's requires_GPS(); measured: SITL arms in STABILIZE before
    /// its EKF uses GPS, not in GUIDED).
    var requiresPosition: Bool {
        [.auto, .guided, .loiter, .rtl, .circle, .posHold, .brake, .throwMode, .smartRTL, .follow, .zigzag, .autoRTL,
         .drift].contains(self)
    }

    /// What the simulator does in the mode in the air: the modes that hold a position by themselves hold it; the
    /// pilot's modes (no RC here) hover where they are; RTL, LAND and GUIDED do their own thing.
    var holdsPosition: Bool { [.loiter, .posHold, .brake, .circle, .follow, .zigzag, .smartRTL].contains(self) }
}
