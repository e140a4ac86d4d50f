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
            StatusCommand.self, ClaimCommand.self, ReleaseCommand.self, BeaconCommand.self, AirspaceCommand.self,
            MissionControlCommand.self,
        ])

    package init() {}

    /// The options every subcommand takes, before or after its name (`launch(commonOptions:)`).
    package static let commonOptionNames = BroadcasterOptions.optionNames
}
