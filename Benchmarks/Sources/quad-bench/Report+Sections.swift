import CodecCompare

extension Report {
    func latencySection() -> String {
        var text = """
            ## 1. Command latency

            A target published by a real MQTT client (libmosquitto via QuadMQTT, binary `Target`, QoS 1) goes broker →
            navigator → broker → drone-controller → broker → drone-link → UDP; the time runs until the first \
            AT datagram
            at the drone whose PCMD reflects it. The drone is the bench's own `SimulatorSession` on a UDP socket pair
            (drone-link configures its navdata as with a real drone); both timestamps come from CLOCK_MONOTONIC in the
            bench process. The drone hovers; targets alternate 30 m to the left and to the right of its heading, so the
            PCMD's yaw sign says which target it was computed for. Random 10–40 ms pauses between targets. The floor \
            is
            one publish → deliver hop through the same broker between two clients of the bench, measured the same way
            (QoS 1, 64-byte payload, read from the subscription's async sequence as a service does). The article's
            timers allowed about 350 ms.

            The MAVLink rows run the same targets through mavlink-link instead of drone-link, after the AR.Drone run, on
            the same broker: navigator, drone-controller, telemetry-logger and mavlink-link (release binaries) fly the
            bench's own `MAVLinkSimulatorSession` (drone-sim's PX4-like face) on a UDP socket; the time runs until the
            first SET_POSITION_TARGET_LOCAL_NED at the vehicle whose yaw rate has the new sign. mavlink-link streams
            setpoints at 20 Hz and, like drone-link, sends one at once when a flight command changes it (within a
            budget of 50 Hz on average, bursts of 3, so a flood of commands cannot flood the autopilot); the pauses
            between targets are 10–59 ms here, a whole stream period, so the targets fall at every phase of it. No
            goal set.

            The two "stage" rows come from a third bench client subscribed to `telemetry/navigation` and
            `flight/command`: when the navigator's solution for the new target, and the controller's first flight
            command with the new yaw sign, reached it (each includes one more broker hop, to that subscriber).

            | path | n | p50 | p90 | p99 | max | not seen within 1 s | goal |
            |---|---|---|---|---|---|---|---|

            """
        if let latency {
            text += distributionRow("target → PCMD at the drone", latency.latencies, lost: latency.timeouts,
                                    goal: "p50 ≤ 1.5 ms, p99 ≤ 5 ms")
            text += distributionRow("stage: target → navigation solution seen by a bench subscriber",
                latency.navigation,
                                    lost: options.targets - latency.navigation.count, goal: "—")
            text += distributionRow("stage: target → flight command seen by a bench subscriber",
                latency.flightCommand,
                                    lost: options.targets - latency.flightCommand.count, goal: "—")
        }
        text += mavlinkRows()
        if let hop {
            text += distributionRow("floor: one broker hop", hop, lost: options.targets - hop.count, goal: "—")
        }
        return text
    }

    /// The MAVLink path's rows of the latency table (also what `quad-bench mavlink-latency` prints).
    func mavlinkRows() -> String {
        guard let mavlink = mavlinkLatency else { return "" }
        return distributionRow("MAVLink: target → SET_POSITION_TARGET_LOCAL_NED at the vehicle", mavlink.latencies,
                               lost: mavlink.timeouts, goal: "—")
            + distributionRow("MAVLink stage: target → flight command seen by a bench subscriber",
                mavlink.flightCommand,
                              lost: options.targets - mavlink.flightCommand.count, goal: "—")
    }

    func fieldSection() -> String {
        guard field != nil else { return "" }
        return """
            ## 1b. Field layout: target → PCMD through the bridge

            `make bench-field` (`quad-bench field-latency`) runs only this, with the one-broker row of section 1 \
            measured
            just before it in the same minutes. Two mosquittos on 127.0.0.1 configured from deploy/ground/mosquitto.conf
            and deploy/drone/mosquitto.conf with only ports and paths substituted: the board's bridge as shipped (the \
            board
            connects to the ground, cleansession false, keepalive 5, its `topic` lines: targets `in 1`), deploy/'s ACLs,
            and generated passwords for every account (mosquitto_passwd, as install.sh does); persistence on, as \
            Debian's
            main configuration has it; the ground's websockets listener (live map) left out. The radio is TLS as \
            shipped
            (the bridge dials the ground's 8883 trusting a CA made by deploy/common.sh, name checked); the \
            "plain radio"
            rows are the same layout as `--insecure-plain-radio` installs it, measured just before. On the board broker:
            navigator, drone-controller, drone-link and `telemetry-logger record --answer-sync`, each logged in with its
            own account, drone-link flying the bench's AR.Drone of section 1; the bench publishes the targets on the
            ground broker as location-broadcaster. Stage rows: a bench subscriber on the board (as `monitor`). Floors:
            one QoS 1 message ground → board on a bridged-in topic, and one QoS 0 message board → ground on a \
            telemetry
            topic (before the services start, same pauses).


            """ + fieldRows()
    }

    /// The one-broker row beside the field layout's, when measured in the same run.
    private func oneBrokerRow(_ oneBroker: CommandLatencyBench.Result?) -> String? {
        oneBroker.map { distributionRow("one broker (mosquitto.conf): target → PCMD at the drone", $0.latencies,
                                        lost: $0.timeouts, goal: "p50 ≤ 1.5 ms, p99 ≤ 5 ms") }
    }

    /// The field layout's rows (also what `quad-bench field-latency` prints).
    func fieldRows() -> String {
        guard let field else { return "" }
        let latency = field.latency
        return "| path | n | p50 | p90 | p99 | max | not seen within 1 s | goal |\n|---|---|---|---|---|---|---|---|\n"
            + (oneBrokerRow(self.latency) ?? "")
            + distributionRow("field (TLS radio): target on the ground → PCMD at the drone", latency.latencies,
                lost: latency.timeouts,
                              goal: "p99 ≤ 3 ms")
            + distributionRow("field stage: target → arrived on the board broker (bench subscriber there)",
                              latency.targetArrival, lost: options.targets - latency.targetArrival.count, goal: "—")
            + distributionRow("field stage: target → navigation solution seen by a bench subscriber on the board",
                              latency.navigation, lost: options.targets - latency.navigation.count, goal: "—")
            + distributionRow("field stage: target → flight command seen by a bench subscriber on the board",
                              latency.flightCommand, lost: options.targets - latency.flightCommand.count, goal: "—")
            + distributionRow("field floor (TLS): one hop ground → bridge → board (QoS 1, as targets)",
                              field.bridgeHop, lost: options.targets - field.bridgeHop.count, goal: "—")
            + distributionRow("field (TLS), other direction: one hop board → bridge → ground (QoS 0, as telemetry)",
                              field.upHop, lost: options.targets - field.upHop.count, goal: "—")
            + plainRows()
    }

    /// The plain radio's rows beside the TLS ones (what TLS on the bridge adds is the difference).
    private func plainRows() -> String {
        guard let plain = fieldPlain else { return "" }
        return distributionRow("field, plain radio: target on the ground → PCMD at the drone",
                               plain.latency.latencies, lost: plain.latency.timeouts, goal: "—")
            + distributionRow("field floor, plain radio: one hop ground → bridge → board (QoS 1)", plain.bridgeHop,
                              lost: options.targets - plain.bridgeHop.count, goal: "—")
            + distributionRow("field, plain radio, other direction: one hop board → bridge → ground (QoS 0)",
                              plain.upHop, lost: options.targets - plain.upHop.count, goal: "—")
    }

    func distributionRow(_ name: String, _ d: Distribution, lost: Int, goal: String) -> String {
        let cells = [50.0, 90, 99].map { Units.auto(d.percentileNs($0)) }.joined(separator: " | ")
        return "| \(name) | \(d.count) | \(cells) | \(Units.auto(d.maxNs)) | \(lost) | \(goal) |\n"
    }

    func cadenceSection() -> String {
        var text = """
            ## 2. PCMD cadence at the drone

            Intervals between consecutive AT datagrams (each carries REF + PCMD) as they arrive at the drone, during
            \(options.cadenceSeconds) s of flight to a target 150 m away (drone-controller ticking at 30 Hz), once \
            with the
            broker otherwise idle and once while a second publisher process sends 10 000 DroneState messages/s through
            the same broker to a subscriber of its own. drone-link sends a datagram every 30 ms and, by design, a new
            flight command at once (restarting the 30 ms cadence); the controller publishes one per 30 Hz tick and one
            per navigation update. So intervals shorter than 30 ms are fresh commands, and the strict |interval − 30 \
            ms|
            counts them as deviations; the lateness row counts only intervals longer than the period.

            | broker | datagrams | per s | p1 | p50 | p90 | p99 | max | < 25 ms | > 32 ms | > 100 ms | p99 \\|Δ30\\| \
            | p99 lateness | activity at end | load achieved |
            |---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|

            """
        for (name, result) in [("idle", cadenceIdle), ("10k msg/s", cadenceLoaded)] {
            guard let result else { continue }
            let c = CadenceFigures(result.intervals)
            let d = c.intervals
            let short = d.sortedNs.count { $0 < 25_000_000 }
            let load = result.load["rate"]
                .map { "\(Int($0)) msg/s sent, \(Int(result.load["received"] ?? 0)) received" } ?? "—"
            let perS = Units.fixed(Double(result.datagrams) / Double(options.cadenceSeconds), 1)
            text += "| \(name) | \(result.datagrams) | \(perS) | \(Units.ms(d.percentileNs(1))) | "
                + "\(Units.ms(d.percentileNs(50))) "
                + "| \(Units.ms(d.percentileNs(90))) | \(Units.ms(d.percentileNs(99))) | \(Units.ms(d.maxNs)) | "
                + "\(short) "
                + "| \(d.countAbove(32_000_000)) | \(d.countAbove(100_000_000)) | "
                + "\(Units.ms(c.deviation.percentileNs(99))) "
                + "| \(Units.ms(c.lateness.percentileNs(99))) | \(result.activityAtEnd) | \(load) |\n"
        }
        text += "\nGoal: 30 ms, p99 deviation ≤ 2 ms, no gap > 100 ms.\n"
        return text
    }

    func codecSection() -> String {
        var text = """
            ## 3. Codec

            Encode + decode of one message, starting from the Swift value and ending with a decoded one: this project's
            binary codec (`encoded()` / `init(decoding:)`, with validation), Foundation's `JSONEncoder`/`JSONDecoder` on
            a Codable struct with the same fields, and `NSKeyedArchiver`/`NSKeyedUnarchiver` with \
            `requiringSecureCoding`
            on an `NSSecureCoding` class with the same fields (the article's way). ns per round trip = p50 of
            package-benchmark's samples (1000 round trips each, `swift package benchmark --target Codec`); mallocs per
            round trip from its malloc interposer; bytes = encoded size. No goal set.

            | message | binary B | binary ns | binary mallocs | JSON B | JSON ns | JSON mallocs | NSKeyedArchiver B | \
            NSKeyedArchiver ns | NSKeyedArchiver mallocs |
            |---|---|---|---|---|---|---|---|---|---|

            """
        guard let codec else { return text }
        for message in codec.messages {
            let cells = [Codec.binary, .json, .keyedArchive].map { kind -> String in
                let entry = codec.entries[message]?[kind]
                let ns = entry?.p50Ns.map { Units.fixed($0, 0) } ?? "not run"
                let mallocs = entry?.mallocs.map { Units.fixed($0, 0) } ?? "—"
                return "\(entry?.bytes ?? 0) | \(ns) | \(mallocs)"
            }
            text += "| \(message) | " + cells.joined(separator: " | ") + " |\n"
        }
        return text
    }

    func ingestSection() -> String {
        var text = """
            ## 4. Logger ingest

            The load generator (a second process, libmosquitto via QuadMQTT) publishes DroneState telemetry at QoS 0 for
            \(options.ingestSeconds) s per rate; `telemetry-logger record` and `mosquitto_sub -v -t \
            'quad/ingest/telemetry/#' > file`
            are subscribed to the same stream at the same time. Counted afterwards: the logger's records of that topic
            (`telemetry-logger export --format jsonl`) and the topic lines in mosquitto_sub's file. QoS 0 over TCP to
            connected clients is not dropped by the broker but queued, so a recorder that cannot keep up falls behind
            rather than losing messages: the "sustained" figure is messages sent ÷ time from the generator's first
            publish to the recorder's last message (the logger's own receive time; mosquitto_sub's exit after `-C`
            messages). No goal set.

            | offered msg/s | publish rate achieved | sent | telemetry-logger recorded | logger sustained msg/s | \
            mosquitto_sub recorded | mosquitto_sub sustained msg/s |
            |---|---|---|---|---|---|---|

            """
        for row in ingest {
            text += "| \(row.offeredRate) | \(row.achievedRate) | \(row.sent) | "
                + "\(recorded(row.loggerRecorded, row.sent)) "
                + "| \(sustained(row.sent, row.loggerSeconds)) | \(recorded(row.subRecorded, row.sent)) "
                + "| \(sustained(row.sent, row.subSeconds)) |\n"
        }
        text += "\nLoss-free up to: telemetry-logger \(lossFree(\.loggerRecorded)) msg/s, mosquitto_sub "
            + "\(lossFree(\.subRecorded)) msg/s offered (of the rates tried); best sustained loss-free: "
            + "telemetry-logger "
            + "\(bestSustained(\.loggerSeconds)) msg/s, mosquitto_sub \(bestSustained(\.subSeconds)) msg/s.\n"
        return text
    }

    private func sustained(_ sent: Int, _ seconds: Double?) -> String {
        seconds.map { "\(Int(Double(sent) / max($0, 1e-6)))" } ?? "—"
    }

    func bestSustained(_ seconds: KeyPath<IngestBench.Row, Double?>) -> String {
        let rates = ingest.compactMap { row in row[keyPath: seconds].map { Int(Double(row.sent) / max($0, 1e-6)) } }
        return rates.max().map(String.init) ?? "none"
    }

    private func recorded(_ count: Int, _ sent: Int) -> String {
        count == sent ? "\(count) (all)" : "\(count) (lost \(sent - count))"
    }

    func footprintSection() -> String {
        var text = """
            ## 5. Footprint

            CPU (utime + stime from /proc over the window, % of one core) and RSS (largest VmRSS sampled every second;
            VmHWM = peak since start) of each process during the \(options.cadenceSeconds) s flights of section 2 \
            (release
            binaries built with `--static-swift-stdlib`, as `make release` does). The drone itself is simulated inside
            the bench process and not listed. Under load, the flight's telemetry-logger (subscribed to
            `quad/+/telemetry/#`) records the load generator's 10k msg/s too. No goal set.

            | process | CPU %, idle broker | RSS MiB, idle broker | CPU %, broker under 10k msg/s | RSS MiB, under \
            load | VmHWM MiB |
            |---|---|---|---|---|---|

            """
        let idle = cadenceIdle?.footprint ?? []
        let loaded = cadenceLoaded?.footprint ?? []
        for row in idle {
            let other = loaded.first { $0.name == row.name }
            text += "| \(row.name) | \(Units.fixed(row.cpuPercent, 1)) | \(mib(row.rssMaxKiB)) "
                + "| \(other.map { Units.fixed($0.cpuPercent, 1) } ?? "—") | "
                + "\(other.map { mib($0.rssMaxKiB) } ?? "—") "
                + "| \(mib(max(row.peakKiB, other?.peakKiB ?? 0))) |\n"
        }
        for row in loaded where !idle.contains(where: { $0.name == row.name }) {
            text += """
                | \(row.name) | — | — | \(Units.fixed(row.cpuPercent, 1)) | \(mib(row.rssMaxKiB)) | \
                \(mib(row.peakKiB)) |\n
                """
        }
        return text
    }

}
