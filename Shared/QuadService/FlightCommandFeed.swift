import Logging
import QuadProtocol
import ServiceLifecycle

extension ServiceRuntime {
    /// A link's MQTT side (drone-link, mavlink-link): decodes every flight command into `deliver` until shutdown,
    /// then logs the totals. Bad payloads never reach the link; the first and every 100th are logged.
    public func forwardFlightCommands(_ deliver: @escaping @Sendable (FlightCommand) -> Void) async {
        let subscription = subscribe(Topics.flightCommand)
        let commands = Task { [logger] in
            var rejected = 0
            for await message in subscription {
                do {
                    deliver(try FlightCommand(decoding: message.payload))
                } catch {
                    rejected += 1
                    if rejected % 100 == 1 {
                        logger.warning("rejected flight command #\(rejected) (\(message.payload.count) bytes): \(error)")
                    }
                }
            }
            return rejected
        }
        try? await gracefulShutdown()
        commands.cancel()
        let rejected = await commands.value
        logger.notice("""
            rejected in total: \(rejected) (flight-command \(rejected)); dropped unread: \(subscription.droppedCount)
            """)
    }
}
