/// Any binary message, for code that handles every type (the telemetry logger, `tail`).
public enum AnyWireMessage: Equatable, Sendable {
    case target(Target)
    case command(Command)
    case navigationSolution(NavigationSolution)
    case flightCommand(FlightCommand)
    case droneState(DroneState)
    case positionFix(PositionFix)
    case controllerState(ControllerState)
    case linkStatus(LinkStatus)
    case controlClaim(ControlClaim)
    case groundBeacon(GroundBeacon)
    case airspaceDefinition(AirspaceDefinition)
    case airspaceStatus(AirspaceStatus)
    case airspaceRoutePlan(AirspaceRoutePlan)

    /// Decodes whatever message type the header names.
    public static func decode(_ payload: [UInt8]) throws(WireError) -> AnyWireMessage {
        let header = try WireHeader(parsing: payload)
        return switch header.messageType {
        case .target: .target(try Target(header: header, payload: payload))
        case .command: .command(try Command(header: header, payload: payload))
        case .navigationSolution: .navigationSolution(try NavigationSolution(header: header, payload: payload))
        case .flightCommand: .flightCommand(try FlightCommand(header: header, payload: payload))
        case .droneState: .droneState(try DroneState(header: header, payload: payload))
        case .positionFix: .positionFix(try PositionFix(header: header, payload: payload))
        case .controllerState: .controllerState(try ControllerState(header: header, payload: payload))
        case .linkStatus: .linkStatus(try LinkStatus(header: header, payload: payload))
        case .controlClaim: .controlClaim(try ControlClaim(header: header, payload: payload))
        case .groundBeacon: .groundBeacon(try GroundBeacon(header: header, payload: payload))
        case .airspaceDefinition: .airspaceDefinition(try AirspaceDefinition(header: header, payload: payload))
        case .airspaceStatus: .airspaceStatus(try AirspaceStatus(header: header, payload: payload))
        case .airspaceRoutePlan: .airspaceRoutePlan(try AirspaceRoutePlan(header: header, payload: payload))
        }
    }

    public init(_ message: any WireMessage) {
        switch message {
        case let m as Target: self = .target(m)
        case let m as Command: self = .command(m)
        case let m as NavigationSolution: self = .navigationSolution(m)
        case let m as FlightCommand: self = .flightCommand(m)
        case let m as DroneState: self = .droneState(m)
        case let m as PositionFix: self = .positionFix(m)
        case let m as ControllerState: self = .controllerState(m)
        case let m as LinkStatus: self = .linkStatus(m)
        case let m as ControlClaim: self = .controlClaim(m)
        case let m as GroundBeacon: self = .groundBeacon(m)
        case let m as AirspaceDefinition: self = .airspaceDefinition(m)
        case let m as AirspaceStatus: self = .airspaceStatus(m)
        case let m as AirspaceRoutePlan: self = .airspaceRoutePlan(m)
        default: preconditionFailure("WireMessage conformances outside QuadProtocol are not supported")
        }
    }

    /// The wrapped message.
    public var message: any WireMessage {
        switch self {
        case let .target(m): m
        case let .command(m): m
        case let .navigationSolution(m): m
        case let .flightCommand(m): m
        case let .droneState(m): m
        case let .positionFix(m): m
        case let .controllerState(m): m
        case let .linkStatus(m): m
        case let .controlClaim(m): m
        case let .groundBeacon(m): m
        case let .airspaceDefinition(m): m
        case let .airspaceStatus(m): m
        case let .airspaceRoutePlan(m): m
        }
    }

    public var messageType: MessageType { type(of: message).messageType }
    public var sequence: UInt32 { message.sequence }
    public var timestampUs: Int64 { message.timestampUs }

    /// The sender id for the message types that carry one (target, command, control claim, ground beacon).
    public var senderId: String? {
        switch self {
        case let .target(m): m.senderId
        case let .command(m): m.senderId
        case let .controlClaim(m): m.senderId
        case let .groundBeacon(m): m.senderId
        case let .airspaceDefinition(m): m.senderId
        default: nil
        }
    }

    public func encoded() throws(WireError) -> [UInt8] { try message.encoded() }

    /// One JSON object per message: `{"type":"target","sequence":7,"timestamp_us":…,"sender_id":…}`.
    public func jsonObjectText() -> String { message.jsonObjectText() }
}
