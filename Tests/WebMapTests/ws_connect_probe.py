#!/usr/bin/python3
"""MQTT 3.1.1 CONNECT over a WebSocket, as the live map's browser does: prints the CONNACK return code (0 accepted,
4 bad user name or password, 5 not authorized). Usage: ws_connect_probe.py [--cafile CA] PORT [USER PASSWORD]
--cafile: wss, TLS trusting only that CA (`system`: this machine's usual trust store) and checking the broker's
certificate is for 127.0.0.1; a refused certificate exits with "tls: <reason>"."""
import base64, os, socket, ssl, struct, sys

args = sys.argv[1:]
cafile = None
if args[:1] == ["--cafile"]:
    cafile, args = args[1], args[2:]
port = int(args[0])
user, password = (args[1], args[2]) if len(args) == 3 else (None, None)
s = socket.create_connection(("127.0.0.1", port), timeout=5)
if cafile is not None:
    context = ssl.create_default_context(cafile=None if cafile == "system" else cafile)
    try:
        s = context.wrap_socket(s, server_hostname="127.0.0.1")
    except ssl.SSLError as error:
        sys.exit("tls: %s" % (error.reason or error))
key = base64.b64encode(os.urandom(16)).decode()
s.sendall((f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
           f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: mqtt\r\n\r\n").encode())
response = b""
while b"\r\n\r\n" not in response:
    chunk = s.recv(4096)
    if not chunk: sys.exit("closed during the handshake")
    response += chunk
if not response.startswith(b"HTTP/1.1 101"): sys.exit("no websocket upgrade: " + response.split(b"\r\n")[0].decode())

def field(text): b = text.encode(); return struct.pack(">H", len(b)) + b
flags, payload = 0x02, field("ws-probe-%d" % os.getpid())
if user is not None:
    flags |= 0xC0; payload += field(user) + field(password)
body = field("MQTT") + bytes([4, flags, 0, 30]) + payload
packet = bytes([0x10, len(body)]) + body
mask = os.urandom(4)
s.sendall(bytes([0x82, 0x80 | len(packet)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(packet)))
data = response.split(b"\r\n\r\n", 1)[1]
while len(data) < 2 + 4:
    chunk = s.recv(4096)
    if not chunk: break
    data += chunk
# An unmasked binary frame from the server: 0x82, length, then CONNACK 20 02 00 <rc>.
if len(data) >= 6 and data[0] == 0x82 and data[2] == 0x20:
    print(data[5]); sys.exit(0)
print("closed" if len(data) < 6 else "unexpected " + data.hex())
