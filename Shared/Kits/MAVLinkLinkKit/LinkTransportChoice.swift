import ArgumentParser
import CommandLineSupport
import DatagramIO
import NetworkEndpoint

/// Which transport mavlink-link talks MAVLink through, from its flags and the environment (flag > environment >
/// default; a flag of either transport replaces the environment's choice): `--serial DEVICE [--baud N]
/// [--flow-control]` (QUAD_SERIAL, QUAD_BAUD, QUAD_FLOW_CONTROL=1) or `--listen HOST:PORT` (QUAD_MAVLINK_LISTEN),
/// UDP 0.0.0.0:14540 when neither is given. Pure: the environment comes in as a function.
enum LinkTransportChoice: Equatable {
    case udp(UDPEndpoint)
    case serial(SerialSettings)

    static let defaultListen = "0.0.0.0:14540"
    static let defaultBaud = 921600

    /// The flags as given (nil / false: not given).
    struct Flags {
        var listen: String?
        var serial: String?
        var baud: Int?
        var flowControl = false
    }

    /// Throws `ValidationError` (exit 64) for both transports at one level, a bad address, device or rate, or a
    /// serial option without a serial device.
    static func resolve(_ flags: Flags, environment: (String) -> String?) throws -> LinkTransportChoice {
        if flags.listen != nil, flags.serial != nil {
            throw ValidationError("--listen and --serial both given: mavlink-link talks through one (UDP or serial)")
        }
        let serialText: String?
        let listenText: String?
        if flags.listen != nil || flags.serial != nil {
            (serialText, listenText) = (flags.serial, flags.listen)
        } else {
            (serialText, listenText) = (environment("QUAD_SERIAL"), environment("QUAD_MAVLINK_LISTEN"))
            if serialText != nil, listenText != nil {
                throw ValidationError("QUAD_MAVLINK_LISTEN and QUAD_SERIAL both set: mavlink-link talks through one "
                                      + "(UDP or serial)")
            }
        }
        guard let device = serialText else {
            if flags.baud != nil || flags.flowControl {
                throw ValidationError("--baud and --flow-control are for a serial port: give --serial DEVICE")
            }
            let text = listenText ?? defaultListen
            guard let endpoint = ListenAddress(parsing: text)?.endpoint else {
                throw ValidationError("--listen '\(text)': expected IPv4 HOST:PORT such as 0.0.0.0:14540")
            }
            return .udp(endpoint)
        }
        guard device.hasPrefix("/") else {
            throw ValidationError("--serial '\(device)': expected a device path such as /dev/ttyAMA0")
        }
        let baud: Int
        if let given = flags.baud {
            baud = given
        } else if let text = environment("QUAD_BAUD") {
            guard let value = Int(text) else {
                throw ValidationError("QUAD_BAUD '\(text)': expected a rate such as 921600")
            }
            baud = value
        } else {
            baud = defaultBaud
        }
        guard SerialBaud.speed(baud) != nil else {
            throw ValidationError("--baud \(baud): expected a standard rate: "
                                  + SerialBaud.rates.map(String.init).joined(separator: ", "))
        }
        var flowControl = flags.flowControl
        if !flowControl, let text = environment("QUAD_FLOW_CONTROL") {
            guard text == "0" || text == "1" else {
                throw ValidationError("QUAD_FLOW_CONTROL '\(text)': expected 1 (RTS/CTS) or 0")
            }
            flowControl = text == "1"
        }
        return .serial(SerialSettings(device: device, baud: baud, flowControl: flowControl))
    }
}

extension SerialOpenFailure {
    /// A serial port that cannot be opened at the start ends mavlink-link with a sysexits code
    /// (docs/ground-tools.md, "Exit codes"): 66 no such device, 77 permission denied, 78 not a serial port,
    /// 69 in use by another process, 1 any other failure.
    var exitCode: ExitCode {
        switch self {
        case .missing: ExitStatus.noInput
        case .permissionDenied: ExitStatus.noPermission
        case .notATerminal: ExitStatus.configuration
        case .busy: ExitStatus.unavailable
        case .unsupportedBaud: ExitCode.validationFailure
        case .failed: ExitCode.failure
        }
    }
}
