import Foundation

/// CPU % and RSS of processes over a window, from /proc (utime + stime in clock ticks; VmRSS, VmHWM; RssAnon; Pss
/// from smaps_rollup: each shared page divided among the processes that map it).
struct ProcessFootprint {
    struct Row: Sendable {
        var name: String
        var cpuPercent: Double
        var rssMaxKiB: Int
        var peakKiB: Int
        /// Largest Pss sampled (smaps_rollup).
        var pssMaxKiB: Int = 0
        /// Largest RssAnon sampled: heap and stacks, what no other process could share.
        var anonMaxKiB: Int = 0
    }

    private struct Start {
        var name: String
        var pid: pid_t
        var ticks: Int
        var rssMaxKiB: Int
        var pssMaxKiB = 0
        var anonMaxKiB = 0
    }

    private var started: [Start] = []
    private var startNs: Int64 = 0

    mutating func begin(_ processes: [(name: String, pid: pid_t)]) {
        startNs = BenchClock.monotonicNs()
        started = processes.map { Start(name: $0.name, pid: $0.pid, ticks: Self.cpuTicks($0.pid) ?? 0,
                                         rssMaxKiB: Self.status($0.pid, "VmRSS") ?? 0) }
    }

    /// Call about once a second: keeps the largest RSS seen.
    mutating func sample() {
        for index in started.indices {
            let pid = started[index].pid
            started[index].rssMaxKiB = max(started[index].rssMaxKiB, Self.status(pid, "VmRSS") ?? 0)
            started[index].anonMaxKiB = max(started[index].anonMaxKiB, Self.status(pid, "RssAnon") ?? 0)
            started[index].pssMaxKiB = max(started[index].pssMaxKiB, Self.pss(pid) ?? 0)
        }
    }

    mutating func finish() -> [Row] {
        sample()
        let elapsedS = Double(BenchClock.monotonicNs() - startNs) / 1e9
        let ticksPerS = Double(sysconf(Int32(_SC_CLK_TCK)))
        return started.map { start in
            let ticks = (Self.cpuTicks(start.pid) ?? start.ticks) - start.ticks
            return Row(name: start.name, cpuPercent: Double(ticks) / ticksPerS / elapsedS * 100,
                       rssMaxKiB: start.rssMaxKiB, peakKiB: Self.status(start.pid, "VmHWM") ?? 0,
                       pssMaxKiB: start.pssMaxKiB, anonMaxKiB: start.anonMaxKiB)
        }
    }

    /// utime + stime: fields 14 and 15 of /proc/<pid>/stat, counted after the parenthesised command name.
    static func cpuTicks(_ pid: pid_t) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }

    /// Proportional set size, kB: /proc/<pid>/smaps_rollup's `Pss:` line.
    static func pss(_ pid: pid_t) -> Int? { status(pid, "Pss", file: "smaps_rollup") }

    /// A `kB` line of /proc/<pid>/status (or another /proc/<pid> file of that form), e.g. VmRSS.
    static func status(_ pid: pid_t, _ key: String, file: String = "status") -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/\(file)", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
            return Int(line.dropFirst(key.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        }
        return nil
    }
}
