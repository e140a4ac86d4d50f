#if canImport(Glibc)
import Glibc
#endif

/// The standard termios rates a serial link may use (Linux's Bxxx constants). No I/O: a table.
public enum SerialBaud {
    /// Every rate `--baud` accepts, with its termios constant: 9600 … 921600, and the high rates Linux has.
    public static let table: [(baud: Int, speed: speed_t)] = [
        (9600, speed_t(B9600)), (19200, speed_t(B19200)), (38400, speed_t(B38400)), (57600, speed_t(B57600)),
        (115200, speed_t(B115200)), (230400, speed_t(B230400)), (460800, speed_t(B460800)),
        (500000, speed_t(B500000)), (576000, speed_t(B576000)), (921600, speed_t(B921600)),
        (1_000_000, speed_t(B1000000)), (1_500_000, speed_t(B1500000)), (2_000_000, speed_t(B2000000)),
        (3_000_000, speed_t(B3000000)),
    ]

    public static var rates: [Int] { table.map(\.baud) }

    /// The termios constant of `baud`; nil for a rate that is not in the table.
    public static func speed(_ baud: Int) -> speed_t? { table.first { $0.baud == baud }?.speed }

    /// The rates flight controllers' telemetry ports use (PX4's and ArduPilot's defaults and the companion's),
    /// most likely first: what a link that hears no MAVLink suggests.
    public static let usual = [921600, 57600, 115200, 460800]

    /// `usual` without `baud`, as "921600, 115200 or 460800".
    public static func suggestion(excluding baud: Int) -> String {
        let others = usual.filter { $0 != baud }.map(String.init)
        guard others.count > 1 else { return others.joined() }
        return others.dropLast().joined(separator: ", ") + " or " + others[others.count - 1]
    }
}
