import Foundation

/// A CA and a broker certificate made by deploy/common.sh's own functions (`make_radio_ca`, `issue_server_cert`),
/// the ones install.sh uses, in a directory of the caller's: for a broker started from the shipped configuration
/// without an install, and for a board install's `--ca-file`.
struct RadioTLS: Sendable {
    let caKey: URL
    let caCert: URL
    let serverKey: URL
    let serverCert: URL

    /// - Parameter names: the broker certificate's subjectAltName entries (install.sh's `radio_names_san` adds
    ///   localhost and 127.0.0.1).
    init(in directory: URL, names: [String] = []) throws {
        caKey = directory.appendingPathComponent("ca.key")
        caCert = directory.appendingPathComponent("ca.crt")
        serverKey = directory.appendingPathComponent("server.key")
        serverCert = directory.appendingPathComponent("server.crt")
        let common = TestEnvironment.repoRoot.appendingPathComponent("deploy/common.sh").path
        let script = """
            source "$1" && make_radio_ca "$2" "$3" >/dev/null && \
            issue_server_cert "$2" "$3" "$4" "$5" "$(radio_names_san "${@:6}")"
            """
        let result = try runCommand(TestEnvironment.requireTool("bash"),
                                    ["-c", script, "radio-tls", common, caKey.path, caCert.path, serverKey.path,
                                     serverCert.path] + names, logDirectory: directory)
        guard result.exitCode == 0 else { throw TestEnvironmentError.missing("TLS material: \(result.output)") }
    }
}
