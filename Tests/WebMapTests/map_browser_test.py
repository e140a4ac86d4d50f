#!/usr/bin/python3
"""The live map in headless Chromium (Selenium) against a real broker, the real services and drone-sim.

Started by Tests/IntegrationTests/MapPageTests.swift, which owns the flight stack and restarts the broker when
this script asks (it writes <handshake>/restart-request and waits for <handshake>/restart-done). Exit 0 = pass;
every step prints one line, a failure prints what the page showed."""
import argparse, csv, math, os, struct, subprocess, sys, time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.common.exceptions import StaleElementReferenceException

p = argparse.ArgumentParser()
p.add_argument("--url", required=True)
p.add_argument("--mqtt-port", required=True, type=int)
p.add_argument("--trace", required=True)
p.add_argument("--drone", default="drone1")
p.add_argument("--handshake", required=True)
p.add_argument("--screenshot")
p.add_argument("--chromedriver", default="/usr/bin/chromedriver")
args = p.parse_args()

R = 6371008.8
def distance(a, b):
    p1, p2 = math.radians(a[0]), math.radians(b[0])
    h = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(math.radians(b[1] - a[1]) / 2) ** 2
    return 2 * R * math.asin(min(1, math.sqrt(h)))
def destination(a, bearing, d):
    p1, l1, t = math.radians(a[0]), math.radians(a[1]), math.radians(bearing)
    p2 = math.asin(math.sin(p1) * math.cos(d / R) + math.cos(p1) * math.sin(d / R) * math.cos(t))
    l2 = l1 + math.atan2(math.sin(t) * math.sin(d / R) * math.cos(p1), math.cos(d / R) - math.sin(p1) * math.sin(p2))
    return (math.degrees(p2), math.degrees(l2))

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

o = webdriver.ChromeOptions()
for a in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,860", "--disable-gpu"]:
    o.add_argument(a)
o.set_capability("goog:loggingPrefs", {"browser": "ALL"})
driver = webdriver.Chrome(service=Service(args.chromedriver), options=o)

def fresh(read):
    """The page re-renders several times a second: an element found a moment ago may be gone; read again."""
    for _ in range(20):
        try: return read()
        except StaleElementReferenceException: time.sleep(0.05)
    return read()
def text(test):
    def read():
        els = driver.find_elements(By.CSS_SELECTOR, f'[data-test="{test}"]')
        return els[0].text if els else None
    return fresh(read)
def marker():
    def read():
        els = driver.find_elements(By.CSS_SELECTOR, f'[data-test="drone"][data-drone="{args.drone}"]')
        if not els or not els[0].get_attribute("data-lat"): return None
        return (float(els[0].get_attribute("data-lat")), float(els[0].get_attribute("data-lon")))
    return fresh(read)
def wait(what, timeout, condition, every=0.2):
    deadline = time.time() + timeout
    last = None
    while time.time() < deadline:
        try:
            value = condition()
            if value: return value
        except AssertionError as e:
            last = e
        time.sleep(every)
    raise AssertionError(f"timed out after {timeout} s: {what} ({last})")
def click(test):
    driver.find_element(By.CSS_SELECTOR, f'[data-test="{test}"]').click()
def step(message): print(time.strftime("%H:%M:%S"), message, flush=True)
def publish_raw(path, payload):
    subprocess.run(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(args.mqtt_port), "-q", "1",
                    "-t", f"quad/{args.drone}/{path}", "-m", payload], check=True, timeout=10)

try:
    driver.get(args.url)
    wait("page connected to the broker", 20, lambda: text("broker") == "online")
    step("page loaded, broker online")
    for service in ["drone-link", "navigator", "drone-controller"]:
        wait(f"{service} shown online", 20, lambda: text(f"presence-{service}") == "online")
    home = wait("drone marker with a position", 20, marker)
    assert distance(home, truth()[0]) < 2, f"marker {home} vs truth {truth()}"
    wait("controller state shown", 10, lambda: text("activity") == "landed")
    step(f"drone online at {home}, landed; link: {text('link')}, battery: {text('battery')}")

    click("takeoff")
    wait("takeoff flies (activity hovering)", 40, lambda: text("activity") == "hovering")
    assert truth()[1] in ("hovering", "flying", "taking_off"), f"sim says {truth()[1]}"
    assert "refused" not in (text("action-result") or ""), text("action-result")
    step(f"airborne: sim {truth()[1]}, altitude on page {text('altitude')}, action: {text('action-result')}")

    # Click the map 40 m away (bearing 60°) from where the drone is.
    start = marker()
    goal = destination(start, 60, 40)
    map_el = driver.find_element(By.CSS_SELECTOR, '[data-test="map"]')
    point = driver.execute_script("const p = quadMap.latLngToContainerPoint(arguments[0]); return [p.x, p.y];", list(goal))
    size = map_el.size
    ActionChains(driver).move_to_element_with_offset(map_el, int(round(point[0] - size["width"] / 2)),
                                                     int(round(point[1] - size["height"] / 2))).click().perform()
    wait("target confirmation shown", 5, lambda: driver.find_element(By.CSS_SELECTOR, '[data-test="send-target"]').is_displayed())
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
    fix = struct.pack("<BBBBBIq", 0xFF, 0x51, 1, 0, 6, 1, int(time.time() * 1e6)) + bytes([0]) + \
        struct.pack("<ddfffBB", start[0] + 0.001, start[1], 0, 0, 0, 7, 1)
    subprocess.run(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(args.mqtt_port), "-t", "quad/drone2/telemetry/position",
                    "-s"], input=fix, check=True, timeout=10)
    wait("drone list with both drones", 10,
         lambda: len(driver.find_elements(By.CSS_SELECTOR, '[data-test="drones"] button')) == 2)
    wait("second drone's marker", 10, lambda: driver.find_elements(By.CSS_SELECTOR, '[data-test="drone"][data-drone="drone2"]'))
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
    step(f"sim flew to the click: {distance(here, goal):.2f} m from it; marker followed ({samples} samples, worst {worst:.1f} m); "
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
    driver.execute_script("quadMap.setZoom(16, {animate: false}); quadMap.panTo(arguments[0], {animate: false});", list(home))
    far = destination(home, 200, 260)
    time.sleep(0.5)
    point = driver.execute_script("const p = quadMap.latLngToContainerPoint(arguments[0]); return [p.x, p.y];", list(far))
    ActionChains(driver).move_to_element_with_offset(map_el, int(round(point[0] - size["width"] / 2)),
                                                     int(round(point[1] - size["height"] / 2))).click().perform()
    wait("geofence warning before sending", 5, lambda: "geofence" in driver.find_element(By.ID, "pending-text").text)
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
    # Emergency asks twice: the first click only arms.
    click("emergency")
    assert "again" in driver.find_element(By.CSS_SELECTOR, '[data-test="emergency"]').text
    assert not (text("action-result") or "").startswith("emergency"), text("action-result")
    step("emergency armed by the first click only (not sent)")
    # Refused websocket connections while the broker was down are expected; anything else is a page error.
    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE" and "ERR_CONNECTION_REFUSED" not in e["message"]]
    assert not errors, f"browser errors: {errors}"
    print("PASS", flush=True)
except Exception as e:
    print("FAIL:", repr(e), flush=True)
    try:
        print("page panel:", driver.find_element(By.ID, "side").text, flush=True)
        for entry in driver.get_log("browser")[-20:]: print("browser:", entry, flush=True)
        driver.save_screenshot(os.path.join(args.handshake, "failure.png"))
    except Exception:
        pass
    sys.exit(1)
finally:
    driver.quit()
