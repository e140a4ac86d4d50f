/// A whole `.qlog` buffer as a reading tool (export, replay, recover) sees it: the header if it is intact,
/// every good record, and each problem as a sentence. A damaged header does not stop the read (the records
/// are found by scanning from the start); bytes that are no flight log at all do.
public struct LogContents: Sendable, Equatable {
    public let header: LogFileHeader?
    public let headerError: LogHeaderError?
    public let result: LogReadResult

    /// Fails only when `bytes` are not a flight log: the magic is wrong and no record is found by scanning.
    /// A log whose first bytes were overwritten but whose records survive is still read (with a warning).
    public init(bytes: [UInt8]) throws(LogContentsError) {
        do {
            let reader = try LogReader(bytes: bytes)
            header = reader.header
            headerError = nil
            result = reader.readAll()
        } catch {
            header = nil
            headerError = error
            result = LogReader(recordBytes: bytes).readAll()
            // A file shorter than the magic that does not begin like it (a stray text file) is not a log either;
            // an empty one is: the logger creates the file and writes the header with its first records.
            let wrongStart: Bool = switch error {
            case .badMagic: true
            case .truncated: !LogFileHeader.magic.starts(with: bytes.prefix(LogFileHeader.magic.count))
            default: false
            }
            if wrongStart, result.records.isEmpty { throw .notAFlightLog }
        }
    }

    public var records: [LogRecord] { result.records }

    /// One sentence per problem, each starting with `path`, for stderr or the `recover` report.
    public func problemLines(path: String) -> [String] {
        var lines: [String] = []
        if let headerError {
            lines.append("\(path): damaged file header: \(headerError); \(records.count) records found by scanning")
        }
        for problem in result.problems {
            switch problem {
            case let .tornTail(offset, bytes):
                lines.append("\(path): torn tail at offset \(offset): last \(bytes) bytes are an incomplete record")
            case let .corrupt(offset, skippedBytes):
                lines.append("\(path): corrupt range at offset \(offset): \(skippedBytes) bytes skipped")
            }
        }
        return lines
    }
}

/// Why a buffer could not be read as a flight log at all.
public enum LogContentsError: Error, Equatable, Sendable, CustomStringConvertible {
    case notAFlightLog

    public var description: String {
        switch self {
        case .notAFlightLog: "not a .qlog flight log (bad magic)"
        }
    }
}

extension LogHeaderError: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .noteTooLong(bytes, maxBytes): "the note is \(bytes) bytes, a header holds at most \(maxBytes)"
        case let .truncated(neededBytes, availableBytes):
            "the file ends after \(availableBytes) bytes, inside the header (\(neededBytes) needed)"
        case let .badMagic(found):
            "bad magic: starts with \(Self.hex(found)) instead of \(Self.hex(LogFileHeader.magic))"
        case let .unsupportedVersion(expected, found):
            "format version \(found); this reader knows version \(expected)"
        case let .crcMismatch(stored, computed):
            "header checksum mismatch: stored \(Self.hex32(stored)), computed \(Self.hex32(computed))"
        case .noteNotUTF8: "the header note is not valid UTF-8"
        }
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined(separator: " ")
    }

    private static func hex32(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
    }
}

extension LogRecordError: CustomStringConvertible {
    public var description: String {
        switch self {
        case let .topicTooLong(bytes, maxBytes): "topic of \(bytes) bytes is longer than the \(maxBytes) a record holds"
        case let .payloadTooLong(bytes, maxBytes):
            "payload of \(bytes) bytes is longer than the \(maxBytes) a record holds"
        case let .invalidQoS(qos): "QoS \(qos) is not 0, 1 or 2"
        }
    }
}
