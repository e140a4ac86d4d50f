#!/usr/bin/python3
"""Shorter browser checks of the live map, started by Tests/IntegrationTests/MapPageTests.swift:

  hostile --url URL --mqtt-port N     hostile URL parameters and a barrage of bad payloads and topics never break
                                      the page (no script runs, no exception, it keeps updating)
  login --url URL --password PW       on the deployed broker the page is refused anonymously, and logs in as `map`
  stale --url URL --mqtt-port N --handshake DIR
                                      the broker goes away (the test stops it on <DIR>/stop-request, then writes
                                      <DIR>/stop-done): what the page knew is shown stale with its age, one badge
                                      text, a countdown that counts
  home --url URL --mqtt-port N        during a return the distance row says "to home" with the controller's
                                      distance (issue 27, item 3), and "to target" again after it
  zones --url URL --mqtt-port N       the airspace the controller holds is drawn (keep-out, inclusion, margin); a
                                      click inside a keep-out zone or its margin is refused on the page with the
                                      controller's reason and not sent; an empty airspace clears the drawing; the
                                      controller's retained route around a zone is drawn, corner by corner, and
                                      cleared by "none"
  mission --url URL --mqtt-port N     the board's plan (mission/upload) is drawn with its legs; its progress marks
                                      items reached and current, and the panel says where the mission is and
                                      whether the autopilot holds its copy (mission/autopilot); the mission
                                      buttons wait for a plan held, show a refusal's reason, say a timeout and
                                      refuse a goto outside the plan
Exit 0 = pass."""
import argparse, math, os, random, re, struct, time

from mapdriver import Page, destination, position_fix, step

p = argparse.ArgumentParser()
p.add_argument("mode", choices=["hostile", "login", "stale", "home", "zones", "mission"])
p.add_argument("--url", required=True)
p.add_argument("--mqtt-port", type=int, default=0)
p.add_argument("--password", default="")
p.add_argument("--handshake", default="")
p.add_argument("--failure-dir", default=os.environ.get("TMPDIR") or "/tmp")
p.add_argument("--chromedriver", default="/usr/bin/chromedriver")
args = p.parse_args()
page = Page(args.chromedriver, args.mqtt_port, args.failure_dir)
driver, text, wait = page.driver, page.text, page.wait

def hostile():
    query = ("?tiles=javascript:window.pwned=1//{z}{x}{y}&geofence=NaN&arrival=-5&lat=1e999&lon=abc"
             "&drone=%3Cimg%20src%3Dx%20onerror%3Dwindow.pwned%3D1%3E&broker=javascript:window.pwned=1"
             "&user=%22%3E%3Cb%3E")
    driver.get(args.url + query)
    wait("page connected despite the parameters", 20, lambda: text("broker") == "online")
    step("hostile URL parameters: page loaded, fell back to its own broker")
    page.publish("quad/drone1/telemetry/position", position_fix(52.5163, 13.3777))
    wait("a drone from a valid fix", 10, lambda: page.marker("drone1"))

    bad = 0
    html = '<img src=x onerror="window.pwned=1">'
    page.publish("quad/drone1/status/" + html, '{"state":"online","service":"%s","version":"","started_at":0,"pid":1}' \
    % html.replace('"', '\\"'))
    for payload in ['{"state":"online"}', "not json", "[]", "null", \
    '{"state":"maybe","service":"a","version":"","started_at":0,"pid":1}',
                    "\xff\xfe", "x" * 100000]:
        page.publish("quad/drone1/status/navigator", payload); bad += 1
    page.publish("quad/drone1/status/navigator", b"")          # a cleared retained status: not an error
    page.publish("quad/Not-A-Drone!/telemetry/position", position_fix(1, 1))   # not our topic: ignored
    rng = random.Random(7)
    valid = position_fix(52.5163, 13.3777)
    # A zone named with markup is drawn, its name shown as text (a tooltip is HTML unless given a node).
    zone = {"type": "airspaceDefinition", "sequence": 1, "timestampUs": 0, "senderId": "x", "ceilingM": 60,
            "floorM": None, "marginM": 0, "zones": [{"name": html, "kind": "keepOut", "shape": "circle",
                                                     "centre": [52.5163, 13.3777], "radiusM": 5}]}
    page.publish("quad/drone1/airspace/held",
                 bytes(driver.execute_script("return Array.from(QuadProto.encode(arguments[0]));", zone)))
    wait("the zone with a hostile name drawn", 10, lambda: page.count('[data-test="zone"]') == 1)
    driver.execute_script("quadMap.eachLayer((l) => { if (l.openTooltip && l.getTooltip()) l.openTooltip(); });")
    for topic in ["telemetry/position", "telemetry/drone", "telemetry/controller", "telemetry/link", \
    "telemetry/navigation", "airspace/held", "mission/upload", "mission/progress", "mission/status",
    "mission/autopilot"]:
        for i in range(40):
            kind = i % 4
            if kind == 0: payload = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 80)))
            elif kind == 1: payload = valid[: rng.randrange(0, len(valid))]
            elif kind == 2: payload = valid + bytes([0])                       # bodyTooLong (or wrong type)
            else: payload = valid[:18] + bytes([0xFF] * 8) + valid[26:]      # latitude NaN (or wrong type)
            if not payload: payload = b"\x00"
            page.publish(f"quad/drone1/{topic}", payload, qos=0); bad += 1
    wait(f"all {bad} bad payloads counted", 30, lambda: int(text("bad-payloads") or 0) == bad)
    step(f"{bad} bad payloads and hostile topics counted, none shown as data")

    # The board's refusal reason and a dropped file's name are text, never markup.
    reason = html.encode()
    page.publish("quad/drone1/mission/status", bytes([0xFF, 0x4D, 4, 1, 0, 9, 0, 0, 0, 2, 1, 2, 3, 4, 0xFF, 0xFF,
                                                       len(reason)]) + reason)
    wait("the board's refusal reason shown as text", 10, lambda: html in (text("mission") or ""))
    driver.execute_script("""
        const files = new DataTransfer();
        files.items.add(new File(['{"fileType": "Plan"'], arguments[0] + '.plan'));
        document.getElementById('map').dispatchEvent(new DragEvent('drop', { dataTransfer: files, bubbles: true,
          cancelable: true }));""", html)
    wait("a dropped file's name shown as text", 10, lambda: html in (text("plan-result") or ""))
    step(f"mission refusal and a dropped file's name shown as text: {text('plan-result')}")

    page.publish("quad/drone1/telemetry/position", position_fix(52.5170, 13.3790))
    wait("the page still updates", 10, lambda: page.marker("drone1") == (52.517, 13.379))
    assert driver.execute_script("return window.pwned === undefined"), "a payload or parameter ran script"
    assert "drone1" in text("drone-name"), text("drone-name")
    assert html in driver.find_element("id", "presence").text, "a service name with markup is shown as text"
    assert page.count('[data-test="drone"]') == 1, "a drone from an invalid id was drawn"
    errors = page.page_errors()
    assert not errors, f"browser errors: {errors}"
    step("page still updating, no script injected, no page errors")

def login():
    driver.get(args.url)
    wait("anonymous refused", 20, lambda: (text("broker") or "").startswith("refused"))
    assert driver.find_element("id", "login").is_displayed(), "login form not shown"
    step(f"anonymous: {text('broker')}; login form shown")
    driver.find_element("id", "user").clear()
    driver.find_element("id", "user").send_keys("map")
    driver.find_element("id", "password").send_keys(args.password)
    driver.find_element("css selector", '#login button[type="submit"]').click()
    wait("logged in as map", 20, lambda: text("broker") == "online")
    step("logged in as map: online")

def stale():
    driver.get(args.url)
    wait("page connected", 20, lambda: text("broker") == "online")
    page.publish("quad/drone1/status/navigator",
                 '{"state":"online","service":"navigator","version":"","started_at":0,"pid":1}')
    state = driver.execute_script("""return Array.from(QuadProto.encode({type: 'controllerState', sequence: 1,
        timestampUs: Date.now() * 1000, activity: 'flyingToTarget', reason: '', pilotId: '', targetLatitudeDeg: 52.5,
        targetLongitudeDeg: 13.4, distanceToTargetM: 10, runId: 1, targetSequence: 1}));""")
    page.publish("quad/drone1/telemetry/controller", bytes(state))
    page.publish("quad/drone1/telemetry/position", position_fix(52.5163, 13.3777))
    wait("navigator online", 10, lambda: text("presence-navigator") == "online")
    wait("flying to target", 10, lambda: text("activity") == "flying to target")
    step("live: navigator online, controller flying to target")

    open(os.path.join(args.handshake, "stop-request"), "w").close()
    wait("the test stopped the broker", 20, lambda: os.path.exists(os.path.join(args.handshake, "stop-done")))
    wait("broker shown offline", 10, lambda: (text("broker") or "").startswith("broker offline"))
    badge = text("broker")
    assert badge.count("broker offline") == 1, f"doubled badge text: {badge}"
    presence = wait("navigator shown unknown", 5,
                    lambda: (text("presence-navigator") or "").startswith("unknown") and text("presence-navigator"))
    activity = wait("activity shown stale", 5, lambda: "stale" in (text("activity") or "") and text("activity"))
    step(f"broker gone: badge '{badge}', navigator '{presence}', activity '{activity}'")

    # The countdown counts: successive reads a quarter second apart go down many times (a frozen one only jumps).
    counts, downs = [], 0
    for _ in range(40):
        m = re.search(r"retrying in (\d+) s", text("broker") or "")
        if m: counts.append(int(m.group(1)))
        time.sleep(0.25)
    downs = sum(1 for a, b in zip(counts, counts[1:]) if b < a)
    assert downs >= 4, f"the countdown did not count: {counts}"
    aged = wait("the age grows", 5, lambda: text("presence-navigator") != presence and text("presence-navigator"))
    step(f"countdown counted down {downs} times in 10 s; navigator now '{aged}'")
    errors = page.page_errors()
    assert not errors, f"browser errors: {errors}"

def home():
    driver.get(args.url)
    wait("page connected", 20, lambda: text("broker") == "online")
    def controller(sequence, activity, distance, target):
        lat, lon = target if target else (None, None)
        js = """return Array.from(QuadProto.encode({type: 'controllerState', sequence: %d,
            timestampUs: Date.now() * 1000, activity: '%s', reason: '', pilotId: '', targetLatitudeDeg: %s,
            targetLongitudeDeg: %s, distanceToTargetM: %s, runId: 1, targetSequence: %d}));""" % (
            sequence, activity, "null" if lat is None else lat, "null" if lon is None else lon,
            "null" if distance is None else distance, 1 if target else 0)
        page.publish("quad/drone1/telemetry/controller", bytes(driver.execute_script(js)))
    page.publish("quad/drone1/telemetry/position", position_fix(52.5163, 13.3777))
    controller(1, "flyingToTarget", 31.2, (52.5165, 13.379))
    wait("flying to target", 10, lambda: text("activity") == "flying to target")
    wait("distance to the target", 10, lambda: text("distance") == "31.2 m" and text("distance-label") == "to target")
    step(f"flying: {text('distance-label')} {text('distance')}")
    # `return`: the target is dropped; the controller's distance is now to home.
    controller(2, "returningHome", 44.5, None)
    wait("returning home", 10, lambda: text("activity") == "returning home")
    label = wait("the distance labelled as to home", 10,
                 lambda: text("distance-label") == "to home" and text("distance") == "44.5 m" and \
                 text("distance-label"))
    step(f"returning: {label} {text('distance')}")
    controller(3, "returningHome", None, None)
    wait("no distance without one", 10, lambda: text("distance") == "—" and text("distance-label") == "to home")
    controller(4, "hovering", None, None)
    wait("label back to the target", 10, lambda: text("distance-label") == "to target")
    step("after the return: 'to target' again")
    errors = page.page_errors()
    assert not errors, f"browser errors: {errors}"

def zones():
    driver.get(args.url)
    wait("page connected", 20, lambda: text("broker") == "online")
    centre = (-34.6037, -58.3816)   # Buenos Aires: negative coordinates, as users have them
    page.publish("quad/drone1/telemetry/position", position_fix(*centre))
    wait("the drone on the map", 10, lambda: page.marker("drone1"))
    # Zoom 18 (about 0.5 m a pixel here) for the clicks by the pond's edge, 16 for the one 200 m away.
    zoom = lambda z, at: driver.execute_script("quadMap.setView(arguments[0], arguments[1], {animate: false});",
                                               list(at), z)
    square = [list(destination(centre, bearing, 20 * math.sqrt(2))) for bearing in (45, 135, 225, 315)]
    pond_centre = destination(centre, 90, 60)
    pond = [list(destination(pond_centre, b, 20 * math.sqrt(2))) for b in (45, 135, 225, 315)]
    def held(zones, margin=5):
        js = "return Array.from(QuadProto.encode(arguments[0]));"
        message = {"type": "airspaceDefinition", "sequence": 1, "timestampUs": int(time.time() * 1e6),
                   "senderId": "ground-laptop", "ceilingM": 60, "floorM": None, "marginM": margin, "zones": zones}
        page.publish("quad/drone1/airspace/held", bytes(driver.execute_script(js, message)))
    held([{"name": "pond", "kind": "keepOut", "shape": "polygon", "rings": [pond]},
          {"name": "field", "kind": "inclusion", "shape": "circle", "centre": list(centre), "radiusM": 150},
          {"name": "shed", "kind": "keepOut", "shape": "polygon", "rings": [square]}])
    wait("three zones and their margins drawn", 10,
         lambda: page.count('[data-test="zone"]') == 3 and page.count('[data-test="zone-margin"]') == 3)
    kinds = page.fresh(lambda: sorted(e.get_attribute("data-kind")
                                      for e in driver.find_elements("css selector", '[data-test="zone"]')))
    assert kinds == ["inclusion", "keepOut", "keepOut"], kinds
    wait("the panel names the airspace", 10, lambda: text("airspace").startswith("3 zones (2 keep-out), margin 5 m"))
    step(f"drawn: {text('airspace')}")
    zoom(18, pond_centre)
    page.click_map_at(pond_centre)
    refusal = wait("a click in the pond refused on the page", 10,
                   lambda: "target-refused-keep-out" in (text("pending-refusal") or "") and text("pending-refusal"))
    assert "'pond'" in refusal, refusal
    assert not driver.find_element("css selector", '[data-test="send-target"]').is_displayed()
    step(f"inside: {refusal}")
    page.click_map_at(destination(pond_centre, 270, 23))   # 3 m outside the pond: inside its 5 m margin
    wait("a click in the margin refused", 10, lambda: "target-refused-airspace-margin" in text("pending-refusal"))
    zoom(16, centre)
    page.click_map_at(destination(centre, 0, 200))
    wait("outside the field refused", 10, lambda: "target-refused-outside-inclusion" in text("pending-refusal"))
    page.click_map_at(destination(centre, 0, 60))
    wait("a free point may be sent", 10, lambda: text("pending-refusal") == "" and
         driver.find_element("css selector", '[data-test="send-target"]').is_displayed())
    step("the margin, outside the field and a free point: as the controller judges them")
    held([])
    wait("an empty airspace clears the drawing", 10, lambda: page.count('[data-test="zone"]') == 0
         and text("airspace").startswith("none"))
    page.click_map_at(pond_centre)
    wait("without zones the pond is a target like any", 10, lambda: text("pending-refusal") == "")
    step("cleared: " + text("airspace"))
    # The controller's way around a zone (airspace/route, retained), drawn as soon as it is published: a page opened
    # afterwards gets it with its subscription, before the drone flies it.
    goal, corners = list(destination(centre, 0, 60)), [list(destination(centre, b, 45)) for b in (300, 340)]
    def route(next_corner, purpose="target"):
        around = purpose != "none"
        message = {"type": "airspaceRoutePlan", "sequence": 1 + next_corner, "timestampUs": 0, "purpose": purpose,
                   "goal": goal if around else [0, 0], "start": list(centre) if around else [0, 0],
                   "lengthM": 80 if around else 0, "straightM": 60 if around else 0, "nextCorner": next_corner,
                   "zoneName": "shed" if around else "", "corners": corners if around else []}
        js = "return Array.from(QuadProto.encode(arguments[0]));"
        page.publish("quad/drone1/airspace/route", bytes(driver.execute_script(js, message)), retain=True)
    points = lambda test: page.fresh(lambda: [e.get_attribute("data-points") for e in
                                             driver.find_elements("css selector", f'[data-test="{test}"]')])
    route(0)
    driver.get(args.url)
    wait("page connected again", 20, lambda: text("broker") == "online")
    wait("the retained route drawn from its start through both corners to the goal", 10,
         lambda: points("route") == ["4"] and text("route-text") == "around 'shed': leg 1 of 3")
    assert points("route-passed") == [], points("route-passed")
    page.publish("quad/drone1/telemetry/position", position_fix(*destination(centre, 300, 45)))
    route(1)
    wait("a corner passed: the drone, the corner left, the goal; the passed leg faint", 10,
         lambda: points("route") == ["3"] and points("route-passed") == ["2"]
         and text("route-text") == "around 'shed': leg 2 of 3")
    step("route: " + text("route-text"))
    route(0, purpose="none")
    wait("none clears the route", 10, lambda: points("route") == [] and points("route-passed") == []
         and text("route-text") == "—")
    page.publish("quad/drone1/airspace/route", b"", retain=True)   # the test broker keeps no retained route
    step("route cleared by none")
    errors = page.page_errors()
    assert not errors, f"browser errors: {errors}"

def fixture(name):
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "MissionTests", "Fixtures", name + ".hex")) as f:
        return bytes(int(h, 16) for line in f for h in line.split("#")[0].split())

def progress(checksum, state, current, reached, phase=0, stay_left_ms=0):
    """A MissionProgress payload (PROTOCOL.md "Missions", kind 3)."""
    body = struct.pack("<IBBHIIfIH", checksum, state, phase, current, stay_left_ms, 60000, 42.5, 20000, len(reached))
    for index, item in enumerate(reached):
        body += struct.pack("<HIf", item, 5000 * (index + 1), 0.5)
    return bytes([0xFF, 0x4D, 3, 1, 0]) + body

def status(sequence, checksum, reason):
    """A MissionStatus payload (kind 4) holding `checksum` and refusing it for `reason`."""
    text = reason.encode()
    return bytes([0xFF, 0x4D, 4, 1, 0]) + struct.pack("<IBIIHB", sequence, 3, checksum, checksum, 0xFFFF, len(text)) \
        + text

def mission_buttons(checksum):
    """The buttons against a fake board (this test publishes its answers): a refusal's reason, silence."""
    assert page.enabled("mission-pause"), "mission buttons disabled with a plan held"
    prefix = f"mission pause (plan {checksum:08X}): "
    page.click("mission-pause")
    wait("the command delivered", 10,
         lambda: text("action-result") == prefix + "delivered, waiting for drone-controller…")
    page.publish("quad/drone1/mission/status", status(7, checksum, "pause refused: 'phone' holds pilot control"))
    wait("the board's refusal shown with its reason", 10, lambda: text("action-result")
         == prefix + "refused by drone-controller — pause refused: 'phone' holds pilot control")
    assert "bad" in driver.find_element("css selector", '[data-test="action-result"]').get_attribute("class")
    step(f"refused: {text('action-result')}")
    page.click("mission-abort")
    # The page's own 10 s: never success without the board's answer.
    wait("silence said so", 30, lambda: (text("action-result") or "").startswith(
        f"mission abort (plan {checksum:08X}): no answer from drone-controller in 10 s"))
    step(f"timeout: {text('action-result')}")
    page.type_into("mission-goto-item", "6")
    page.click("mission-goto")
    wait("a goto outside the plan refused on the page", 10, lambda: text("action-result") == "mission goto: refused "
         "on this page, nothing sent — which item? a whole number 0…5 (the plan has 6 items)")
    step(f"goto 6: {text('action-result')}")
    page.publish("quad/drone1/mission/status", b"")   # no refusal any more: the mission row as before

def mission():
    driver.get(args.url)
    wait("page connected", 20, lambda: text("broker") == "online")
    upload = fixture("mission-upload")
    checksum = struct.unpack("<I", upload[-4:])[0]
    page.publish("quad/drone1/telemetry/position", position_fix(52.5145, 13.3501))
    page.publish("quad/drone1/mission/upload", upload)
    wait("the plan's three points drawn with the legs from home", 10,
         lambda: page.count('[data-test="mission-item"]') == 3 and page.count('[data-test="mission-legs"]') == 1)
    # A plan is held once the board's progress names it; the upload alone is no answer.
    assert not page.enabled("mission-start"), "mission buttons enabled without a progress"
    wait("the panel says the plan is loaded", 10, lambda: "6 items" in text("mission"))
    step(f"loaded: {text('mission')}")
    def states():
        # Read again if a progress redrew the items meanwhile (a stale element, seen with the machine busy).
        return page.fresh(lambda: {e.get_attribute("data-item"): e.get_attribute("data-state")
                                   for e in driver.find_elements("css selector", '[data-test="mission-item"]')})
    page.publish("quad/drone1/mission/progress", progress(checksum, 1, 3, [0, 1, 2], phase=2, stay_left_ms=12500))
    wait("items 1 reached, 3 current, 4 planned", 10,
         lambda: states() == {"1": "reached", "3": "current", "4": "planned"})
    wait("the panel says where the mission is", 10,
         lambda: text("mission").startswith("running; item 3 of 6 (loiterTime, 13 s left); 3 reached"))
    step(f"running: {text('mission')}")
    # mavlink-link's read-back of the autopilot's own copy (mission/autopilot, the status layout): held, then not.
    page.publish("quad/drone1/mission/autopilot", bytes([0xFF, 0x4D, 4, 1, 0]) + struct.pack("<IBI", 1, 1, checksum))
    wait("the autopilot's copy said", 10, lambda: text("mission").endswith(
        "; autopilot's own mission: holds this plan (it can finish it if the board dies)"))
    page.publish("quad/drone1/mission/autopilot", status(2, checksum ^ 1, "no answer"))
    wait("another plan's copy said as not this one", 10, lambda: text("mission").endswith(
        "; autopilot's own mission: not (yet) this plan"))
    step(f"autopilot's copy: {text('mission')}")
    page.publish("quad/drone1/mission/autopilot", b"")
    mission_buttons(checksum)
    page.publish("quad/drone1/mission/progress", progress(checksum, 5, 5, [0, 1, 2, 3, 4, 5]))
    wait("completed: every item reached", 10, lambda: set(states().values()) == {"reached"}
         and text("mission").startswith("completed; 6 reached"))
    page.publish("quad/drone1/mission/progress", progress(checksum ^ 1, 1, 1, [0]))
    wait("progress for another plan said so", 10, lambda: "another plan" in text("mission")
         and set(states().values()) == {"planned"})
    step(f"other plan: {text('mission')}")
    bad_before = int(text("bad-payloads"))
    page.publish("quad/drone1/mission/upload", upload[:-1] + bytes([upload[-1] ^ 1]))
    wait("a plan with a wrong checksum counted as bad", 10, lambda: int(text("bad-payloads")) == bad_before + 1)
    page.publish("quad/drone1/mission/upload", b"")
    wait("a cleared plan leaves the map", 10, lambda: page.count('[data-test="mission-item"]') == 0
         and text("mission") == "none")
    errors = page.page_errors()
    assert not errors, f"browser errors: {errors}"

page.run({"hostile": hostile, "login": login, "stale": stale, "home": home, "zones": zones,
          "mission": mission}[args.mode])
