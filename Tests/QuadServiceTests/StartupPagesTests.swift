import QuadService
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("Start-up pages given back")
struct StartupPagesTests {
    /// Shaped like drone-link's /proc/self/smaps (fields trimmed to those that matter and a few that do not).
    static let smaps = """
        5626ec664000-5626ec985000 r--p 00000000 fe:01 1234                       /opt/quad/bin/drone-link
        Size:               3204 kB
        Rss:                1488 kB
        Pss:                1488 kB
        Anonymous:             0 kB
        VmFlags: rd mr mw me dw sd
        5626ec985000-5626ed41b000 r-xp 00320000 fe:01 1234                       /opt/quad/bin/drone-link
        Size:              10840 kB
        Rss:                5872 kB
        Anonymous:             0 kB
        VmFlags: rd ex mr mw me dw sd
        5626ed41b000-5626ed47b000 r--p 00db5000 fe:01 1234                       /opt/quad/bin/drone-link
        Size:                384 kB
        Rss:                 384 kB
        Anonymous:           384 kB
        VmFlags: rd mr mw me dw ac sd
        5626ed47b000-5626ed687000 rw-p 00e14000 fe:01 1234                       /opt/quad/bin/drone-link
        Size:               2096 kB
        Rss:                1068 kB
        Anonymous:           948 kB
        5626ee000000-5626ee021000 rw-p 00000000 00:00 0                          [heap]
        Rss:                  16 kB
        Anonymous:            16 kB
        7f0000000000-7f0000100000 r--p 00000000 fe:01 77                         \
        /usr/lib/x86_64-linux-gnu/libcrypto.so.3
        Rss:                1244 kB
        Anonymous:             0 kB
        7f0000100000-7f0000200000 r--p 00000000 fe:01 78                         /usr/lib/x86_64-linux-gnu/lib with \
        space.so
        Rss:                   0 kB
        Anonymous:             0 kB
        7f0000200000-7f0000201000 r--p 00000000 fe:01 79                         /usr/lib/x86_64-linux-gnu/libodd.so
        Rss:                   4 kB
        7f1000000000-7f1000001000 r--p 00000000 00:00 0
        Rss:                   4 kB
        Anonymous:             4 kB
        7ffd1c5f2000-7ffd1c5f4000 r-xp 00000000 00:00 0                          [vdso]
        Rss:                   4 kB
        Anonymous:             0 kB
        ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0                  [vsyscall]
        Rss:                   0 kB
        """

    @Test("only clean, private, read-only, file-backed mappings with resident pages: never RELRO, data, heap or vdso")
    func picksCleanReadOnlyFileMappings() {
        let picked = StartupPages.releasable(smaps: Self.smaps)
        #expect(picked.map(\.start) == [0x5626ec664000, 0x5626ec985000, 0x7f0000000000, 0x7f0000200000])
        #expect(picked.map(\.residentKiB) == [1488, 5872, 1244, 4])
        #expect(picked[0].end == 0x5626ec985000)
        #expect(picked[0].path == "/opt/quad/bin/drone-link")
    }

    @Test("a mapping whose Anonymous line cannot be read stays: unknown means unsafe")
    func unreadableAnonymousStays() {
        let text = """
            7f0000000000-7f0000100000 r-xp 00000000 fe:01 77                         /usr/lib/libx.so
            Rss:                  64 kB
            Anonymous:          lots kB
            """
        #expect(StartupPages.releasable(smaps: text).isEmpty)
    }

    @Test("garbage, a truncated header and an empty text give nothing and do not crash")
    func garbage() {
        #expect(StartupPages.releasable(smaps: "").isEmpty)
        #expect(StartupPages.releasable(smaps: "zz-yy r--p 0 fe:01 1 /x\nRss: 4 kB\nAnonymous: 0 kB").isEmpty)
        #expect(StartupPages.releasable(smaps: "1000-2000 r--p\nRss: 4 kB").isEmpty)
        #expect(StartupPages.releasable(smaps: "2000-1000 r--p 0 fe:01 1 /x\nRss: 4 kB\nAnonymous: 0 kB").isEmpty)
    }

    /// The real thing, on this test process: its file pages shrink, and it goes on running (the next test, and
    /// every integration suite, runs services that have done it 2 s after start).
    @Test("this process gives back resident file pages and goes on running")
    func releasesInThisProcess() throws {
        let before = try #require(Self.residentFileKiB())
        let released = try #require(StartupPages.release())
        let after = try #require(Self.residentFileKiB())
        #expect(released.mappings > 0)
        #expect(released.residentKiB > 0)
        #expect(after < before, "RssFile \(before) → \(after) KiB, \(released.residentKiB) KiB given back")
        #expect(StartupPages.releasable(smaps: Self.smaps).count == 4)
    }

    static func residentFileKiB() -> Int? {
        guard let bytes = try? FileBytes.read("/proc/self/status") else { return nil }
        let line = String(decoding: bytes, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("RssFile:") }
        return line.flatMap { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first }
            .flatMap { Int($0) }
    }
}
