import ARDrone
import Logging
import QuadProtocol
import QuadService
import ServiceLifecycle
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The drone-link as a lifecycle service: the link thread does the timing; this task only feeds it flight
/// commands from MQTT and stops it on shutdown.
struct DroneLinkService: Service {
    struct Settings: Sendable {
        var address: in_addr
        var atPort: UInt16
        var navdataPort: UInt16
        var timing: LinkTiming
    }

    let runtime: ServiceRuntime
    let settings: Settings

    func run() async throws {
        let atSocket = try UDPSocket(connectingTo: settings.address, port: settings.atPort)
        let navdataSocket = try UDPSocket(connectingTo: settings.address, port: settings.navdataPort)
        let inbox = try LinkInbox()
        let (finished, finish) = AsyncStream<Void>.makeStream()
        let body: @Sendable () -> Void = { [runtime, settings] in
            var loop = LinkLoop(machine: LinkStateMachine(timing: settings.timing), atSocket: atSocket,
                                navdataSocket: navdataSocket, inbox: inbox,
                                publisher: TelemetryPublisher(runtime: runtime), logger: runtime.logger)
            loop.run()
            finish.finish()
        }
        try LinkThread.start(body)

        // Straight from the connection's one ordered queue to the link thread: no task of its own.
        let rejections = Atomic<Int>(0)
        try runtime.client.subscribe(Topics.flightCommand.topic(for: runtime.drone),
                                     qos: Topics.flightCommand.qos.rawValue) { [runtime] message in
            do {
                inbox.post(try FlightCommand(decoding: message.payload))
            } catch {
                // Bad payloads never reach the link; the first and every 100th are logged.
                let rejected = rejections.add(1, ordering: .relaxed).newValue
                if rejected % 100 == 1 {
                    let size = message.payload.count
                    runtime.logger.warning("rejected flight command #\(rejected) (\(size) bytes): \(error)")
                }
            }
        }
        try? await gracefulShutdown()
        let rejected = rejections.load(ordering: .relaxed)
        let dropped = runtime.client.droppedUnread + inbox.droppedCount
        runtime.logger.notice("""
            rejected in total: \(rejected) (flight-command \(rejected)); dropped unread: \(dropped)
            """)
        inbox.requestStop()
        for await _ in finished {}
    }
}

/// A plain pthread for the link loop, so its timing never waits on the Swift concurrency pool.
enum LinkThread {
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    static func start(_ run: @escaping @Sendable () -> Void) throws(UDPSocket.Failure) {
        let box = Unmanaged.passRetained(Body(run)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { raw in
            guard let raw else { return nil }
            Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().run()
            return nil
        }, box)
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(box).release()
            throw UDPSocket.Failure(call: "pthread_create", errorNumber: result)
        }
        pthread_detach(thread)
    }
}
