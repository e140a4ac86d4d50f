#if canImport(Glibc)
import Glibc
#endif

/// Gives back the pages of code and read-only data a service touched only while starting.
///
/// Measured on drone-link (release build): 14.7 MiB resident, 12.9 of them file pages, but in steady state it
/// touches about 1 MiB of its executable's 8.8 resident MiB. The rest was read once — argument parsing, metadata
/// scans, library initialisation — or came in with the kernel's fault-around (up to 16 neighbouring pages per
/// fault). The kernel drops such clean pages only under memory pressure, so until then they count against the
/// board's goal (≤ 12 MiB RSS per service). Once started, a service unmaps them (`madvise(MADV_DONTNEED)`); the
/// ones it needs again come back from the page cache on first touch (a minor fault, no disk read).
///
/// Only clean, private, file-backed, read-only mappings qualify (code and read-only data): unmapping those loses
/// nothing. RELRO (read-only after the loader's relocations: its pages are private copies, `Anonymous` in smaps),
/// data, heap and stacks are never touched.
public enum StartupPages {
    /// One mapping of /proc/self/smaps that may be unmapped.
    public struct Mapping: Equatable, Sendable {
        public let start: UInt
        public let end: UInt
        public let path: String
        public let residentKiB: Int
    }

    /// The mappings of an smaps text that qualify, in address order. Pure: the parsing is testable on any text.
    public static func releasable(smaps: String) -> [Mapping] {
        var found: [Mapping] = []
        var header: (start: UInt, end: UInt, path: String, qualifies: Bool)?
        var residentKiB = 0
        var anonymousKiB = 0
        func finish() {
            if let header, header.qualifies, anonymousKiB == 0, residentKiB > 0 {
                found.append(Mapping(start: header.start, end: header.end, path: header.path, residentKiB: residentKiB))
            }
        }
        for line in smaps.split(separator: "\n", omittingEmptySubsequences: true) {
            if let mapping = parseHeader(line) {
                finish()
                header = mapping
                residentKiB = 0
                anonymousKiB = 0
            } else if line.hasPrefix("Rss:") {
                residentKiB = kibValue(line) ?? 0
            } else if line.hasPrefix("Anonymous:") {
                // Unknown means unsafe: a mapping whose private copies we cannot rule out stays.
                anonymousKiB = kibValue(line) ?? 1
            }
        }
        finish()
        return found
    }

    /// Unmaps the qualifying pages of this process. Returns what was resident in them, nil when /proc/self/smaps
    /// cannot be read (not Linux, or /proc not mounted): then nothing happens.
    @discardableResult
    public static func release() -> (mappings: Int, residentKiB: Int)? {
        guard let bytes = try? FileBytes.read("/proc/self/smaps", limit: 8 << 20) else { return nil }
        let mappings = releasable(smaps: String(decoding: bytes, as: UTF8.self))
        var released = 0
        for mapping in mappings {
            guard let address = UnsafeMutableRawPointer(bitPattern: mapping.start) else { continue }
            if madvise(address, Int(mapping.end - mapping.start), MADV_DONTNEED) == 0 {
                released += mapping.residentKiB
            }
        }
        return (mappings.count, released)
    }

    /// `start-end perms offset dev inode path`: qualifies when private, readable, not writable, and backed by a
    /// file (inode ≠ 0: not [vdso], [vsyscall] or anonymous memory).
    static func parseHeader(_ line: Substring) -> (start: UInt, end: UInt, path: String, qualifies: Bool)? {
        let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
        guard fields.count >= 5 else { return nil }
        let range = fields[0].split(separator: "-")
        guard range.count == 2, let start = UInt(range[0], radix: 16), let end = UInt(range[1], radix: 16), end > start
        else { return nil }
        let perms = fields[1]
        guard perms.count == 4, fields[3].contains(":") else { return nil }
        let path = fields.count > 5 ? fields[5].drop { $0 == " " } : ""
        let qualifies = (perms == "r--p" || perms == "r-xp") && fields[4] != "0" && !path.hasPrefix("[")
        return (start, end, String(path), qualifies)
    }

    /// `Name:   123 kB` → 123.
    static func kibValue(_ line: Substring) -> Int? {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count == 3, fields[2] == "kB" else { return nil }
        return Int(fields[1])
    }
}
