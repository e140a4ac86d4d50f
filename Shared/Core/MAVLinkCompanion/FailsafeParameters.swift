import Logging
import MAVLink

/// The autopilot parameters that decide what the vehicle does when this link (the board) dies, read once at
/// connect and said in one sentence: the operator must know whether a dead board means "hold", "return" or "land
/// wherever it is". Pure: the state machine sends the reads and feeds the answers.
struct FailsafeParameters: Sendable {
    /// Names to read, by autopilot.
    static func names(for flavor: AutopilotFlavor) -> [String] {
        flavor == .px4 ? ["COM_OF_LOSS_T", "COM_OBL_RC_ACT"] : ["GUID_TIMEOUT", "FS_GCS_ENABLE"] + gcsSystemIdNames
    }

    /// The system id ArduCopter's GCS failsafe watches: SYSID_MYGCS up to 4.6, MAV_GCS_SYSID from 4.7 (the
    /// ArduCopter SITL beside this project, V4.7.0-dev, answers only the new name). Either answer is enough.
    static let gcsSystemIdNames = ["SYSID_MYGCS", "MAV_GCS_SYSID"]

    static let maxAttempts = 3
    static let retryUs: Int64 = 1_500_000

    private(set) var flavor: AutopilotFlavor?
    private(set) var values: [String: Double] = [:]
    private(set) var attempts = 0
    private(set) var lastRequestUs: Int64 = .min / 2
    private(set) var reported = false

    var missing: [String] {
        guard let flavor else { return [] }
        let absent = Self.names(for: flavor).filter { values[$0] == nil }
        guard flavor == .ardupilot, gcsSystemId != nil else { return absent }
        return absent.filter { !Self.gcsSystemIdNames.contains($0) }
    }

    /// The GCS system id under whichever name answered, with that name.
    var gcsSystemId: (name: String, value: Double)? {
        Self.gcsSystemIdNames.lazy.compactMap { name in self.values[name].map { (name, $0) } }.first
    }

    mutating func start(flavor: AutopilotFlavor) {
        self.flavor = flavor
    }

    /// The names to ask for now (all missing ones on the first try and each retry), or none.
    mutating func due(nowUs: Int64) -> [String] {
        guard flavor != nil, !reported, attempts < Self.maxAttempts, nowUs &- lastRequestUs >= Self.retryUs else {
            return []
        }
        attempts += 1
        lastRequestUs = nowUs
        return missing
    }

    mutating func receive(_ value: ParamValue) {
        guard let flavor, Self.names(for: flavor).contains(value.paramId) else { return }
        values[value.paramId] = value.numericValue(bytewise: flavor == .px4)
    }

    /// The one sentence, once every value came or the attempts ran out; nil before, and after it was said.
    mutating func report(nowUs: Int64, companionSystemId: UInt8) -> (Logger.Level, String)? {
        guard let flavor, !reported else { return nil }
        guard missing.isEmpty || (attempts >= Self.maxAttempts && nowUs &- lastRequestUs >= Self.retryUs) else {
            return nil
        }
        reported = true
        return flavor == .px4 ? px4Sentence() : arduPilotSentence(companionSystemId: companionSystemId)
    }

    /// PX4: COM_OF_LOSS_T seconds after the setpoints stop, COM_OBL_RC_ACT decides.
    private func px4Sentence() -> (Logger.Level, String) {
        guard let delayS = values["COM_OF_LOSS_T"], let action = values["COM_OBL_RC_ACT"] else {
            return (.warning, "if this link dies: unknown (PX4 did not answer for COM_OF_LOSS_T / COM_OBL_RC_ACT); "
                + "PX4's default is Position mode, which without a joystick descends and lands where it is")
        }
        let (what, landsInPlace) = Self.px4Action(Int(action))
        let text = "if this link dies, PX4 switches after \(Self.format(delayS)) s without setpoints to \(what) "
            + "(COM_OF_LOSS_T=\(Self.format(delayS)), COM_OBL_RC_ACT=\(Int(action)))"
        return landsInPlace ? (.warning, text + ": set COM_OBL_RC_ACT=5 (Hold) or 3 (Return) to keep it safe")
            : (.notice, text)
    }

    static func px4Action(_ value: Int) -> (String, landsInPlace: Bool) {
        switch value {
        case 0: ("Position mode, which without a joystick descends and lands where it is", true)
        case 1: ("Altitude mode, which without a joystick descends and lands where it is", true)
        case 2: ("Manual mode, which without a joystick descends and lands where it is", true)
        case 3: ("Return mode (flies home and lands)", false)
        case 4: ("Land mode (lands where it is)", true)
        case 5: ("Hold mode (holds its position)", false)
        case 6: ("Terminate (motors off in the air)", true)
        case 7: ("Disarm (motors off)", true)
        default: ("action \(value) (unknown to this link)", true)
        }
    }

    /// ArduCopter: GUIDED stops and holds after GUID_TIMEOUT without setpoints; its GCS failsafe watches the
    /// heartbeats of SYSID_MYGCS only.
    private func arduPilotSentence(companionSystemId: UInt8) -> (Logger.Level, String) {
        let timeout = values["GUID_TIMEOUT"].map { Self.format($0) } ?? "?"
        var text = "if this link dies, ArduCopter holds its position in GUIDED after \(timeout) s without setpoints "
            + "(GUID_TIMEOUT=\(timeout))"
        guard let fs = values["FS_GCS_ENABLE"], let (gcsName, gcs) = gcsSystemId else {
            return (.warning, text + "; its GCS failsafe is unknown (no answer for FS_GCS_ENABLE / SYSID_MYGCS or "
                + "MAV_GCS_SYSID)")
        }
        let watchesUs = Int(gcs) == Int(companionSystemId)
        text += "; GCS failsafe FS_GCS_ENABLE=\(Int(fs)) "
            + (watchesUs ? "watches this link (\(gcsName)=\(Int(gcs)))"
                : "watches system \(Int(gcs)) (\(gcsName)), not this link")
        let landsInPlace = watchesUs && [4, 5, 7].contains(Int(fs))
        return landsInPlace ? (.warning, text + ": it lands where it is; FS_GCS_ENABLE=1 returns home")
            : (.notice, text)
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value))" : "\(value)"
    }
}
