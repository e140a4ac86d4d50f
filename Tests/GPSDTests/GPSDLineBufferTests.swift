import Testing
@testable import GPSD

@Suite struct GPSDLineBufferTests {
    @Test func splitsLinesAcrossChunksAndStripsCR() {
        var buffer = GPSDLineBuffer()
        #expect(buffer.append(Array("ab".utf8)).isEmpty)
        #expect(buffer.append(Array("c\r\nde\n\n\r\nf".utf8)) == [.line(Array("abc".utf8)), .line(Array("de".utf8))])
        #expect(buffer.pendingByteCount == 1)
        #expect(buffer.finish() == [.line(Array("f".utf8))])
        #expect(buffer.finish().isEmpty)
    }

    @Test func dropsAnOverlongLineWholeAndRecovers() {
        var buffer = GPSDLineBuffer(maxLineBytes: 4)
        let items = buffer.append(Array("1234\n12345678\nok\n".utf8))
        #expect(items == [.line(Array("1234".utf8)), .overlong(byteCount: 8), .line(Array("ok".utf8))])
    }

    @Test func overlongLineSpanningChunksIsReportedOnce() {
        var buffer = GPSDLineBuffer(maxLineBytes: 8)
        var items: [GPSDLineBuffer.Item] = []
        for _ in 0..<100 { items += buffer.append([UInt8](repeating: 0x41, count: 10)) }
        #expect(items.isEmpty)
        #expect(buffer.pendingByteCount == 0)  // memory stays bounded
        items += buffer.append([0x0A, 0x42, 0x0A])
        #expect(items == [.overlong(byteCount: 1000), .line([0x42])])
    }

    @Test func overlongLineAtEndOfStream() {
        var buffer = GPSDLineBuffer(maxLineBytes: 2)
        _ = buffer.append(Array("abcdef".utf8))
        #expect(buffer.finish() == [.overlong(byteCount: 6)])
    }

    @Test func passesAnyBytesThrough() {
        var buffer = GPSDLineBuffer()
        let bytes: [UInt8] = [0x00, 0xFF, 0xC3, 0x28, 0x0D, 0x0A]
        #expect(buffer.append(bytes) == [.line([0x00, 0xFF, 0xC3, 0x28])])
    }
}
