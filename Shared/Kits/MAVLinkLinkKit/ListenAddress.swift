import NetworkEndpoint

/// `--listen HOST:PORT` with an IPv4 dotted quad.
struct ListenAddress {
    var endpoint: UDPEndpoint

    init?(parsing text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let port = UInt16(parts[1]), port > 0,
              let endpoint = UDPEndpoint(dottedQuad: String(parts[0]), port: port) else { return nil }
        self.endpoint = endpoint
    }
}
