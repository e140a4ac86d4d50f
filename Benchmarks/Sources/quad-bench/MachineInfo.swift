import ProcessSupport
import Foundation

/// What the figures were measured on.
struct MachineInfo {
    var rows: [(String, String)] = []

    static func collect(workDirectory: String, repoRoot: String) -> MachineInfo {
        var info = MachineInfo()
        info.rows.append(("CPUs (`nproc`)", "\(sysconf(Int32(_SC_NPROCESSORS_ONLN)))"))
        info.rows.append(("CPU model", firstValue(file: "/proc/cpuinfo", key: "model name") ?? "unknown"))
        if let kib = firstValue(file: "/proc/meminfo", key: "MemTotal")?.split(separator: " ")
            .first.flatMap({ Double($0) }) {
            info.rows.append(("memory", Units.fixed(kib / 1024 / 1024, 1) + " GiB"))
        }
        var names = utsname()
        uname(&names)
        let release = withUnsafeBytes(of: &names.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        info.rows.append(("kernel", release))
        if let load = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) {
            let averages = load.split(separator: " ").prefix(3).joined(separator: " ")
            info.rows.append(("load average at start (1/5/15 min)", averages))
        }
        if let os = firstValue(file: "/etc/os-release", key: "PRETTY_NAME", separator: "=") {
            info.rows.append(("OS", os.trimmingCharacters(in: CharacterSet(charactersIn: "\""))))
        }
        let swift = capture("swift", ["--version"], workDirectory: workDirectory)
        info.rows.append(("swift", swift.split(separator: "\n").first.map(String.init) ?? "unknown"))
        let mosquitto = capture("mosquitto", ["-h"], workDirectory: workDirectory)
        info.rows.append(("mosquitto", mosquitto.split(separator: "\n").first.map(String.init) ?? "unknown"))
        let commit = capture("git", ["-C", repoRoot, "rev-parse", "--short", "HEAD"], workDirectory: workDirectory)
        info.rows.append(("commit", commit.trimmingCharacters(in: .whitespacesAndNewlines)))
        info.rows.append(("date (UTC)", ISO8601DateFormatter().string(from: Date())))
        return info
    }

    /// The 1/5/15-minute load averages, e.g. "1.80 2.04 2.00" (the figures of a run depend on it).
    static func loadAverage() -> String {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?"
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }

    static func firstValue(file: String, key: String, separator: Character = ":") -> String? {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: separator, maxSplits: 1)
            if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == key {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    /// stdout + stderr of a short command.
    static func capture(_ tool: String, _ arguments: [String], workDirectory: String) -> String {
        guard let path = try? Tools.path(tool),
              let child = try? ChildProcess(path, arguments, name: "capture-\(tool)", logDirectory: workDirectory)
        else { return "unknown" }
        _ = child.waitForExit(timeout: .seconds(30))
        return child.log()
    }
}
