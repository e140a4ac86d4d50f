import BrokerNodes
import Foundation
import Navigation
import ProcessSupport

/// A real autopilot for the real-autopilot scenarios: PX4 (SIH quad) or ArduCopter SITL from `QUAD_AUTOPILOTS_DIR`
/// (default `$QUAD_REPO_ROOT/../shared/autopilots`, a directory beside the repository), started by its own start
/// script in a temporary working directory, with an independent observer (AutopilotObserver) on its second MAVLink
/// link. `start` returns once the autopilot is ready to arm; `stop()` ends it by pid (SIGTERM, then SIGKILL),
/// removes PX4's daemon socket (/tmp/px4-sock-N) and the working directory (kept with QUAD_AUTOPILOT_KEEP=1).
///
/// Ports: the product's mavlink-link listens on `linkPort`. PX4 instance N sends its offboard link to 14540+N, so N
/// is chosen with all of its own ports free (0…9: from 10 on PX4 sends every offboard link to 14549). PX4's GCS link
/// sends to 127.0.0.1:14550, which only one listener can own; the observer does not need it: it says hello from a
/// port of its own to the GCS link's 18570+N, and PX4 answers there from then on. ArduCopter: `-0` to `linkPort`,
/// `-1` to the observer's free port, `-I N` with its TCP 5760+10N… and RC-in UDP 5501+10N free.
final class AutopilotSITL: @unchecked Sendable {
    enum Kind: String, Sendable, CustomStringConvertible {
        case px4, arducopter
        var description: String { self == .px4 ? "PX4 SIH" : "ArduCopter SITL" }
        /// From a start to ready to arm on an idle machine: ~5 s and ~45 s.
        var readyTimeoutS: Double { self == .px4 ? 60 : 150 }
    }

    static let directory: URL = {
        if let dir = ProcessInfo.processInfo.environment["QUAD_AUTOPILOTS_DIR"], !dir.isEmpty {
            return URL(fileURLWithPath: dir)
        }
        return TestEnvironment.repoRoot.deletingLastPathComponent().appendingPathComponent("shared/autopilots")
            .standardizedFileURL
    }()

    static func startScript(_ kind: Kind) -> URL {
        directory.appendingPathComponent("\(kind.rawValue)/start.sh")
    }

    /// nil when the directory and both start scripts are there; else what is missing.
    static let missing: String? = {
        let absent = [Kind.px4, .arducopter].map(startScript).filter {
            !FileManager.default.isExecutableFile(atPath: $0.path)
        }
        guard !absent.isEmpty else { return nil }
        return "no \(absent.map(\.path).joined(separator: " or ")) (QUAD_AUTOPILOTS_DIR=\(directory.path))"
    }()

    static var available: Bool { missing == nil }

    let kind: Kind
    let home: GeoPoint
    let homeAltitudeM = 34.0
    /// The working directory: the autopilot's parameters and logs, the observer's output.
    let directory: URL
    let instance: Int
    /// Where the product's mavlink-link must listen (127.0.0.1).
    let linkPort: UInt16
    let process: ChildProcess
    let observer: AutopilotObserver
    /// When it was started (AutopilotObserver.nowS()) and how long it took to be ready to arm.
    let startedAtS: Double
    private(set) var readyAfterS = Double.nan
    private var stopped = false
    /// Counted in `arduCopterBoots` until `bootEnded()` (under `claimLock`).
    private var bootCounted = false

    /// Starts it and waits until it is ready to arm (PX4: HOME_POSITION and the pre-arm check passed; ArduCopter:
    /// the EKF uses GPS — EKF_STATUS_REPORT flag 16 or the STATUSTEXT — and a home).
    static func start(_ kind: Kind, home: GeoPoint) async throws -> AutopilotSITL {
        let sitl = try AutopilotSITL(kind, home: home)
        do {
            try await sitl.waitReady()
        } catch {
            sitl.stop()
            throw error
        }
        return sitl
    }

    /// Starts it and returns at once, before it is ready (a test that watches its start; `waitReady()` waits).
    static func launch(_ kind: Kind, home: GeoPoint) throws -> AutopilotSITL {
        try AutopilotSITL(kind, home: home)
    }

    private init(_ kind: Kind, home: GeoPoint) throws {
        self.kind = kind
        self.home = home
        directory = try TestEnvironment.temporaryDirectory("autopilot-\(kind.rawValue)")
        startedAtS = AutopilotObserver.nowS()
        let place = [home.latitudeDeg, home.longitudeDeg, homeAltitudeM].map { "\($0)" }
        switch kind {
        case .px4:
            instance = try Self.freePX4Instance()
            linkPort = UInt16(14540 + instance)
            observer = try AutopilotObserver(listenPort: 0, autopilot: "127.0.0.1:\(18570 + instance)",
                                             directory: directory)
            process = try ChildProcess(executable: Self.px4StartScript(in: directory).path,
                                       arguments: place + ["\(instance)"], name: "px4-start",
                                       logDirectory: directory,
                                       environment: ["PX4_WORKDIR": directory.appendingPathComponent("px4").path])
        case .arducopter:
            instance = try Self.freeArduCopterInstance()
            Self.claimLock.withLock { Self.arduCopterBoots += 1 }
            bootCounted = true
            linkPort = try freeLoopbackPort(udp: true)
            var observerPort = try freeLoopbackPort(udp: true)
            while observerPort == linkPort { observerPort = try freeLoopbackPort(udp: true) }
            observer = try AutopilotObserver(listenPort: observerPort, autopilot: nil, directory: directory)
            // One start flies about ten scenarios: the SITL's 3300 mAh pack ran low at the ninth (the controller
            // then landed on battery-low-cannot-return and refused the next takeoff). A larger pack stands for the
            // battery swaps between those flights; nothing else changes.
            let batteryParm = directory.appendingPathComponent("battery.parm")
            try "BATT_CAPACITY 20000\n".write(to: batteryParm, atomically: true, encoding: .utf8)
            process = try ChildProcess(
                executable: Self.startScript(.arducopter).path,
                arguments: ["-H", (place + ["0"]).joined(separator: ","), "-0", "127.0.0.1:\(linkPort)",
                            "-1", "127.0.0.1:\(observerPort)", "-I", "\(instance)",
                            "-d", directory.appendingPathComponent("arducopter").path, "-p", batteryParm.path],
                name: "arducopter-start", logDirectory: directory)
        }
    }

    func waitReady() async throws {
        try await observer.wait("\(kind) ready to arm", timeoutS: kind.readyTimeoutS, context: log()) { seen in
            guard seen.hello, seen.home != nil else { return false }
            switch self.kind {
            case .px4: return seen.prearmOK == true
            case .arducopter:
                return (seen.ekfFlags ?? 0) & 16 != 0 || seen.texts.contains { $0.text.contains("is using GPS") }
            }
        }
        readyAfterS = AutopilotObserver.nowS() - startedAtS
        bootEnded()
    }

    /// ArduCopter SITL instances of this test process still booting (until ready to arm or stopped): each takes
    /// both cores for ~45 s. PX4 SIH starved of CPU wanders: its 12 s hover drifted 1.85 m and sank to 2.65 m in a
    /// CI run while two ArduCopters booted beside it, and up to 3.0 m beside two `yes` burners (0.5–0.6 m idle).
    static var arduCopterBooting: Int { claimLock.withLock { arduCopterBoots } }

    private func bootEnded() {
        Self.claimLock.withLock {
            if bootCounted { Self.arduCopterBoots -= 1 }
            bootCounted = false
        }
    }

    /// The end of the autopilot's own log, for failure messages.
    func log() -> String {
        let file = kind == .px4 ? "px4/px4.log" : "arducopter/arducopter.log"
        let text = (try? String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)) ?? ""
        return "--- \(kind) (\(file))\n\(text.suffix(3000))\n--- its start script\n\(process.output().suffix(500))"
    }

    func stop() {
        guard !stopped else { return }
        stopped = true
        bootEnded()
        process.stop()
        observer.stop()
        if kind == .px4 {
            try? FileManager.default.removeItem(atPath: "/tmp/px4-sock-\(instance)")
            _ = Self.claimLock.withLock { Self.claimedPX4.remove(instance) }
        } else {
            _ = Self.claimLock.withLock { Self.claimedArduCopter.remove(instance) }
        }
        if ProcessInfo.processInfo.environment["QUAD_AUTOPILOT_KEEP"] == "1" {
            TemporaryDirectories.keep(directory)
            print("autopilot: \(kind) kept its working directory \(directory.path)")
        } else {
            TestEnvironment.removeTemporaryDirectory(directory)
        }
    }

    deinit { stop() }

    // MARK: Instances and ports

    /// PX4 instance N owns UDP 14580+N (offboard), 18570+N (GCS), 14280+N, 13030+N, 19450+N and the daemon socket
    /// /tmp/px4-sock-N; mavlink-link must be able to bind 14540+N.
    /// Instances this test process has taken and not yet given back: two suites starting a PX4 at the same moment
    /// (the scenarios and the parity test) both saw instance 0 free before either created its socket.
    nonisolated(unsafe) private static var claimedPX4: Set<Int> = []
    /// The same for ArduCopter (the scenarios and the ArduCopter parity test start one each at the same moment).
    nonisolated(unsafe) private static var claimedArduCopter: Set<Int> = []
    nonisolated(unsafe) private static var arduCopterBoots = 0
    private static let claimLock = NSLock()

    private static func freePX4Instance() throws -> Int {
        let bases: [Int] = [14580, 18570, 14280, 13030, 19450, 14540]
        return try claimLock.withLock {
            let candidate = (0...9).first { (n: Int) -> Bool in
                !claimedPX4.contains(n) && !FileManager.default.fileExists(atPath: "/tmp/px4-sock-\(n)")
                    && bases.allSatisfy { udpPortIsFree(UInt16($0 + n)) }
            }
            guard let candidate else {
                throw TestEnvironmentError.missing(
                    "a free PX4 instance 0…9 (each has a /tmp/px4-sock-N or a port taken)")
            }
            claimedPX4.insert(candidate)
            return candidate
        }
    }

    /// ArduCopter instance N: TCP 5760+10N…5763+10N (its serial ports' defaults) and RC-in UDP 5501+10N.
    private static func freeArduCopterInstance() throws -> Int {
        try claimLock.withLock {
            let candidate = (1...9).first { (n: Int) -> Bool in
                let tcp = (5760...5763).allSatisfy { tcpPortIsFree(UInt16($0 + 10 * n)) }
                return !claimedArduCopter.contains(n) && tcp && udpPortIsFree(UInt16(5501 + 10 * n))
            }
            guard let candidate else { throw TestEnvironmentError.missing("a free ArduCopter instance 1…9") }
            claimedArduCopter.insert(candidate)
            return candidate
        }
    }

    static func udpPortIsFree(_ port: UInt16) -> Bool { canBind(port, type: SOCK_DGRAM) }
    static func tcpPortIsFree(_ port: UInt16) -> Bool { canBind(port, type: SOCK_STREAM) }

    private static func canBind(_ port: UInt16, type: __socket_type) -> Bool {
        let fd = socket(AF_INET, Int32(type.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = INADDR_ANY
        addr.sin_port = port.bigEndian
        return withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// PX4's start script. PX4's startup script runs its commands as `px4-<module>` links to the `px4` binary;
    /// where the shared copy holds those links as plain files (a copy that flattened them: "px4-param: Permission
    /// denied", no airframe, PX4 exits), the script runs from an overlay in the working directory instead: the
    /// script itself, `etc` and the binary linked from the shared copy, each `px4-<module>` a link to it.
    private static func px4StartScript(in workingDirectory: URL) throws -> URL {
        let shared = directory.appendingPathComponent("px4")
        let bin = shared.appendingPathComponent("bin")
        let fm = FileManager.default
        let modules = try fm.contentsOfDirectory(atPath: bin.path).filter { $0.hasPrefix("px4-") }
        if modules.allSatisfy({ fm.isExecutableFile(atPath: bin.appendingPathComponent($0).path) }) {
            return startScript(.px4)
        }
        let overlay = workingDirectory.appendingPathComponent("px4-overlay")
        let overlayBin = overlay.appendingPathComponent("bin")
        try fm.createDirectory(at: overlayBin, withIntermediateDirectories: true)
        try fm.createSymbolicLink(at: overlay.appendingPathComponent("etc"),
                                  withDestinationURL: shared.appendingPathComponent("etc"))
        try fm.copyItem(at: startScript(.px4), to: overlay.appendingPathComponent("start.sh"))
        try fm.setAttributes([.posixPermissions: 0o755], ofItemAtPath: overlay.appendingPathComponent("start.sh").path)
        try fm.createSymbolicLink(at: overlayBin.appendingPathComponent("px4"),
                                  withDestinationURL: bin.appendingPathComponent("px4"))
        for module in modules {
            let link = overlayBin.appendingPathComponent(module)
            if fm.isExecutableFile(atPath: bin.appendingPathComponent(module).path) || module.hasSuffix(".sh") {
                try fm.createSymbolicLink(at: link, withDestinationURL: bin.appendingPathComponent(module))
            } else {
                try fm.createSymbolicLink(atPath: link.path, withDestinationPath: "px4")
            }
        }
        return overlay.appendingPathComponent("start.sh")
    }
}
