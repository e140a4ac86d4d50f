import Clocks
import FlightLog
import QuadProtocol

/// Bounds of a ground logger's sync, all on its monotonic clock.
public struct SyncLimits: Sendable, Equatable {
    /// Ranges per request (≤ `SyncRequest.maxRanges`).
    public var maxRangesPerRequest: Int
    /// Requests waiting for an answer at once.
    public var maxOutstandingRequests: Int
    /// An answer must progress (its first chunk, or the next one) within this, else the request is repeated.
    public var responseTimeout: Duration
    /// Requests per range before it is given up as unanswered.
    public var maxAttempts: Int
    /// How long a new gap waits before it is asked for: QoS 1 telemetry queued by the bridge during an outage
    /// arrives by itself after it, and a reordered message may still come.
    public var requestDelay: Duration
    /// Ranges waiting or in flight; more are dropped (counted).
    public var maxTrackedRanges: Int
    /// Keys of recovered records remembered to drop a late duplicate; the oldest half is forgotten past it.
    public var maxRememberedKeys: Int

    public init(maxRangesPerRequest: Int = 64, maxOutstandingRequests: Int = 2, responseTimeout: Duration = .seconds(5),
                maxAttempts: Int = 3, requestDelay: Duration = .zero, maxTrackedRanges: Int = 4096,
                maxRememberedKeys: Int = 200_000) {
        self.maxRangesPerRequest = min(max(1, maxRangesPerRequest), SyncRequest.maxRanges)
        self.maxOutstandingRequests = max(1, maxOutstandingRequests)
        self.responseTimeout = max(.milliseconds(1), responseTimeout)
        self.maxAttempts = max(1, maxAttempts)
        self.requestDelay = max(.zero, requestDelay)
        self.maxTrackedRanges = max(1, maxTrackedRanges)
        self.maxRememberedKeys = max(16, maxRememberedKeys)
    }
}

/// Why a response (or one record in it) was not taken. Every case is counted in `SyncSession.rejected`.
public enum SyncResponseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The payload is no valid response chunk.
    case malformed(SyncWireError)
    /// No request with this id is waiting (answered already, timed out, or never sent).
    case unknownRequest(UInt32)
    case chunkCountChanged(requestId: UInt32, was: UInt16, now: UInt16)
    case duplicateChunk(requestId: UInt32, index: UInt16)
    /// The board would not answer; the request is repeated (bounded).
    case refused(requestId: UInt32, reason: String)
    /// A record whose payload has no sequenced wire header.
    case undecodableRecord(topic: String)
    /// A record that is in no range of the request it answers (another drone, topic, sequence or time).
    case notRequested(topic: String, sequence: UInt32)
    /// The log has this record already (received live, or recovered before).
    case duplicateRecord(topic: String, sequence: UInt32)

    /// The counter key.
    public var kind: String {
        switch self {
        case .malformed: "malformed"
        case .unknownRequest: "unknown-request"
        case .chunkCountChanged: "chunk-count-changed"
        case .duplicateChunk: "duplicate-chunk"
        case .refused: "refused"
        case .undecodableRecord: "undecodable-record"
        case .notRequested: "not-requested"
        case .duplicateRecord: "duplicate-record"
        }
    }

    public var description: String {
        switch self {
        case let .malformed(error): "malformed response: \(error)"
        case let .unknownRequest(id): "response to request \(id), which is not waiting"
        case let .chunkCountChanged(id, was, now): "request \(id): chunk count \(now), earlier chunks said \(was)"
        case let .duplicateChunk(id, index): "request \(id): chunk \(index) again"
        case let .refused(id, reason): "request \(id) refused by the board: \(reason)"
        case let .undecodableRecord(topic): "a record on \(topic.prefix(120)) without a sequenced header"
        case let .notRequested(topic, sequence): "record \(topic.prefix(120)) #\(sequence) was not asked for"
        case let .duplicateRecord(topic, sequence): "record \(topic.prefix(120)) #\(sequence) is in the log already"
        }
    }
}

/// A request to publish on `Topics.logSyncRequest.topic(for: drone)`.
public struct OutgoingSyncRequest: Sendable, Equatable {
    public var drone: DroneID
    public var request: SyncRequest
}

/// What one response payload gave: records to log (already marked recovered, with receive times inside their
/// gap) and what was rejected.
public struct SyncReceipt: Sendable, Equatable {
    public var records: [LogRecord] = []
    public var rejections: [SyncResponseError] = []
}

/// The ground side of a sync, sans I/O: missing ranges in, requests out, response payloads in, recovered records
/// out; every deadline on the caller's monotonic clock. Used once for a file (`telemetry-logger sync`) and for the
/// whole run by `record`'s automatic sync. Never produces a record twice: a recovered record is taken only while
/// its sequence is still missing, and a live arrival of one already recovered is reported by `admitLive`.
public struct SyncSession: Sendable {
    private struct Pending: Sendable {
        var range: MissingRange
        var attempts: Int
        var dueUs: Int64
    }

    private struct Outstanding: Sendable {
        var drone: DroneID
        var ranges: [MissingRange]
        var attempts: Int
        var deadlineUs: Int64
        var chunkCount: UInt16?
        var chunksSeen: Set<UInt16> = []
        var truncated = false
        var recovered = 0
    }

    public let requester: String
    public let limits: SyncLimits
    private var pending: [Pending] = []
    private var outstanding: [UInt32: Outstanding] = [:]
    private var nextRequestId: UInt32
    private var remembered: Set<RecordKey> = []
    private var rememberedOrder: [RecordKey] = []

    /// Ranges the board answered without (its log lacks them too).
    public private(set) var unavailable: [MissingRange] = []
    /// Ranges no answer came for after `maxAttempts` requests.
    public private(set) var unanswered: [MissingRange] = []
    public private(set) var requestsSent = 0
    /// Requests whose answer arrived complete (or refused), whatever it held.
    public private(set) var requestsAnswered = 0
    public private(set) var recordsRecovered = 0
    /// Missing records that arrived live before they were recovered (late QoS 1 from the bridge's queue).
    public private(set) var filledLive = 0
    /// Live arrivals of records recovered before: not logged again.
    public private(set) var duplicatesDropped = 0
    /// Ranges not tracked because `maxTrackedRanges` were waiting.
    public private(set) var rangesDropped = 0
    public private(set) var rejected: [String: Int] = [:]

    public init(requester: String, limits: SyncLimits = SyncLimits(), firstRequestId: UInt32 = 1) {
        self.requester = requester
        self.limits = limits
        nextRequestId = max(1, firstRequestId)
    }

    /// Nothing waiting and nothing in flight.
    public var isIdle: Bool { pending.isEmpty && outstanding.isEmpty }
    public var outstandingCount: Int { outstanding.count }
    public var rejectedTotal: Int { rejected.values.reduce(0, +) }
    /// Still to be asked for or in flight.
    public var waitingRanges: [MissingRange] { pending.map(\.range) + outstanding.values.flatMap(\.ranges) }

    /// Gaps to fill; asked for `requestDelay` after `now`.
    public mutating func add(_ ranges: [MissingRange], now: MonotonicInstant) {
        let nowUs = now.us
        for range in ranges {
            guard range.drone != nil, Topics.isSyncable(range.topic), range.first <= range.last else { continue }
            guard pending.count + outstanding.values.reduce(0,
                { $0 + $1.ranges.count }) < limits.maxTrackedRanges else {
                rangesDropped += 1
                continue
            }
            pending.append(Pending(range: range, attempts: 0, dueUs: nowUs &+ limits.requestDelay.us))
        }
    }

    /// A message received live. False when it is a record recovered before (drop it: it is in the log already);
    /// when it is one still missing, its sequence is no longer asked for.
    public mutating func admitLive(_ record: LogRecord) -> Bool {
        guard Topics.isSyncable(record.topic), let key = RecordKey(record) else { return true }
        if remembered.contains(key) {
            duplicatesDropped += 1
            return false
        }
        guard !isIdle else { return true }
        var filled = false
        for index in pending.indices where pending[index].range.contains(topic: key.topic, sequence: key.sequence,
                                                                          stamp: key.stamp) {
            let parts = pending[index].range.removing(key.sequence)
            let template = pending[index]
            pending.remove(at: index)
            pending.insert(
                contentsOf: parts.map { Pending(range: $0, attempts: template.attempts, dueUs: template.dueUs) },
                           at: index)
            filled = true
            break
        }
        if !filled {
            for (id, request) in outstanding {
                guard let index = request.ranges.firstIndex(where: {
                    $0.contains(topic: key.topic, sequence: key.sequence, stamp: key.stamp)
                }) else { continue }
                outstanding[id]?.ranges.replaceSubrange(index...index, with: request.ranges[index]
                    .removing(key.sequence))
                filled = true
                break
            }
        }
        if filled {
            filledLive += 1
            // The board may still send it: that copy is then a duplicate.
            remember(key)
        }
        return true
    }

    /// Expires requests whose answer stalled, then sends what is due: up to `maxOutstandingRequests` in flight,
    /// `maxRangesPerRequest` ranges of one drone each.
    public mutating func poll(now: MonotonicInstant) -> [OutgoingSyncRequest] {
        let nowUs = now.us
        for (id, request) in outstanding where nowUs >= request.deadlineUs {
            outstanding[id] = nil
            retry(request.ranges, attempts: request.attempts + 1, nowUs: nowUs)
        }
        var sent: [OutgoingSyncRequest] = []
        while outstanding.count < limits.maxOutstandingRequests,
              let firstDue = pending.firstIndex(where: { $0.dueUs <= nowUs }),
              let drone = pending[firstDue].range.drone {
            var taken: [Pending] = []
            var kept: [Pending] = []
            for entry in pending {
                if taken.count < limits.maxRangesPerRequest, entry.dueUs <= nowUs, entry.range.drone == drone {
                    taken.append(entry)
                } else {
                    kept.append(entry)
                }
            }
            pending = kept
            let id = nextRequestId
            nextRequestId = nextRequestId == .max ? 1 : nextRequestId + 1
            let ranges = taken.map(\.range)
            let attempts = taken.map(\.attempts).max() ?? 0
            outstanding[id] = Outstanding(drone: drone, ranges: ranges, attempts: attempts,
                                          deadlineUs: nowUs &+ limits.responseTimeout.us)
            requestsSent += 1
            sent.append(OutgoingSyncRequest(
                drone: drone, request: SyncRequest(id: id, requester: requester, ranges: ranges.map(\.requestRange))))
        }
        return sent
    }

    /// One response chunk as received on `log/sync/response/<requester>`.
    public mutating func receive(_ payload: [UInt8], now: MonotonicInstant) -> SyncReceipt {
        let nowUs = now.us
        var receipt = SyncReceipt()
        let response: SyncResponse
        do { response = try SyncResponse(decoding: payload) } catch {
            reject(.malformed(error), into: &receipt)
            return receipt
        }
        let id = response.requestId
        guard var request = outstanding[id] else {
            reject(.unknownRequest(id), into: &receipt)
            return receipt
        }
        if response.status == .refused {
            outstanding[id] = nil
            requestsAnswered += 1
            reject(.refused(requestId: id, reason: response.note), into: &receipt)
            retry(request.ranges, attempts: request.attempts + 1, nowUs: nowUs)
            return receipt
        }
        if let count = request.chunkCount, count != response.chunkCount {
            reject(.chunkCountChanged(requestId: id, was: count, now: response.chunkCount), into: &receipt)
            return receipt
        }
        guard !request.chunksSeen.contains(response.chunkIndex) else {
            reject(.duplicateChunk(requestId: id, index: response.chunkIndex), into: &receipt)
            return receipt
        }
        request.chunkCount = response.chunkCount
        request.chunksSeen.insert(response.chunkIndex)
        request.truncated = request.truncated || response.status == .truncated
        request.deadlineUs = nowUs &+ limits.responseTimeout.us
        let prefix = "quad/\(request.drone.rawValue)/"
        for record in response.records {
            guard let key = RecordKey(record) else {
                reject(.undecodableRecord(topic: record.topic), into: &receipt)
                continue
            }
            guard record.topic.hasPrefix(prefix),
                  let index = request.ranges.firstIndex(where: {
                      $0.contains(topic: key.topic, sequence: key.sequence, stamp: key.stamp)
                  })
            else {
                reject(remembered.contains(key) ? .duplicateRecord(topic: record.topic, sequence: key.sequence)
                                                : .notRequested(topic: record.topic, sequence: key.sequence),
                       into: &receipt)
                continue
            }
            let range = request.ranges[index]
            request.ranges.replaceSubrange(index...index, with: range.removing(key.sequence))
            remember(key)
            request.recovered += 1
            recordsRecovered += 1
            receipt.records.append(record.asRecovered(receiveTimeUs: range.receiveTime(senderStamp: key.stamp).us))
        }
        if request.chunksSeen.count == Int(response.chunkCount) {
            outstanding[id] = nil
            requestsAnswered += 1
            if request.truncated, !request.ranges.isEmpty {
                // The board had more than one answer carries: ask again for the rest (progress made: same attempt).
                retry(request.ranges, attempts: request.attempts + (request.recovered > 0 ? 0 : 1), nowUs: nowUs)
            } else {
                rangesDropped += Self.keepBounded(&unavailable, request.ranges, limit: limits.maxTrackedRanges)
            }
        } else {
            outstanding[id] = request
        }
        return receipt
    }

    /// Asks again at once, or gives the ranges up as unanswered after `maxAttempts`.
    private mutating func retry(_ ranges: [MissingRange], attempts: Int, nowUs: Int64) {
        if attempts >= limits.maxAttempts {
            rangesDropped += Self.keepBounded(&unanswered, ranges, limit: limits.maxTrackedRanges)
        } else {
            pending += ranges.map { Pending(range: $0, attempts: attempts, dueUs: nowUs) }
        }
    }

    /// The given-up lists live as long as `record` runs: keep the newest `limit`; returns how many were dropped.
    private static func keepBounded(_ list: inout [MissingRange], _ more: [MissingRange], limit: Int) -> Int {
        list += more
        let excess = max(0, list.count - limit)
        list.removeFirst(excess)
        return excess
    }

    private mutating func reject(_ error: SyncResponseError, into receipt: inout SyncReceipt) {
        rejected[error.kind, default: 0] += 1
        receipt.rejections.append(error)
    }

    private mutating func remember(_ key: RecordKey) {
        guard remembered.insert(key).inserted else { return }
        rememberedOrder.append(key)
        if rememberedOrder.count > limits.maxRememberedKeys {
            let forget = rememberedOrder.count / 2
            for old in rememberedOrder[..<forget] { remembered.remove(old) }
            rememberedOrder.removeFirst(forget)
        }
    }
}
