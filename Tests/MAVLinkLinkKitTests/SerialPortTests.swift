#if canImport(Glibc)
import Glibc
#endif
import DatagramIO
import Foundation
import Testing

/// The serial port's thin I/O layer against a pseudo-terminal of this process (no hardware, no socat): raw mode,
/// bytes both ways, the refusals at open (missing, not a tty, in use, with the holder named) and a hang-up.
@Suite("serial port on a pseudo-terminal")
struct SerialPortTests {
    /// A pty pair: the master's descriptor and the slave's path. Closed by the caller.
    static func pseudoTerminal() throws -> (master: Int32, path: String) {
        // posix_openpt/unlockpt/ptsname are not in Swift's Glibc module, nor the _IOR/_IOW macros of their ioctls:
        // TIOCSPTLCK and TIOCGPTN as Linux defines them (asm-generic: x86-64 and arm64 alike).
        let setLock: UInt = 0x4004_5431, getNumber: UInt = 0x8004_5430
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
        try #require(master >= 0)
        var unlock: Int32 = 0
        var number: UInt32 = 0
        try #require(ioctl(master, setLock, &unlock) == 0 && ioctl(master, getNumber, &number) == 0)
        return (master, "/dev/pts/\(number)")
    }

    static func waitRead(_ port: SerialPort) -> SerialPort.Read {
        var pfd = pollfd(fd: port.descriptor, events: Int16(POLLIN), revents: 0)
        _ = poll(&pfd, 1, 5000)
        return port.read()
    }

    @Test func bytesGoBothWaysUnchanged() throws {
        let pty = try Self.pseudoTerminal()
        defer { close(pty.master) }
        let port = try SerialPort(device: pty.path, baud: 921600, flowControl: false)
        #expect(port.read() == .nothing)
        // Raw: no echo, no CR/LF translation, every byte value passes.
        let all = (0...255).map(UInt8.init)
        #expect(all.withUnsafeBytes { write(pty.master, $0.baseAddress, $0.count) } == 256)
        var got: [UInt8] = []
        while got.count < 256, case .bytes(let bytes) = Self.waitRead(port) { got += bytes }
        #expect(got == all)
        #expect(port.write([0xFD, 0x0A, 0x0D, 0x00]) == nil)
        var back = [UInt8](repeating: 0, count: 16)
        var pfd = pollfd(fd: pty.master, events: Int16(POLLIN), revents: 0)
        _ = poll(&pfd, 1, 5000)
        let count = back.withUnsafeMutableBytes { read(pty.master, $0.baseAddress, $0.count) }
        #expect(Array(back.prefix(max(0, count))) == [0xFD, 0x0A, 0x0D, 0x00])
    }

    @Test func refusalsAtOpen() throws {
        let missing = "/dev/quad-serial-missing-\(getpid())"
        #expect(throws: SerialOpenFailure.missing(device: missing)) {
            try SerialPort(device: missing, baud: 921600, flowControl: false)
        }
        #expect(throws: SerialOpenFailure.notATerminal(device: "/dev/null",
                                                       what: "a character device that is not a terminal")) {
            try SerialPort(device: "/dev/null", baud: 921600, flowControl: false)
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("quad-serial-file-\(getpid())").path
        FileManager.default.createFile(atPath: file, contents: Data([1, 2, 3]))
        defer { unlink(file) }
        #expect(throws: SerialOpenFailure.notATerminal(device: file, what: "a regular file")) {
            try SerialPort(device: file, baud: 921600, flowControl: false)
        }
        #expect(throws: SerialOpenFailure.unsupportedBaud(56000)) {
            try SerialPort(device: file, baud: 56000, flowControl: false)
        }
    }

    @Test("a second opener is refused, the holder named; after the first closes it opens")
    func secondOpenerIsRefused() throws {
        let pty = try Self.pseudoTerminal()
        defer { close(pty.master) }
        var first: SerialPort? = try SerialPort(device: pty.path, baud: 57600, flowControl: true)
        do {
            _ = try SerialPort(device: pty.path, baud: 57600, flowControl: false)
            Issue.record("a second open of \(pty.path) succeeded")
        } catch {
            // Root passes TIOCEXCL and meets the flock (holder from /proc/locks); anyone else gets EBUSY.
            guard case .busy(pty.path, let holder) = error else { throw error }
            if let holder { #expect(holder.hasPrefix("pid \(getpid())"), "\(holder)") }
            #expect(error.description.contains("in use by"))
        }
        #expect(first != nil)
        first = nil
        _ = try SerialPort(device: pty.path, baud: 57600, flowControl: false)
    }

    @Test func aHangUpReadsAsGone() throws {
        let pty = try Self.pseudoTerminal()
        let port = try SerialPort(device: pty.path, baud: 921600, flowControl: false)
        close(pty.master)
        guard case .gone = Self.waitRead(port) else {
            Issue.record("a closed master did not read as gone")
            return
        }
    }
}
