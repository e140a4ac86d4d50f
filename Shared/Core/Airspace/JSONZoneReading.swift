import Navigation
import QuadProtocol

/// Typed reads from a parsed JSON zone file, each failure naming the path (`geoFence.polygons[2].polygon[0]`).
struct JSONZoneReading {
    /// Zone files nest deeper than bus payloads (a MultiPolygon in a FeatureCollection is 9 levels).
    static let maxDepth = 32

    let format: String

    func document(_ bytes: [UInt8]) throws(AirspaceError) -> JSONValue {
        do { return try JSONValue.parse(bytes, maxDepth: Self.maxDepth) } catch {
            throw .malformed(format: format, at: "the document", reason: "not JSON: \(error)")
        }
    }

    func fail(_ at: String, _ reason: String) -> AirspaceError { .malformed(format: format, at: at, reason: reason) }

    func array(_ value: JSONValue?, _ at: String) throws(AirspaceError) -> [JSONValue] {
        guard let elements = value?.arrayValue else { throw fail(at, "expected an array") }
        return elements
    }

    func number(_ value: JSONValue?, _ at: String) throws(AirspaceError) -> Double {
        guard let number = value?.finiteDouble else { throw fail(at, "expected a finite number") }
        return number
    }

    func bool(_ value: JSONValue?, _ at: String) throws(AirspaceError) -> Bool {
        guard let flag = value?.boolValue else { throw fail(at, "expected true or false") }
        return flag
    }

    /// `[a, b]` or `[a, b, altitude]`: the first two numbers.
    func pair(_ value: JSONValue?, _ at: String) throws(AirspaceError) -> (Double, Double) {
        let elements = try array(value, at)
        guard elements.count == 2 || elements.count == 3 else { throw fail(at, "expected 2 or 3 numbers") }
        return (try number(elements[0], at + "[0]"), try number(elements[1], at + "[1]"))
    }
}
