import ArgumentParser
import CommandLineSupport
import GroundStation
import QuadService

/// The objc.io client app as a laptop CLI: sends the drone where to fly (one target, this laptop's GPS, or a
/// route), sends pilot commands, claims pilot control, and shows what the drone is doing.
package struct LocationBroadcasterCommand: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "location-broadcaster",
        abstract: "Sends the target and the pilot commands; shows whether the drone is online.",
        discussion: """
            Every subcommand takes the broker options (--broker, --drone, …, each also read from a QUAD_* \
            environment variable), --sender-id (env QUAD_SENDER_ID) and --command-ttl, before or after its name \
            (one given on both sides must have the same value). Exit status 0 means the broker \
            acknowledged the message and the controller accepted it (target, pilot commands, release); a refusal \
            exits 1 with the controller's reason. `target --no-wait` only waits for the broker.
            """,
        subcommands: [
            TargetCommand.self, FollowCommand.self, RouteCommand.self,
            PilotCommand.Takeoff.self, PilotCommand.Land.self, PilotCommand.Hover.self,
            PilotCommand.Emergency.self, PilotCommand.Reset.self, PilotCommand.FlatTrim.self, PilotCommand.Return.self,
            StatusCommand.self, ClaimCommand.self, ReleaseCommand.self, BeaconCommand.self,
        ])

    package init() {}

    /// The executable's whole life: a mistyped subcommand exits 64 with a "did you mean" (before ArgumentParser,
    /// whose message would not name the likely one), else the subcommand runs. The options every subcommand
    /// takes may come before its name too.
    package static func runFromCommandLine(_ arguments: [String]) async {
        let names = configuration.subcommands.compactMap { $0.configuration.commandName }
        let placement = CommonOptionPlacement(optionNames: BroadcasterOptions.optionNames, subcommands: names)
        if let problem = SubcommandCheck.problem(Array(placement.afterLeadingOptions(arguments)), known: names) {
            exit(withError: ValidationError(problem))
        }
        await launch(arguments, commonOptions: BroadcasterOptions.optionNames)
    }
}
