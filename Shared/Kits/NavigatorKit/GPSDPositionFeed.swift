import GPSD
import Logging
import QuadService
import TextSupport

/// `--position gpsd`: turns the gpsd connection into navigator events. Fixes go into the navigator's inbox
/// stamped with their receive time; connection changes and losing or regaining the fix are logged once each.
/// The fixes are used internally only: `telemetry/position` belongs to drone-link.
struct GPSDPositionFeed: Sendable {
    let address: GPSDAddress
    let logger: Logger

    func run(into inbox: Inbox<NavigatorService.Event>) async {
        var stream = GPSDStream()
        var reportedUnreachable = false
        var hasFix: Bool?
        let client = GPSDClient(address: address, openingCommand: stream.openingCommand)
        await client.run { event in
            var parsed: [GPSDStream.Event] = []
            switch event {
            case .connected:
                reportedUnreachable = false
                stream = GPSDStream()
                logger.info("connected to gpsd at \(address)")
            case .bytes(let bytes):
                parsed = stream.receive(bytes)
            case .idle:
                break
            case .disconnected(let reason):
                parsed = stream.finish()
                logger.warning("gpsd connection lost (\(reason)); reconnecting")
            case .unreachable(let reason):
                if !reportedUnreachable { logger.warning("gpsd at \(address) unreachable (\(reason)); retrying") }
                reportedUnreachable = true
            }
            for item in parsed {
                switch item {
                case .fix(let fix):
                    if hasFix != true { logger.info("gpsd fix: using it as the drone's position") }
                    hasFix = true
                    inbox.send(.gpsFix(fix, receivedAt: MonotonicClock.now(), wallClock: WallClock.now()))
                case .noFix(let reason):
                    if hasFix != false { logger.warning("gpsd has no usable fix (\(reason))") }
                    hasFix = false
                case .devices(let devices) where devices.isEmpty:
                    logger.warning("gpsd has no GPS receiver attached")
                case .gpsdError(let message):
                    logger.warning("gpsd error: \(Self.printable(message))")
                case .overlongLine(let n):
                    logger.warning("ignored an overlong gpsd line (\(n) bytes)")
                case .malformedLine(let error):
                    logger.debug("ignored a malformed gpsd line: \(error)")
                case .version, .devices, .watch:
                    break
                }
            }
        }
    }

    /// gpsd's text is from outside: no control characters into the log.
    static func printable(_ text: String) -> String { PrintableText.ascii(text, width: 200, replacement: nil) }
}
