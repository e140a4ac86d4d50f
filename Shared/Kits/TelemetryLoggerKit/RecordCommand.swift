import ArgumentParser
import CommandLineSupport
import FlightLog
import LogSync
import QuadMQTT
import QuadProtocol
import QuadService
#if canImport(Glibc)
import Glibc
#endif

struct RecordCommand: AsyncParsableCommand, ServiceCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: """
            Record every message of every drone (or of --drone ID, --drones, --shard) to .qlog files (the default \
            command).
            """,
        discussion: """
            Subscribes to quad/+/telemetry/#, quad/+/status/#, quad/+/target, quad/+/command and quad/+/pilot/# \
            (QoS 1; with --drone ID given on the command line quad/ID/… only, else every drone; QUAD_DRONE only \
            names the logger's own presence topic) and appends each message, byte for byte with its receive time, \
            topic, QoS and retain flag, \
            to <dir>/<drone>-<UTC yyyyMMdd-HHmmss>.qlog: one open file per drone id seen. A new file is started \
            at logger start, at each takeoff (DroneState) and before a file would pass --max-file-mb.
            Durability: records are buffered in memory and written with write(2) at least every 100 ms (sooner \
            past 256 KiB); fsync(2) every --fsync-interval-ms, at each rotation and at shutdown. A crash loses \
            at most the last 100 ms (process kill) or the last fsync interval (power loss); a torn last record \
            is reported by `recover`. Nothing is dropped silently: the connection buffers up to 65536 \
            messages, and messages dropped beyond that, records written, bytes and records lost to disk errors \
            are logged every 10 s and at shutdown (SIGTERM/SIGINT: drain, flush, fsync, exit 0).
            Sync (docs/ground-tools.md, "completing the ground's log"): on the ground, a gap in a telemetry topic's \
            sequence numbers \
            is asked for from the board's logger --sync-delay-ms after it was seen (quad/<id>/log/sync/request), \
            and the records it answers are appended to the open file, marked recovered; recording never waits \
            for it. --no-auto-sync turns that off (also off with --share and with --answer-sync). On the board, \
            --answer-sync answers such requests from the files in --dir.
            Fleet (docs/ground-tools.md, "recording a fleet"): without --drone, or with --all or --drone +, every \
            drone is \
            recorded, one file per drone. Several loggers split a fleet by drone with --drones a,b,c (exact \
            subscriptions) or --shard K/N (each of N loggers, K = 0…N-1, keeps the drones whose id hashes to K: \
            FNV-1a 32 of the id mod N; for brokers without shared subscriptions); each drone is then recorded by \
            exactly one logger, in one complete file. --share splits by message instead (a drone's messages are \
            spread over the group's files).
            """)

    static let subscriptionBuffer = 65536

    @OptionGroup var common: CommonOptions

    @Option(help: "Directory for the .qlog files, created if missing (env QUAD_LOG_DIR; default .).")
    var dir: String?

    @Option(help: "MQTT 5 shared subscriptions $share/GROUP/<filter>: loggers in one group split the messages.")
    var share: String?

    @Flag(help: "Every drone (the default without --drone; --drone + means the same).")
    var all = false

    @Option(help: "Only these drones, comma-separated (a,b,c): the broker sends only theirs.")
    var drones: String?

    @Option(help: "K/N: only the drones whose id hashes to K of N (FNV-1a 32 mod N); run N loggers, K = 0…N-1.")
    var shard: String?

    @Option(parsing: .signedNumber, help: "Start a new file before one would pass this size, MiB.")
    var maxFileMb = LogRotationPolicy.defaultMaxBytes / (1024 * 1024)

    @Option(parsing: .signedNumber, help: "fsync the open files at least this often, ms (0: at every 100 ms write).")
    var fsyncIntervalMs = 1000

    @Flag(inversion: .prefixedNo,
        help: "Ask the board's logger for telemetry missing from the log (gaps in sequence numbers).")
    var autoSync = true

    @Flag(
        help: """
            Answer other loggers' sync requests from the log files in --dir (the board's logger); \
            no automatic sync.
            """)
    var answerSync = false

    @Option(parsing: .signedNumber,
        help: "Wait this long after a gap before asking for it, ms (late QoS 1 messages fill it).")
    var syncDelayMs = 2000

    func validate() throws {
        let explicitDrone = common.drone.map { $0 != Self.everyDrone } ?? false
        let choices = [explicitDrone ? "--drone" : nil, all ? "--all" : nil, drones.map { _ in "--drones" },
                       shard.map { _ in "--shard" }].compactMap { $0 }
        if choices.count > 1 {
            throw ValidationError("\(choices.joined(separator: ", ")): choose one way to select the drones")
        }
        if shard != nil, share != nil {
            throw ValidationError("--shard with --share: choose one way to split the fleet between loggers")
        }
        _ = try droneSelection()
        guard (0...600_000).contains(syncDelayMs) else { throw ValidationError("--sync-delay-ms: expected 0…600000") }
        if let share, !Topics.isValidShareGroup(share) {
            throw ValidationError("--share '\(share)': expected one topic level without '/', '+' or '#'")
        }
        guard maxFileMb >= 1, maxFileMb <= 4096 else { throw ValidationError("--max-file-mb: expected 1…4096") }
        guard fsyncIntervalMs >= 0 else { throw ValidationError("--fsync-interval-ms: expected ≥ 0") }
    }

    func run() async throws {
        // `--drone +` is --all: the common option itself takes one drone id (its presence topic is the default's).
        var common = common
        if common.drone == Self.everyDrone { common.drone = nil }
        let options = try common.resolve()
        // A 3.1.1 broker (RabbitMQ, NATS) takes `$share/…` as a literal topic or refuses it: either way nothing would
        // be recorded, so refuse before connecting (`auto` may fall back to 3.1.1 too).
        if share != nil, options.mqttVersion != .v5 {
            throw ValidationError("""
                --share needs --mqtt-version 5: shared subscriptions are MQTT 5, and a 3.1.1 broker would deliver \
                nothing to $share/… (got \(options.mqttVersion.rawValue))
                """)
        }
        let directory = dir ?? ProcessEnvironment.value("QUAD_LOG_DIR") ?? "."
        do { try FileBytes.prepareDirectory(directory) } catch {
            throw LoggerError.notWritableDirectory(path: directory, reason: error.reason)
        }
        let runtime = try ServiceRuntime(service: "telemetry-logger", options: options,
                                         deliveryBufferLimit: Self.subscriptionBuffer)
        let recording = try recording(directory: directory, options: options)
        if case let .shard(index, count) = recording.drones {
            runtime.logger.info(
                "shard \(index)/\(count): recording the drones whose FNV-1a id hash mod \(count) is \(index)")
        }
        try await recording.run(runtime)
    }

    /// `--drone +`: every drone.
    static let everyDrone = "+"

    /// What this command line records, and how.
    func recording(directory: String, options: CommonOptions.Resolved) throws -> Recording {
        Recording(directory: directory, maxFileBytes: maxFileMb * 1024 * 1024, fsyncIntervalMs: fsyncIntervalMs,
                  note: LoggerEnvironment.headerNote(drone: options.drone),
                  drones: try droneSelection(), share: share,
                  autoSync: autoSync && share == nil && !answerSync, answerSync: answerSync, syncDelayMs: syncDelayMs)
    }

    /// The drones to record. Only an explicit --drone narrows: QUAD_DRONE (set in the deployed env file) names
    /// the logger's presence.
    func droneSelection() throws -> DroneSelection {
        if let drone = common.drone, drone != Self.everyDrone {
            guard let id = DroneID(rawValue: drone) else {
                throw ValidationError(
                    "--drone '\(drone)': expected 1–32 characters of a-z, 0-9 and '-', or + (every drone)")
            }
            return .only([id])
        }
        if let drones { return .only(try DroneSelection.parseList(drones).mapError { ValidationError("\($0)") }.get()) }
        if let shard { return try DroneSelection.parseShard(shard).mapError { ValidationError("\($0)") }.get() }
        return .all
    }
}
