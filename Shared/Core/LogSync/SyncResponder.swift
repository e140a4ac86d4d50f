import Clocks
import FlightLog
import QuadProtocol

/// The board logger's side: which of its records answer a request, cut into chunks. Fed record by record (files
/// are read one at a time and never kept), it holds only the records it will send, at most `maxRecords`.
public struct SyncAnswer: Sendable {
    public struct Limits: Sendable, Equatable {
        /// Records per chunk (one MQTT message) and their encoded bytes: a chunk stays well below any broker's
        /// message limit and a slow radio link is not blocked by one huge message.
        public var maxRecordsPerChunk: Int
        public var maxChunkBytes: Int
        /// Records per answer; beyond it the answer says `truncated` and the requester asks again for the rest.
        public var maxRecords: Int

        public init(maxRecordsPerChunk: Int = 256, maxChunkBytes: Int = 64 * 1024, maxRecords: Int = 4096) {
            self.maxRecordsPerChunk = min(max(1, maxRecordsPerChunk), SyncResponse.maxRecords)
            self.maxChunkBytes = max(1024, maxChunkBytes)
            self.maxRecords = max(1, min(maxRecords, Int(UInt16.max) * self.maxRecordsPerChunk))
        }
    }

    public let request: SyncRequest
    public let drone: DroneID
    public let limits: Limits
    private var selected: [LogRecord] = []
    private var keys: Set<RecordKey> = []
    public private(set) var truncated = false
    private let prefix: String

    public init(request: SyncRequest, drone: DroneID, limits: Limits = Limits()) {
        self.request = request
        self.drone = drone
        self.limits = limits
        prefix = "quad/\(drone.rawValue)/"
    }

    /// The sender-stamp window of all ranges, to skip log files that cannot hold any of them.
    public var window: ClosedRange<WallInstant> {
        let low = request.ranges.map(\.notBeforeUs).min() ?? 0
        let high = request.ranges.map(\.notAfterUs).max() ?? 0
        return WallInstant(us: low)...WallInstant(us: max(low, high))
    }

    /// Takes `record` if it is one of the requested ones (and not taken already).
    public mutating func offer(_ record: LogRecord) {
        guard record.topic.hasPrefix(prefix) else { return }
        let path = record.topic.dropFirst(prefix.count)
        guard request.ranges.contains(where: { $0.path == path }),
              let key = RecordKey(record),
              request.ranges.contains(where: {
                  $0.path == path && $0.contains(sequence: key.sequence, timestampUs: key.stamp.us)
              }),
              !keys.contains(key)
        else { return }
        guard selected.count < limits.maxRecords else {
            truncated = true
            return
        }
        keys.insert(key)
        selected.append(record)
    }

    /// The chunks to publish, in order; one empty chunk when nothing matched ("I have none of them").
    public func responses() -> [SyncResponse] {
        var chunks: [[LogRecord]] = []
        var current: [LogRecord] = []
        var bytes = 0
        for record in selected {
            let size = record.encodedByteCount
            if !current.isEmpty, current.count >= limits.maxRecordsPerChunk || bytes + size > limits.maxChunkBytes {
                chunks.append(current)
                current = []
                bytes = 0
            }
            current.append(record)
            bytes += size
        }
        if !current.isEmpty || chunks.isEmpty { chunks.append(current) }
        let count = UInt16(chunks.count)
        return chunks.enumerated().map { index, records in
            SyncResponse(requestId: request.id, status: truncated ? .truncated : .complete, chunkIndex: UInt16(index),
                         chunkCount: count, records: records)
        }
    }

    public var recordCount: Int { selected.count }
}

/// Which of the board's log files an answer reads: those written to since the window began (modification time), newest
/// first, at most `maxFiles`. A file last written before the gap cannot hold it; later files might (a file is per
/// flight and the flight may go on), so they are read too, newest first.
public enum SyncArchive {
    public struct File: Sendable, Equatable {
        public var path: String
        public var lastWrite: WallInstant
        public init(path: String, lastWrite: WallInstant) {
            self.path = path
            self.lastWrite = lastWrite
        }
    }

    /// Slack for the two clocks involved (sender stamps vs. the file system's), and for write buffering.
    public static let slack: Duration = .seconds(10)

    public static func candidates(_ files: [File], drone: DroneID, window: ClosedRange<WallInstant>,
                                  maxFiles: Int = 4) -> [String] {
        let prefix = "\(drone.rawValue)-"
        // Wrapping: the window comes off the wire, and a stamp near Int64.min must not trap.
        let earliestUs = window.lowerBound.us &- slack.us
        return files
            .filter {
                let name = $0.path.split(separator: "/").last.map(String.init) ?? $0.path
                return name.hasPrefix(prefix) && name.hasSuffix(".\(LogFileNaming.fileExtension)")
                    && $0.lastWrite.us >= earliestUs
            }
            .sorted { $0.path > $1.path }
            .prefix(max(1, maxFiles))
            .map(\.path)
    }
}
