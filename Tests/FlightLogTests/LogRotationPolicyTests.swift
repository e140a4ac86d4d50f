import Testing
import FlightLog

struct LogRotationPolicyTests {
    let policy = LogRotationPolicy(maxBytes: 10_000)

    @Test func startsAFileWhenNoneIsOpen() {
        #expect(policy.rotation(openFile: nil, nextRecordBytes: 50, takeoffDetected: false) == .loggerStart)
        #expect(policy.rotation(openFile: nil, nextRecordBytes: 50, takeoffDetected: true) == .loggerStart)
    }

    @Test func appendsWhileTheRecordFits() {
        let open = LogRotationPolicy.OpenFile(byteCount: 9_950, recordCount: 100)
        #expect(policy.rotation(openFile: open, nextRecordBytes: 50, takeoffDetected: false) == nil)
    }

    @Test func rotatesWhenTheNextRecordWouldExceedTheLimit() {
        let open = LogRotationPolicy.OpenFile(byteCount: 9_950, recordCount: 100)
        #expect(policy.rotation(openFile: open, nextRecordBytes: 51, takeoffDetected: false) == .sizeLimit)
    }

    @Test func rotatesOnTakeoff() {
        let open = LogRotationPolicy.OpenFile(byteCount: 500, recordCount: 3)
        #expect(policy.rotation(openFile: open, nextRecordBytes: 50, takeoffDetected: true) == .takeoff)
    }

    @Test func neverRotatesAFileWithoutRecords() {
        let fresh = LogRotationPolicy.OpenFile(byteCount: 40, recordCount: 0)
        #expect(policy.rotation(openFile: fresh, nextRecordBytes: 50_000, takeoffDetected: true) == nil)
    }

    @Test func hugeSizesDoNotOverflow() {
        let open = LogRotationPolicy.OpenFile(byteCount: Int.max - 1, recordCount: 1)
        #expect(policy.rotation(openFile: open, nextRecordBytes: Int.max, takeoffDetected: false) == .sizeLimit)
    }

    @Test func tinyLimitsAreRaisedToOneKiB() {
        #expect(LogRotationPolicy(maxBytes: 3).maxBytes == 1024)
    }
}
