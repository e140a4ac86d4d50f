import ArgumentParser
import CommandLineSupport
import FlightLog
import QuadMQTT
import QuadProtocol
import QuadService
#if canImport(Glibc)
import Glibc
#endif

struct RecordCommand: AsyncParsableCommand {
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

    func validate() throws {
        if let share, !Topics.isValidShareGroup(share) {
            throw ValidationError("--share '\(share)': expected one topic level without '/', '+' or '#'")
        }
        guard maxFileMb >= 1, maxFileMb <= 4096 else { throw ValidationError("--max-file-mb: expected 1…4096") }
        guard fsyncIntervalMs >= 0 else { throw ValidationError("--fsync-interval-ms: expected ≥ 0") }
    }

    func run() async throws {
        let options = try common.resolve()
        let directory = dir ?? LoggerEnvironment.value("QUAD_LOG_DIR") ?? "."
        try POSIXFile.prepareDirectory(directory)
        let runtime = try ServiceRuntime(service: "telemetry-logger", options: options,
                                         deliveryBufferLimit: Self.subscriptionBuffer)
        if share != nil, options.mqttVersion != .v5 {
            runtime.logger.notice("--share works best with --mqtt-version 5 (shared subscriptions are MQTT 5)")
        }
        let recorder = FlightRecorder(
            directory: directory, policy: LogRotationPolicy(maxBytes: maxFileMb * 1024 * 1024),
            fsyncIntervalMs: fsyncIntervalMs, note: LoggerEnvironment.headerNote(drone: options.drone),
            logger: runtime.logger)
        // Only an explicit --drone narrows: QUAD_DRONE (set in the deployed env file) names the logger's presence.
        let filters = common.drone == nil ? Topics.recordedFilters : Topics.recordedFilters(drone: options.drone)
        // Every filter feeds the recorder from the connection's one ordered queue (the file keeps arrival order).
        for filter in filters {
            try runtime.client.subscribe(share.map { Topics.shared(filter, group: $0) } ?? filter, qos: 1) {
                recorder.append($0)
            }
        }
        let client = runtime.client
        let ticker = Task { await Self.tick(recorder, client: client, runtime: runtime) }
        var failure: (any Error)?
        do { try await runtime.run([IdleService()]) } catch { failure = error }
        runtime.client.shutdown()
        // What was queued before the shutdown still goes to the file.
        await client.drained()
        ticker.cancel()
        await ticker.value
        recorder.close()
        runtime.logger.info("final: \(Self.report(recorder, client))")
        if let failure { throw failure }
    }

    private static func tick(_ recorder: FlightRecorder, client: MQTTClient,
                             runtime: ServiceRuntime) async {
        var lastReportUs = WallClock.monotonicUs()
        while !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(flushIntervalMs))
            let nowUs = WallClock.monotonicUs()
            recorder.tick(nowUs: nowUs)
            if nowUs - lastReportUs >= reportIntervalUs {
                lastReportUs = nowUs
                runtime.logger.info("\(report(recorder, client))")
            }
        }
    }

    static func report(_ recorder: FlightRecorder, _ client: MQTTClient) -> String {
        let s = recorder.statistics
        let dropped = client.droppedUnread
        return "records_written=\(s.recordsWritten) bytes_written=\(s.bytesWritten) files=\(s.filesOpened) "
            + "dropped=\(dropped) lost=\(s.recordsLost)"
    }
}
