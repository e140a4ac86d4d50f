import GPSD
import QuadService

/// Where the navigator takes the drone's position from (`--position`): drone-link's `telemetry/position`, or a
/// gpsd on the drone board. Heading comes from navdata either way.
enum PositionSource: Sendable, Equatable, CustomStringConvertible {
    case telemetry
    case gpsd(GPSDAddress)

    enum ParseError: Error, Equatable, CustomStringConvertible {
        case unknown(String)
        case badGPSDAddress(String, GPSDAddress.ParseError)

        var description: String {
            switch self {
            case .unknown(let text):
                "expected telemetry, gpsd or gpsd:HOST:PORT, got '\(text)'"
            case .badGPSDAddress(let text, let error):
                "'\(text)': \(error)"
            }
        }
    }

    /// `telemetry`, `gpsd` (127.0.0.1:2947) or `gpsd:HOST[:PORT]`.
    init(parsing text: String) throws(ParseError) {
        if text == "telemetry" {
            self = .telemetry
        } else if text == "gpsd" {
            self = .gpsd(.local)
        } else if text.hasPrefix("gpsd:") {
            do {
                self = .gpsd(try GPSDAddress(parsing: String(text.dropFirst("gpsd:".count))))
            } catch {
                throw .badGPSDAddress(text, error)
            }
        } else {
            throw .unknown(text)
        }
    }

    var description: String {
        switch self {
        case .telemetry: "telemetry"
        case .gpsd(let address): "gpsd at \(address)"
        }
    }
}
