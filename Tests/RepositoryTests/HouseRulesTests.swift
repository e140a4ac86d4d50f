import Foundation
import Testing

/// The house rules a reviewer would otherwise check by eye, over the repository's own files (no build output).
@Suite struct HouseRulesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Source, scripts and documents: every file under the repository but build output, git's, data fixtures and
    /// what `make` installs (web/map/vendor: Debian's Leaflet).
    static func textFiles(withFixtures: Bool = false) -> [(path: String, lines: [Substring])] {
        var skipped: Set<String> = [".build", ".build-board", ".git", ".swiftpm", "Fixtures", "node_modules", "vendor",
                                    "demo-output"]
        var kept: Set<String> = ["swift", "md", "sh", "js", "html", "css", "conf", "py", "yml", "service", "txt", ""]
        if withFixtures {
            skipped.remove("Fixtures")
            kept.formUnion(["hex", "csv", "jsonl", "json", "gpx", "nmea"])
        }
        var files: [(String, [Substring])] = []
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isDirectoryKey])
        else { return [] }
        for case let url as URL in walker {
            if skipped.contains(url.lastPathComponent) { walker.skipDescendants(); continue }
            guard (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == false,
                  kept.contains(url.pathExtension),
                  let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
            let path = String(url.path.dropFirst(root.path.count + 1))
            files.append((path, text.split(separator: "\n", omittingEmptySubsequences: false)))
        }
        return files
    }

    /// ≤ 120 characters (not bytes) a line. Allowed longer: a Markdown table row (Markdown cannot wrap one) and a
    /// hex dump PROTOCOL.md gives "as one line" to be copied whole.
    @Test func linesAreAtMost120Characters() {
        var long: [String] = []
        for file in Self.textFiles() {
            for (index, line) in file.lines.enumerated() where line.count > 120 {
                let trimmed = line.drop { $0 == " " }
                let whole = trimmed.hasPrefix("|") || trimmed.hasPrefix("As one line: `")
                if file.path.hasSuffix(".md"), whole { continue }
                long.append("\(file.path):\(index + 1) (\(line.count))")
            }
        }
        #expect(long.isEmpty, "lines over 120 characters: \(long.prefix(20).joined(separator: ", "))")
        #expect(Self.textFiles().count > 500, "the walk found the repository's files")
    }

    /// Exactly one Swift file speaks to libmosquitto (QuadMQTT's client); every service goes through it.
    @Test func oneFileImportsLibmosquitto() {
        let importers = Self.textFiles().filter { file in
            file.path.hasSuffix(".swift") && file.lines.contains { $0.hasPrefix("import CMosquitto") }
        }.map(\.path)
        #expect(importers.count == 1, "\(importers)")
    }

    /// Nothing refers to a file outside the repository (the notes the project was built from lie beside it, not in
    /// it); the one way out is the real autopilots' directory, an option (`QUAD_AUTOPILOTS_DIR`) with a default.
    @Test func nothingRefersOutsideTheRepository() {
        let outside = ["ardrone-protocol.md", "mqtt-libmosquitto.md", "mavlink-px4.md", "style-anchors.md",
                       "shared/reference", "shared/seeds", "/work/"]
        var found: [String] = []
        let thisFile = "Tests/RepositoryTests/HouseRulesTests.swift"
        for file in Self.textFiles(withFixtures: true) where file.path != thisFile {
            for (index, line) in file.lines.enumerated() where outside.contains(where: { line.contains($0) }) {
                found.append("\(file.path):\(index + 1)")
            }
        }
        #expect(found.isEmpty, "references outside the repository: \(found.prefix(20).joined(separator: ", "))")
    }
}
