import Logging
import QuadProtocol
import ServiceLifecycle
import Synchronization

extension ServiceRuntime {
    /// A link's MQTT side (drone-link, mavlink-link): decodes every flight command into `deliver` until shutdown,
    /// then logs the totals. Bad payloads never reach the link; the first and every 100th are logged.
    public func forwardFlightCommands(droppedElsewhere: @escaping @Sendable () -> Int = { 0 },
                                      _ deliver: @escaping @Sendable (FlightCommand) -> Void) async {
        // Straight from the connection's one ordered queue to the link: no task of its own.
        let rejections = Atomic<Int>(0)
        do {
            try client.subscribe(Topics.flightCommand.topic(for: drone), qos: Topics.flightCommand.qos.rawValue) {
                [logger] message in
                do {
                    deliver(try FlightCommand(decoding: message.payload))
                } catch {
                    // Bad payloads never reach the link; the first and every 100th are logged.
                    let rejected = rejections.add(1, ordering: .relaxed).newValue
                    if rejected % 100 == 1 {
                        logger.warning(
                            "rejected flight command #\(rejected) (\(message.payload.count) bytes): \(error)")
                    }
                }
            }
        } catch {
            logger.error("cannot subscribe to flight commands: \(error)")
        }
        try? await gracefulShutdown()
        let rejected = rejections.load(ordering: .relaxed)
        let dropped = client.droppedUnread + droppedElsewhere()
        logger.notice("""
            rejected in total: \(rejected) (flight-command \(rejected)); dropped unread: \(dropped)
            """)
    }
}
