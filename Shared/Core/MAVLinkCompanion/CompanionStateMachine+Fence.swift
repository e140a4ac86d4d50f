import Clocks
import MAVLink
import QuadProtocol

/// The held airspace (`airspace/held`) handed to `FenceSync`, and its outputs as the link's actions.
extension CompanionStateMachine {
    /// The airspace drone-controller holds: uploaded to the autopilot as its fence once it is connected, and
    /// again whenever the checksum changes or the autopilot comes back.
    public mutating func heldAirspace(_ definition: AirspaceDefinition, now: MonotonicInstant) -> [CompanionAction] {
        fence.linkBusy = mission.isTransferring
        return fenceActions(fence.hold(definition, nowUs: now.us))
    }

    /// Whether the autopilot's fence was read back equal to the held airspace (nil: no pass ended yet).
    public var fenceInPlace: Bool { fence.inPlace }

    mutating func fenceActions(_ outputs: [FenceSync.Output]) -> [CompanionAction] {
        outputs.map { output in
            switch output {
            case .send(let message): .send(encodeListMessage(message))
            case .log(let level, let text): .log(level, text)
            case .status(let status): .publishFenceStatus(status)
            }
        }
    }

    mutating func encodeListMessage(_ message: AutopilotListMessage) -> [UInt8] {
        switch message {
        case .count(let m): encoder.encode(m)
        case .item(let m): encoder.encode(m)
        case .requestList(let m): encoder.encode(m)
        case .request(let m): encoder.encode(m)
        case .ack(let m): encoder.encode(m)
        case .paramSet(let m): encoder.encode(m)
        }
    }
}
