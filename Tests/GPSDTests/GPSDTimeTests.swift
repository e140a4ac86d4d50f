import Testing
@testable import GPSD

@Suite struct GPSDTimeTests {
    @Test(arguments: [
        ("1970-01-01T00:00:00Z", Int64(0)),
        ("1970-01-01T00:00:00.000Z", 0),
        ("2024-05-01T12:00:03.000Z", 1_714_564_803_000_000),
        ("2024-02-29T23:59:59.5Z", 1_709_251_199_500_000),
        ("2000-03-01T00:00:00.123456789Z", 951_868_800_123_456),
    ])
    func parsesUTC(_ text: String, _ expected: Int64) {
        #expect(GPSDTime.microseconds(from: text) == expected)
    }

    @Test(arguments: [
        "", "2024-05-01", "2024-05-01T12:00:03", "2024-05-01T12:00:03+01:00", "2023-02-29T00:00:00Z",
        "2024-13-01T00:00:00Z", "2024-05-01T24:00:00Z", "1969-12-31T23:59:59Z", "2024-05-01T12:00:03.Z",
        "2024-05-01T12:00:03,5Z", "２０２４-05-01T12:00:03Z", "2024-05-01 12:00:03Z",
    ])
    func rejectsOtherForms(_ text: String) {
        #expect(GPSDTime.microseconds(from: text) == nil)
    }
}
