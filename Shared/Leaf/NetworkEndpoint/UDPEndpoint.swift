/// An IPv4 address and UDP port as a plain value; the executable converts it to and from `sockaddr_in`.
public struct UDPEndpoint: Hashable, Sendable, CustomStringConvertible {
    /// Address in host byte order: 127.0.0.1 = 0x7F00_0001.
    public var address: UInt32
    public var port: UInt16

    public init(address: UInt32, port: UInt16) {
        self.address = address
        self.port = port
    }

    /// Parses a dotted quad such as "192.168.1.1"; nil for anything else.
    public init?(dottedQuad: String, port: UInt16) {
        let parts = dottedQuad.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var address: UInt32 = 0
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy(\.isASCII), let octet = UInt8(part) else { return nil }
            address = address << 8 | UInt32(octet)
        }
        self.init(address: address, port: port)
    }

    public var dottedQuad: String {
        [24, 16, 8, 0].map { String((address >> UInt32($0)) & 0xFF) }.joined(separator: ".")
    }

    public var description: String { "\(dottedQuad):\(port)" }
}
