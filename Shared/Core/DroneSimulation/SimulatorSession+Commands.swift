#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ARDrone

extension SimulatorSession {
    /// Applies one accepted AT command to the drone or the session's protocol state.
    mutating func apply(_ command: ATCommand) -> [SimulatorAction] {
        switch command {
        case .ref(let value):
            let wasEmergency = drone.isEmergency
            drone.applyReference(bits: UInt32(bitPattern: value))
            if drone.isEmergency != wasEmergency {
                return [.log(drone.isEmergency ? "emergency: motors cut (REF bit 8)" : "emergency cleared (REF bit 8)")]
            }
            return []
        case .pcmd(let flag, let roll, let pitch, let gaz, let yaw),
            .pcmdMag(let flag, let roll, let pitch, let gaz, let yaw, _, _):
            let values = ProgressiveCommand(
                flag: flag, roll: Double(roll), pitch: Double(pitch), gaz: Double(gaz), yaw: Double(yaw)
            )
            drone.applyProgressiveCommand(values)
            return []
        case .ftrim:
            return [.log(drone.applyFlatTrim() ? "flat trim done" : "flat trim refused: not on the ground")]
        case .config(let key, let value):
            return applyConfig(key: key, value: value)
        case .ctrl(let mode):
            // The Guide's "AT*CTRL=0" (cvdrone) is taken as an ack reset too; the SDK uses mode 5.
            if mode == ATControlMode.ack || mode == ATControlMode.noControl {
                isCommandAckSet = false
                return []
            }
            return [.log("AT*CTRL mode \(mode) ignored (no TCP 5559 control channel in the simulator)")]
        case .comwdg:
            // Any AT traffic already resets the watchdog.
            return []
        default:
            return noteIgnored(command.name)
        }
    }

    mutating func applyConfig(key: String, value: String) -> [SimulatorAction] {
        // The real drone acknowledges every write, known key or not.
        isCommandAckSet = true
        var note = ""
        switch key {
        case "general:navdata_demo":
            let demo = value.uppercased() == "TRUE"
            isNavdataDemo = demo
            isBootstrap = false
            note = demo ? " (demo navdata)" : " (full navdata)"
        case "general:navdata_options":
            if let mask = UInt32(value) {
                navdataOptionsMask = mask
            } else {
                note = " (not a number; kept \(navdataOptionsMask))"
            }
        case "control:altitude_max":
            if let millimetres = Double(value), millimetres.isFinite {
                drone.parameters.altitudeMaxM = min(max(millimetres / 1000, 0.5), 100)
            }
        case "control:euler_angle_max":
            // PCMD ±1 now stands for this tilt; the speed it gives scales with tan(tilt) (thrust × sin ≈ drag).
            if let radians = Double(value), radians.isFinite, radians > 0 {
                let degrees = min(max(radians * 180 / .pi, 1), 30)
                let scale = tan(degrees * .pi / 180) / tan(drone.parameters.maxTiltDeg * .pi / 180)
                drone.parameters.maxSpeedMps *= scale
                drone.parameters.maxTiltDeg = degrees
            } else {
                note = " (not a positive number; ignored)"
            }
        default:
            note = " (no effect in the simulator)"
        }
        return [.log("config \(key) = \(value)\(note)")]
    }

    /// Logs the first occurrence of each command the simulator does not model.
    mutating func noteIgnored(_ name: String) -> [SimulatorAction] {
        guard seenIgnoredCommands.insert(name).inserted else { return [] }
        return [.log("AT*\(name) accepted but not simulated")]
    }
}
