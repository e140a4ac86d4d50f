#if canImport(Glibc)
import Glibc
#endif

/// Small file reads without Foundation (password files, config).
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
}
