#if canImport(Glibc)
import Glibc
#endif

/// The few POSIX calls the logger needs, without Foundation: the board is small and write(2)/fsync(2) say
/// exactly what reaches the disk and when.
enum POSIXFile {
    /// Writes all of `bytes` to `fd`, retrying short writes and EINTR. Returns the errno of a failure, nil when done.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { buffer in
                write(fd, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
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
    static func writeFile(_ path: String, _ bytes: [UInt8]) throws(LoggerError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .cannotWrite(path: path, reason: errorText(errno)) }
        if let failure = writeAll(fd, bytes) {
            close(fd)
            throw .cannotWrite(path: path, reason: errorText(failure))
        }
        guard close(fd) == 0 else { throw .cannotWrite(path: path, reason: errorText(errno)) }
    }

    /// Writes to standard output (fd 1), unbuffered.
    static func writeStandardOutput(_ text: String) throws(LoggerError) {
        if let failure = writeAll(1, Array(text.utf8)) {
            throw .cannotWrite(path: "standard output", reason: errorText(failure))
        }
    }

    static func writeStandardError(_ text: String) {
        _ = writeAll(2, Array(text.utf8))
    }

    /// Makes `path` a directory (one level) unless it already is one, and checks it is writable.
    static func prepareDirectory(_ path: String) throws(LoggerError) {
        if mkdir(path, 0o755) != 0, errno != EEXIST {
            throw .notWritableDirectory(path: path, reason: errorText(errno))
        }
        guard access(path, W_OK | X_OK) == 0 else {
            throw .notWritableDirectory(path: path, reason: errorText(errno))
        }
    }

    /// fsync on a directory makes a newly created file's name durable, not just its contents.
    static func syncDirectory(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// The names in a directory (without `.` and `..`); empty when it cannot be read.
    static func directoryEntries(_ path: String) -> [String] {
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

    /// Last modification, µs since the epoch; nil when the file cannot be stat'ed.
    static func modificationTimeUs(_ path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int64(info.st_mtim.tv_sec) * 1_000_000 + Int64(info.st_mtim.tv_nsec) / 1000
    }

    /// Replaces `path` atomically with `bytes`: a temporary file in the same directory, fsync'ed, renamed over
    /// it, the directory fsync'ed. A crash leaves the old file or the new one, never half of one.
    static func replaceFile(_ path: String, with bytes: [UInt8]) throws(LoggerError) {
        let temporary = path + ".sync-tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .cannotWrite(path: temporary, reason: errorText(errno)) }
        if let failure = writeAll(fd, bytes) ?? (fsync(fd) == 0 ? nil : errno) {
            close(fd)
            unlink(temporary)
            throw .cannotWrite(path: temporary, reason: errorText(failure))
        }
        close(fd)
        guard rename(temporary, path) == 0 else {
            let failure = errno
            unlink(temporary)
            throw .cannotWrite(path: path, reason: errorText(failure))
        }
        let slash = path.lastIndex(of: "/")
        syncDirectory(slash.map { String(path[..<$0]) } ?? ".")
    }

    /// An exclusive lock on `path` if nobody holds one (`record` holds one on each file it writes). The returned
    /// descriptor keeps it until closed; nil when the file is locked or cannot be opened.
    static func tryLock(_ path: String) -> Int32? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            return nil
        }
        return fd
    }
}
