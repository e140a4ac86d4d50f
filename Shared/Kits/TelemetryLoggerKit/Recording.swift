import FlightLog
import Logging
import LogSync
import QuadMQTT
import QuadProtocol
import QuadService
import ServiceLifecycle
#if canImport(Glibc)
import Glibc
#endif

/// `record`'s glue over any connection (the broker's, or an `InMemoryBroker`'s in unit tests): subscribes to the
/// recorded filters, feeds the `FlightRecorder` in the connection's order, runs the sync helpers, flushes on a
/// timer, reports, and on shutdown drains what was queued before closing the files.
struct Recording {
    static let flushIntervalMs = 100
    static let reportIntervalUs: Int64 = 10_000_000

    let directory: String
    let maxFileBytes: Int
    let fsyncIntervalMs: Int
    let note: String
    let drones: DroneSelection
    /// MQTT 5 shared-subscription group.
    let share: String?
    /// Ask the board's logger for gaps (off with --share: each logger of a group sees part of the traffic, its
    /// "gaps" are its partners' messages; off with --answer-sync).
    let autoSync: Bool
    let answerSync: Bool
    let syncDelayMs: Int

    /// Runs until SIGTERM/SIGINT, a refused subscription (thrown), or until one of `until` returns (tests).
    func run(_ runtime: ServiceRuntime, until: [any Service] = []) async throws {
        let recorder = FlightRecorder(
            directory: directory, policy: LogRotationPolicy(maxBytes: maxFileBytes),
            fsyncIntervalMs: fsyncIntervalMs, note: note, logger: runtime.logger)
        let filters = drones.filters
        let drones = drones
        let client = runtime.client
        let autoSync = autoSync
            ? AutoSync(requester: "logger-\(getpid())", limits: SyncLimits(requestDelay: .milliseconds(syncDelayMs)),
                       logger: runtime.logger)
            : nil
        // Before subscribing: a connection that answers SUBACK at once (the in-memory one) reports refusals then.
        let refusals = client.events()
        // Every filter feeds the recorder from the connection's one ordered queue (the file keeps arrival order).
        for filter in filters {
            try client.subscribe(share.map { Topics.shared(filter, group: $0) } ?? filter, qos: 1) { message in
                // A shard's partners record the other drones (the broker sends this logger every drone).
                guard drones.includes(topic: message.topic) else { return }
                if autoSync?.admit(message) != false { recorder.append(message) }
            }
        }
        var helpers: [Task<Void, Never>] = []
        if let autoSync {
            let responses = try client.subscribe(AutoSync.responseFilter(drone: drones.singleDrone,
                requester: autoSync.requester),
                                                 qos: 1, bufferLimit: AutoSync.responseBuffer)
            helpers.append(Task { await autoSync.runRequests(client: client) })
            helpers.append(Task { await autoSync.runResponses(responses, recorder: recorder) })
        }
        if answerSync {
            let requests = try client.subscribe(SyncAnswerer.requestFilter(drone: drones.singleDrone), qos: 1,
                                                bufferLimit: SyncAnswerer.requestBuffer)
            let answerer = SyncAnswerer(directory: directory, client: client, logger: runtime.logger,
                                        drones: drones)
            helpers.append(Task { await answerer.run(requests) })
        }
        // Recording nothing must not look like a quiet bus: a refused subscription ends the run with exit 1.
        let refusalWatch = RefusalWatch(events: refusals, needsMQTT5: share != nil)
        let ticker = Task { await Self.tick(recorder, client: client, runtime: runtime, autoSync: autoSync) }
        var failure: (any Error)?
        do { try await runtime.run([refusalWatch] + until) } catch { failure = error }
        client.shutdown()
        // What was queued before the shutdown still goes to the file.
        await client.drained()
        ticker.cancel()
        await ticker.value
        for helper in helpers { helper.cancel() }
        for helper in helpers { await helper.value }
        recorder.close()
        runtime.logger.info("final: \(Self.report(recorder, client, autoSync))")
        if let failure { throw failure }
    }

    /// Runs until shutdown; throws (stopping the service group) when the broker refuses one of the subscriptions.
    struct RefusalWatch: Service {
        let events: AsyncStream<MQTTConnectionEvent>
        /// --share: a broker that refuses MQTT 5 can never give us the shared subscription; retrying would record
        /// nothing for ever.
        let needsMQTT5: Bool
        func run() async throws {
            try await cancelWhenGracefulShutdown {
                for await event in events {
                    if needsMQTT5, event.isUnsupportedProtocolVersion, case .refused(_, let reason) = event {
                        throw LoggerError.badOption("""
                            --share needs MQTT 5, and the broker refused it (\(reason)): nothing would be recorded
                            """)
                    }
                    if case .subscriptionRefused(let filter, _) = event {
                        throw LoggerError.badOption("""
                            the broker refused the subscription to \(filter): nothing would be recorded (does it \
                            support this filter? an ACL?)
                            """)
                    }
                }
            }
        }
    }

    private static func tick(_ recorder: FlightRecorder, client: any MQTTConnection,
                             runtime: ServiceRuntime, autoSync: AutoSync?) async {
        var lastReportUs = MonotonicClock.nowUs()
        while !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(flushIntervalMs))
            let now = MonotonicClock.now()
            recorder.tick(now: now)
            let nowUs = now.us
            if nowUs - lastReportUs >= reportIntervalUs {
                lastReportUs = nowUs
                runtime.logger.info("\(report(recorder, client, autoSync))")
            }
        }
    }

    static func report(_ recorder: FlightRecorder, _ client: any MQTTConnection, _ autoSync: AutoSync?) -> String {
        let s = recorder.statistics
        let dropped = client.droppedUnread
        return "records_written=\(s.recordsWritten) bytes_written=\(s.bytesWritten) files=\(s.filesOpened) "
            + "dropped=\(dropped) lost=\(s.recordsLost)" + (autoSync.map { " " + $0.report } ?? "")
    }
}
