import Testing
import FlightLog

struct UTCDateTimeTests {
    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00.000Z"),
        (Int64(1_714_566_896_789_123), "2024-05-01T12:34:56.789Z"),
        (Int64(951_782_400_000_000), "2000-02-29T00:00:00.000Z"),
        (Int64(-1), "1969-12-31T23:59:59.999Z"),
        (Int64(4_102_444_799_000_000), "2099-12-31T23:59:59.000Z"),
    ])
    func iso8601(unixUs: Int64, expected: String) {
        #expect(UTCDateTime(unixUs: unixUs).iso8601 == expected)
    }

    @Test func extremeValuesDoNotTrap() {
        _ = UTCDateTime(unixUs: .min).iso8601
        _ = UTCDateTime(unixUs: .max).compactStamp
    }
}
