"""Shared by the live map's browser tests: headless Chromium via Selenium, reading the page's data-test hooks."""
import math, os, struct, subprocess, sys, time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.common.exceptions import StaleElementReferenceException

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

def position_fix(lat, lon, sequence=1):
    """A binary PositionFix (PROTOCOL.md type 6) without optional fields."""
    return struct.pack("<BBBBBIq", 0xFF, 0x51, 1, 0, 6, sequence, int(time.time() * 1e6)) + bytes([0]) + \
        struct.pack("<ddfffBB", lat, lon, 0, 0, 0, 7, 1)

def step(message): print(time.strftime("%H:%M:%S"), message, flush=True)

class Page:
    def __init__(self, chromedriver, mqtt_port, failure_dir):
        o = webdriver.ChromeOptions()
        for a in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,860",
            "--disable-gpu"]:
            o.add_argument(a)
        o.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        self.driver = webdriver.Chrome(service=Service(chromedriver), options=o)
        self.mqtt_port = mqtt_port
        self.failure_dir = failure_dir

    def fresh(self, read):
        """The page re-renders several times a second: an element found a moment ago may be gone; read again."""
        for _ in range(20):
            try: return read()
            except StaleElementReferenceException: time.sleep(0.05)
        return read()

    def text(self, test):
        def read():
            els = self.driver.find_elements(By.CSS_SELECTOR, f'[data-test="{test}"]')
            return els[0].text if els else None
        return self.fresh(read)

    def marker(self, drone):
        def read():
            els = self.driver.find_elements(By.CSS_SELECTOR, f'[data-test="drone"][data-drone="{drone}"]')
            if not els or not els[0].get_attribute("data-lat"): return None
            return (float(els[0].get_attribute("data-lat")), float(els[0].get_attribute("data-lon")))
        return self.fresh(read)

    def count(self, selector): return self.fresh(lambda: len(self.driver.find_elements(By.CSS_SELECTOR, selector)))

    @staticmethod
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

    def enabled(self, test):
        return self.fresh(lambda: self.driver.find_element(By.CSS_SELECTOR, f'[data-test="{test}"]').is_enabled())

    def type_into(self, test, value):
        """Replaces an input's text as a user types it."""
        def type_():
            field = self.driver.find_element(By.CSS_SELECTOR, f'[data-test="{test}"]')
            field.clear()
            field.send_keys(value)
        self.fresh(type_)

    def click(self, test):
        # Found and clicked in one go, again if a re-render replaced the button in between (seen on a busy machine).
        self.fresh(lambda: self.driver.find_element(By.CSS_SELECTOR, f'[data-test="{test}"]').click())

    def click_map_at(self, point):
        """A real mouse click on the map where the page draws `point` (lat, lon)."""
        def click():
            map_el = self.driver.find_element(By.CSS_SELECTOR, '[data-test="map"]')
            xy = self.driver.execute_script(
                "const p = quadMap.latLngToContainerPoint(arguments[0]); return [p.x, p.y];", list(point))
            size = map_el.size
            ActionChains(self.driver).move_to_element_with_offset(
                map_el, int(round(xy[0] - size["width"] / 2)), int(round(xy[1] - size["height"] / 2))).click().perform()
        self.fresh(click)

    def publish(self, topic, payload, qos=1, retain=False):
        """mosquitto_pub of bytes (or text) on the plain listener (retained with `retain`)."""
        data = payload.encode() if isinstance(payload, str) else payload
        source = ["-s"] if data else ["-n"]   # -s refuses empty input; -n sends an empty message
        subprocess.run(["mosquitto_pub", "-h", "127.0.0.1", "-p", str(self.mqtt_port), "-q", str(qos), "-t",
            topic] + (["-r"] if retain else []) + source,
                       input=data, check=True, timeout=10)

    def page_errors(self):
        """SEVERE browser log entries (uncaught exceptions included), except refused websocket connections."""
        return [e for e in self.driver.get_log("browser")
                if e["level"] == "SEVERE" and "ERR_CONNECTION_REFUSED" not in e["message"]]

    def run(self, body):
        """Runs the test body: prints PASS and exits 0, or prints what the page showed and exits 1."""
        try:
            body()
            print("PASS", flush=True)
        except Exception as e:
            print("FAIL:", repr(e), flush=True)
            try:
                print("page panel:", self.driver.find_element(By.ID, "side").text, flush=True)
                for entry in self.driver.get_log("browser")[-20:]: print("browser:", entry, flush=True)
                self.driver.save_screenshot(os.path.join(self.failure_dir, "failure.png"))
            except Exception:
                pass
            self.driver.quit()
            sys.exit(1)
        self.driver.quit()
