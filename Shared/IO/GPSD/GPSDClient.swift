/// A gpsd connection that keeps itself up: connects, sends the opening command, hands over every input, and
/// reconnects after `reconnectDelay` when gpsd is unreachable or closes the connection. Only the socket side:
/// parsing is GroundStation's `GPSDStream`, which the caller restarts on every `.connected`. Shared by
/// location-broadcaster (`follow`) and navigator (`--position gpsd`).
public struct GPSDClient: Sendable {
    public enum Event: Sendable, Equatable {
        /// Connected (again): whatever was parsed before belongs to the old connection.
        case connected
        case bytes([UInt8])
        /// Nothing arrived for a poll interval, also every 100 ms while waiting to reconnect: time to run timers.
        case idle
        /// The connection ended (not sent when the task is cancelled); a reconnect follows after the delay.
        case disconnected(reason: String)
        /// A connection attempt failed; another follows after the delay.
        case unreachable(reason: String)
    }

    public var address: GPSDAddress
    /// Written right after connecting (gpsd sends nothing until asked: `?WATCH`).
    public var openingCommand: [UInt8]
    public var reconnectDelay: Duration

    public init(address: GPSDAddress, openingCommand: [UInt8], reconnectDelay: Duration = .seconds(2)) {
        self.address = address
        self.openingCommand = openingCommand
        self.reconnectDelay = reconnectDelay
    }

    /// Runs until the task is cancelled, calling `handle` with every event in order.
    public func run(_ handle: (Event) -> Void) async {
        while !Task.isCancelled {
            let socket: GPSDSocket
            do {
                socket = try await GPSDSocket.connect(host: address.host, port: address.port)
            } catch {
                handle(.unreachable(reason: "\(error)"))
                await idle(handle)
                continue
            }
            guard socket.send(openingCommand) else {
                socket.close()
                handle(.disconnected(reason: "could not send the WATCH command"))
                await idle(handle)
                continue
            }
            handle(.connected)
            let reason = await forward(socket, handle)
            socket.close()
            guard !Task.isCancelled else { return }
            handle(.disconnected(reason: reason))
            await idle(handle)
        }
    }

    /// Until the connection ends (returns why) or the task is cancelled.
    private func forward(_ socket: GPSDSocket, _ handle: (Event) -> Void) async -> String {
        for await input in socket.inputs() {
            if Task.isCancelled { break }
            switch input {
            case .bytes(let bytes): handle(.bytes(bytes))
            case .idle: handle(.idle)
            case .closed(let reason): return reason
            }
        }
        return "stopping"
    }

    /// Waits out the reconnect delay, still reporting `.idle` so the caller's timers run.
    private func idle(_ handle: (Event) -> Void) async {
        let steps = max(1, Int((reconnectDelay / .milliseconds(100)).rounded()))
        for _ in 0..<steps where !Task.isCancelled {
            try? await Task.sleep(for: .milliseconds(100))
            handle(.idle)
        }
    }
}
