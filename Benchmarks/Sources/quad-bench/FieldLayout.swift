import BrokerNodes
import ProcessSupport
import Foundation
import Synchronization

/// The field layout on one host: the ground broker from deploy/ground/mosquitto.conf and the board's from
/// deploy/drone/mosquitto.conf, the board bridging to the ground exactly as shipped (cleansession false, keepalive 5,
/// its topic lines). Substituted: listener ports (each on its own free 127.0.0.1 port), the bridge's `address`, the
/// paths of the password files and ACLs (deploy/'s ACLs as they are; password files generated here with
/// mosquitto_passwd, one random password per account, as install.sh does) and the bridge's password. Left out: the
/// ground's websockets listener block (the live map; no browser here, and 9001 may be taken).
///
/// The radio is TLS as shipped: the bridge dials the ground's TLS listener, trusting a CA made by deploy/common.sh
/// (the installers' own functions) and checking the name 127.0.0.1 against the ground's certificate. `tls: false` is
/// what `--insecure-plain-radio` installs: the bridge plain to the ground's 1883, no TLS listener.
final class FieldLayout: Sendable {
    let ground: FieldBroker
    let board: FieldBroker
    /// Ground accounts: location-broadcaster (the pilot), monitor.
    let groundLogins: [String: BrokerLogin]
    /// Board accounts: navigator, drone-controller, drone-link, telemetry-logger, monitor.
    let boardLogins: [String: BrokerLogin]

    static let groundAccounts = ["location-broadcaster", "monitor", "drone1-bridge"]
    static let boardAccounts = ["navigator", "drone-controller", "drone-link", "telemetry-logger", "monitor"]

    /// - Parameter extraBoardConfig: lines appended to the board's configuration (a bridge setting under test;
    ///   empty for the layout as shipped).
    init(repoRoot: String, workDirectory: String, extraBoardConfig: String = "", tls: Bool = true) throws {
        let groundDirectory = workDirectory + "/ground"
        let boardDirectory = workDirectory + "/board"
        for directory in [groundDirectory, boardDirectory] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        let groundLogins = try Self.accounts(Self.groundAccounts, directory: groundDirectory)
        let boardLogins = try Self.accounts(Self.boardAccounts, directory: boardDirectory)
        let bridgePassword = groundLogins["drone1-bridge"]!.password
        let certificates = tls ? try FieldCertificates(repoRoot: repoRoot, directory: groundDirectory) : nil
        ground = try FieldBroker(label: "ground", repoRoot: repoRoot, side: "ground", directory: groundDirectory,
                                 bridgeToPort: nil, bridgePassword: nil, extraConfig: "", certificates: certificates)
        board = try FieldBroker(label: "board", repoRoot: repoRoot, side: "drone", directory: boardDirectory,
                                bridgeToPort: ground.tlsPort ?? ground.port, bridgePassword: bridgePassword,
                                extraConfig: extraBoardConfig, certificates: certificates)
        self.groundLogins = groundLogins
        self.boardLogins = boardLogins
    }

    /// The drone stack on the board broker, the pilot on the ground broker, each with its deploy/ account; the board's
    /// telemetry-logger answers sync requests as deploy/drone/telemetry-logger.service runs it.
    var stackBrokers: StackBrokers {
        var brokers = StackBrokers(servicePort: board.port, pilotPort: ground.port)
        brokers.serviceLogins = boardLogins
        brokers.pilotLogin = groundLogins["location-broadcaster"]
        brokers.observerLogin = boardLogins["monitor"]
        brokers.loggerArguments = ["--answer-sync"]
        return brokers
    }

    /// Waits until a QoS 1 message published on the ground reaches the board (the bridge is connected and its
    /// subscriptions on the ground are in place).
    func waitForBridge() async throws {
        let publisher = try await BenchClient.connect(port: ground.port, clientId: "bench-bridge-probe",
                                                      login: groundLogins["location-broadcaster"])
        let subscriber = try await BenchClient.connect(port: board.port, clientId: "bench-bridge-probe",
                                                       login: boardLogins["monitor"])
        defer {
            publisher.shutdown()
            subscriber.shutdown()
        }
        // A bridged-in topic nothing on the board acts on (the broadcasters' presence subtree).
        let topic = "quad/drone1/status/location-broadcaster/bench-probe"
        let messages = try subscriber.subscribe(topic, qos: 1)
        let arrived = Mutex(false)
        let consumer = Task { for await _ in messages { arrived.withLock { $0 = true } } }
        defer { consumer.cancel() }
        let deadline = BenchClock.monotonicNs() + 20_000_000_000
        while BenchClock.monotonicNs() < deadline, board.process.isRunning, ground.process.isRunning {
            try publisher.publish(topic: topic, payload: Array("probe".utf8), qos: 1, retain: false)
            try await Task.sleep(for: .milliseconds(200))
            if arrived.withLock({ $0 }) { return }
        }
        throw FieldBroker.Failure.bridgeDown(log: board.process.log())
    }

    func stop() {
        board.stop()
        ground.stop()
    }

    /// `mosquitto_passwd -b` for each account into `<directory>/quadcopter.passwd`, and the password into
    /// `<directory>/<account>.password` (what a service's --password-file reads).
    static func accounts(_ names: [String], directory: String) throws -> [String: BrokerLogin] {
        let passwordFile = directory + "/quadcopter.passwd"
        _ = FileManager.default.createFile(atPath: passwordFile, contents: Data())
        var logins: [String: BrokerLogin] = [:]
        for name in names {
            var generator = SystemRandomNumberGenerator()
            let password = (0..<24)
                .map { _ in String("abcdefghijkmnpqrstuvwxyz23456789".randomElement(using: &generator)!) }
                .joined()
            let file = "\(directory)/\(name).password"
            try (password + "\n").write(toFile: file, atomically: true, encoding: .utf8)
            let child = try ChildProcess(Tools.path("mosquitto_passwd"), ["-b", passwordFile, name, password],
                                         name: "mosquitto_passwd-\(name)", logDirectory: directory)
            guard child.waitForExit(timeout: .seconds(30)) == 0 else { throw FieldBroker.Failure.passwd(child.log()) }
            logins[name] = BrokerLogin(username: name, password: password, passwordFile: file)
        }
        return logins
    }
}

/// The radio's CA and the ground broker's certificate (for 127.0.0.1), made by deploy/common.sh as the ground's
/// install.sh makes them.
struct FieldCertificates: Sendable {
    let caCert: String
    let serverCert: String
    let serverKey: String

    init(repoRoot: String, directory: String) throws {
        caCert = directory + "/ca.crt"
        serverCert = directory + "/server.crt"
        serverKey = directory + "/server.key"
        let script = """
            source "$1" && make_radio_ca "$2" "$3" >/dev/null && \
            issue_server_cert "$2" "$3" "$4" "$5" "$(radio_names_san)"
            """
        let child = try ChildProcess(Tools.path("bash"), ["-c", script, "field-tls", repoRoot + "/deploy/common.sh",
                                                          directory + "/ca.key", caCert, serverKey, serverCert],
                                     name: "field-tls", logDirectory: directory)
        guard child.waitForExit(timeout: .seconds(30)) == 0 else { throw FieldBroker.Failure.unexpected(child.log()) }
        // Started as root, mosquitto reads its key after dropping to its own user: installed, the key is 0640
        // root:mosquitto; this throwaway one is simply readable, like the bench's password files.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: serverKey)
    }
}

/// One of the field layout's brokers: deploy/<side>/mosquitto.conf with only ports and paths substituted.
final class FieldBroker: Sendable {
    /// The plain listener (the services').
    let port: UInt16
    /// The ground's TLS listener (the bridge's), when the layout has TLS.
    let tlsPort: UInt16?
    let process: ChildProcess
    let configPath: String

    enum Failure: Error, CustomStringConvertible {
        case notListening(String, log: String)
        case passwd(String)
        case bridgeDown(log: String)
        case unexpected(String)
        var description: String {
            switch self {
            case .notListening(let label, let log): "mosquitto (\(label)) did not listen: \(log)"
            case .passwd(let log): "mosquitto_passwd failed: \(log)"
            case .bridgeDown(let log): "the bridge did not carry a message within 20 s: \(log.suffix(2000))"
            case .unexpected(let what): "deploy configuration: \(what)"
            }
        }
    }

    init(label: String, repoRoot: String, side: String, directory: String, bridgeToPort: UInt16?,
         bridgePassword: String?, extraConfig: String, certificates: FieldCertificates?) throws {
        let original = try String(contentsOfFile: "\(repoRoot)/deploy/\(side)/mosquitto.conf", encoding: .utf8)
        let port = try freeLoopbackPort()
        var tlsPort: UInt16?
        var lines: [String] = []
        var listeners = 0
        var skipping = false
        let listenerSettings: Set = ["protocol", "http_dir", "certfile", "keyfile", "tls_version"]
        let bridgeTLS: Set = ["bridge_cafile", "bridge_insecure", "bridge_tls_version"]
        for line in original.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let words = line.split(separator: " ").map(String.init)
            if words.first == "listener" {
                // The websockets listener is left out; the TLS one only without TLS (--insecure-plain-radio).
                let configured = words.count > 1 ? words[1] : ""
                skipping = configured == "9001" || (configured == "8883" && certificates == nil)
                if skipping { continue }
                if configured == "8883" {
                    let free = try freeLoopbackPort()
                    tlsPort = free
                    lines.append("listener \(free) 127.0.0.1")
                } else {
                    listeners += 1
                    lines.append("listener \(port) 127.0.0.1")
                }
            } else if let first = words.first, listenerSettings.contains(first) {
                if skipping { continue }
                if first == "certfile", let certificates { lines.append("certfile \(certificates.serverCert)") }
                else if first == "keyfile", let certificates { lines.append("keyfile \(certificates.serverKey)") }
                else { lines.append(line) }
            } else if let first = words.first, bridgeTLS.contains(first) {
                guard let certificates else { continue }
                lines.append(first == "bridge_cafile" ? "bridge_cafile \(certificates.caCert)" : line)
            } else if words.first == "password_file" {
                lines.append("password_file \(directory)/quadcopter.passwd")
            } else if words.first == "acl_file" {
                lines.append("acl_file \(repoRoot)/deploy/\(side)/quadcopter.acl")
            } else if words.first == "address", let bridgeToPort {
                lines.append("address 127.0.0.1:\(bridgeToPort)")
            } else if words.first == "remote_password", let bridgePassword {
                lines.append("remote_password \(bridgePassword)")
            } else {
                lines.append(line)
            }
        }
        guard listeners == 1 else { throw Failure.unexpected("\(side): \(listeners) plain listeners, expected 1") }
        // Persistence is Debian's main configuration's business (install.sh relies on it for the bridge's durable
        // session); here the stores stay in the work directory.
        lines.append("persistence true\npersistence_location \(directory)/\n" + extraConfig)
        configPath = "\(directory)/mosquitto.conf"
        try lines.joined(separator: "\n").write(toFile: configPath, atomically: true, encoding: .utf8)
        self.port = port
        self.tlsPort = tlsPort
        process = try ChildProcess(Tools.path("mosquitto"), ["-c", configPath], name: "mosquitto-\(label)",
                                   logDirectory: directory)
        let deadline = BenchClock.monotonicNs() + 5_000_000_000
        while !tcpPortAccepts(port) {
            guard BenchClock.monotonicNs() < deadline, process.isRunning else {
                throw Failure.notListening(label, log: process.log())
            }
            usleep(20_000)
        }
    }

    func stop() { process.stop() }
}
