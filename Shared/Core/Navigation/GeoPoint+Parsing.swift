/// Why a "LAT,LON" text was rejected.
public enum GeoPointParseError: Error, Equatable, Sendable {
    public enum Field: String, Sendable {
        case latitude, longitude
    }

    /// Longer than `GeoPoint.maxTextLength` characters.
    case tooLong(length: Int)
    /// Expected exactly two comma-separated numbers ("52.5,13.4"); `fieldCount` is what came.
    case expectedLatitudeCommaLongitude(fieldCount: Int)
    /// The field is not a decimal number.
    case notANumber(Field, text: String)
    /// The field is NaN or infinite.
    case notFinite(Field, text: String)
    /// Latitude outside −90 ... 90 or longitude outside −180 ... 180.
    case outOfRange(Field, value: Double)
}

extension GeoPointParseError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .tooLong(let n): "expected LAT,LON; got \(n) characters"
        case .expectedLatitudeCommaLongitude(let n): "expected LAT,LON (two numbers); got \(n) fields"
        case .notANumber(let f, let text): "\(f.rawValue) '\(text)' is not a decimal number"
        case .notFinite(let f, let text): "\(f.rawValue) '\(text)' is not finite"
        case .outOfRange(.latitude, let v): "latitude \(v) is outside -90...90"
        case .outOfRange(.longitude, let v): "longitude \(v) is outside -180...180"
        }
    }
}

extension GeoPoint {
    /// Longest accepted "LAT,LON" text; anything longer is not a coordinate pair.
    public static let maxTextLength = 64

    /// Parses "LAT,LON" in decimal degrees (e.g. `52.5,13.4`, `-33.9, 151.2`), as used by CLI flags like
    /// `--from`. Spaces around each number are allowed; the result is validated like `validated(...)`.
    public static func parse(_ text: String) throws(GeoPointParseError) -> GeoPoint {
        guard text.utf8.count <= maxTextLength else { throw .tooLong(length: text.utf8.count) }
        let fields = text.split(separator: ",", omittingEmptySubsequences: false)
        guard fields.count == 2 else { throw .expectedLatitudeCommaLongitude(fieldCount: fields.count) }
        let latitude = try number(fields[0], .latitude)
        let longitude = try number(fields[1], .longitude)
        guard (-90.0...90.0).contains(latitude) else { throw .outOfRange(.latitude, value: latitude) }
        guard (-180.0...180.0).contains(longitude) else { throw .outOfRange(.longitude, value: longitude) }
        return GeoPoint(latitudeDeg: latitude, longitudeDeg: longitude)
    }

    private static func number(_ raw: Substring, _ field: GeoPointParseError.Field)
        throws(GeoPointParseError) -> Double {
        var slice = raw
        while let c = slice.first, c == " " || c == "\t" { slice = slice.dropFirst() }
        while let c = slice.last, c == " " || c == "\t" { slice = slice.dropLast() }
        let text = String(slice)
        let unsigned = text.lowercased().drop { $0 == "+" || $0 == "-" }
        if unsigned.hasPrefix("nan") || unsigned.hasPrefix("inf") { throw .notFinite(field, text: text) }
        // Double(String) also takes hex floats; only plain decimal notation is a coordinate.
        let allowed = text.allSatisfy { $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }
        guard allowed, let value = Double(text) else { throw .notANumber(field, text: text) }
        // Decimal text too large for a Double parses as ±infinity.
        guard value.isFinite else { throw .notFinite(field, text: text) }
        return value
    }
}
