import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// What the broadcaster prints: progress on stdout, refusals and notes on stderr. A unit test reads it through
/// `Console.capture` (a task-local, so parallel tests do not see each other's lines).
enum Console {
    @TaskLocal static var capture: ConsoleCapture?
}

/// The lines one test's code printed, in order.
final class ConsoleCapture: Sendable {
    enum Stream: Sendable { case out, err }
    private let lines = Mutex<[(Stream, String)]>([])

    func append(_ line: String, to stream: Stream) { lines.withLock { $0.append((stream, line)) } }
    var out: [String] { lines.withLock { $0.filter { $0.0 == .out }.map(\.1) } }
    var err: [String] { lines.withLock { $0.filter { $0.0 == .err }.map(\.1) } }
}

func printError(_ message: String) {
    if let capture = Console.capture { return capture.append(message, to: .err) }
    writeLine(message, to: 2)
}

/// One line on stdout, written at once (unbuffered) so a pipe (tests, `make demo`) sees progress as it happens.
func say(_ line: String) {
    if let capture = Console.capture { return capture.append(line, to: .out) }
    writeLine(line, to: 1)
}

private func writeLine(_ line: String, to fd: Int32) {
    var text = line + "\n"
    text.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let n = write(fd, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return }
            offset += n
        }
    }
}
