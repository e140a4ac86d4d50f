import FlightLog
import QuadService

/// A whole `.qlog` file read into memory (files are capped by the rotation size) and parsed. A damaged header
/// does not stop the read: the records are then found by scanning from the start.
struct LoadedLog {
    /// The largest file `record` writes (--max-file-mb ≤ 4096); bounds the memory a hostile file can claim.
    static let maxFileBytes = 4 << 30

    let path: String
    let header: LogFileHeader?
    let headerError: LogHeaderError?
    let fileBytes: Int
    let result: LogReadResult

    init(path: String) throws(LoggerError) {
        let bytes: [UInt8]
        do { bytes = try FileBytes.read(path, limit: Self.maxFileBytes) } catch {
            throw .cannotRead(path: path, reason: "\(error)")
        }
        self.path = path
        fileBytes = bytes.count
        do {
            let reader = try LogReader(bytes: bytes)
            header = reader.header
            headerError = nil
            result = reader.readAll()
        } catch {
            header = nil
            headerError = error
            result = LogReader(recordBytes: bytes).readAll()
        }
    }

    var records: [LogRecord] { result.records }

    /// One line per problem, prefixed with the path, for stderr or the `recover` report.
    var problemLines: [String] {
        var lines: [String] = []
        if let headerError { lines.append("\(path): damaged file header (\(headerError)); records found by scanning") }
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

    func reportProblems() {
        for line in problemLines { POSIXFile.writeStandardError("warning: \(line)\n") }
    }
}
