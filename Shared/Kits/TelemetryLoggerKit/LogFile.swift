import FlightLog
import QuadProtocol
import QuadService
#if canImport(Glibc)
import Glibc
#endif

/// One open `.qlog` file. Records are appended to `pending` in memory and reach the kernel with write(2) in
/// `flush()`; `sync()` makes them durable. Only whole records are ever written, so a crash leaves at most one
/// torn record at the end, which `LogReader` reports and skips.
final class LogFile {
    let path: String
    private var fd: Int32
    private var pending: [UInt8] = []
    private(set) var pendingRecords = 0
    /// Header and records, including those still pending: what the rotation policy compares with its limit.
    private(set) var byteCount = 0
    private(set) var recordCount = 0

    /// Creates `<drone>-<UTC>.qlog` in `directory` with O_EXCL (never appending to an older file), trying
    /// `-1`, `-2`… when a file started in the same second exists; the header is pending until the first flush.
    init(directory: String, drone: DroneID, started: WallInstant, note: String) throws(LoggerError) {
        var index = 0
        while true {
            let candidate = directory + "/" + LogFileNaming.fileName(drone: drone, started: started,
                                                                     collisionIndex: index)
            let opened = open(candidate, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0o644)
            if opened >= 0 {
                path = candidate
                fd = opened
                // Tells `sync` this file is being recorded (it rewrites only finished files); released at close.
                _ = flock(opened, LOCK_EX | LOCK_NB)
                break
            }
            guard errno == EEXIST, index < 1000 else {
                throw .cannotCreate(path: candidate, reason: FileBytes.errorText(errno))
            }
            index += 1
        }
        FileBytes.syncDirectory(directory)
        let header = (try? LogFileHeader(createdUs: started.us, note: note))
            ?? (try? LogFileHeader(createdUs: started.us))
        pending = header?.encoded() ?? []
        byteCount = pending.count
    }

    deinit { if fd >= 0 { close(fd) } }

    var pendingBytes: Int { pending.count }

    func append(_ encodedRecord: [UInt8]) {
        pending.append(contentsOf: encodedRecord)
        pendingRecords += 1
        byteCount += encodedRecord.count
        recordCount += 1
    }

    /// Hands the pending bytes to the kernel. On failure they are discarded (the caller counts them as lost):
    /// keeping them would grow memory without bound on a full disk.
    func flush() -> FlushResult {
        guard !pending.isEmpty, fd >= 0 else { return FlushResult() }
        let failure = FileBytes.writeAll(fd, pending)
        let result = failure == nil
            ? FlushResult(records: pendingRecords, bytes: pending.count)
            : FlushResult(lostRecords: pendingRecords, error: "write \(path): \(FileBytes.errorText(failure ?? 0))")
        pending.removeAll(keepingCapacity: true)
        pendingRecords = 0
        return result
    }

    /// fsync(2): what was flushed survives a power cut.
    func sync() -> String? {
        guard fd >= 0, fsync(fd) != 0 else { return nil }
        return "fsync \(path): \(FileBytes.errorText(errno))"
    }

    /// Flushes, syncs and closes; the file is finished.
    func finish() -> FlushResult {
        var result = flush()
        if let error = sync() { result.error = result.error ?? error }
        if fd >= 0 {
            close(fd)
            fd = -1
        }
        return result
    }

    struct FlushResult {
        var records = 0
        var bytes = 0
        var lostRecords = 0
        var error: String?
    }
}
