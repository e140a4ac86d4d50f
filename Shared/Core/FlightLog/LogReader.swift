/// Reads a `.qlog` buffer: the header, then every complete record with a good CRC, in order.
///
/// Crash recovery: an incomplete last record is reported as `.tornTail` and ends the read; a damaged region
/// in the middle is reported as `.corrupt` and skipped by scanning for the next sync marker that starts a valid
/// record, so the rest of the file stays readable. The executable reads the whole file into memory (files are
/// capped by `LogRotationPolicy`), or, for a headerless byte range, uses `init(recordBytes:)`.
public struct LogReader: Sequence, Sendable {
    public let header: LogFileHeader?
    public let bytes: [UInt8]
    /// Offset of the first record in `bytes`.
    public let recordsOffset: Int

    /// Parses the file header first; a damaged header is an error (the records may still be read with
    /// `init(recordBytes:startOffset:)` by a recovery tool).
    public init(bytes: [UInt8]) throws(LogHeaderError) {
        let decoded = try LogFileHeader.decode(bytes)
        self.header = decoded.header
        self.bytes = bytes
        self.recordsOffset = decoded.recordsOffset
    }

    /// Reads records only, starting at `startOffset` (e.g. past a damaged header).
    public init(recordBytes: [UInt8], startOffset: Int = 0) {
        self.header = nil
        self.bytes = recordBytes
        self.recordsOffset = Swift.max(0, Swift.min(startOffset, recordBytes.count))
    }

    public func makeIterator() -> Iterator { Iterator(bytes: bytes, offset: recordsOffset) }

    /// All records and problems at once.
    public func readAll() -> LogReadResult {
        var result = LogReadResult()
        for event in self {
            switch event {
            case .record(let record, _): result.records.append(record)
            case .problem(let problem): result.problems.append(problem)
            }
        }
        return result
    }

    public struct Iterator: IteratorProtocol {
        let bytes: [UInt8]
        var offset: Int
        /// A record found while resynchronising, returned after the `.corrupt` problem that precedes it.
        var pending: LogReadEvent?

        public mutating func next() -> LogReadEvent? {
            if let event = pending {
                pending = nil
                return event
            }
            guard offset < bytes.count else { return nil }
            let start = offset
            switch LogRecord.decode(in: bytes, at: start) {
            case .valid(let record, let byteCount):
                offset = start + byteCount
                return .record(record, offset: start)
            case .incomplete:
                // Either a torn last record or a corrupted length field: it is torn unless a valid record follows.
                guard let (resume, record, byteCount) = nextValidRecord(after: start) else {
                    offset = bytes.count
                    return .problem(.tornTail(offset: start, bytes: bytes.count - start))
                }
                return skip(from: start, to: resume, record: record, byteCount: byteCount)
            case .invalid:
                guard let (resume, record, byteCount) = nextValidRecord(after: start) else {
                    // Nothing valid follows: a torn record may still be at the end after the garbage.
                    if let tornStart = lastIncompleteStart(after: start) {
                        offset = tornStart
                        return .problem(.corrupt(offset: start, skippedBytes: tornStart - start))
                    }
                    offset = bytes.count
                    return .problem(.corrupt(offset: start, skippedBytes: bytes.count - start))
                }
                return skip(from: start, to: resume, record: record, byteCount: byteCount)
            }
        }

        private mutating func skip(from start: Int, to resume: Int, record: LogRecord, byteCount: Int) -> LogReadEvent {
            pending = .record(record, offset: resume)
            offset = resume + byteCount
            return .problem(.corrupt(offset: start, skippedBytes: resume - start))
        }

        /// The first offset after `start` holding a sync marker that begins a valid record.
        private func nextValidRecord(after start: Int) -> (Int, LogRecord, Int)? {
            var candidate = start + 1
            while let found = nextSyncMarker(from: candidate) {
                if case .valid(let record, let byteCount) = LogRecord.decode(in: bytes, at: found) {
                    return (found, record, byteCount)
                }
                candidate = found + 1
            }
            return nil
        }

        /// The first offset after `start` where a record begins that the buffer cuts short (a sync marker, or a
        /// prefix of one at the very end); used only when no valid record follows.
        private func lastIncompleteStart(after start: Int) -> Int? {
            var candidate = start + 1
            while candidate < bytes.count {
                if LogRecord.decode(in: bytes, at: candidate) == .incomplete { return candidate }
                candidate += 1
            }
            return nil
        }

        private func nextSyncMarker(from start: Int) -> Int? {
            var candidate = start
            let first = LogRecord.syncMarker[0]
            while candidate <= bytes.count - LogRecord.syncMarker.count {
                if bytes[candidate] == first, bytes.hasBytes(LogRecord.syncMarker, at: candidate) { return candidate }
                candidate += 1
            }
            return nil
        }
    }
}
