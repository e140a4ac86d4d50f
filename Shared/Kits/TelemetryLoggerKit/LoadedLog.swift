import FlightLog
import QuadService

/// A whole `.qlog` file read into memory (files are capped by the rotation size) and parsed. A damaged header
/// does not stop the read: the records are then found by scanning from the start.
struct LoadedLog {
    /// The largest file `record` writes (--max-file-mb ≤ 4096); bounds the memory a hostile file can claim.
    static let maxFileBytes = 4 << 30

    let path: String
    let fileBytes: Int
    let contents: LogContents

    init(path: String) throws(LoggerError) {
        let bytes: [UInt8]
        do { bytes = try FileBytes.read(path, limit: Self.maxFileBytes) } catch {
            throw .cannotRead(path: path, reason: Self.reason(error))
        }
        self.path = path
        fileBytes = bytes.count
        do { contents = try LogContents(bytes: bytes) } catch {
            throw .notAFlightLog(path: path, reason: "\(error)")
        }
        records = RecoveredOrder.inReceiveOrder(contents.records)
    }

    var header: LogFileHeader? { contents.header }
    /// In receive order: records recovered from the board (appended by `record` after an outage) in their gap.
    let records: [LogRecord]

    /// One line per problem, prefixed with the path, for stderr or the `recover` report.
    var problemLines: [String] { contents.problemLines(path: path) }

    func reportProblems() {
        for line in problemLines { FileBytes.writeStandardError("warning: \(line)\n") }
    }

    /// The OS's reason alone: `cannotRead` already names the path.
    private static func reason(_ error: FileBytes.ReadError) -> String {
        switch error {
        case let .cannotOpen(_, code): FileBytes.errorText(code)
        case let .tooLarge(_, limit): "larger than \(limit >> 30) GiB, more than any log `record` writes"
        }
    }
}
