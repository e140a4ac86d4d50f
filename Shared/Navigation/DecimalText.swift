/// Fixed-point decimal text for JSON numbers, without Foundation's formatters.
enum DecimalText {
    /// `value` rounded to `fractionDigits` decimals (half away from zero), e.g. 1.5 → "1.500" for 3 digits.
    /// Non-finite values give `null` (JSON has no NaN); −0 prints as 0. Magnitudes too large for exact
    /// fixed-point fall back to Swift's shortest round-trip text, which is also valid JSON.
    static func json(_ value: Double, fractionDigits: Int) -> String {
        guard value.isFinite else { return "null" }
        let digits = min(max(fractionDigits, 0), 15)
        var scale: Int64 = 1
        for _ in 0..<digits { scale *= 10 }
        let scaled = (value * Double(scale)).rounded(.toNearestOrAwayFromZero)
        guard abs(scaled) < 9_007_199_254_740_992 else { return "\(value)" }  // 2^53
        let units = Int64(scaled)
        let magnitude = units.magnitude
        let whole = magnitude / UInt64(scale)
        let sign = units < 0 ? "-" : ""
        guard digits > 0 else { return sign + String(whole) }
        let fraction = String(magnitude % UInt64(scale))
        return sign + String(whole) + "." + String(repeating: "0", count: digits - fraction.count) + fraction
    }
}
