/// Fixed-point decimal text without Foundation's String(format:) and without exponents (`Double.description`
/// may print `1e-05`; xsd:decimal, KML, SVG and people want plain digits). The one place numbers become
/// decimals; each caller picks what to print when there is no exact fixed-point text.
public enum DecimalText {
    /// Scaled magnitudes below this convert to Int64 exactly (Int64.max ≈ 9.22e18).
    public static let int64Limit = 9.0e18
    /// Scaled magnitudes below 2^53 are exact integers in a Double and in JavaScript.
    public static let exactIntegerLimit = 9_007_199_254_740_992.0

    /// `value` rounded half away from zero to `fractionDigits` (0…15) places, e.g. 1.5 → "1.500" for 3;
    /// −0 and values that round to zero have no sign. `trimmingZeros` drops trailing fraction zeros (and the point).
    /// nil when `value` is not finite or |value|·10^digits reaches `limit` (at most `int64Limit`).
    public static func fixed(
        _ value: Double, fractionDigits: Int, trimmingZeros: Bool = false, limit: Double = int64Limit
    ) -> String? {
        let digits = min(max(fractionDigits, 0), 15)
        var scale: Int64 = 1
        for _ in 0..<digits { scale *= 10 }
        let scaled = (value * Double(scale)).rounded(.toNearestOrAwayFromZero)
        guard value.isFinite, scaled.isFinite, abs(scaled) < min(limit, int64Limit) else { return nil }
        let units = Int64(scaled)
        let magnitude = units.magnitude
        let text = (units < 0 ? "-" : "") + String(magnitude / UInt64(scale))
        var fraction = magnitude % UInt64(scale)
        guard digits > 0, !(trimmingZeros && fraction == 0) else { return text }
        var width = digits
        while trimmingZeros, fraction % 10 == 0 {
            fraction /= 10
            width -= 1
        }
        let fractionText = String(fraction)
        return text + "." + String(repeating: "0", count: width - fractionText.count) + fractionText
    }

    /// An integer with at least `width` digits, zero-padded after any sign: 7 at width 2 is "07", −7 at width 3
    /// "-007".
    public static func zeroPadded(_ value: Int, width: Int) -> String {
        let digits = String(value.magnitude)
        let padded = String(repeating: "0", count: max(0, width - digits.count)) + digits
        return value < 0 ? "-" + padded : padded
    }

    /// A JSON number with exactly `fractionDigits` (0…15) places. Non-finite values give `null` (JSON has no NaN);
    /// magnitudes too large for exact fixed-point fall back to Swift's shortest round-trip text, also valid JSON.
    public static func json(_ value: Double, fractionDigits: Int) -> String {
        guard value.isFinite else { return "null" }
        return fixed(value, fractionDigits: fractionDigits, limit: exactIntegerLimit) ?? "\(value)"
    }

    /// At most `fractionDigits` (0…9) places, trailing zeros trimmed; non-finite or absurd values give "0"
    /// (coordinates and plot positions: a file must stay well-formed whatever the log held).
    public static func format(_ value: Double, fractionDigits: Int) -> String {
        fixed(value, fractionDigits: min(fractionDigits, 9), trimmingZeros: true) ?? "0"
    }
}
