/// Damage found while reading a log. Reported alongside the records, never fatal.
public enum LogProblem: Error, Equatable, Sendable {
    /// The file ends inside a record (the logger was killed or the machine lost power mid-write).
    /// `bytes` bytes from `offset` to the end of the buffer were not used.
    case tornTail(offset: Int, bytes: Int)
    /// `skippedBytes` bytes from `offset` were not a valid record (CRC mismatch, garbage); reading resumed at
    /// the next sync marker that starts a valid record.
    case corrupt(offset: Int, skippedBytes: Int)
}

/// One step of reading a log: a record or a problem, in file order.
public enum LogReadEvent: Equatable, Sendable {
    case record(LogRecord, offset: Int)
    case problem(LogProblem)
}

/// Everything a reader found in one buffer.
public struct LogReadResult: Equatable, Sendable {
    public var records: [LogRecord]
    public var problems: [LogProblem]

    public init(records: [LogRecord] = [], problems: [LogProblem] = []) {
        self.records = records
        self.problems = problems
    }
}
