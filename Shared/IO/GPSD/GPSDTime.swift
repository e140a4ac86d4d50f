/// ISO 8601 UTC timestamps as gpsd writes them (`2024-05-01T12:00:03.000Z`) → microseconds since the Unix epoch.
/// Only the `Z` form is accepted: gpsd always reports UTC, and anything else is not from gpsd.
public enum GPSDTime {
    /// Microseconds since 1970-01-01T00:00:00Z, or nil when the text is not a valid UTC timestamp in years 1970–9999.
    public static func microseconds(from text: String) -> Int64? {
        let b = Array(text.utf8)
        guard b.count >= 20, b.count <= 40, b.last == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var n = 0
            for i in range {
                let d = b[i]
                guard d >= 0x30, d <= 0x39 else { return nil }
                n = n * 10 + Int(d - 0x30)
            }
            return n
        }
        guard b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"), b[10] == UInt8(ascii: "T"),
              b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"),
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              year >= 1970, (1...12).contains(month), (1...daysInMonth(year: year, month: month)).contains(day),
              hour < 24, minute < 60, second <= 60  // 60: a leap second, as gpsd may report one
        else { return nil }

        var fractionUs = 0
        let fractionEnd = b.count - 1
        if fractionEnd > 19 {
            guard b[19] == UInt8(ascii: "."), fractionEnd > 20 else { return nil }
            var scale = 100_000
            for i in 20..<fractionEnd {
                let d = b[i]
                guard d >= 0x30, d <= 0x39 else { return nil }
                fractionUs += Int(d - 0x30) * scale  // digits beyond microseconds add 0
                scale /= 10
            }
        }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        return seconds * 1_000_000 + Int64(fractionUs)
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the given civil date (Howard Hinnant's days_from_civil).
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
