import Clocks
import TextSupport

/// A UTC calendar time from microseconds since the Unix epoch, computed without Foundation or a clock
/// (proleptic Gregorian calendar, Howard Hinnant's `civil_from_days`).
public struct UTCDateTime: Sendable, Equatable {
    public let year: Int
    public let month: Int
    public let day: Int
    public let hour: Int
    public let minute: Int
    public let second: Int
    public let microsecond: Int

    public init(_ stamp: WallInstant) { self.init(unixUs: stamp.us) }

    public init(unixUs: Int64) {
        let (seconds, micros) = Self.floorDivide(unixUs, 1_000_000)
        let (days, secondOfDay) = Self.floorDivide(seconds, 86_400)
        microsecond = Int(micros)
        hour = Int(secondOfDay / 3600)
        minute = Int(secondOfDay % 3600 / 60)
        second = Int(secondOfDay % 60)
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        day = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
        month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)
        year = Int(yearOfEra + era * 400 + (month <= 2 ? 1 : 0))
    }

    /// `2024-05-01T12:34:56.789Z` (milliseconds), valid as xsd:dateTime and KML `<when>`.
    public var iso8601: String {
        "\(Self.pad(year, 4))-\(Self.pad(month, 2))-\(Self.pad(day, 2))T\(timeOfDayMs)Z"
    }

    /// `12:34:56.789`, for one-line views (`telemetry-logger tail`).
    public var timeOfDayMs: String { "\(timeOfDay).\(Self.pad(microsecond / 1000, 3))" }

    /// `20240501-123456`, for file names.
    public var compactStamp: String {
        "\(Self.pad(year, 4))\(Self.pad(month, 2))\(Self.pad(day, 2))"
            + "-\(Self.pad(hour, 2))\(Self.pad(minute, 2))\(Self.pad(second, 2))"
    }

    /// `2024-05-01 12:34 UTC`, for titles.
    public var displayMinute: String {
        "\(Self.pad(year, 4))-\(Self.pad(month, 2))-\(Self.pad(day, 2)) \(Self.pad(hour, 2)):\(Self.pad(minute, 2)) UTC"
    }

    private var timeOfDay: String { "\(Self.pad(hour, 2)):\(Self.pad(minute, 2)):\(Self.pad(second, 2))" }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let quotient = value / divisor, remainder = value % divisor
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }

    static func pad(_ value: Int, _ width: Int) -> String { DecimalText.zeroPadded(value, width: width) }
}
