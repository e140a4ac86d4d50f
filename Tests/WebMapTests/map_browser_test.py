#!/usr/bin/python3
"""The live map in headless Chromium (Selenium) against a real broker, the real services and drone-sim.

Started by Tests/IntegrationTests/MapPageTests.swift, which owns the flight stack and restarts the broker when
this script asks (it writes <handshake>/restart-request and waits for <handshake>/restart-done). Exit 0 = pass;
every step prints one line, a failure prints what the page showed."""
import argparse, csv, json, os, struct, subprocess, time

from mapdriver import Page, destination, distance, position_fix, step

p = argparse.ArgumentParser()
p.add_argument("--url", required=True)
p.add_argument("--mqtt-port", required=True, type=int)
p.add_argument("--trace", required=True)
p.add_argument("--drone", default="drone1")
p.add_argument("--handshake", required=True)
p.add_argument("--screenshot")
p.add_argument("--chromedriver", default="/usr/bin/chromedriver")
p.add_argument("--broadcaster", required=True, help="location-broadcaster, whose `mission upload` the page matches")
args = p.parse_args()

def trace():
    """The simulator's ground truth: complete rows only."""
    try:
        with open(args.trace) as f: text = f.read()
    except OSError:
        return []
    rows = list(csv.reader(text[: text.rfind("\n") + 1].splitlines()))[1:]
    return [r for r in rows if len(r) >= 6]
def truth():
    rows = trace()
    if not rows: raise AssertionError("no ground-truth rows yet")
    r = rows[-1]
    return (float(r[1]), float(r[2])), r[5]

page = Page(args.chromedriver, args.mqtt_port, args.handshake)
driver, text, wait, click = page.driver, page.text, page.wait, page.click
marker = lambda: page.marker(args.drone)
def publish_raw(path, payload): page.publish(f"quad/{args.drone}/{path}", payload)

def main():
    driver.get(args.url)
    wait("page connected to the broker", 20, lambda: text("broker") == "online")
    step("page loaded, broker online")
    for service in ["drone-link", "navigator", "drone-controller"]:
        wait(f"{service} shown online", 20, lambda: text(f"presence-{service}") == "online")
    home = wait("drone marker with a position", 20, marker)
    assert distance(home, truth()[0]) < 2, f"marker {home} vs truth {truth()}"
    wait("controller state shown", 10, lambda: text("activity") == "landed")
    assert not page.enabled("mission-start") and not page.enabled("mission-goto"), "mission buttons with no plan held"
    step(f"drone online at {home}, landed; link: {text('link')}, battery: {text('battery')}")
    # One host, one clock: the board clock is shown within a second and without a warning.
    clock = wait("board clock offset shown", 10, lambda: (text("clock") or "").endswith(" s") and text("clock"))
    assert abs(float(clock.split()[0])) < 1, f"clock offset on one host: {clock}"

    click("takeoff")
    wait("takeoff flies (activity hovering)", 40, lambda: text("activity") == "hovering")
    assert truth()[1] in ("hovering", "flying", "taking_off"), f"sim says {truth()[1]}"
    assert "refused" not in (text("action-result") or ""), text("action-result")
    step(f"airborne: sim {truth()[1]}, altitude on page {text('altitude')}, action: {text('action-result')}")

    # Click the map 40 m away (bearing 60°) from where the drone is.
    start = marker()
    goal = destination(start, 60, 40)
    page.click_map_at(goal)
    wait("target confirmation shown", 5, lambda: page.count('[data-test="pending"][style*="block"]') == 1)
    click("send-target")
    wait("controller accepted the target", 15, lambda: (text("action-result") or "").startswith("target: controller"))
    assert "refused" not in text("action-result"), text("action-result")
    step(f"target sent by click: {text('action-result')}; pilot: {text('pilot')}")
    assert "(this page)" in text("pilot"), text("pilot")

    # A malformed payload on a telemetry topic is counted; the page keeps updating.
    bad_before = int(text("bad-payloads"))
    publish_raw("telemetry/position", "\xff\x51 not a position fix")
    publish_raw("telemetry/controller", "garbage")
    wait("bad payloads counted", 10, lambda: int(text("bad-payloads")) == bad_before + 2)
    step(f"malformed payloads counted: {text('bad-payloads')}")

    # A second drone on the bus: the page lists both and draws its marker.
    page.publish("quad/drone2/telemetry/position", position_fix(start[0] + 0.001, start[1]))
    wait("drone list with both drones", 10, lambda: page.count('[data-test="drones"] button') == 2)
    wait("second drone's marker", 10, lambda: page.marker("drone2"))
    assert text("drone-name") == args.drone, "the selected drone changed: " + str(text("drone-name"))
    step("a second drone on the bus is listed and drawn; drone1 stays selected")

    # The marker follows the drone: compared with the simulator's ground truth during the flight.
    worst, samples, shot = 0.0, 0, False
    deadline = time.time() + 120
    while time.time() < deadline:
        here, state = truth()
        shown = marker()
        lag = distance(shown, here)
        worst = max(worst, lag); samples += 1
        if args.screenshot and not shot and distance(start, here) > 20:
            driver.save_screenshot(args.screenshot); shot = True
        if distance(here, goal) < 2.0 and text("activity") in ("arrived", "hovering"):
            break
        time.sleep(0.5)
    here, state = truth()
    assert distance(here, goal) < 2.0, f"sim at {here}, {distance(here, goal):.1f} m from the clicked point"
    assert distance(marker(), here) < 3, f"marker {marker()} vs sim {here}"
    assert worst < 6, f"marker lagged the drone by up to {worst:.1f} m"
    step(f"sim flew to the click: {distance(here, goal):.2f} m from it; "
         f"marker followed ({samples} samples, worst {worst:.1f} m); "
         f"activity {text('activity')}")

    # The broker restarts on the same ports: the page reconnects by itself.
    open(os.path.join(args.handshake, "restart-request"), "w").close()
    saw_offline = False
    deadline = time.time() + 30
    while not os.path.exists(os.path.join(args.handshake, "restart-done")):
        saw_offline = saw_offline or (text("broker") or "").startswith("broker offline")
        assert time.time() < deadline, "the test did not restart the broker"
        time.sleep(0.1)
    saw_offline = saw_offline or (text("broker") or "").startswith("broker offline")
    assert saw_offline, "the page never showed the broker offline"
    wait("page reconnected", 30, lambda: text("broker") == "online")
    # The restarted broker kept no retained presence: the page shows it unconfirmed until each service is back.
    for service in ["drone-link", "navigator", "drone-controller"]:
        wait(f"{service} back online after the restart", 30, lambda: text(f"presence-{service}") == "online")
    wait("link healthy again", 15, lambda: (text("link") or "").startswith("ok"))
    step("broker restarted: page showed 'broker offline', reconnected by itself, services online again")

    # A click outside the 200 m geofence: the page warns, the controller refuses, the page shows the refusal.
    driver.execute_script("quadMap.setZoom(16, {animate: false}); quadMap.panTo(arguments[0], {animate: false});",
        list(home))
    far = destination(home, 200, 260)
    time.sleep(0.5)
    page.click_map_at(far)
    wait("geofence warning before sending", 5, lambda: "geofence" in (text("pending") or ""))
    click("send-target")
    wait("the refusal shown next to the action", 15, lambda: "refused" in (text("action-result") or ""))
    assert "target-refused-geofence" in text("action-result"), text("action-result")
    step(f"target outside the geofence: {text('action-result')}")

    # And it still acts: land from the page.
    click("land")
    wait("the controller answered the land", 15, lambda: (text("action-result") or "").startswith("land: controller"))
    assert "refused" not in text("action-result"), text("action-result")
    wait("landing", 60, lambda: text("activity") == "landed")
    wait("sim landed", 30, lambda: truth()[1] == "landed")
    step(f"landed from the page after the reconnect: {text('action-result')}")
    drop_plans()
    mission_buttons()
    # Emergency asks twice: the first click only arms.
    click("emergency")
    assert "again" in text("emergency")
    assert not (text("action-result") or "").startswith("emergency"), text("action-result")
    step("emergency armed by the first click only (not sent)")
    errors = page.page_errors()
    assert not errors, f"browser errors: {errors}"

def plan_file(name, items):
    """A QGroundControl .plan (as QGroundControl writes one: null for NaN parameters) in the handshake directory."""
    simple = lambda command, frame, params: {"type": "SimpleItem", "command": command, "frame": frame,
                                             "params": params, "autoContinue": True}
    body = {"fileType": "Plan", "version": 1, "groundStation": "QGroundControl",
            "mission": {"version": 2, "hoverSpeed": 3.5, "items": [simple(*i) for i in items],
                        "plannedHomePosition": [52.5163, 13.3777, 34.2]}}
    path = os.path.join(args.handshake, name)
    with open(path, "w") as f: json.dump(body, f, indent=4)
    return path

def drop(path, via_input=False):
    """The page gets the file as from a drop on the map (a synthesized DragEvent), or from its file button."""
    with open(path) as f: content = f.read()
    driver.execute_script("""
        const [name, content, viaInput] = arguments;
        const files = new DataTransfer();
        files.items.add(new File([content], name, { type: 'application/json' }));
        if (viaInput) {
          const input = document.getElementById('plan-file');
          input.files = files.files;
          input.dispatchEvent(new Event('change'));
        } else {
          document.getElementById('map').dispatchEvent(new DragEvent('drop', { dataTransfer: files, bubbles: true,
            cancelable: true }));
        }""", os.path.basename(path), content, via_input)

def retained_upload():
    """The broker's retained quad/<drone>/mission/upload as hex, '' when there is none."""
    out = subprocess.run(["mosquitto_sub", "-h", "127.0.0.1", "-p", str(args.mqtt_port), "-t",
                          f"quad/{args.drone}/mission/upload", "--retained-only", "-C", "1", "-W", "2", "-F", "%x"],
                         capture_output=True, text=True, timeout=10)
    return out.stdout.strip()

def drop_plans():
    """Issue 37 item 8: a .plan dropped on the map is refused in the page (nothing published) or published as
    `location-broadcaster mission upload` publishes it, and the board's answer is shown."""
    here = marker()
    north, east = destination(here, 0, 12), destination(here, 90, 9)
    bad = plan_file("servo.plan", [(22, 3, [0, 0, 0, None, here[0], here[1], 5]),
                                   (16, 3, [0, 0, 0, None, north[0], north[1], 6]),
                                   (183, 2, [9, 1500, 0, 0, 0, 0, 0])])
    drop(bad)
    wait("the page refuses the file", 10, lambda: "refused on this page" in (text("plan-result") or ""))
    assert "item 2: MAVLink command 183 is not supported" in text("plan-result"), text("plan-result")
    assert retained_upload() == "", "a refused file was published: " + retained_upload()
    step(f"bad .plan refused in the page, nothing published: {text('plan-result')}")

    far = destination(here, 180, 500)
    fenced = plan_file("far.plan", [(22, 3, [0, 0, 0, None, here[0], here[1], 5]),
                                    (16, 3, [0, 0, 0, None, far[0], far[1], 6])])
    drop(fenced, via_input=True)
    wait("the board's refusal shown", 15, lambda: "refused by drone-controller" in (text("plan-result") or ""))
    assert "item 1:" in text("plan-result") and "fence" in text("plan-result"), text("plan-result")
    step(f"a plan outside the fence (file button): {text('plan-result')}")

    good = plan_file("field.plan", [(22, 3, [0, 0, 0, None, here[0], here[1], 5]),
                                    (16, 3, [1.5, 0, 0, None, north[0], north[1], 6]),
                                    (178, 2, [1, 2.2, -1, 0, 0, 0, 0]),
                                    (19, 3, [2.25, 0, 0, 1, east[0], east[1], 6.5]),
                                    (21, 3, [0, 0, 0, None, None, None, 0])])
    drop(good)
    wait("the board accepted the plan", 15, lambda: "accepted" in (text("plan-result") or ""))
    wait("the board's plan drawn", 10, lambda: page.count('[data-test="mission-item"]') == 2)
    wait("the panel says the plan is loaded", 10, lambda: (text("mission") or "").startswith("loaded, not started"))
    from_page = retained_upload()
    assert from_page, "nothing retained after the accepted drop"
    step(f"dropped .plan accepted: {text('plan-result')}; mission: {text('mission')}")
    # The CLI with the page's sender id: the same file must give the same bytes (the sender is the only field
    # a page's upload may differ in). The board holds that plan already: it acknowledges at once.
    sender = driver.execute_script("return quadMapState.senderId")
    cli = subprocess.run([args.broadcaster, "mission", "upload", good, "--broker", f"127.0.0.1:{args.mqtt_port}",
                          "--drone", args.drone, "--sender-id", sender, "--timeout", "20"],
                         capture_output=True, text=True, timeout=60)
    assert cli.returncode == 0, f"location-broadcaster mission upload: {cli.returncode} {cli.stdout} {cli.stderr}"
    from_cli = retained_upload()
    assert from_cli == from_page, f"page published {from_page}, location-broadcaster {from_cli}"
    step(f"location-broadcaster mission upload of the same file: byte-identical ({len(from_page) // 2} bytes)")

STATES = ["idle", "running", "paused", "holdingAfterRestart", "returning", "completed", "aborted"]
def bus_progress():
    """The board's retained quad/<drone>/mission/progress: (plan checksum, state, current item), None when none."""
    out = subprocess.run(["mosquitto_sub", "-h", "127.0.0.1", "-p", str(args.mqtt_port), "-t",
                          f"quad/{args.drone}/mission/progress", "--retained-only", "-C", "1", "-W", "2", "-F", "%x"],
                         capture_output=True, text=True, timeout=10)
    raw = bytes.fromhex(out.stdout.strip())
    if len(raw) < 13 or raw[:3] != b"\xff\x4d\x03": return None
    checksum, state, _phase, item = struct.unpack_from("<IBBH", raw, 5)
    return checksum, STATES[state] if state < len(STATES) else state, item

def mission_buttons():
    """Issue 37 item 8, the buttons: each press publishes a MissionCommand the board carries out or refuses; the
    page shows the board's answer. Judged here on the bus (the board's retained progress) and by the simulator."""
    here = marker()
    north = destination(here, 0, 10)
    # A long hold at the waypoint keeps the mission under way for every press below, whatever the machine's pace
    # (not longer: the board refuses a start its battery does not cover, holds included).
    buttons = plan_file("buttons.plan", [(22, 3, [0, 0, 0, None, here[0], here[1], 4]),
                                         (16, 3, [90, 0, 0, None, north[0], north[1], 4]),
                                         (21, 3, [0, 0, 0, None, None, None, 0])])
    drop(buttons)
    wait("the board holds the buttons' plan", 15, lambda: "buttons.plan: accepted" in (text("plan-result") or ""))
    checksum = struct.unpack("<I", bytes.fromhex(retained_upload())[-4:])[0]
    def on_bus(state, item=None):
        def check():
            progress = bus_progress()
            return progress is not None and progress[:2] == (checksum, state) and item in (None, progress[2])
        return check
    wait("the board's progress: the plan idle", 10, on_bus("idle"))
    wait("mission buttons enabled", 10, lambda: page.enabled("mission-start"))

    def press(button, what):
        """Clicks and returns the page's final answer (the board's, or the page's own timeout after 10 s)."""
        click(button)
        prefix = f"mission {what} (plan {checksum:08X}): "
        def answered():
            shown = text("action-result") or ""
            return shown.startswith(prefix) and not shown.endswith("…") and shown[len(prefix):]
        return wait(f"the board's answer to mission {what}", 30, answered)

    answer = press("mission-start", "start")
    assert answer.startswith("running"), answer
    wait("the board's progress: running", 10, on_bus("running"))
    wait("the simulator takes off", 30, lambda: truth()[1] != "landed")
    wait("the takeoff item reached: flying to item 1", 60, on_bus("running", 1))
    step(f"mission start: {answer}; sim {truth()[1]}")
    answer = press("mission-start", "start")
    assert answer == "refused by drone-controller — refused: already-started", answer
    assert on_bus("running")(), bus_progress()
    step(f"mission start again: {answer}")
    answer = press("mission-pause", "pause")
    assert answer.startswith("paused"), answer
    wait("the board's progress: paused", 10, on_bus("paused"))
    page.type_into("mission-goto-item", "0")
    answer = press("mission-goto", "goto 0")
    assert answer.startswith("paused, item 0"), answer
    wait("the board's progress: paused at item 0", 10, on_bus("paused", 0))
    answer = press("mission-resume", "resume")
    assert answer.startswith("running"), answer
    wait("the board's progress: running", 10, on_bus("running"))
    answer = press("mission-abort", "abort")
    assert answer.startswith("aborted"), answer
    wait("the board's progress: aborted", 10, on_bus("aborted"))
    assert truth()[1] != "landed", f"sim {truth()[1]}"
    step(f"mission pause, goto 0, resume, abort answered by the board: {answer}; sim {truth()[1]}")

page.run(main)
