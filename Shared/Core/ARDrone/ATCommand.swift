/// One AT command for UDP 5556, without its sequence number (`ATSequencer` assigns that).
///
/// Floats are fractions in [−1, 1] of the configured maxima and go on the wire via `ATFloat`. Sign conventions
/// (SDK): roll + = right, pitch − = nose down = forward, gaz + = climb, yaw + = clockwise.
public enum ATCommand: Sendable, Equatable {
    /// `AT*REF=seq,bits` — see `ATRef` for the values.
    case ref(Int32)
    /// `AT*PCMD=seq,flag,roll,pitch,gaz,yaw` — flag bit 0 = use the values (0 = hover), see `PCMDFlag`.
    case pcmd(flag: Int32, roll: Float, pitch: Float, gaz: Float, yaw: Float)
    /// `AT*PCMD_MAG=seq,flag,roll,pitch,gaz,yaw,psi,psiAccuracy` — PCMD plus the controller's heading.
    case pcmdMag(flag: Int32, roll: Float, pitch: Float, gaz: Float, yaw: Float, psi: Float, psiAccuracy: Float)
    /// `AT*FTRIM=seq` — flat trim; only on the ground, on a level surface.
    case ftrim
    /// `AT*CONFIG=seq,"key","value"` — acknowledged through navdata state bit 6 and `ctrl(mode: 5)`.
    case config(key: String, value: String)
    /// `AT*CONFIG_IDS=seq,"session","user","application"` — applies to the next `config`.
    case configIDs(session: String, user: String, application: String)
    /// `AT*CTRL=seq,mode,0` — see `ATControlMode`.
    case ctrl(mode: Int32)
    /// `AT*COMWDG=seq` — resets the communication watchdog (navdata state bit 30).
    case comwdg
    /// `AT*CALIB=seq,device` — device 0 = magnetometer; only while flying.
    case calib(device: Int32)
    /// `AT*LED=seq,animation,frequency,duration` — frequency as a float, duration in whole seconds.
    case led(animation: Int32, frequencyHz: Float, durationS: Int32)
    /// `AT*ANIM=seq,animation,duration` — flight animation (SDK `anim_mayday_t` id).
    case anim(animation: Int32, durationMs: Int32)
    /// Any other well-formed command (PMODE, MISC, GAIN, …), name without the `AT*` prefix.
    case other(name: String, arguments: [ATArgument])
}

/// An argument of a command outside the typed set: a signed decimal integer or a double-quoted string.
public enum ATArgument: Sendable, Equatable {
    case integer(Int32)
    case string(String)
}

/// `AT*PCMD` flag bits (SDK `ARDRONE_PROGRESSIVE_CMD_FLAG`).
public enum PCMDFlag {
    /// 1 = use roll/pitch/gaz/yaw; 0 = ignore them and hover.
    public static let progressive: Int32 = 1 << 0
    public static let combinedYaw: Int32 = 1 << 1
    /// Absolute (magnetometer) control; goes with PCMD_MAG.
    public static let absoluteControl: Int32 = 1 << 2
}

/// `AT*CTRL` modes (SDK `ARDRONE_CONTROL_MODE`).
public enum ATControlMode {
    public static let noControl: Int32 = 0
    /// Send the active config file on TCP 5559.
    public static let configGet: Int32 = 4
    /// Clear the "control command ACK" bit (navdata state bit 6).
    public static let ack: Int32 = 5
    public static let customConfigGet: Int32 = 6
}

extension ATCommand {
    /// Take off / keep flying: `AT*REF=n,290718208`.
    public static let takeoff = ATCommand.ref(ATRef.takeoff)
    /// Land / stay landed: `AT*REF=n,290717696`.
    public static let land = ATCommand.ref(ATRef.land)
    /// Emergency toggle: `AT*REF=n,290717952`.
    public static let emergencyToggle = ATCommand.ref(ATRef.emergency)
    /// Hover in place: `AT*PCMD=n,0,0,0,0,0`.
    public static let hover = ATCommand.pcmd(flag: 0, roll: 0, pitch: 0, gaz: 0, yaw: 0)

    /// The command name as it appears after `AT*`.
    public var name: String {
        switch self {
        case .ref: "REF"
        case .pcmd: "PCMD"
        case .pcmdMag: "PCMD_MAG"
        case .ftrim: "FTRIM"
        case .config: "CONFIG"
        case .configIDs: "CONFIG_IDS"
        case .ctrl: "CTRL"
        case .comwdg: "COMWDG"
        case .calib: "CALIB"
        case .led: "LED"
        case .anim: "ANIM"
        case .other(let name, _): name
        }
    }

    /// The arguments after the sequence number, in wire order.
    public var arguments: [ATArgument] {
        switch self {
        case .ref(let bits):
            [.integer(bits)]
        case .pcmd(let flag, let roll, let pitch, let gaz, let yaw):
            [.integer(flag)] + [roll, pitch, gaz, yaw].map { .integer(ATFloat.encode($0)) }
        case .pcmdMag(let flag, let roll, let pitch, let gaz, let yaw, let psi, let psiAccuracy):
            [.integer(flag)] + [roll, pitch, gaz, yaw, psi, psiAccuracy].map { .integer(ATFloat.encode($0)) }
        case .ftrim, .comwdg:
            []
        case .config(let key, let value):
            [.string(key), .string(value)]
        case .configIDs(let session, let user, let application):
            [.string(session), .string(user), .string(application)]
        case .ctrl(let mode):
            [.integer(mode), .integer(0)]
        case .calib(let device):
            [.integer(device)]
        case .led(let animation, let frequencyHz, let durationS):
            [.integer(animation), .integer(ATFloat.encode(frequencyHz)), .integer(durationS)]
        case .anim(let animation, let durationMs):
            [.integer(animation), .integer(durationMs)]
        case .other(_, let arguments):
            arguments
        }
    }
}
