"""What every MAVSDK script here shares: a failure line with the script's prefix, waiting for a condition, and the
first autopilot on the UDP port drone-sim sends to."""
import sys
import time

from mavsdk import ComponentType, Configuration, Mavsdk


class Script:
    def __init__(self, prefix):
        self.prefix = prefix

    def fail(self, reason):
        print(f"{self.prefix}: FAILED: {reason}", flush=True)
        sys.exit(1)

    def wait(self, cond, what, timeout):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if cond():
                return
            time.sleep(0.1)
        self.fail(f"timed out waiting for {what}")

    def autopilot(self, listen_port, component_type):
        """(sdk, system): the sdk must outlive the system."""
        sdk = Mavsdk(Configuration.create_with_component_type(component_type))
        sdk.add_any_connection(f"udpin://127.0.0.1:{listen_port}")
        system = sdk.first_autopilot(15)
        if system is None:
            self.fail("no autopilot discovered")
        return sdk, system


__all__ = ["Script", "ComponentType"]
