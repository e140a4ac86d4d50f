import ArgumentParser
import CommandLineSupport
import FlightLog
import LogSync
import QuadMQTT
import QuadProtocol
import QuadService
import ServiceLifecycle
#if canImport(Glibc)
import Glibc
#endif

struct RecordCommand: AsyncParsableCommand, ServiceCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record every message of every drone (or of --drone ID) to .qlog files (the default command).",
        discussion: """
            Subscribes to quad/+/telemetry/#, quad/+/status/#, quad/+/target, quad/+/command and quad/+/pilot/# \
            (QoS 1; with --drone ID given on the command line quad/ID/… only, else every drone; QUAD_DRONE only \
            names the logger's own presence topic) and appends each message, byte for byte with its receive time, topic, QoS and retain flag, \
            to <dir>/<drone>-<UTC yyyyMMdd-HHmmss>.qlog: one open file per drone id seen. A new file is started \
            at logger start, at each takeoff (DroneState) and before a file would pass --max-file-mb.
            Durability: records are buffered in memory and written with write(2) at least every 100 ms (sooner \
            past 256 KiB); fsync(2) every --fsync-interval-ms, at each rotation and at shutdown. A crash loses \
            at most the last 100 ms (process kill) or the last fsync interval (power loss); a torn last record \
            is reported by `recover`. Nothing is dropped silently: the connection buffers up to 65536 \
            messages, and messages dropped beyond that, records written, bytes and records lost to disk errors \
            are logged every 10 s and at shutdown (SIGTERM/SIGINT: drain, flush, fsync, exit 0).
            Sync (README "Completing the ground's log"): on the ground, a gap in a telemetry topic's sequence numbers \
            is asked for from the board's logger --sync-delay-ms after it was seen (quad/<id>/log/sync/request), \
            and the records it answers are appended to the open file, marked recovered; recording never waits \
            for it. --no-auto-sync turns that off (also off with --share and with --answer-sync). On the board, \
            --answer-sync answers such requests from the files in --dir.
            """)

    static let subscriptionBuffer = 65536
    static let flushIntervalMs = 100
    static let reportIntervalUs: Int64 = 10_000_000

    @OptionGroup var common: CommonOptions

    @Option(help: "Directory for the .qlog files, created if missing (env QUAD_LOG_DIR; default .).")
    var dir: String?

    @Option(help: "MQTT 5 shared subscriptions $share/GROUP/<filter>: loggers in one group split the messages.")
    var share: String?

    @Option(parsing: .signedNumber, help: "Start a new file before one would pass this size, MiB.")
    var maxFileMb = LogRotationPolicy.defaultMaxBytes / (1024 * 1024)

    @Option(parsing: .signedNumber, help: "fsync the open files at least this often, ms (0: at every 100 ms write).")
    var fsyncIntervalMs = 1000

    @Flag(inversion: .prefixedNo, help: "Ask the board's logger for telemetry missing from the log (gaps in sequence numbers).")
    var autoSync = true

    @Flag(help: "Answer other loggers' sync requests from the log files in --dir (the board's logger); no automatic sync.")
    var answerSync = false

    @Option(parsing: .signedNumber, help: "Wait this long after a gap before asking for it, ms (late QoS 1 messages fill it).")
    var syncDelayMs = 2000

    func validate() throws {
        guard (0...600_000).contains(syncDelayMs) else { throw ValidationError("--sync-delay-ms: expected 0…600000") }
        if let share, !Topics.isValidShareGroup(share) {
            throw ValidationError("--share '\(share)': expected one topic level without '/', '+' or '#'")
        }
        guard maxFileMb >= 1, maxFileMb <= 4096 else { throw ValidationError("--max-file-mb: expected 1…4096") }
        guard fsyncIntervalMs >= 0 else { throw ValidationError("--fsync-interval-ms: expected ≥ 0") }
    }

    func run() async throws {
        let options = try common.resolve()
        // A 3.1.1 broker (RabbitMQ, NATS) takes `$share/…` as a literal topic or refuses it: either way nothing would
        // be recorded, so refuse before connecting (`auto` may fall back to 3.1.1 too).
        if share != nil, options.mqttVersion != .v5 {
            throw LoggerError.badOption("""
                --share needs --mqtt-version 5: shared subscriptions are MQTT 5, and a 3.1.1 broker would deliver \
                nothing to $share/… (got \(options.mqttVersion.rawValue))
                """)
        }
        let directory = dir ?? LoggerEnvironment.value("QUAD_LOG_DIR") ?? "."
        try POSIXFile.prepareDirectory(directory)
        let runtime = try ServiceRuntime(service: "telemetry-logger", options: options,
                                         deliveryBufferLimit: Self.subscriptionBuffer)
        let recorder = FlightRecorder(
            directory: directory, policy: LogRotationPolicy(maxBytes: maxFileMb * 1024 * 1024),
            fsyncIntervalMs: fsyncIntervalMs, note: LoggerEnvironment.headerNote(drone: options.drone),
            logger: runtime.logger)
        // Only an explicit --drone narrows: QUAD_DRONE (set in the deployed env file) names the logger's presence.
        let onlyDrone = common.drone == nil ? nil : options.drone
        let filters = onlyDrone.map(Topics.recordedFilters(drone:)) ?? Topics.recordedFilters
        let client = runtime.client
        // Each logger of a --share group sees only part of the traffic: its "gaps" are its partners' messages.
        let autoSync = autoSync && share == nil && !answerSync
            ? AutoSync(requester: "logger-\(getpid())", limits: SyncLimits(requestDelayUs: Int64(syncDelayMs) * 1000),
                       logger: runtime.logger)
            : nil
        // Every filter feeds the recorder from the connection's one ordered queue (the file keeps arrival order).
        for filter in filters {
            try runtime.client.subscribe(share.map { Topics.shared(filter, group: $0) } ?? filter, qos: 1) { message in
                if autoSync?.admit(message) != false { recorder.append(message) }
            }
        }
        var helpers: [Task<Void, Never>] = []
        if let autoSync {
            let responses = try client.subscribe(AutoSync.responseFilter(drone: onlyDrone, requester: autoSync.requester),
                                                 qos: 1, bufferLimit: AutoSync.responseBuffer)
            helpers.append(Task { await autoSync.runRequests(client: client) })
            helpers.append(Task { await autoSync.runResponses(responses, recorder: recorder) })
        }
        if answerSync {
            let requests = try client.subscribe(SyncAnswerer.requestFilter(drone: onlyDrone), qos: 1,
                                                bufferLimit: SyncAnswerer.requestBuffer)
            let answerer = SyncAnswerer(directory: directory, client: client, logger: runtime.logger)
            helpers.append(Task { await answerer.run(requests) })
        }
        // Recording nothing must not look like a quiet bus: a refused subscription ends the run with exit 1.
        let refusals = client.events()
        let refusalWatch = RefusalWatch(events: refusals, needsMQTT5: share != nil)
        let ticker = Task { await Self.tick(recorder, client: client, runtime: runtime, autoSync: autoSync) }
        var failure: (any Error)?
        do { try await runtime.run([refusalWatch]) } catch { failure = error }
        runtime.client.shutdown()
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

    private static func tick(_ recorder: FlightRecorder, client: MQTTClient,
                             runtime: ServiceRuntime, autoSync: AutoSync?) async {
        var lastReportUs = WallClock.monotonicUs()
        while !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(flushIntervalMs))
            let nowUs = WallClock.monotonicUs()
            recorder.tick(nowUs: nowUs)
            if nowUs - lastReportUs >= reportIntervalUs {
                lastReportUs = nowUs
                runtime.logger.info("\(report(recorder, client, autoSync))")
            }
        }
    }

    static func report(_ recorder: FlightRecorder, _ client: MQTTClient, _ autoSync: AutoSync?) -> String {
        let s = recorder.statistics
        let dropped = client.droppedUnread
        return "records_written=\(s.recordsWritten) bytes_written=\(s.bytesWritten) files=\(s.filesOpened) "
            + "dropped=\(dropped) lost=\(s.recordsLost)" + (autoSync.map { " " + $0.report } ?? "")
    }
}
