import LocationBroadcasterKit

// Everything location-broadcaster does lives in Shared/LocationBroadcasterKit (Tests/LocationBroadcasterKitTests).
await LocationBroadcasterCommand.runFromCommandLine(Array(CommandLine.arguments.dropFirst()))
