#if canImport(Glibc)
import Glibc
#endif
import FlightControl
import InMemoryMQTT
import Logging
import QuadMQTT
import QuadProtocol
import QuadService
import Testing
@testable import DroneControllerKit

/// The board's copy of the airspace (issue 38): kept atomically with its CRC, reloaded by a restarted controller,
/// a damaged file refused and ignored; uploads from the bus answered on `airspace/status`, garbage counted.
@Suite struct AirspaceFileTests {
    let logger = Logger(label: "drone-controller")
    let drone = DroneID(rawValue: "t1")!

    static let definition = AirspaceDefinition(
        senderId: "ground", sequence: 1, timestampUs: 5, ceilingM: 40, marginM: 2, zones: [
            .init(name: "pond", kind: .keepOut, shape: .polygon(rings: [[
                .init(latitudeDeg: 52.5170, longitudeDeg: 13.3760), .init(latitudeDeg: 52.5170, longitudeDeg: 13.3780),
                .init(latitudeDeg: 52.5160, longitudeDeg: 13.3770)]])),
        ])

    /// A directory of its own below TMPDIR; `remove` deletes the files the store writes and the directory.
    struct Directory {
        let path: String
        init() {
            let base = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
            var template = Array("\(base)/quad-airspace-test-XXXXXX".utf8CString)
            path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        }
        func remove() {
            for name in FileBytes.directoryEntries(path) { unlink(path + "/" + name) }
            rmdir(path)
        }
    }

    @Test func keptAndReloadedWithItsChecksum() throws {
        let directory = Directory()
        defer { directory.remove() }
        let file = AirspaceFile(directory: directory.path)
        file.save(Self.definition, logger: logger)
        let bytes = try FileBytes.read(file.path)
        #expect(Array(bytes.prefix(4)) == Array("QAS1".utf8))
        #expect(file.load(logger: logger) == Self.definition)
    }

    @Test func aDamagedFileIsRefusedAndIgnored() throws {
        let directory = Directory()
        defer { directory.remove() }
        let file = AirspaceFile(directory: directory.path)
        file.save(Self.definition, logger: logger)
        var bytes = try FileBytes.read(file.path)
        bytes[bytes.count - 3] ^= 0x01
        try FileBytes.replace(file.path, with: bytes)
        #expect(throws: AirspaceFile.LoadError.self) { try AirspaceFile.decode(bytes) }
        do { _ = try AirspaceFile.decode(bytes) } catch {
            #expect(error.description.contains("checksum mismatch"))
        }
        #expect(file.load(logger: logger) == nil)
        // Left in place for a look; the next upload replaces it.
        #expect(FileBytes.directoryEntries(directory.path).contains("airspace"))
    }

    func statuses(_ broker: InMemoryBroker) throws -> [AirspaceStatus] {
        try broker.published(matching: Topics.airspaceStatus.topic(for: drone)).map {
            try AirspaceStatus(decoding: $0.payload)
        }
    }

    /// The retained `airspace/held`, decoded, with its retain flag as published.
    func heldAirspace(_ broker: InMemoryBroker) throws -> (AirspaceDefinition, retained: Bool)? {
        guard let message = broker.retained(on: Topics.airspaceHeld.topic(for: drone)) else { return nil }
        return (try AirspaceDefinition(decoding: message.payload), message.retain)
    }

    /// A controller run over its own in-memory broker, keeping its airspace in `directory`.
    func controller(keepingIn directory: Directory) -> (InMemoryBroker, Task<Void, any Error>) {
        Self.controller(drone: drone, logger: logger) {
            ControllerService(runtime: $0, configuration: ControllerConfiguration(),
                              airspaceFile: AirspaceFile(directory: directory.path))
        }
    }

    /// The service `make` builds, run over its own in-memory broker.
    static func controller(drone: DroneID, logger: Logger, _ make: (ServiceRuntime) -> ControllerService)
        -> (InMemoryBroker, Task<Void, any Error>) {
        let broker = InMemoryBroker()
        let runtime = ServiceRuntime(service: "drone-controller", drone: drone,
                                     connection: broker.connect(clientId: "controller"), logger: logger)
        let service = make(runtime)
        return (broker, Task { try await runtime.run([service]) })
    }

    @Test func anUploadIsKeptAnsweredAndRestoredByTheNextRunAndGarbageIsOnlyCounted() async throws {
        let directory = Directory()
        defer { directory.remove() }
        let checksum = Self.definition.checksum
        do {
            let (broker, running) = controller(keepingIn: directory)
            let ground = broker.connect(clientId: "ground")
            try ground.start()
            let topic = Topics.airspace.topic(for: drone)
            let held = try await eventually(poll: .milliseconds(20)) {
                try ground.publish(topic: topic, payload: [0xFF, 0x51, 1, 4, 11, 0], qos: 1, retain: false,
                                   expiryS: nil)
                try ground.publish(topic: topic, payload: Self.definition.encoded(), qos: 1, retain: false,
                                   expiryS: nil)
                return try statuses(broker).last?.accepted?.checksum == checksum
            }
            running.cancel()
            _ = try? await running.value
            try #require(held, "the controller never held the upload")
            #expect(try statuses(broker).first?.accepted == nil)
            // Held on the bus, retained: none at start, then the upload's zones.
            let published = try broker.published(matching: Topics.airspaceHeld.topic(for: drone))
                .map { try AirspaceDefinition(decoding: $0.payload) }
            #expect(published.first?.isNone == true)
            #expect(try heldAirspace(broker)?.0 == Self.definition)
        }
        #expect(AirspaceFile(directory: directory.path).load(logger: logger) == Self.definition)
        // The next run reloads it and says so before anything is uploaded.
        let (broker, running) = controller(keepingIn: directory)
        let restored = try await eventually(poll: .milliseconds(20)) {
            try statuses(broker).last?.accepted == .init(checksum: checksum, zoneCount: 1)
        }
        running.cancel()
        _ = try? await running.value
        #expect(restored)
        #expect(try heldAirspace(broker)?.0.checksum == checksum)
        let everyOneRetained = broker.published(matching: Topics.airspaceHeld.topic(for: drone)).allSatisfy(\.retain)
        #expect(everyOneRetained)
    }
}

extension AirspaceFileTests {
    /// An older run's route (retained on the broker) must not stay drawn: every start publishes "no route",
    /// retained, over it (issue 38).
    @Test func everyStartPublishesNoRouteRetained() async throws {
        let directory = Directory()
        defer { directory.remove() }
        let (broker, running) = controller(keepingIn: directory)
        let topic = Topics.airspaceRoute.topic(for: drone)
        let said = try await eventually(poll: .milliseconds(20)) { broker.retained(on: topic) != nil }
        running.cancel()
        _ = try? await running.value
        #expect(said)
        let message = try #require(broker.retained(on: topic))
        #expect(message.retain)
        let plan = try AirspaceRoutePlan(decoding: message.payload)
        #expect(plan.isNone && plan.corners.isEmpty && plan.timestampUs > 0)
    }
}
