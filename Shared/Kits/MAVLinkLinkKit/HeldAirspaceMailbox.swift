import Logging
import QuadMQTT
import QuadProtocol
import QuadService
import Synchronization

/// The latest held airspace (`airspace/held`) from the bus, waiting for the link thread: only the newest counts
/// (the fence is the airspace held now, not every one on the way), so one slot, replaced.
final class HeldAirspaceMailbox: Sendable {
    private let slot = Mutex<AirspaceDefinition?>(nil)
    /// Payloads that did not decode: counted and logged, never given to the autopilot.
    private let rejected = Atomic<Int>(0)

    func put(_ definition: AirspaceDefinition) { slot.withLock { $0 = definition } }

    /// The newest airspace not yet taken, or nil.
    func take() -> AirspaceDefinition? { slot.withLock { value in defer { value = nil }; return value } }

    /// A mailbox fed from this drone's `airspace/held` (retained: the held airspace arrives at every connect).
    static func subscribed(runtime: ServiceRuntime) -> HeldAirspaceMailbox {
        let mailbox = HeldAirspaceMailbox()
        let logger = runtime.logger
        let spec = Topics.airspaceHeld
        do {
            try runtime.client.subscribe(spec.topic(for: runtime.drone), qos: spec.qos.rawValue) { message in
                do {
                    mailbox.put(try AirspaceDefinition(decoding: message.payload))
                } catch {
                    let count = mailbox.rejected.add(1, ordering: .relaxed).newValue
                    logger.warning("rejected held airspace #\(count) (\(message.payload.count) bytes): \(error)")
                }
            }
        } catch {
            logger.error("cannot subscribe to the held airspace: the autopilot's fence is not kept: \(error)")
        }
        return mailbox
    }
}
