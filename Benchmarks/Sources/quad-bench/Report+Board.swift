/// Sections 6 (the board's footprint) and 7 (the fleet), issue 17.
extension Report {
    /// The board services' rows of the flight tables: the AR.Drone flight's three, mavlink-link from its own.
    private func boardRows(_ f: FootprintBench.Result) -> [(free: ProcessFootprint.Row,
        pinned: ProcessFootprint.Row?)] {
        let names = ["drone-link", "navigator", "drone-controller"]
        var rows: [(ProcessFootprint.Row, ProcessFootprint.Row?)] = names.compactMap { name in
            f.free.first { $0.name == name }.map { ($0, f.pinned.first { $0.name == name }) }
        }
        if let mavlink = f.mavlink.first(where: { $0.name == "mavlink-link" }) { rows.append((mavlink, nil)) }
        return rows
    }

    func boardSummaryRows() -> String {
        var text = ""
        if let f = footprint {
            for (service, pinned) in boardRows(f) {
                let cpu = max(service.cpuPercent, pinned?.cpuPercent ?? 0)
                let rss = max(service.rssMaxKiB, pinned?.rssMaxKiB ?? 0)
                text += row("6",
                    """
                        board footprint, \(service.name): RSS / PSS / CPU in a 30 Hz flight (the higher of free and \
                        pinned)
                        """,
                            "\(mib(rss)) MiB / \(mib(service.pssMaxKiB)) MiB / \(Units.fixed(cpu, 1)) %",
                            "≤ 12 MiB RSS, ≤ 1 % CPU",
                            rss <= FootprintBench.rssGoalKiB && cpu <= FootprintBench.cpuGoalPercent)
            }
            let startups = FootprintBench.boardServices.compactMap { name in f.startup[name].map { (name, $0) } }
            let worst = startups.map(\.1.maxNs).max() ?? 0
            let failed = f.startupFailures.values.reduce(0, +)
            text += row("6",
                """
                    board start-up, exec → retained `online` seen: p50 per service \
                    (\(startups.map(\.0).joined(separator: ", "))), worst max
                    """,
                        startups.map { Units.auto($0.1.percentileNs(50)) }
                            .joined(separator: ", ") + "; max \(Units.auto(worst))"
                            + (failed > 0 ? "; \(failed) starts not seen within 5 s" : ""),
                        "≤ 150 ms", worst <= FootprintBench.startupGoalNs && failed == 0)
            let pinned = f.pinnedLatency.latencies
            text += row("6",
                "target → PCMD with broker and board services pinned to one core (`taskset -c 0`): p50 / p99",
                        "\(Units.auto(pinned.percentileNs(50))) / \(Units.auto(pinned.percentileNs(99)))",
                        "p99 ≤ 5 ms",
                        pinned.percentileNs(99) <= FootprintBench.pinnedP99GoalNs && f.pinnedLatency.timeouts == 0)
        }
        text += fleetSummaryRows()
        return text
    }

    /// The summary's rows 7, one per broker (also what `quad-bench fleet` prints first).
    func fleetSummaryRows() -> String { fleet.map(fleetSummaryRow).joined() }

    /// Row 7 of one broker: Mosquitto against the issue's goal (N ≥ 100 on one Mosquitto); a cluster has none.
    private func fleetSummaryRow(_ run: FleetRun) -> String {
        let condition = """
            largest N synthetic drones (+ 5 real) with the logger losing nothing and target → PCMD p99 ≤ 5 ms; \
            largest lossless N
            """
        let what = run.isMosquitto ? "fleet on one Mosquitto: \(condition)"
            : "fleet on a \(run.broker) (MQTT 3.1.1; board services on node A, ground on node B): \(condition)"
        guard let result = run.result else { return row("7", what, run.notRun ?? "not run", "—", nil) }
        let largest = result.largestMet
        let allTried = result.steps.count == (run.isMosquitto ? options.fleetSteps : options.fleetClusterSteps).count
        var figure = (largest.map { "N = \($0)" } ?? "none of the steps") + "; lossless up to "
            + (result.largestLossless.map { "N = \($0)" } ?? "none")
            + (allTried && result.steps.last?.lossless == true ? " (the largest step tried: the limit is higher)" : "")
        if !run.isMosquitto, let reason = result.stoppedBecause { figure += "; steps stopped: \(reason)" }
        return row("7", what, figure, run.isMosquitto ? "N ≥ 100" : "—",
            run.isMosquitto ? (largest ?? 0) >= 100 : nil)
    }

    func boardSection() -> String {
        guard let f = footprint else { return "" }
        return """
            ## 6. Board footprint

            Issue 17's "Scale down": each board service as `make release` builds it (`scripts/swift-release.sh`:
            static Swift runtime, lld, packed relative relocations). **Start-up**: exec (the bench's posix_spawn) → \
            that
            process's retained `online` presence (`quad/<id>/status/<service>`, matched by the pid in it) received by a
            bench subscriber on the broker; the services take turns, each start under a drone id of its own;
            drone-link and mavlink-link are given UDP ports nobody answers (presence does not wait for the vehicle).
            **Flight**: drone-link, navigator, drone-controller and the board's telemetry-logger fly the bench's
            AR.Drone (section 1) to a target 150 m away for \(options.footprintSeconds) s while /proc is sampled every
            second: RSS = largest VmRSS, PSS = largest `Pss` of /proc/<pid>/smaps_rollup (every shared page divided
            among the processes mapping it: the fair share on a board running all services; on a shared machine every
            other process mapping the same libraries counts too), anon = largest RssAnon,
            CPU = utime + stime over the window, % of one core. Then `taskset -a -p -c 0` pins the broker and every
            service process (all threads) to CPU 0 and the same flight is measured again; target → PCMD (section 1's
            method, \(options.targets) targets) is measured after each flight. mavlink-link: a MAVLink stack of its own
            (section 1's MAVLink rows) flies the same way, not pinned (the broker still is). The vehicles run inside
            the bench process, not pinned. Load average \(f.loadAtStart) at the start, \(f.loadAtEnd) at the end, on
            the 2 cores other engineers share: CPU % and latency rise with it.


            """ + footprintRows()
    }

    /// Section 6's tables (also what `quad-bench footprint` prints).
    func footprintRows() -> String {
        guard let f = footprint else { return "" }
        var text = "| service | starts | exec → online p50 | max | not seen within 5 s | goal "
            + "|\n|---|---|---|---|---|---|\n"
        for name in FootprintBench.boardServices {
            let d = f.startup[name] ?? Distribution([])
            let failed = f.startupFailures[name] ?? 0
            text += "| \(name) | \(d.count + failed) | \(Units.auto(d.percentileNs(50))) | \(Units.auto(d.maxNs)) | "
                + "\(failed) "
                + """
                    | ≤ 150 ms: \
                    \(d.maxNs <= FootprintBench.startupGoalNs && failed == 0 && d.count > 0 ? "met" : "**not met**") \
                    |\n
                    """
        }
        text += """
            \n| process | RSS MiB | PSS MiB | anon MiB | CPU % | RSS MiB, pinned | PSS MiB, pinned | CPU %, pinned | \
            goal ≤ 12 MiB RSS, ≤ 1 % CPU |\n
            """
            + "|---|---|---|---|---|---|---|---|---|\n"
        let board = Set(FootprintBench.boardServices)
        func verdict(_ rows: [ProcessFootprint.Row]) -> String {
            guard let name = rows.first?.name, board.contains(name) else { return "—" }
            let rssMet = rows.allSatisfy { $0.rssMaxKiB <= FootprintBench.rssGoalKiB }
            let cpuMet = rows.allSatisfy { $0.cpuPercent <= FootprintBench.cpuGoalPercent }
            return "RSS \(rssMet ? "met" : "**not met**"), CPU \(cpuMet ? "met" : "**not met**")"
        }
        for row in f.free {
            let pinned = f.pinned.first { $0.name == row.name }
            text += "| \(row.name) | \(mib(row.rssMaxKiB)) | \(mib(row.pssMaxKiB)) | \(mib(row.anonMaxKiB)) "
                + "| \(Units.fixed(row.cpuPercent, 1)) | \(pinned.map { mib($0.rssMaxKiB) } ?? "—") "
                + "| \(pinned.map { mib($0.pssMaxKiB) } ?? "—") | "
                + "\(pinned.map { Units.fixed($0.cpuPercent, 1) } ?? "—") "
                + "| \(verdict([row] + (pinned.map { [$0] } ?? []))) |\n"
        }
        for row in f.mavlink where row.name == "mavlink-link" {
            text += "| mavlink-link (MAVLink flight) | \(mib(row.rssMaxKiB)) | \(mib(row.pssMaxKiB)) | "
                + "\(mib(row.anonMaxKiB)) "
                + "| \(Units.fixed(row.cpuPercent, 1)) | — | — | — | \(verdict([row])) |\n"
        }
        text += "\n| path | n | p50 | p90 | p99 | max | not seen within 1 s | goal "
            + "|\n|---|---|---|---|---|---|---|---|\n"
        text += distributionRow("target → PCMD, free", f.freeLatency.latencies, lost: f.freeLatency.timeouts,
                                goal: "p50 ≤ 1.5 ms, p99 ≤ 5 ms")
        text += distributionRow("target → PCMD, broker and services pinned to CPU 0", f.pinnedLatency.latencies,
                                lost: f.pinnedLatency.timeouts, goal: "p99 ≤ 5 ms")
        text += "\nLoad average (1/5/15 min): \(f.loadAtStart) at the start, \(f.loadAtEnd) at the end.\n"
        return text
    }

    func fleetSection() -> String {
        guard let mosquitto = fleet.first(where: \.isMosquitto)?.result else { return "" }
        let rates = mosquitto.realRates.map { "`\($0.path)` \(Units.fixed($0.hz, 1))" }.joined(separator: ", ")
        return """
            ## 7. Fleet

            Issue 17's fleet benchmark on one Mosquitto (the repository's mosquitto.conf), then on a 3-node RabbitMQ \
            and a
            3-node NATS cluster: 5 drones flying for real (each its own bench AR.Drone, drone-link, navigator and
            drone-controller under drone ids `fleet-1`…`fleet-5`), one `telemetry-logger record --no-auto-sync`
            recording every drone (`quad/+/…`, one file per drone id; no auto-sync: there is no board logger to
            answer), and `quad-bench fleetgen` publishing N synthetic drones' traffic from one process and one
            connection (drone ids `n<N>-<i>`). The generator's topics, rates and payloads are those of the first real
            drone, measured for 5 s while it flew to a far target (messages/s per drone, on Mosquitto; each cluster run
            measures its own): \(rates). QoS and retain from the topic table; presence retained at QoS 1. At each N, for
            \(Units.fixed(options.fleetSeconds, 0)) s: a fresh logger, then the generator, then \(options.fleetTargets)
            targets to each real drone at once (section 1's method, all 5 concurrently; the percentiles pool them).
            N = 0 is the 5 real drones alone, the latency's baseline.
            "logged" counts the records of the synthetic drones in the step's .qlog files (read with FlightLog's
            reader) against what the generator sent on recorded topics (`telemetry/…`, `status/…`; `flight/command`
            loads the broker but is not recorded; the generator clears its retained topics after each step, and the
            empty records that leaves are not counted); "dropped" is the logger's own count of messages its connection
            buffer dropped. A publish the generator's own client refused (not connected, or 1000 QoS 1 messages awaiting
            their acknowledgement) is named in the "logged" cell and counts as a loss. On Mosquitto the steps go on \
            past a missed p99 (the latency follows the machine's load as
            much as the fleet) and stop after the first one that loses a message.

            The clusters are the integration tests' own (`Tests/Support/BrokerNodes`): each node on free 127.0.0.1 ports
            with its own data dir; RabbitMQ 3.10's nodes boot one after the other and its MQTT subscription queues are
            mirrored (the `quad-mqtt-ha` policy of deploy/README); NATS 2.9 keeps the MQTT state in clustered
            JetStream. Both speak MQTT 3.1.1 only: every service runs with `--mqtt-version 3.1.1`, and so do the
            bench's own clients. As in BrokerClusterTests, the real drones' services take `--broker A,B,C` and the
            ground side — the logger, the generator, the pilot publishing the targets and the bench's observers —
            B,C,A. Smaller steps (\(options.fleetClusterSteps.map(String.init).joined(separator: ", "))); they stop
            after the first one that loses a message or misses the p99 goal (unless N = 0 already misses it: then
            only a loss stops them), and none starts, nor does a target go out, later than
            \(Units.fixed(options.fleetClusterBudgetS, 0)) s after the cluster's boot began (a step is expected to take
            as long as the one before it). The generator starts \(Units.fixed(options.fleetClusterWarmupS, 0)) s after \
            the
            step's logger (1.5 s on Mosquitto: a cluster takes longer to set up its subscriptions), and the logger stops
            \(Units.fixed(options.fleetClusterSettleS, 0)) s after the generator's end (1 s on Mosquitto): what has not
            reached it by then counts as lost.

            Load average \(mosquitto.loadAtStart) at the start, \(mosquitto.loadAtEnd) at the end of the Mosquitto run,
            on 2 cores shared with other engineers: the figures move with it (each cluster's is in the lines below the
            table).


            """ + fleetRows()
    }

    /// Section 7's table (also what `quad-bench fleet` prints): every broker's steps, then one line per broker.
    func fleetRows() -> String {
        guard !fleet.isEmpty else { return "" }
        var text = "| broker | N synthetic | msg/s offered (all topics) | sent, recorded topics | logged | logger "
            + "dropped | real drones: targets | p50 | p99 | max | not seen within 1 s | load average | "
            + "lossless and p99 ≤ 5 ms |\n"
            + "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
        for run in fleet {
            guard let result = run.result else {
                text += "| \(run.broker) | \(run.notRun ?? "not run") | | | | | | | | | | | |\n"
                continue
            }
            for step in result.steps {
                let d = step.latency
                let difference = step.logged < step.sentRecorded
                    ? "lost \(step.sentRecorded - step.logged)" : "\(step.logged - step.sentRecorded) extra"
                var logged = step.logged == step.sentRecorded
                    ? "\(step.logged) (all)" : "\(step.logged) (\(difference))"
                if step.generatorFailed > 0 { logged += "; generator: \(step.generatorFailed) publishes refused" }
                text += "| \(run.broker) | \(step.syntheticDrones) | \(step.offeredMsgPerS) | \(step.sentRecorded) | "
                    + "\(logged) "
                    + "| \(step.loggerDropped.map(String.init) ?? "?") | \(d.count + step.timeouts) | "
                    + "\(Units.auto(d.percentileNs(50))) "
                    + "| \(Units.auto(d.percentileNs(99))) | \(Units.auto(d.maxNs)) | \(step.timeouts) | "
                    + "\(step.loadAverage) "
                    + "| \(step.met ? "yes" : "**no**") |\n"
            }
        }
        text += "\n"
        for run in fleet {
            guard let result = run.result else {
                text += "\(run.broker): \(run.notRun ?? "not run").\n"
                continue
            }
            let figures = "largest N lossless with p99 ≤ 5 ms: \(result.largestMet.map(String.init) ?? "none"); "
                + "lossless: "
                + "\(result.largestLossless.map(String.init) ?? "none")"
            if run.isMosquitto {
                text += "\(run.broker): \(figures) (goal N ≥ 100 on one Mosquitto).\n"
            } else {
                let rates = result.realRates.map { "`\($0.path)` \(Units.fixed($0.hz, 1))" }.joined(separator: ", ")
                text += "\(run.broker): \(figures)"
                    + (result.stoppedBecause.map { "; steps stopped: \($0)" } ?? "; every step run")
                    + "; load average \(result.loadAtStart) at the start, \(result.loadAtEnd) at the end; one real"
                    + " drone's rates (messages/s): \(rates).\n"
            }
        }
        return text
    }

    func mib(_ kib: Int) -> String { Units.fixed(Double(kib) / 1024, 1) }
}
