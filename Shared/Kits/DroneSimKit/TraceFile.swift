#if canImport(Glibc)
import Glibc
#endif

/// The ground-truth CSV file: buffered writes, flushed by the run loop at least every 100 ms.
final class TraceFile {
    private let file: UnsafeMutablePointer<FILE>

    init?(path: String, header: String) {
        guard let file = fopen(path, "w") else { return nil }
        self.file = file
        write(line: header)
        flush()
    }

    deinit { fclose(file) }

    func write(line: String) {
        fputs(line, file)
        fputs("\n", file)
    }

    func flush() { fflush(file) }
}
