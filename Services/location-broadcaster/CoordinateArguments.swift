import Navigation

/// `LAT LON` or `LAT,LON` from the command line, in decimal degrees.
enum CoordinateArguments {
    static func parse(_ words: [String]) throws(CLIFailure) -> GeoPoint {
        let text: String
        switch words.count {
        case 1: text = words[0]
        case 2: text = words[0] + "," + words[1]
        default:
            throw CLIFailure("expected a position as LAT LON or LAT,LON in decimal degrees (e.g. 52.5163 13.3777), "
                + "got \(words.count) arguments")
        }
        do {
            return try GeoPoint.parse(text)
        } catch {
            throw CLIFailure("bad position '\(Format.clean(text))': \(describe(error))")
        }
    }

    static func describe(_ error: GeoPointParseError) -> String {
        switch error {
        case .tooLong(let n): "\(n) characters is too long for a coordinate pair"
        case .expectedLatitudeCommaLongitude(let n): "expected LAT,LON (two numbers), found \(n) fields"
        case .notANumber(let field, let text): "\(field.rawValue) '\(Format.clean(text))' is not a decimal number"
        case .notFinite(let field, let text): "\(field.rawValue) '\(Format.clean(text))' is not a finite number"
        case .outOfRange(.latitude, let v): "latitude \(v) is outside -90...90"
        case .outOfRange(.longitude, let v): "longitude \(v) is outside -180...180"
        }
    }
}
