/// Everything a gpsd consumer needs from a byte stream: line splitting, parsing and fix classification.
/// Feed it the bytes read from the socket; act on the events. Keeps the satellite count from the latest SKY so a
/// fix can carry it.
public struct GPSDStream: Sendable {
    public enum Event: Sendable, Equatable {
        case fix(GPSFix)
        case noFix(GPSFixStatus.NoFixReason)
        case version(GPSDVersion)
        /// gpsd knows these devices; empty means no receiver is attached.
        case devices([GPSDDevice])
        case watch(GPSDWatch)
        case gpsdError(message: String)
        case malformedLine(GPSDParseError)
        case overlongLine(byteCount: Int)
    }

    private var lines: GPSDLineBuffer
    /// Satellites used in the solution per the latest SKY report; nil until one arrives.
    public private(set) var satellitesUsed: Int?

    public init(maxLineBytes: Int = GPSDLineBuffer.defaultMaxLineBytes) {
        lines = GPSDLineBuffer(maxLineBytes: maxLineBytes)
    }

    /// The bytes to write right after connecting.
    public var openingCommand: [UInt8] { GPSDCommand.watch }

    public mutating func receive(_ bytes: some Sequence<UInt8>) -> [Event] {
        lines.append(bytes).compactMap { handle($0) }
    }

    /// The connection closed: a trailing unterminated line is still parsed.
    public mutating func finish() -> [Event] {
        lines.finish().compactMap { handle($0) }
    }

    private mutating func handle(_ item: GPSDLineBuffer.Item) -> Event? {
        switch item {
        case .overlong(let count):
            return .overlongLine(byteCount: count)
        case .line(let bytes):
            let report: GPSDReport
            do {
                report = try GPSDReportParser.parse(line: bytes)
            } catch {
                return .malformedLine(error)
            }
            switch report {
            case .tpv(let tpv):
                switch tpv.fixStatus {
                case .fix(let fix): return .fix(fix)
                case .noFix(let reason): return .noFix(reason)
                }
            case .sky(let sky):
                if let used = sky.satellitesUsed { satellitesUsed = used }
                return nil
            case .version(let v): return .version(v)
            case .devices(let d): return .devices(d)
            case .watch(let w): return .watch(w)
            case .error(let message): return .gpsdError(message: message)
            case .other: return nil
            }
        }
    }
}
