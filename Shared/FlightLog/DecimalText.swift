#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Fixed-point decimal text without exponents (xsd:decimal, KML coordinates and SVG need plain digits;
/// `Double.description` may print `1e-05`).
enum DecimalText {
    /// `value` rounded to `fractionDigits` (0…9) places, trailing zeros trimmed; non-finite values give "0".
    static func format(_ value: Double, fractionDigits: Int) -> String {
        let digits = max(0, min(fractionDigits, 9))
        var scale: Int64 = 1
        for _ in 0..<digits { scale *= 10 }
        let scaled = (value * Double(scale)).rounded()
        guard scaled.isFinite, abs(scaled) < 9.0e18 else { return "0" }
        let integer = Int64(scaled)
        let magnitude = integer.magnitude
        let whole = magnitude / UInt64(scale)
        var fraction = magnitude % UInt64(scale)
        var text = (integer < 0 ? "-" : "") + String(whole)
        guard digits > 0, fraction > 0 else { return text }
        var width = digits
        while fraction % 10 == 0 {
            fraction /= 10
            width -= 1
        }
        let fractionText = String(fraction)
        text += "." + String(repeating: "0", count: width - fractionText.count) + fractionText
        return text
    }
}
