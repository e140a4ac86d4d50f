import Foundation
import Testing

/// The layers are folders (docs/architecture.md "Modules, layer by layer"): Shared/Leaf, Shared/Core (pure: no I/O,
/// no clock read), Shared/IO, Shared/Kits, each module a folder below its layer's; the modules only tests and the
/// benchmarks link sit apart in Tests/Support. Read from the `import` lines of each module's Swift files.
@Suite struct LayerTests {
    /// Shared/'s layers, the lowest first: a module imports modules of its own layer or a lower one.
    static let layers = ["Leaf", "Core", "IO", "Kits"]
    /// The one import upward, with its reason: the ground tools' logic takes gpsd's fixes (`GPSFix`, a value type of
    /// GPSD's), never its socket.
    static let allowedUpward: Set<String> = ["GroundStation imports GPSD"]

    struct Module {
        let name: String
        let layer: Int
        let imports: [(file: String, module: String)]
    }

    static let root = HouseRulesTests.root

    /// The modules below a folder of the repository: name → its Swift files' imports.
    static func modules(in folder: String, layer: Int) -> [Module] {
        let directory = root.appendingPathComponent(folder)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.sorted().filter { !$0.hasPrefix(".") }.map { name in
            Module(name: name, layer: layer, imports: imports(below: directory.appendingPathComponent(name)))
        }
    }

    static func imports(below directory: URL) -> [(file: String, module: String)] {
        var found: [(String, String)] = []
        guard let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else {
            return []
        }
        for case let url as URL in walker where url.pathExtension == "swift" {
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
            let path = String(url.path.dropFirst(root.path.count + 1))
            for line in text.split(separator: "\n") {
                // `import X`, `@testable import X`, `@_exported import X`, `public import X`, `import struct X.Y`.
                let words = line.split(separator: " ")
                guard let at = words.firstIndex(of: "import"), words[..<at].allSatisfy({ $0.hasPrefix("@")
                    || ["public", "internal", "package", "private", "fileprivate"].contains($0) }) else { continue }
                let rest = words[(at + 1)...].drop { ["struct", "class", "enum", "protocol", "func", "var", "let",
                                                      "typealias"].contains($0) }
                guard let target = rest.first else { continue }
                found.append((path, String(target.split(separator: ".").first ?? target)))
            }
        }
        return found
    }

    static var shared: [Module] {
        layers.enumerated().flatMap { modules(in: "Shared/\($0.element)", layer: $0.offset) }
    }

    @Test func sharedHoldsOnlyTheLayersAndEachLayerItsModules() throws {
        let shared = Self.root.appendingPathComponent("Shared").path
        let folders = try FileManager.default.contentsOfDirectory(atPath: shared)
        #expect(Set(folders.filter { !$0.hasPrefix(".") }) == Set(Self.layers),
                "Shared/ holds a module outside a layer")
        let modules = Self.shared
        #expect(modules.count >= 25, "found \(modules.map(\.name))")
        #expect(Set(modules.map(\.name)).count == modules.count, "a module in two layers")
        #expect(modules.filter { $0.layer == 0 }.map(\.name).contains("QuadProtocol"))
        #expect(modules.filter { $0.layer == 1 }.map(\.name).contains("FlightControl"))
    }

    @Test func aModuleImportsNothingOfAHigherLayer() {
        let modules = Self.shared
        let layerOf = Dictionary(uniqueKeysWithValues: modules.map { ($0.name, $0.layer) })
        var upward: Set<String> = []
        for module in modules {
            for (file, imported) in module.imports {
                guard let layer = layerOf[imported], layer > module.layer else { continue }
                let crossing = "\(module.name) imports \(imported)"
                if !Self.allowedUpward.contains(crossing) {
                    upward.insert("\(file): \(crossing) (\(Self.layers[module.layer]) → \(Self.layers[layer]))")
                }
            }
        }
        #expect(upward.isEmpty, "imports upward: \(upward.sorted())")
        // The exception is still needed; when it is not, it goes.
        #expect(modules.first { $0.name == "GroundStation" }?.imports.contains { $0.module == "GPSD" } == true)
    }

    @Test func nothingOutsideTheTestsImportsTheirSupport() {
        let support = Set(Self.modules(in: "Tests/Support", layer: 0).map(\.name))
        #expect(support == ["BrokerNodes", "InMemoryMQTT", "ProcessSupport"], "Tests/Support: \(support.sorted())")
        let product = Self.shared + Self.modules(in: "Services", layer: Self.layers.count)
        let offending = product.flatMap { module in
            module.imports.filter { support.contains($0.module) }.map { "\($0.file): import \($0.module)" }
        }
        #expect(offending.isEmpty, "a service links test support: \(offending)")
    }
}
