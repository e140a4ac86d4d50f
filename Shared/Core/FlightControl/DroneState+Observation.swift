import QuadProtocol

/// What navdata says the drone is doing, reduced to what the controller's transitions need.
enum ObservedFlight: Sendable, Equatable {
    case onGround, takingOff, airborne, landing, unknown
}

extension DroneState {
    static let flyingBit: UInt32 = 1 << 0
    static let batteryLowBit: UInt32 = 1 << 15
    static let emergencyBit: UInt32 = 1 << 31

    var isEmergency: Bool { stateBits & Self.emergencyBit != 0 }
    var isBatteryLowBitSet: Bool { stateBits & Self.batteryLowBit != 0 }

    /// The major control state decides; without one (bootstrap navdata) the flying bit does.
    var observedFlight: ObservedFlight {
        switch controlState {
        case .landed, .initializing: .onGround
        case .takingOff: .takingOff
        case .landing: .landing
        case .flying, .hovering, .goingToFix, .looping: .airborne
        case .unknown: stateBits & Self.flyingBit != 0 ? .airborne : .onGround
        case .test: .unknown
        }
    }
}
