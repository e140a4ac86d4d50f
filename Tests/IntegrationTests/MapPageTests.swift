import Foundation
import ProcessSupport
import Testing

/// The live map (web/map) in headless Chromium, driven by Selenium (Tests/WebMapTests/map_browser_test.py), against
/// the repo's mosquitto.conf (websockets listener + http_dir on free ports), the real services and drone-sim. This
/// test owns the flight stack; the script asks it to restart the broker through a file handshake.
@Suite("live map in a browser", .offPool, .serialized,
       .enabled(if: TestEnvironment.available("mosquitto", "mosquitto_pub", "chromium", "chromedriver")
                && (TestEnvironment.isCI || MapBrowser.seleniumInstalled)))
struct MapPageTests {
    static func requireDependencies() throws {
        guard MapBrowser.seleniumInstalled else {
            throw TestEnvironmentError.missing("python3-selenium (run `make deps`)")
        }
        let leaflet = TestEnvironment.repoRoot.appendingPathComponent("web/map/vendor/leaflet/leaflet.js")
        if !FileManager.default.fileExists(atPath: leaflet.path) {
            let directory = try TestEnvironment.temporaryDirectory("web-map-assets")
            defer { TestEnvironment.removeTemporaryDirectory(directory) }
            let result = try runCommand(TestEnvironment.requireTool("bash"),
                                        [TestEnvironment.repoRoot.appendingPathComponent("scripts/web-map-assets.sh")
                                            .path],
                                        logDirectory: directory)
            guard result.exitCode == 0 else { throw TestEnvironmentError.missing("Leaflet: \(result.output)") }
        }
    }

    @Test("""
        the page shows the drone, flies to a click, counts bad payloads, survives a broker restart, sends a .plan, \
        flies it with the mission buttons
        """)
    func flyFromTheMap() async throws {
        try Self.requireDependencies()
        // 0.2 m GPS noise as in `make demo`, so the marker can be held to the ground truth within a few metres.
        let stack = try FlightStack(simArguments: ["--gps-noise", "0.2"])
        defer { stack.stop() }
        try await stack.waitUntilReady()
        let handshake = try TestEnvironment.temporaryDirectory("map-handshake")
        defer { TestEnvironment.removeTemporaryDirectory(handshake) }
        var arguments = [TestEnvironment.repoRoot.appendingPathComponent("Tests/WebMapTests/map_browser_test.py").path,
                         "--url", try #require(stack.mosquitto).mapURL, "--mqtt-port", "\(stack.broker.port)",
                         "--trace", stack.traceURL.path, "--drone", stack.drone, "--handshake", handshake.path,
                         "--chromedriver", try TestEnvironment.requireTool("chromedriver"),
                         "--broadcaster", try TestEnvironment.executable("location-broadcaster").path]
        // QUAD_MAP_SCREENSHOT=docs/map.png rewrites docs/ground-tools.md's screenshot from this flight.
        if let shot = ProcessInfo.processInfo.environment["QUAD_MAP_SCREENSHOT"], !shot.isEmpty {
            arguments += ["--screenshot", shot]
        }
        let browserTemporary = try TestEnvironment.temporaryDirectory("chrome")
        defer { TestEnvironment.removeTemporaryDirectory(browserTemporary) }
        let browser = try ChildProcess(executable: MapBrowser.python, arguments: arguments, name: "map-browser",
                                       logDirectory: handshake, environment: MapBrowser.environment(browserTemporary))
        defer { browser.stop(signal: SIGKILL) }
        let restarted = try await MapBrowser.answer(browser, in: handshake, step: "restart", timeoutS: 300) {
            try stack.mosquitto?.restart(after: 1)
        }
        let code = try await onThread { browser.waitForExit(timeout: .seconds(5)) }
        #expect(code == 0, "map_browser_test.py: \(browser.output())\n\(stack.logs())")
        #expect(restarted, "the broker restart step never ran: \(browser.output())")
        #expect(browser.output().contains("mission upload of the same file: byte-identical"),
                "the .plan drop never compared with location-broadcaster: \(browser.output())")
        #expect(browser.output().contains("mission pause, goto 0, resume, abort answered by the board"),
                "the mission buttons never flew the plan: \(browser.output())")
    }

    @Test("hostile URL parameters, payloads and topics never break the page, never run script")
    func hostileInput() async throws {
        try Self.requireDependencies()
        let broker = try BrokerProcess()
        defer { broker.stop() }
        let result = try await MapBrowser.check(["hostile", "--url", broker.mapURL, "--mqtt-port", "\(broker.port)"],
                                          logDirectory: broker.directory)
        #expect(result.exitCode == 0, "\(result.output)")
    }

    @Test("when the broker goes away the page shows what it knew as stale, one badge text, a counting countdown")
    func staleWhenBrokerGone() async throws {
        try Self.requireDependencies()
        let broker = try BrokerProcess()
        defer { broker.stop(); try? FileManager.default.removeItem(at: broker.directory) }
        let handshake = broker.directory
        let browserTemporary = try TestEnvironment.temporaryDirectory("chrome")
        defer { TestEnvironment.removeTemporaryDirectory(browserTemporary) }
        let browser = try ChildProcess(
            executable: MapBrowser.python,
            arguments: [TestEnvironment.repoRoot.appendingPathComponent("Tests/WebMapTests/map_page_checks.py").path,
                        "stale", "--url", broker.mapURL, "--mqtt-port", "\(broker.port)", "--handshake", handshake.path,
                        "--failure-dir", handshake.path,
                        "--chromedriver", try TestEnvironment.requireTool("chromedriver")],
            name: "map-stale", logDirectory: handshake, environment: MapBrowser.environment(browserTemporary))
        defer { browser.stop(signal: SIGKILL) }
        let stopped = try await MapBrowser.answer(browser, in: handshake, step: "stop", timeoutS: 180) { broker.stop() }
        let code = try await onThread { browser.waitForExit(timeout: .seconds(5)) }
        #expect(code == 0, "map_page_checks.py stale: \(browser.output())")
        #expect(stopped, "the broker was never stopped: \(browser.output())")
    }

    @Test("during a return the distance row says 'to home' with the controller's distance (issue 27, item 3)")
    func returnShowsTheDistanceToHome() async throws {
        try Self.requireDependencies()
        let broker = try BrokerProcess()
        defer { broker.stop() }
        let result = try await MapBrowser.check(["home", "--url", broker.mapURL, "--mqtt-port", "\(broker.port)"],
                                                logDirectory: broker.directory)
        #expect(result.exitCode == 0, "\(result.output)")
    }

    @Test("the airspace held is drawn; a click inside a keep-out zone, its margin or outside the field is refused")
    func zonesAreDrawnAndRefused() async throws {
        try Self.requireDependencies()
        let broker = try BrokerProcess()
        defer { broker.stop() }
        let result = try await MapBrowser.check(["zones", "--url", broker.mapURL, "--mqtt-port", "\(broker.port)"],
                                                logDirectory: broker.directory)
        #expect(result.exitCode == 0, "\(result.output)")
    }

    @Test("""
        the board's plan is drawn with its legs; progress marks items reached and current; the mission buttons show \
        a refusal's reason and a timeout (issue 37, item 8)
        """)
    func missionIsDrawn() async throws {
        try Self.requireDependencies()
        let broker = try BrokerProcess()
        defer { broker.stop() }
        let result = try await MapBrowser.check(["mission", "--url", broker.mapURL, "--mqtt-port", "\(broker.port)"],
                                                logDirectory: broker.directory)
        #expect(result.exitCode == 0, "\(result.output)")
    }

    @Test("on the deployed ground broker the page is refused anonymously and logs in as map")
    func loginOnDeployedBroker() async throws {
        try Self.requireDependencies()
        let (broker, passwords) = try DeploymentTests.BrokerACL.broker("ground")
        defer { broker.stop() }
        let webSockets = try broker.port(forListener: 9001)
        let result = try await MapBrowser.check(["login", "--url", "http://127.0.0.1:\(webSockets)/",
                                           "--password", passwords["map"] ?? ""], logDirectory: broker.directory)
        #expect(result.exitCode == 0, "\(result.output)")
    }

    /// From another device: https://<laptop>:9443/ (quadcopter-map-tls.service's relay), the browser trusting the
    /// laptop's CA (deploy/README.md). The relay speaks only TLS: "online" there means the page chose wss:// for
    /// itself (no `broker` parameter).
    @Test("over https (the map's TLS relay) the page chooses wss, is refused anonymously, logs in as map")
    func loginOverTLS() async throws {
        try Self.requireDependencies()
        let (broker, passwords) = try DeploymentTests.BrokerACL.broker("ground")
        defer { broker.stop() }
        let relay = try DeploymentTests.BrokerACL.mapRelay(broker)
        defer { relay.stop() }
        let secure = relay.port
        let result = try await MapBrowser.check(["login", "--url", "https://127.0.0.1:\(secure)/",
                                                 "--password", passwords["map"] ?? ""],
                                                logDirectory: broker.directory,
                                                trustedCA: DeploymentTests.BrokerACL.caFile(broker))
        #expect(result.exitCode == 0, "\(result.output)")
    }
}

enum MapBrowser {
    /// The file handshake of a browser script: when it writes `<dir>/<step>-request`, runs `action` once and writes
    /// `<dir>/<step>-done`. Returns whether the step ran, once the script ended (or after `timeoutS`).
    static func answer(_ browser: ChildProcess, in directory: URL, step: String, timeoutS: Double,
                       action: () throws -> Void) async throws -> Bool {
        let request = directory.appendingPathComponent("\(step)-request").path
        let deadline = Date().addingTimeInterval(timeoutS)
        var done = false
        while browser.isRunning, Date() < deadline {
            if !done, FileManager.default.fileExists(atPath: request) {
                try action()
                done = true
                _ = FileManager.default.createFile(atPath: directory.appendingPathComponent("\(step)-done").path,
                                                   contents: nil)
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        return done
    }

    /// Tests/WebMapTests/map_page_checks.py MODE ARGS… (short browser checks), to completion.
    /// On a thread of its own (`onThread`): a browser run takes minutes.
    /// - Parameter trustedCA: a CA the browser trusts as a user imports one, into the NSS database of its own home
    ///   (`$HOME/.pki/nssdb`, where Chromium on Linux reads the authorities a user added); the system's stay too.
    static func check(_ arguments: [String], logDirectory: URL, trustedCA: URL? = nil) async throws -> CommandResult {
        let chromedriver = try TestEnvironment.requireTool("chromedriver")
        let browserTemporary = try TestEnvironment.temporaryDirectory("chrome")
        defer { TestEnvironment.removeTemporaryDirectory(browserTemporary) }
        var environment = environment(browserTemporary)
        if let trustedCA {
            environment["HOME"] = browserTemporary.path
            try importAuthority(trustedCA, home: browserTemporary, logDirectory: logDirectory)
        }
        let script = TestEnvironment.repoRoot.appendingPathComponent("Tests/WebMapTests/map_page_checks.py").path
        return try await onThread { [environment] in
            try runCommand(python, [script] + arguments + ["--failure-dir", logDirectory.path,
                                                          "--chromedriver", chromedriver],
                           logDirectory: logDirectory, timeoutS: 180, environment: environment)
        }
    }

    /// `certutil -d sql:$HOME/.pki/nssdb -A -t C,, -n quadcopter -i CA`, as deploy/README.md tells a user.
    static func importAuthority(_ ca: URL, home: URL, logDirectory: URL) throws {
        let database = home.appendingPathComponent(".pki/nssdb")
        try FileManager.default.createDirectory(at: database, withIntermediateDirectories: true)
        let certutil = try TestEnvironment.requireTool("certutil")
        for arguments in [["-N", "--empty-password"], ["-A", "-t", "C,,", "-n", "quadcopter", "-i", ca.path]] {
            let result = try runCommand(certutil, ["-d", "sql:\(database.path)"] + arguments,
                                        logDirectory: logDirectory)
            guard result.exitCode == 0 else { throw TestEnvironmentError.missing("certutil: \(result.output)") }
        }
    }

    /// Chromium and chromedriver keep their profile and singleton socket in TMPDIR, and leave them behind when
    /// killed: in a directory of the test's own (`temporaryDirectory("chrome")`, removed after it) they go with it.
    /// A short path, directly in the temporary directory: the singleton socket's must fit a unix socket address.
    static func environment(_ directory: URL) -> [String: String] { ["TMPDIR": directory.path] }

    /// Debian's python3-selenium lives in the system python (a pyenv or venv python3 on PATH would not see it).
    static let python = "/usr/bin/python3"
    static var seleniumInstalled: Bool {
        FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/selenium")
            && FileManager.default.isExecutableFile(atPath: python)
    }
}
