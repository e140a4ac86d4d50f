import ArgumentParser
import QuadService
import Testing

/// `--broker` (and QUAD_BROKER): one address as before, or the nodes of a cluster separated by commas.
@Suite("--broker lists")
struct BrokerListOptionTests {
    func resolve(_ arguments: [String]) throws -> CommonOptions.Resolved {
        try CommonOptions.parse(arguments).resolve()
    }

    func refusal(_ arguments: [String]) -> String {
        do {
            _ = try resolve(arguments)
            return ""
        } catch {
            return "\(error)"
        }
    }

    @Test("one address: as before (default port, IPv6 brackets); alternates empty")
    func single() throws {
        let one = try resolve(["--broker", "board.local"])
        #expect(one.brokers == [BrokerAddress(host: "board.local", port: 1883)])
        #expect(one.broker == one.brokers[0])
        #expect(one.alternateBrokers.isEmpty)
        #expect(try resolve(["--broker=[::1]:1884"]).brokers == [BrokerAddress(host: "::1", port: 1884)])
    }

    @Test("several addresses: in order, each with its own port; the first is `broker`, the rest alternates")
    func several() throws {
        let cluster = try resolve(["--broker", "a:1883, b:1884,[::1]"])
        #expect(cluster.brokers == [BrokerAddress(host: "a", port: 1883), BrokerAddress(host: "b", port: 1884),
                                    BrokerAddress(host: "::1", port: 1883)])
        #expect(cluster.broker == BrokerAddress(host: "a", port: 1883))
        #expect(cluster.alternateBrokers.map(\.description) == ["b:1884", "[::1]:1883"])
        #expect(cluster.brokerList == "a:1883,b:1884,[::1]:1883")
    }

    @Test("one bad address keeps its message; an empty item is refused by position; a bad item is named")
    func refusals() {
        #expect(refusal(["--broker", "a:99999"]) == "--broker: broker port '99999' is not a number in 1…65535")
        #expect(refusal(["--broker", " "]) == "--broker: broker address is empty (expected HOST[:PORT])")
        #expect(refusal(["--broker", "a:1883,,b"])
            == "--broker: item 2 of 'a:1883,,b' is empty (expected HOST[:PORT],HOST[:PORT],…)")
        #expect(refusal(["--broker", "a:1883,"]).contains("item 2 of 'a:1883,' is empty"))
        #expect(refusal(["--broker", "a:1883,b:x"]) == "--broker: 'b:x': broker port 'x' is not a number in 1…65535")
    }
}
