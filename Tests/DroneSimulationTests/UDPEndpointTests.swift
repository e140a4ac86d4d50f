import Testing
@testable import DroneSimulation

@Suite struct UDPEndpointTests {
    @Test func parsesAndPrintsADottedQuad() throws {
        let endpoint = try #require(UDPEndpoint(dottedQuad: "192.168.1.1", port: 5554))
        #expect(endpoint.address == 0xC0A8_0101)
        #expect(endpoint.description == "192.168.1.1:5554")
    }

    @Test(arguments: ["", "1.2.3", "1.2.3.4.5", "256.1.1.1", "a.b.c.d", "1..2.3", "-1.2.3.4", "1.2.3.4 "])
    func rejectsMalformedAddresses(text: String) {
        #expect(UDPEndpoint(dottedQuad: text, port: 1) == nil)
    }
}
