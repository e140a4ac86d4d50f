import Foundation
import ProcessSupport

/// A command run to completion: exit code and everything it printed (stdout and stderr interleaved).
struct CommandResult: Sendable {
    var exitCode: Int32
    var output: String
}

/// Runs a command (by absolute path) and waits for it; a hang is a timeout error, never a stuck test.
func runCommand(_ executable: String, _ arguments: [String], logDirectory: URL, timeoutS: Double = 60,
                environment: [String: String] = [:]) throws -> CommandResult {
    let child = try ChildProcess(executable: executable, arguments: arguments, logDirectory: logDirectory,
                                 environment: environment)
    guard let code = child.waitForExit(timeout: .seconds(timeoutS)) else {
        child.stop(signal: SIGKILL)
        throw TestEnvironmentError.timeout("\(executable) \(arguments.joined(separator: " ")): \(child.output())")
    }
    return CommandResult(exitCode: code, output: child.output())
}

/// deploy/<side>/install.sh run into a staging root (`--root`), with stub executables as `--prebuilt`, so nothing
/// outside the temporary directory is touched and nothing is compiled.
struct StagedInstall: Sendable {
    /// The board's services with the default vehicle (AR.Drone: drone-link).
    static let droneServices = ["navigator", "drone-controller", "drone-link", "telemetry-logger"]
    /// The board's services with `--vehicle mavlink`.
    static let mavlinkDroneServices = ["navigator", "drone-controller", "mavlink-link", "telemetry-logger"]
    static let groundServices = ["location-broadcaster", "telemetry-logger"]
    /// The laptop's certificate files (deploy/common.sh), as the configurations name them.
    static let groundCertificate = "/etc/mosquitto/certs/quadcopter-ground.crt"
    static let groundKey = "/etc/mosquitto/certs/quadcopter-ground.key"
    static let boardCA = "/etc/mosquitto/certs/quadcopter-ca.crt"
    static let groundCA = "/etc/quadcopter/quadcopter-ca.crt"
    static let groundCAKey = "/etc/quadcopter/quadcopter-ca.key"

    let side: String
    let root: URL
    let stubDirectory: URL
    let logDirectory: URL

    var script: String { TestEnvironment.repoRoot.appendingPathComponent("deploy/\(side)/install.sh").path }

    /// Creates the staging root and the stub executables (shell scripts that exit 0).
    init(side: String) throws {
        self.side = side
        let base = try TestEnvironment.temporaryDirectory("install-\(side)")
        root = base.appendingPathComponent("root")
        stubDirectory = base.appendingPathComponent("bin")
        logDirectory = base
        let fm = FileManager.default
        try fm.createDirectory(at: root, withIntermediateDirectories: true)
        try fm.createDirectory(at: stubDirectory, withIntermediateDirectories: true)
        for name in Set(Self.droneServices + Self.mavlinkDroneServices + Self.groundServices) {
            let stub = stubDirectory.appendingPathComponent(name)
            try "#!/bin/sh\nexit 0\n".write(to: stub, atomically: true, encoding: .utf8)
            try fm.setAttributes([.posixPermissions: 0o755], ofItemAtPath: stub.path)
        }
    }

    var services: [String] { side == "drone" ? Self.droneServices : Self.groundServices }

    /// Removes the staging root, the stubs and the logs (its temporary directory).
    func remove() { TestEnvironment.removeTemporaryDirectory(logDirectory) }

    /// A CA of the test's own (deploy/common.sh's `make_radio_ca`), made on first use: what a board install is
    /// given as `--ca-file` when the test brings no laptop's.
    func testCA() throws -> URL {
        let directory = logDirectory.appendingPathComponent("test-ca")
        if !FileManager.default.fileExists(atPath: directory.path) {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            _ = try RadioTLS(in: directory)
        }
        return directory.appendingPathComponent("ca.crt")
    }

    /// `install.sh --root <root> --prebuilt <stubs> <extra>`. A board install without `--ca-file`,
    /// `--insecure-plain-radio` or `--reconfigure` (the postinst's re-run, given nothing new) in `extra` is given the
    /// test's own CA (`testCA`), as the laptop's copy would be.
    @discardableResult
    func run(_ extra: [String] = []) throws -> CommandResult {
        var arguments = [script, "--root", root.path, "--prebuilt", stubDirectory.path] + extra
        if side == "drone", !["--ca-file", "--insecure-plain-radio", "--reconfigure"].contains(where: extra.contains) {
            arguments += ["--ca-file", try testCA().path]
        }
        return try runCommand(TestEnvironment.requireTool("bash"), arguments, logDirectory: logDirectory)
    }

    /// The laptop's files a board install takes (`--ca-file`, `--bridge-password-file`): this ground install's.
    func boardArguments(drone: String = "drone1") -> [String] {
        ["--drone", drone, "--ca-file", url(Self.groundCA).path,
         "--bridge-password-file", url("/etc/quadcopter/\(drone)-bridge.password").path]
    }

    func url(_ path: String) -> URL { root.appendingPathComponent(String(path.drop(while: { $0 == "/" }))) }

    func text(_ path: String) throws -> String { try String(contentsOf: url(path), encoding: .utf8) }

    /// The generated password of an account (first line of /etc/quadcopter/<name>.password).
    func password(_ account: String) throws -> String {
        let text = try text("/etc/quadcopter/\(account).password")
        return String(text.split(separator: "\n").first ?? "")
    }

    /// Accounts in the staged mosquitto password file, in file order.
    func passwordFileUsers() throws -> [String] {
        try text("/etc/mosquitto/quadcopter.passwd").split(separator: "\n").map { String($0.prefix { $0 != ":" }) }
    }

    /// Permission bits of a staged path.
    func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url(path).path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    /// The broker as the staged tree configures it: conf, password file, ACL and TLS files from the staging root.
    func broker(bridgeToPort: UInt16? = nil, bridgeHost: String = "127.0.0.1", extraConfig: String = "",
                namespace: String? = nil) throws -> DeployedBroker {
        let config = try text("/etc/mosquitto/conf.d/quadcopter.conf")
        var files = ["/etc/mosquitto/quadcopter.passwd": try text("/etc/mosquitto/quadcopter.passwd"),
                     "/etc/mosquitto/conf.d/quadcopter.acl": try text("/etc/mosquitto/conf.d/quadcopter.acl")]
        for path in [Self.groundCertificate, Self.groundKey, Self.boardCA] where config.contains(path) {
            files[path] = try text(path)
        }
        return try DeployedBroker(label: side, config: config, files: files,
                           bridgeToPort: bridgeToPort, bridgeHost: bridgeHost,
                           httpDirectory: side == "ground" ? url("/usr/share/quadcopter/map") : TestEnvironment.repoRoot
                               .appendingPathComponent("web/map"),
                           extraConfig: extraConfig, namespace: namespace)
    }
}
