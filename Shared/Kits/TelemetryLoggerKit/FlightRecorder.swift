import FlightLog
import Logging
import QuadMQTT
import QuadProtocol
import QuadService
import Synchronization

/// Appends every received message to the log file of its drone (one open file per drone id seen), rotating at
/// takeoff and at the size limit. `append` only encodes into memory (plus a write(2) when a file's buffer passes
/// `flushThresholdBytes`); `tick` writes what is pending and fsyncs on schedule; `close` finishes every file.
final class FlightRecorder: Sendable {
    /// Messages whose topic has no valid drone id go to this file.
    static let unknownDrone = DroneID(rawValue: "unknown-drone") ?? .default
    /// A file's buffer is written at once when it grows past this, whatever the timer says.
    static let flushThresholdBytes = 256 * 1024

    struct Statistics: Sendable, Equatable {
        var recordsWritten = 0
        var bytesWritten = 0
        var filesOpened = 0
        /// Records that reached no disk: write(2)/open(2) failed (disk full, permissions).
        var recordsLost = 0
    }

    private struct State {
        var files: [DroneID: LogFile] = [:]
        var takeoffDetectors: [DroneID: TakeoffDetector] = [:]
        var statistics = Statistics()
        var lastSyncUs: Int64 = 0
        var lastError: String?
    }

    let directory: String
    let policy: LogRotationPolicy
    let fsyncIntervalUs: Int64
    let note: String
    let logger: Logger
    private let state = Mutex(State())

    init(directory: String, policy: LogRotationPolicy, fsyncIntervalMs: Int, note: String, logger: Logger) {
        self.directory = directory
        self.policy = policy
        self.fsyncIntervalUs = Int64(max(0, fsyncIntervalMs)) * 1000
        self.note = note
        self.logger = logger
    }

    var statistics: Statistics { state.withLock { $0.statistics } }

    /// Records one message, stamped with the wall clock under the lock so times in a file never go backwards
    /// between the subscriptions' consumers (unless the wall clock itself jumps).
    func append(_ message: MQTTMessage) {
        let drone = DroneID(topic: message.topic) ?? Self.unknownDrone
        state.withLock { s in
            let now = WallClock.now()
            guard let record = try? LogRecord(receiveTimeUs: now.us, topic: message.topic, payload: message.payload,
                                              retain: message.retain, qos: UInt8(clamping: max(0, message.qos)))
            else {
                // MQTT's own limits make this unreachable; count it rather than crash.
                s.statistics.recordsLost += 1
                return
            }
            var takeoff = false
            if message.topic == Topics.droneState.topic(for: drone),
               let droneState = try? DroneState(decoding: message.payload) {
                takeoff = s.takeoffDetectors[drone, default: TakeoffDetector()].observe(droneState.controlState)
            }
            store(record.encoded(), drone: drone, takeoff: takeoff, now: now, in: &s)
        }
    }

    /// Appends records recovered from the board's log (`AutoSync`) to their drone's open file. They carry the
    /// recovered flag and a receive time inside their gap, so readers put them in place (`RecoveredOrder`).
    func appendRecovered(_ records: [LogRecord]) {
        state.withLock { s in
            let now = WallClock.now()
            for record in records {
                let drone = DroneID(topic: record.topic) ?? Self.unknownDrone
                store(record.encoded(), drone: drone, takeoff: false, now: now, in: &s)
            }
        }
    }

    /// Appends one encoded record to the drone's file, starting a new file first when the policy says so (named and
    /// stamped with `now`).
    private func store(_ encoded: [UInt8], drone: DroneID, takeoff: Bool, now: WallInstant, in s: inout State) {
        let openFile = s.files[drone].map {
            LogRotationPolicy.OpenFile(byteCount: $0.byteCount, recordCount: $0.recordCount)
        }
        var file = s.files[drone]
        if let reason = policy.rotation(openFile: openFile, nextRecordBytes: encoded.count, takeoffDetected: takeoff) {
            if let old = file { account(old.finish(), in: &s) }
            do {
                let opened = try LogFile(directory: directory, drone: drone, started: now, note: note)
                s.statistics.filesOpened += 1
                logger.info("recording \(drone) to \(opened.path) (\(reason))")
                file = opened
            } catch {
                s.files[drone] = nil
                s.statistics.recordsLost += 1
                report("\(error)", in: &s)
                return
            }
        }
        guard let file else { return }
        s.files[drone] = file
        file.append(encoded)
        if file.pendingBytes >= Self.flushThresholdBytes { account(file.flush(), in: &s) }
    }

    /// Writes every pending buffer; fsyncs all files when `fsyncIntervalUs` has passed since the last fsync.
    func tick(now: MonotonicInstant) {
        let nowUs = now.us
        state.withLock { s in
            for file in s.files.values { account(file.flush(), in: &s) }
            guard nowUs - s.lastSyncUs >= fsyncIntervalUs else { return }
            s.lastSyncUs = nowUs
            for file in s.files.values {
                if let error = file.sync() { report(error, in: &s) }
            }
        }
    }

    /// Flushes, fsyncs and closes every file.
    func close() {
        state.withLock { s in
            for file in s.files.values { account(file.finish(), in: &s) }
            s.files = [:]
        }
    }

    private func account(_ result: LogFile.FlushResult, in s: inout State) {
        s.statistics.recordsWritten += result.records
        s.statistics.bytesWritten += result.bytes
        s.statistics.recordsLost += result.lostRecords
        if let error = result.error { report(error, in: &s) }
    }

    /// Logs an error once per distinct text, so a full disk does not flood the journal (the counts tell the rest).
    private func report(_ error: String, in s: inout State) {
        guard error != s.lastError else { return }
        s.lastError = error
        logger.error("\(error)")
    }
}
