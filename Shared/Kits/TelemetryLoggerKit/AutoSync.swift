import FlightLog
import Logging
import LogSync
import QuadMQTT
import QuadProtocol
import QuadService
import Synchronization

/// `record`'s automatic sync (ground): watches every recorded telemetry message for sequence gaps, asks the
/// board's logger for the missing records once `requestDelayMs` passed (QoS 1 telemetry queued by the bridge
/// arrives by itself after an outage), and appends what comes back, marked recovered, to the open file.
/// Recording never waits for it: `admit` is a few dictionary operations under a lock on the connection's thread;
/// requests and answers run on their own tasks, the answers through a bounded queue.
final class AutoSync: Sendable {
    private struct State: Sendable {
        var watch = GapWatch()
        var session: SyncSession
        var reportedUnanswered = 0
        var reportedUnavailable = 0
    }

    static let tickMs = 100
    /// Response chunks held for the task that merges them; beyond it the oldest are dropped (and re-asked for).
    static let responseBuffer = 64

    let requester: String
    private let state: Mutex<State>
    private let logger: Logger

    init(requester: String, limits: SyncLimits, logger: Logger) {
        self.requester = requester
        self.logger = logger
        state = Mutex(State(session: SyncSession(requester: requester, limits: limits,
                                                 firstRequestId: UInt32.random(in: 1...UInt32.max / 2))))
    }

    /// The filter this logger's answers arrive on (`quad/+/log/sync/response/<requester>`, or one drone's).
    static func responseFilter(drone: DroneID?, requester: String) -> String {
        (drone.map { Topics.logSyncResponse.topic(for: $0) } ?? Topics.logSyncResponse.anyDroneFilter) + "/\(requester)"
    }

    /// Called for every message before it is recorded. False: a record recovered earlier arrived late (a QoS 1
    /// message the bridge had queued): it is in the log already, drop it.
    func admit(_ message: MQTTMessage) -> Bool {
        guard Topics.isSyncable(message.topic),
              let record = try? LogRecord(receiveTimeUs: WallClock.nowUs(), topic: message.topic,
                                          payload: message.payload, retain: message.retain,
                                          qos: UInt8(clamping: max(0, message.qos)))
        else { return true }
        let now = MonotonicClock.now()
        return state.withLock { s in
            guard s.session.admitLive(record) else { return false }
            let gaps = s.watch.observe(record)
            if !gaps.isEmpty { s.session.add(gaps, now: now) }
            return true
        }
    }

    /// Sends due requests every `tickMs` until cancelled.
    func runRequests(client: any MQTTConnection) async {
        while !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(Self.tickMs))
            let due = state.withLock { $0.session.poll(now: MonotonicClock.now()) }
            for outgoing in due {
                guard let payload = try? outgoing.request.encoded() else { continue }
                let missing = outgoing.request.ranges.reduce(0) { $0 + Int($1.last - $1.first) + 1 }
                do {
                    try client.publish(topic: Topics.logSyncRequest.topic(for: outgoing.drone), payload: payload,
                                       qos: Topics.logSyncRequest.qos.rawValue, retain: false)
                    let text = "sync: asked the board of \(outgoing.drone) for \(missing) missing record(s) in "
                        + "\(outgoing.request.ranges.count) range(s) (request \(outgoing.request.id))"
                    logger.info("\(text)")
                } catch {
                    // Not sent (offline): the request times out and is asked again, bounded by maxAttempts.
                    logger.debug("sync: request \(outgoing.request.id) not sent: \(error)")
                }
            }
            reportGivenUp()
        }
    }

    /// Merges answers into the log until the subscription ends.
    func runResponses(_ responses: MQTTSubscription, recorder: FlightRecorder) async {
        for await message in responses {
            let receipt = state.withLock { $0.session.receive(message.payload, now: MonotonicClock.now()) }
            if !receipt.records.isEmpty {
                recorder.appendRecovered(receipt.records)
                logger.info("sync: recovered \(receipt.records.count) record(s) from the board")
            }
            for rejection in receipt.rejections.prefix(3) { logger.warning("sync: rejected: \(rejection)") }
        }
    }

    /// `synced=… sync_missing=… sync_rejected=…` for the periodic report.
    var report: String {
        state.withLock { s in
            let session = s.session
            let missing = (session.unavailable + session.unanswered).reduce(0) { $0 + $1.count }
            return "synced=\(session.recordsRecovered) sync_missing=\(missing) sync_rejected=\(session.rejectedTotal) "
                + "sync_duplicates_dropped=\(session.duplicatesDropped)"
        }
    }

    /// Says once per range what the board could not supply or did not answer for.
    private func reportGivenUp() {
        let (unanswered, unavailable) = state.withLock { s -> ([MissingRange], [MissingRange]) in
            let newUnanswered = Array(s.session.unanswered.dropFirst(min(s.reportedUnanswered,
                s.session.unanswered.count)))
            let newUnavailable = Array(s.session.unavailable.dropFirst(min(s.reportedUnavailable,
                s.session.unavailable.count)))
            s.reportedUnanswered = s.session.unanswered.count
            s.reportedUnavailable = s.session.unavailable.count
            return (newUnanswered, newUnavailable)
        }
        for range in unanswered.prefix(10) { logger.warning("sync: no answer from the board for \(range.summary)") }
        for range in unavailable.prefix(10) { logger.warning("sync: the board's log lacks \(range.summary) too") }
    }
}
