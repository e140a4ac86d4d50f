import ArgumentParser
import CommandLineSupport
import QuadProtocol
import QuadService

/// `takeoff`, `land`, `hover`, `emergency`, `reset`, `flat-trim`: send the command, then wait for the controller to
/// report the result.
enum PilotCommand {
    struct Options: ParsableArguments {
        @OptionGroup var options: BroadcasterOptions

        @Option(parsing: .signedNumber, help: "Seconds to wait for the controller to report the result (exit 1 after it).")
        var timeout: Double = 15

        @Flag(help: "Claim pilot control first (and release it on exit).")
        var claim = false

        func validate() throws {
            guard timeout.isFinite, timeout > 0, timeout <= 3600 else { throw ValidationError("--timeout: 0 < S <= 3600") }
        }
    }

    static func run(_ kind: Command.Kind, _ flags: Options) async throws {
        let resolved = try flags.options.resolve()
        let deadlineUs = MonotonicClock.nowUs() + Int64(flags.timeout * 1_000_000)
        let exchange = CommandExchange(kind: kind, senderId: resolved.senderId, drone: resolved.common.drone,
                                       expiryS: resolved.commandExpiryS, timeoutS: flags.timeout, deadlineUs: deadlineUs)
        guard flags.claim else {
            try await BusSession.oneShot(resolved) { try await exchange.run(client: $0) }
            return
        }
        try await BusSession.withPresence(resolved, body: { runtime in
            try await PilotSession.alongside(runtime, resolved) { session in
                _ = await runtime.client.waitUntilConnected(timeoutS: flags.timeout)
                while session?.holdsControl != true {
                    guard MonotonicClock.nowUs() < deadlineUs else {
                        throw CLIFailure("\(kind.word): pilot control not granted within \(flags.timeout) s")
                    }
                    try await Task.sleep(for: .milliseconds(50))
                }
                try await exchange.run(client: runtime.client)
            }
        })
    }

    struct Takeoff: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "takeoff", abstract: "Take off; done when the controller reports hovering or flying.")
        @OptionGroup var flags: Options
        func run() async throws { try await PilotCommand.run(.takeoff, flags) }
    }

    struct Land: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "land", abstract: "Land; done when the controller reports landed.")
        @OptionGroup var flags: Options
        func run() async throws { try await PilotCommand.run(.land, flags) }
    }

    struct Hover: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "hover", abstract: "Stop and hover (forgets the target); done when hovering.")
        @OptionGroup var flags: Options
        func run() async throws { try await PilotCommand.run(.hover, flags) }
    }

    struct Emergency: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "emergency", abstract: "Cut the motors now (accepted from anyone); done when in emergency.")
        @OptionGroup var flags: Options
        func run() async throws { try await PilotCommand.run(.emergency, flags) }
    }

    struct Reset: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset", abstract: "Recover from an emergency; done when the controller reports landed.")
        @OptionGroup var flags: Options
        func run() async throws { try await PilotCommand.run(.reset, flags) }
    }

    struct FlatTrim: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "flat-trim", abstract: "Calibrate level on the ground; done when the controller accepted it (refused unless landed).")
        @OptionGroup var flags: Options
        func run() async throws { try await PilotCommand.run(.flatTrim, flags) }
    }

    struct Return: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "return", abstract: "Fly back to the takeoff point, hover, land; done when returning home.")
        @OptionGroup var flags: Options
        func run() async throws { try await PilotCommand.run(.returnHome, flags) }
    }
}
