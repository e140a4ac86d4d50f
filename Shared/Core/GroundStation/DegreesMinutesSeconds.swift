import TextSupport

/// Degrees-minutes-seconds text such as `52°31'12"N`. Not accepted as a coordinate — the CLI takes decimal degrees
/// only, so a hemisphere letter can never flip a sign unnoticed — but recognised, to tell the user the decimal value.
public enum DegreesMinutesSeconds {
    static let markers: Set<Character> = ["°", "º", "'", "′", "’", "\"", "″", "”"]

    /// The decimal degrees `text` means, or nil when it is not degrees[/minutes[/seconds]] with a marker or a
    /// hemisphere letter (a plain number is not DMS).
    public static func decimalDegrees(_ text: String) -> Double? {
        var rest = Substring(text.trimmed(" \t"))
        var negative = false
        if let sign = rest.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            rest = rest.dropFirst()
        }
        var hemisphere: Character?
        if let h = rest.last.map({ Character($0.uppercased()) }), "NSEW".contains(h) {
            hemisphere = h
            rest = rest.dropLast()
        } else if let h = rest.first.map({ Character($0.uppercased()) }), "NSEW".contains(h) {
            hemisphere = h
            rest = rest.dropFirst()
        }
        guard hemisphere != nil || rest.contains(where: markers.contains) else { return nil }
        // `-33°S`: which of the two is meant is anyone's guess.
        if negative, hemisphere == "S" || hemisphere == "W" { return nil }
        let parts = rest.split { markers.contains($0) || $0 == " " }
        guard (1...3).contains(parts.count),
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") } }) else { return nil }
        let numbers = parts.compactMap { Double($0) }
        guard numbers.count == parts.count, numbers[0] <= 180 else { return nil }
        let minutes = numbers.count > 1 ? numbers[1] : 0
        let seconds = numbers.count > 2 ? numbers[2] : 0
        guard minutes < 60, seconds < 60 else { return nil }
        let value = numbers[0] + minutes / 60 + seconds / 3600
        return negative != (hemisphere == "S" || hemisphere == "W") ? -value : value
    }

    /// `use decimal degrees: 52°31'12"N is 52.52`, or nil when `text` does not look like DMS at all.
    public static func hint(_ text: String) -> String? {
        guard let value = decimalDegrees(text) else {
            return text.contains(where: markers.contains)
                ? "use decimal degrees (e.g. 52.5163), not degrees/minutes/seconds" : nil
        }
        return "use decimal degrees: \(TextFormat.printable(text, width: 40)) is \(shortDecimal(value))"
    }

    /// Six decimals (≈ 0.1 m) without trailing zeros.
    static func shortDecimal(_ value: Double) -> String {
        DecimalText.fixed(value, fractionDigits: 6, trimmingZeros: true, limit: 1e15) ?? "-"
    }
}

private extension String {
    func trimmed(_ set: String) -> String {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
