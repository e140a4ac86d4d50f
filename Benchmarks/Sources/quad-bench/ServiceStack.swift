import ProcessSupport
import Foundation
import Navigation
import QuadMQTT
import QuadProtocol
import Synchronization

/// The drone side of the system as deployed: drone-link, navigator and drone-controller (release binaries), plus
/// a telemetry-logger recording, all on the bench's broker; drone-link flies the bench's `FakeDrone`. With
/// `.mavlink`, mavlink-link flies the bench's `FakeMAVLinkVehicle` instead. Several stacks share one broker under
/// distinct drone ids (the fleet benchmark); `logger: false` leaves the recording to a logger of the caller's.
final class ServiceStack: Sendable {
    enum Link: Sendable { case ardrone, mavlink }

    let drone: any BenchVehicle
    let services: [ChildProcess]
    let pilot: MQTTClient
    let droneId: DroneID
    private let controllerActivity = ActivityBox()
    private let watcher: Task<Void, Never>
    private let sequence = Mutex<UInt32>(0)
    static let senderId = "bench"

    enum Failure: Error, CustomStringConvertible {
        case serviceDied(String, log: String)
        case timeout(String)
        var description: String {
            switch self {
            case .serviceDied(let name, let log): "\(name) exited: \(log.suffix(2000))"
            case .timeout(let what): "timed out waiting for \(what)"
            }
        }
    }

    /// Where the services and the pilot connect, and as whom.
    let brokers: StackBrokers

    convenience init(binDir: String, broker: Broker, workDirectory: String, link: Link = .ardrone,
                     droneId: DroneID = .default, logger: Bool = true) async throws {
        try await self.init(binDir: binDir, brokers: StackBrokers(single: broker), workDirectory: workDirectory,
                            link: link, droneId: droneId, logger: logger)
    }

    init(binDir: String, brokers: StackBrokers, workDirectory: String, link: Link = .ardrone,
         droneId: DroneID = .default, logger: Bool = true) async throws {
        self.brokers = brokers
        self.droneId = droneId
        let home = GeoPoint(latitudeDeg: 52.5163, longitudeDeg: 13.3777)
        let linkLaunch: (String, [String])
        switch link {
        case .ardrone:
            let ardrone = try FakeDrone(home: home)
            try ardrone.start()
            drone = ardrone
            linkLaunch = ("drone-link", ["--address", "127.0.0.1", "--at-port", "\(ardrone.atSocket.port)",
                                         "--navdata-port", "\(ardrone.navdataSocket.port)"])
        case .mavlink:
            let vehicle = try FakeMAVLinkVehicle(home: home)
            try vehicle.start()
            drone = vehicle
            linkLaunch = ("mavlink-link", ["--listen", "127.0.0.1:\(vehicle.linkPort)"])
        }
        let common = ["--broker", brokers.serviceAddress, "--drone", droneId.rawValue] + brokers.serviceFlags
        let logDirectory = "\(workDirectory)/flight-log-\(link)"
        try FileManager.default.createDirectory(atPath: logDirectory, withIntermediateDirectories: true)
        let launch: [(String, [String])] = [
            linkLaunch,
            ("navigator", []),
            ("drone-controller", []),
        ] + (logger ? [("telemetry-logger", ["record", "--dir", logDirectory] + brokers.loggerArguments)] : [])
        services = try launch.map { name, arguments in
            let subcommand = arguments.first == "record" ? ["record"] : []
            let rest = arguments.first == "record" ? Array(arguments.dropFirst()) : arguments
            let login = brokers.serviceLogins[name]
                .map { ["--username", $0.username, "--password-file", $0.passwordFile] }
            return try ChildProcess("\(binDir)/\(name)", subcommand + common + (login ?? []) + rest, name: name,
                                    logDirectory: workDirectory)
        }
        pilot = try await BenchClient.connect(ports: brokers.pilotPorts, clientId: "bench-pilot-\(droneId)",
                                              login: brokers.pilotLogin)
        let states = try pilot.subscribe(Topics.controllerState.topic(for: droneId), qos: 1)
        watcher = Task { [controllerActivity] in
            for await message in states {
                if let state = try? ControllerState(decoding: message.payload) {
                    controllerActivity.value.withLock { $0 = state.activity }
                }
            }
        }
    }

    var activity: ControllerState.Activity? { controllerActivity.value.withLock { $0 } }

    func checkAlive() throws {
        for service in services where !service.isRunning {
            throw Failure.serviceDied(service.name, log: service.log())
        }
    }

    func nextSequence() -> UInt32 { sequence.withLock { $0 += 1; return $0 } }

    func send(_ kind: Command.Kind) throws {
        let command = Command(senderId: Self.senderId, sequence: nextSequence(), timestampUs: BenchClock.wallClockUs(),
                              kind: kind)
        try pilot.publish(topic: Topics.command.topic(for: droneId), payload: command.encoded(), qos: 1, retain: false)
    }

    /// Publishes a target (binary, QoS 1, as location-broadcaster does); returns its sequence.
    @discardableResult
    func sendTarget(_ point: GeoPoint, sequence given: UInt32? = nil) throws -> UInt32 {
        let sequence = given ?? nextSequence()
        let target = Target(senderId: Self.senderId, sequence: sequence, timestampUs: BenchClock.wallClockUs(),
                            latitudeDeg: point.latitudeDeg, longitudeDeg: point.longitudeDeg)
        try pilot.publish(topic: Topics.target.topic(for: droneId), payload: target.encoded(), qos: 1, retain: false)
        return sequence
    }

    /// Waits for the link to configure navdata, then takes off and waits until the controller hovers.
    func takeOff() async throws {
        // The controller refuses a takeoff without fresh navdata: retry until it is taking off.
        let deadline = BenchClock.monotonicNs() + 30_000_000_000
        while activity != .takingOff && activity != .hovering {
            try checkAlive()
            guard BenchClock.monotonicNs() < deadline else {
                throw Failure.timeout("takeoff (activity \(String(describing: activity)))")
            }
            if drone.snapshot.isAirborne == false { try? send(.takeoff) }
            _ = await BenchClient.waitUntil(timeoutS: 1) { activity == .takingOff || activity == .hovering }
        }
        guard await BenchClient.waitUntil(timeoutS: 20, { activity == .hovering && drone.snapshot.isAirborne }) else {
            throw Failure.timeout("hovering after takeoff (activity \(String(describing: activity)))")
        }
    }

    func land() async {
        try? send(.land)
        _ = await BenchClient.waitUntil(timeoutS: 15) { activity == .landed }
    }

    func stop() {
        watcher.cancel()
        pilot.shutdown()
        for service in services.reversed() { service.stop() }
        drone.stop()
    }
}

/// The controller's latest reported activity, shared with the task that reads `telemetry/controller`.
final class ActivityBox: Sendable {
    let value = Mutex<ControllerState.Activity?>(nil)
}

/// The brokers of a stack: the services' (the board's) and the pilot's (the ground's in the field layout, else the
/// same one), with the accounts to use where the broker authenticates (deploy/'s configurations). On a cluster each
/// side has every node, in its own order (board A,B,C; ground B,C,A), as `--broker a,b,c` lists them.
struct StackBrokers: Sendable {
    /// The board's node(s), on 127.0.0.1, first tried first.
    var servicePorts: [UInt16]
    /// The ground's: the pilot, and in the fleet benchmark its observers, logger and generator.
    var pilotPorts: [UInt16]
    /// Flags every service gets besides `--broker` (`--mqtt-version 3.1.1` where the broker speaks nothing newer).
    var serviceFlags: [String] = []
    /// Service name → its account; a service without one connects anonymously.
    var serviceLogins: [String: BrokerLogin] = [:]
    var pilotLogin: BrokerLogin?
    /// The bench's subscriber on the services' broker (stage observer).
    var observerLogin: BrokerLogin?
    var loggerArguments: [String] = []

    init(servicePort: UInt16, pilotPort: UInt16) {
        self.init(servicePorts: [servicePort], pilotPorts: [pilotPort])
    }

    init(servicePorts: [UInt16], pilotPorts: [UInt16], serviceFlags: [String] = []) {
        self.servicePorts = servicePorts
        self.pilotPorts = pilotPorts
        self.serviceFlags = serviceFlags
    }

    init(single broker: Broker) { self.init(servicePort: broker.port, pilotPort: broker.port) }

    var servicePort: UInt16 { servicePorts[0] }
    var pilotPort: UInt16 { pilotPorts[0] }
    /// `--broker` for the services.
    var serviceAddress: String { Self.address(servicePorts) }
    /// `--broker` for the ground's tools (the fleet's logger).
    var pilotAddress: String { Self.address(pilotPorts) }

    static func address(_ ports: [UInt16]) -> String { ports.map { "127.0.0.1:\($0)" }.joined(separator: ",") }
}
