import ARDrone
import Logging
import QuadProtocol
import QuadService
import ServiceLifecycle
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
        var envelope: DroneEnvelope
    }

    let runtime: ServiceRuntime
    let settings: Settings

    func run() async throws {
        let atSocket = try UDPSocket(connectingTo: settings.address, port: settings.atPort)
        let navdataSocket = try UDPSocket(connectingTo: settings.address, port: settings.navdataPort)
        let inbox = try LinkInbox()
        let (finished, finish) = AsyncStream<Void>.makeStream()
        let body: @Sendable () -> Void = { [runtime, settings] in
            var loop = LinkLoop(machine: LinkStateMachine(timing: settings.timing, envelope: settings.envelope), atSocket: atSocket,
                                navdataSocket: navdataSocket, inbox: inbox,
                                publisher: TelemetryPublisher(runtime: runtime), logger: runtime.logger)
            loop.run()
            finish.finish()
        }
        try LinkThread.start(body)

        let subscription = runtime.subscribe(Topics.flightCommand)
        let commands = Task { [runtime] in
            var rejected = 0
            for await message in subscription {
                do {
                    inbox.post(try FlightCommand(decoding: message.payload))
                } catch {
                    // Bad payloads never reach the link; the first and every 100th are logged.
                    rejected += 1
                    if rejected % 100 == 1 {
                        let size = message.payload.count
                        runtime.logger.warning("rejected flight command #\(rejected) (\(size) bytes): \(error)")
                    }
                }
            }
            return rejected
        }
        try? await gracefulShutdown()
        commands.cancel()
        let rejected = await commands.value
        runtime.logger.notice("""
            rejected in total: \(rejected) (flight-command \(rejected)); dropped unread: \(subscription.droppedCount)
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
