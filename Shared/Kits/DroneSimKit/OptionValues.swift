import ArgumentParser
import DroneSimulation
import Navigation

/// `--wind MPS,DIRDEG`: speed and the direction it blows FROM, degrees.
struct WindOption: ExpressibleByArgument, CustomStringConvertible {
    var wind: Wind

    init?(argument: String) {
        let parts = argument.split(separator: ",")
        guard parts.count == 2, let speed = Double(parts[0]), let from = Double(parts[1]),
            speed >= 0, speed.isFinite, from.isFinite
        else { return nil }
        wind = Wind(speedMps: speed, fromDeg: from)
    }

    /// As typed: `0,0` (not the Wind struct) in `--help`.
    var description: String { "\(Self.text(wind.speedMps)),\(Self.text(wind.fromDeg))" }

    private static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : "\(value)"
    }
}

/// `--listen IP` as a dotted quad.
struct ListenOption: ExpressibleByArgument, CustomStringConvertible {
    var address: UInt32

    init?(argument: String) {
        guard let endpoint = UDPEndpoint(dottedQuad: argument, port: 0) else { return nil }
        address = endpoint.address
    }

    /// `127.0.0.1` in `--help`, not the 32-bit number.
    var description: String { UDPEndpoint(address: address, port: 0).dottedQuad }
}
