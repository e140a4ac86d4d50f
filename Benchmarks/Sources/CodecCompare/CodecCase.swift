// A benchmark tool, never on the drone: full Foundation (NSKeyedArchiver lives only there).
import Foundation
import QuadProtocol

/// The three ways of putting a message on the wire that the benchmarks compare.
public enum Codec: String, Sendable, CaseIterable {
    /// This project's versioned binary codec (`encoded()` / `init(decoding:)`).
    case binary
    /// Foundation's JSONEncoder / JSONDecoder on a Codable struct with the same fields.
    case json
    /// NSKeyedArchiver / NSKeyedUnarchiver on an NSSecureCoding class with the same fields (objc.io's way).
    case keyedArchive = "nskeyedarchiver"
}

/// One message through one codec: encode then decode, returning the encoded size in bytes.
public struct CodecCase: Sendable {
    public let message: String
    public let codec: Codec
    public let roundTrip: @Sendable () throws -> Int

    public var name: String { "\(message) \(codec.rawValue)" }

    /// Every message × every codec, in the order of the topic table.
    public static let all: [CodecCase] = [
        cases("Target", SampleMessages.target, JSONTarget.init, ArchivedTarget.init),
        cases("Command", SampleMessages.command, JSONCommand.init, ArchivedCommand.init),
        cases("ControlClaim", SampleMessages.controlClaim, JSONControlClaim.init, ArchivedControlClaim.init),
        cases("NavigationSolution", SampleMessages.navigationSolution, JSONNavigationSolution.init,
              ArchivedNavigationSolution.init),
        cases("FlightCommand", SampleMessages.flightCommand, JSONFlightCommand.init, ArchivedFlightCommand.init),
        cases("DroneState", SampleMessages.droneState, JSONDroneState.init, ArchivedDroneState.init),
        cases("PositionFix", SampleMessages.positionFix, JSONPositionFix.init, ArchivedPositionFix.init),
        cases("ControllerState", SampleMessages.controllerState, JSONControllerState.init,
              ArchivedControllerState.init),
        cases("LinkStatus", SampleMessages.linkStatus, JSONLinkStatus.init, ArchivedLinkStatus.init),
    ].flatMap { $0 }

    // Reused, as a service would keep one of each.
    private static let encoder = JSONEncoder()
    private static let decoder = JSONDecoder()

    /// Each round trip starts from the Swift value, as a sender would, and ends with a decoded value.
    static func cases<M: WireMessage, J: Codable & Equatable & Sendable, A: NSObject & NSSecureCoding>(
        _ name: String, _ message: M, _ mirror: @escaping @Sendable (M) -> J, _ archived: @escaping @Sendable (M) -> A
    ) -> [CodecCase] {
        [
            CodecCase(message: name, codec: .binary) {
                let bytes = try message.encoded()
                let decoded = try M(decoding: bytes)
                guard decoded == message else { throw CodecCaseError.roundTripChanged(name) }
                return bytes.count
            },
            CodecCase(message: name, codec: .json) {
                let original = mirror(message)
                let data = try encoder.encode(original)
                let decoded = try decoder.decode(J.self, from: data)
                guard decoded == original else { throw CodecCaseError.roundTripChanged(name) }
                return data.count
            },
            CodecCase(message: name, codec: .keyedArchive) {
                let data = try NSKeyedArchiver.archivedData(withRootObject: archived(message),
                    requiringSecureCoding: true)
                guard try NSKeyedUnarchiver.unarchivedObject(ofClass: A.self, from: data) != nil else {
                    throw CodecCaseError.roundTripChanged(name)
                }
                return data.count
            },
        ]
    }
}

public enum CodecCaseError: Error, Equatable {
    case roundTripChanged(String)
}
