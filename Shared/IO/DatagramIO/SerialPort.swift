#if canImport(Glibc)
import Glibc
#endif

/// Why a serial device could not be opened. At start each is the configuration's fault and ends mavlink-link (its
/// exit code says which); later (a USB adapter unplugged) the link keeps trying.
public enum SerialOpenFailure: Error, Equatable, CustomStringConvertible {
    /// No such device (ENOENT, ENODEV, ENXIO): not plugged in, or a wrong name.
    case missing(device: String)
    /// Not a terminal: a regular file, a directory, /dev/null.
    case notATerminal(device: String, what: String)
    /// Held by another process (its flock, or TIOCEXCL): `holder` as "pid 123 (mavlink-routerd)" when known.
    case busy(device: String, holder: String?)
    /// EACCES/EPERM: the user may not open it (on Debian: not in the `dialout` group).
    case permissionDenied(device: String)
    /// The termios rate is not one of `SerialBaud.table`.
    case unsupportedBaud(Int)
    case failed(device: String, call: String, errorNumber: Int32)

    public var description: String {
        switch self {
        case .missing(let device): "\(device): no such device (not plugged in, or a wrong name?)"
        case .notATerminal(let device, let what): "\(device) is not a serial port (a tty): it is \(what)"
        case .busy(let device, let holder):
            "\(device) is in use by \(holder ?? "another process") (one program per serial port: stop it, or "
                + "let mavlink-router share it over UDP)"
        case .permissionDenied(let device):
            "\(device): permission denied (add the user to the group that owns it, e.g. dialout)"
        case .unsupportedBaud(let baud): "\(baud) baud is not a standard rate"
        case .failed(let device, let call, let error): "\(device): \(call) failed: \(String(cString: strerror(error)))"
        }
    }
}

/// One open serial device in raw mode, 8N1, non-blocking, locked for this process (flock and TIOCEXCL). A device that
/// goes away (unplugged) shows as `.gone` on read; the caller closes it (releases this object) and opens it afresh.
public final class SerialPort: Sendable {
    public let descriptor: Int32
    public let device: String

    public enum Read: Equatable {
        case bytes([UInt8])
        /// Nothing queued.
        case nothing
        /// The device is gone (hang-up, EIO, ENODEV): why.
        case gone(String)
    }

    /// Opens `device` at `baud` (8 data bits, no parity, 1 stop bit, raw), RTS/CTS only with `flowControl`.
    public init(device: String, baud: Int, flowControl: Bool) throws(SerialOpenFailure) {
        guard let speed = SerialBaud.speed(baud) else { throw .unsupportedBaud(baud) }
        self.device = device
        var info = stat()
        if stat(device, &info) != 0 {
            throw Self.openFailure(device, call: "stat", errno)
        }
        if info.st_mode & S_IFMT != S_IFCHR {
            throw .notATerminal(device: device, what: Self.kind(info.st_mode))
        }
        let fd = open(device, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let error = errno
            if error == EBUSY { throw .busy(device: device, holder: Self.lockHolder(of: info)) }
            throw Self.openFailure(device, call: "open", error)
        }
        guard isatty(fd) == 1 else {
            close(fd)
            throw .notATerminal(device: device, what: "a character device that is not a terminal")
        }
        // A second reader would take half of the bytes: one process per port. flock names the holder in
        // /proc/locks; TIOCEXCL keeps out a program that does not flock (root passes it, hence both).
        if flock(fd, LOCK_EX | LOCK_NB) != 0 {
            let error = errno
            close(fd)
            if error == EWOULDBLOCK { throw .busy(device: device, holder: Self.lockHolder(of: info)) }
            throw .failed(device: device, call: "flock", errorNumber: error)
        }
        _ = ioctl(fd, UInt(TIOCEXCL))
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else {
            let error = errno
            close(fd)
            throw .failed(device: device, call: "tcgetattr", errorNumber: error)
        }
        cfmakeraw(&settings)
        settings.c_cflag &= ~(tcflag_t(PARENB) | tcflag_t(CSTOPB) | tcflag_t(CSIZE) | tcflag_t(CRTSCTS))
        settings.c_cflag |= tcflag_t(CS8) | tcflag_t(CLOCAL) | tcflag_t(CREAD) | (flowControl ? tcflag_t(CRTSCTS) : 0)
        // VMIN 1, VTIME 0 with O_NONBLOCK: read() says EAGAIN when nothing is queued and 0 only on a hang-up
        // (VMIN 0 returns 0 for both).
        withUnsafeMutableBytes(of: &settings.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        cfsetispeed(&settings, speed)
        cfsetospeed(&settings, speed)
        guard tcsetattr(fd, TCSANOW, &settings) == 0 else {
            let error = errno
            close(fd)
            throw .failed(device: device, call: "tcsetattr", errorNumber: error)
        }
        tcflush(fd, TCIOFLUSH)
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// What is queued, up to `maxBytes`.
    public func read(maxBytes: Int = 4096) -> Read {
        var buffer = [UInt8](repeating: 0, count: maxBytes)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 { return .bytes(Array(buffer.prefix(count))) }
            if count == 0 { return .gone("hang-up (end of file)") }
            switch errno {
            case EINTR: continue
            case EAGAIN: return .nothing
            default: return .gone(String(cString: strerror(errno)))
            }
        }
    }

    /// Writes `bytes`; errno when they did not all go (a full output queue drops the rest: a setpoint is resent).
    public func write(_ bytes: [UInt8]) -> Int32? {
        while true {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if count == bytes.count { return nil }
            if count < 0, errno == EINTR { continue }
            return count < 0 ? errno : EAGAIN
        }
    }

    private static func openFailure(_ device: String, call: String, _ error: Int32) -> SerialOpenFailure {
        switch error {
        case ENOENT, ENODEV, ENXIO, ENOTDIR: .missing(device: device)
        case EACCES, EPERM: .permissionDenied(device: device)
        default: .failed(device: device, call: call, errorNumber: error)
        }
    }

    private static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: "a regular file"
        case S_IFDIR: "a directory"
        case S_IFIFO: "a pipe"
        case S_IFSOCK: "a socket"
        case S_IFBLK: "a block device"
        default: "not a character device"
        }
    }

    /// The process holding a flock on the device node `info` (from /proc/locks: "MAJ:MIN:INODE" of the node's
    /// file system, major and minor in hex), as "pid 123 (mavlink-link)"; nil when none is listed.
    static func lockHolder(of info: stat) -> String? {
        let dev = UInt64(info.st_dev)
        let major = ((dev >> 8) & 0xfff) | ((dev >> 32) & ~UInt64(0xfff))
        let minor = (dev & 0xff) | ((dev >> 12) & ~UInt64(0xff))
        let key = String(major, radix: 16, uppercase: false).leftPadded(2) + ":"
            + String(minor, radix: 16, uppercase: false).leftPadded(2) + ":\(info.st_ino)"
        guard let locks = readSmallFile("/proc/locks") else { return nil }
        for line in locks.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard let at = fields.firstIndex(where: { $0 == Substring(key) }), at > 0,
                  let pid = Int32(fields[at - 1]) else { continue }
            let name = readSmallFile("/proc/\(pid)/comm")?.split(separator: "\n").first.map(String.init)
            return "pid \(pid)" + (name.map { " (\($0))" } ?? "")
        }
        return nil
    }

    private static func readSmallFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 1 << 20 {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += chunk.prefix(count)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
