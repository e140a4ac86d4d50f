/// Reads `Fixtures/<name>.hex`: hex byte pairs, whitespace ignored, `#` starts a comment to the end of the line.
/// Fixtures are read via #filePath (no bundle resources), with the C library (the tests may do I/O).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum FixtureFile {
    static func bytes(_ name: String, filePath: String = #filePath) throws -> [UInt8] {
        let directory = filePath.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            .joined(separator: "/")
        return try parseHex(readText(directory + "/Fixtures/\(name).hex"))
    }

    /// PROTOCOL.md at the repository root, which quotes every fixture.
    static func protocolDocument(filePath: String = #filePath) throws -> String {
        let parts = filePath.split(separator: "/", omittingEmptySubsequences: false)
        return try readText(parts.dropLast(3).joined(separator: "/") + "/PROTOCOL.md")
    }

    /// A file of the repository, by its path from the root (`web/map/vocabulary.js`).
    static func repositoryText(_ path: String, filePath: String = #filePath) throws -> String {
        try readText(repositoryPath(path, filePath: filePath))
    }

    /// Replaces a file of the repository (the generated tables, on request).
    static func writeRepositoryText(_ path: String, _ text: String, filePath: String = #filePath) throws {
        let full = repositoryPath(path, filePath: filePath)
        guard let file = fopen(full, "wb") else { throw FixtureError.cannotOpen(full) }
        defer { fclose(file) }
        let bytes = Array(text.utf8)
        guard fwrite(bytes, 1, bytes.count, file) == bytes.count else { throw FixtureError.cannotOpen(full) }
    }

    private static func repositoryPath(_ path: String, filePath: String) -> String {
        let parts = filePath.split(separator: "/", omittingEmptySubsequences: false)
        return parts.dropLast(3).joined(separator: "/") + "/" + path
    }

    static func parseHex(_ text: String) throws -> [UInt8] {
        var bytes: [UInt8] = []
        for line in text.split(separator: "\n") {
            let data = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            for token in data.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }) {
                guard token.count == 2, let byte = UInt8(token,
                    radix: 16) else { throw FixtureError.badHex(String(token)) }
                bytes.append(byte)
            }
        }
        return bytes
    }

    private static func readText(_ path: String) throws -> String {
        guard let file = fopen(path, "rb") else { throw FixtureError.cannotOpen(path) }
        defer { fclose(file) }
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            data.append(contentsOf: buffer[0..<count])
        }
        return String(decoding: data, as: UTF8.self)
    }

    enum FixtureError: Error { case cannotOpen(String), badHex(String) }
}

/// Builders for hand-made payloads in rejection tests.
enum Bytes {
    static func header(type: UInt8, major: UInt8 = 1, minor: UInt8 = 0) -> [UInt8] {
        [0xFF, 0x51, major, minor, type, 1, 0, 0, 0] + [UInt8](repeating: 0, count: 8)
    }

    static func f64(_ value: Double) -> [UInt8] { littleEndian(value.bitPattern) }
    static func f32(_ value: Float) -> [UInt8] { littleEndian(value.bitPattern) }

    static func string(_ utf8: [UInt8]) -> [UInt8] { [UInt8(utf8.count)] + utf8 }

    static func patched(_ bytes: [UInt8], at offset: Int, _ replacement: [UInt8]) -> [UInt8] {
        var copy = bytes
        copy.replaceSubrange(offset..<(offset + replacement.count), with: replacement)
        return copy
    }

    private static func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        (0..<MemoryLayout<T>.size).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
