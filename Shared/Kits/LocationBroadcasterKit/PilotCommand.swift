import ArgumentParser
import CommandLineSupport
import QuadProtocol
import QuadService

/// `takeoff`, `land`, `hover`, `emergency`, `reset`, `flat-trim`: send the command, then wait for the controller to
/// report the result.
enum PilotCommand {
    struct Options: ParsableArguments {
        @OptionGroup var options: BroadcasterOptions

        @Option(parsing: .signedNumber,
            help: "Seconds to wait for the controller to report the result (exit 1 after it).")
        var timeout: Double = 15

        @Flag(help: "Claim pilot control first (and release it on exit).")
        var claim = false

        func validate() throws {
            guard timeout.isFinite, timeout > 0, timeout <= 3600 else {
                throw ValidationError("--timeout: 0 < S <= 3600")
            }
        }
    }

    static func run(_ kind: Command.Kind, _ flags: Options) async throws {
        let resolved = try flags.options.resolve()
        let deadlineUs = MonotonicClock.nowUs() + Int64(flags.timeout * 1_000_000)
        let exchange = CommandExchange(kind: kind, senderId: resolved.senderId, drone: resolved.common.drone,
                                       expiryS: resolved.commandExpiryS, timeoutS: flags.timeout,
                                       deadlineUs: deadlineUs)
        guard flags.claim else {
            try await BusSession.oneShot(resolved) { try await exchange.run(client: $0) }
            return
        }
        try await BusSession.withPresence(resolved, body: { runtime in
            try await PilotSession.alongside(runtime, resolved) { session in
                _ = await runtime.client.waitUntilConnected(timeout: .seconds(flags.timeout))
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

    // One subcommand type per word (ArgumentParser needs a type each), told apart by their index in `words`.
    typealias Takeoff = Subcommand<0>
    typealias Land = Subcommand<1>
    typealias Hover = Subcommand<2>
    typealias Emergency = Subcommand<3>
    typealias Reset = Subcommand<4>
    typealias FlatTrim = Subcommand<5>
    typealias Return = Subcommand<6>

    /// Each word with its `--help` line: what the command does and when the subcommand is done.
    static let words: [(kind: Command.Kind, abstract: String)] = [
        (.takeoff, "Take off; done when the controller reports hovering or flying."),
        (.land, "Land; done when the controller reports landed."),
        (.hover, "Stop and hover (forgets the target); done when hovering."),
        (.emergency, "Cut the motors now (accepted from anyone); done when in emergency."),
        (.reset, "Recover from an emergency; done when the controller reports landed."),
        (.flatTrim, "Calibrate level on the ground; done when the controller accepted it (refused unless landed)."),
        (.returnHome, "Fly back to the takeoff point and land there (after the controller's --return-hover, 0 s "
            + "by default); done when the controller reports returning home."),
    ]

    struct Subcommand<let index: Int>: AsyncParsableCommand {
        static var configuration: CommandConfiguration {
            CommandConfiguration(commandName: words[index].kind.word, abstract: words[index].abstract)
        }
        @OptionGroup var flags: Options
        func run() async throws { try await PilotCommand.run(words[index].kind, flags) }
    }
}
