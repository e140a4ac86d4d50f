import Foundation

/// CPU % and RSS of processes over a window, from /proc (utime + stime in clock ticks; VmRSS, VmHWM).
struct ProcessFootprint {
    struct Row: Sendable {
        var name: String
        var cpuPercent: Double
        var rssMaxKiB: Int
        var peakKiB: Int
    }

    private struct Start {
        var name: String
        var pid: pid_t
        var ticks: Int
        var rssMaxKiB: Int
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
            started[index].rssMaxKiB = max(started[index].rssMaxKiB, Self.status(started[index].pid, "VmRSS") ?? 0)
        }
    }

    mutating func finish() -> [Row] {
        sample()
        let elapsedS = Double(BenchClock.monotonicNs() - startNs) / 1e9
        let ticksPerS = Double(sysconf(Int32(_SC_CLK_TCK)))
        return started.map { start in
            let ticks = (Self.cpuTicks(start.pid) ?? start.ticks) - start.ticks
            return Row(name: start.name, cpuPercent: Double(ticks) / ticksPerS / elapsedS * 100,
                       rssMaxKiB: start.rssMaxKiB, peakKiB: Self.status(start.pid, "VmHWM") ?? 0)
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

    /// A `kB` line of /proc/<pid>/status, e.g. VmRSS.
    static func status(_ pid: pid_t, _ key: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
            return Int(line.dropFirst(key.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        }
        return nil
    }
}
