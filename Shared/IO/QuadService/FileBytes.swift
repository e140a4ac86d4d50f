#if canImport(Glibc)
import Glibc
#endif
import Clocks

/// The project's file I/O, without Foundation (the board is small, and write(2)/fsync(2) say exactly what reaches
/// the disk and when): small reads (password files, config, routes, logs), whole-file writes and atomic
/// replacement, standard output/error, directory listing and locks.
public enum FileBytes {
    public enum ReadError: Error, Equatable, CustomStringConvertible {
        case cannotOpen(path: String, errno: Int32)
        case tooLarge(path: String, limit: Int)
        public var description: String {
            switch self {
            case .cannotOpen(let p, let e): "cannot open \(p): \(String(cString: strerror(e)))"
            case .tooLarge(let p, let l): "\(p) is larger than \(l) bytes"
            }
        }
    }

    /// A write that did not reach its file (or standard output); the text is what a user sees after `Error:`.
    public struct WriteError: Error, Equatable, CustomStringConvertible {
        public let path: String
        /// The OS's reason alone (`strerror`).
        public let reason: String
        public init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }
        public var description: String { "cannot write \(path): \(reason)" }
    }

    public static func read(_ path: String, limit: Int = 1 << 20) throws(ReadError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .cannotOpen(path: path, errno: errno) }
        defer { close(fd) }
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .cannotOpen(path: path, errno: errno)
            }
            if n == 0 { break }
            out.append(contentsOf: chunk[0..<n])
            if out.count > limit { throw .tooLarge(path: path, limit: limit) }
        }
        return out
    }

    /// The first line of a text file without its newline (password files).
    public static func firstLine(_ path: String) throws(ReadError) -> String {
        let bytes = try read(path, limit: 64 * 1024)
        let line = bytes.prefix { $0 != 0x0A && $0 != 0x0D }
        return String(decoding: line, as: UTF8.self)
    }

    public static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// Writes all of `bytes` to `fd`, retrying short writes and EINTR. Returns the errno of a failure, nil when done.
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                Glibc.write(fd, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
            }
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += written
        }
        return nil
    }

    /// Creates or truncates `path` and writes `bytes` to it.
    public static func write(_ path: String, _ bytes: [UInt8]) throws(WriteError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw WriteError(path: path, reason: errorText(errno)) }
        if let failure = writeAll(fd, bytes) {
            close(fd)
            throw WriteError(path: path, reason: errorText(failure))
        }
        guard close(fd) == 0 else { throw WriteError(path: path, reason: errorText(errno)) }
    }

    /// Replaces `path` atomically with `bytes`: a temporary file in the same directory, fsync'ed, renamed over
    /// it, the directory fsync'ed. A crash leaves the old file or the new one, never half of one.
    public static func replace(_ path: String, with bytes: [UInt8]) throws(WriteError) {
        let temporary = path + ".sync-tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw WriteError(path: temporary, reason: errorText(errno)) }
        if let failure = writeAll(fd, bytes) ?? (fsync(fd) == 0 ? nil : errno) {
            close(fd)
            unlink(temporary)
            throw WriteError(path: temporary, reason: errorText(failure))
        }
        close(fd)
        guard rename(temporary, path) == 0 else {
            let failure = errno
            unlink(temporary)
            throw WriteError(path: path, reason: errorText(failure))
        }
        let slash = path.lastIndex(of: "/")
        syncDirectory(slash.map { String(path[..<$0]) } ?? ".")
    }

    /// Writes to standard output (fd 1), unbuffered.
    public static func writeStandardOutput(_ text: String) throws(WriteError) {
        if let failure = writeAll(1, Array(text.utf8)) {
            throw WriteError(path: "standard output", reason: errorText(failure))
        }
    }

    public static func writeStandardError(_ text: String) {
        _ = writeAll(2, Array(text.utf8))
    }

    /// Makes `path` a directory (one level) unless it already is one, and checks it is writable. The error's
    /// reason is the OS's.
    public static func prepareDirectory(_ path: String) throws(WriteError) {
        if mkdir(path, 0o755) != 0, errno != EEXIST { throw WriteError(path: path, reason: errorText(errno)) }
        guard access(path, W_OK | X_OK) == 0 else { throw WriteError(path: path, reason: errorText(errno)) }
    }

    /// `prepareDirectory` with every missing parent made too (`mkdir -p`), each 0700: a default directory of
    /// the user's own (the XDG state directory's) is nobody else's to read.
    public static func prepareDirectoryTree(_ path: String) throws(WriteError) {
        var prefix = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix += "/" + part
            if mkdir(prefix, 0o700) != 0, errno != EEXIST { throw WriteError(path: prefix, reason: errorText(errno)) }
        }
        guard access(path, W_OK | X_OK) == 0 else { throw WriteError(path: path, reason: errorText(errno)) }
    }

    /// fsync on a directory makes a newly created file's name durable, not just its contents.
    public static func syncDirectory(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    /// The names in a directory (without `.` and `..`); empty when it cannot be read.
    public static func directoryEntries(_ path: String) -> [String] {
        guard let dir = opendir(path) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// Last modification (the file system's wall clock); nil when the file cannot be stat'ed.
    public static func modificationTime(_ path: String) -> WallInstant? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return WallInstant(us: Int64(info.st_mtim.tv_sec) * 1_000_000 + Int64(info.st_mtim.tv_nsec) / 1000)
    }

    /// An exclusive lock on `path` if nobody holds one (`telemetry-logger record` holds one on each file it
    /// writes; drone-controller on its flight memory's lock file, `creating` it). The returned descriptor keeps it
    /// until closed (the kernel drops it when the process dies, SIGKILL included); nil when the file is locked
    /// or cannot be opened.
    public static func tryLock(_ path: String, creating: Bool = false) -> Int32? {
        let fd = creating ? open(path, O_RDONLY | O_CREAT | O_CLOEXEC, 0o644) : open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            return nil
        }
        return fd
    }
}
