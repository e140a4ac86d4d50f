#!/usr/bin/env python3
"""Writes the navdata .hex fixtures with Python's struct module, independently of the Swift encoder.

Run from this folder: python3 make_fixtures.py. Layouts follow the AR.Drone SDK 2.0 developer guide's navdata description, as Shared/Core/ARDrone's decoder documents
them (all little-endian).
"""
import struct

HOVER_STATE = (1 << 0) | (1 << 4) | (1 << 10) | (1 << 23) | (0xF << 24)  # 0x0F800411


def option(tag, payload):
    return struct.pack('<HH', tag, len(payload) + 4) + payload


def packet(state, seq, vision, options):
    body = struct.pack('<IIII', 0x55667788, state, seq, vision) + b''.join(options)
    return body + struct.pack('<HHI', 0xFFFF, 8, sum(body) & 0xFFFFFFFF)


def demo(major, minor, battery, theta, phi, psi, altitude_mm, vx, vy, vz, frames):
    fields = struct.pack('<IIfffifffI', (major << 16) | minor, battery, theta, phi, psi, altitude_mm,
                         vx, vy, vz, frames)
    return option(0, fields + bytes(148 - 4 - len(fields)))


def magneto():
    payload = struct.pack('<hhh', 100, -200, 300)
    payload += struct.pack('<9f', 1, 2, 3, 4, 5, 6, 7, 8, 9)
    payload += struct.pack('<fff', 370.5, 371.25, 372.0)
    payload += struct.pack('<BIfff', 1, 2, 400.5, 1.5, 0.25)
    payload += bytes([0xAB] * 8)  # the firmware's 8 unknown trailing bytes
    assert len(payload) == 79
    return option(22, payload)


def gps():
    payload = struct.pack('<dddd', 48.858222, 2.2945, 35.5, 0.9)
    payload += struct.pack('<iii', 1, 1, 0)
    payload += struct.pack('<dddd', 48.85, 2.29, 48.858, 2.294)
    payload += struct.pack('<I', 1)
    payload += struct.pack('<10f', *[i * 0.5 for i in range(10)])
    payload += struct.pack('<dd', 1.1, 1.4)
    payload += struct.pack('<fI', 2.5, 0x00200010)
    payload += struct.pack('<5f', 90.5, 92.0, 3.5, 5.0, 38.0)
    payload += struct.pack('<I', 9)
    payload += b''.join(struct.pack('<BB', i + 1, 30 + i) for i in range(12))
    payload += struct.pack('<iIffI', 1, 0xFF, 0.5, -0.5, 7)
    assert len(payload) == 212
    return option(27, payload)


def write(name, data, comment):
    with open(name, 'w') as f:
        f.write(f'# {comment}\n# {len(data)} bytes\n')
        for i in range(0, len(data), 16):
            f.write(' '.join(f'{b:02X}' for b in data[i:i + 16]) + '\n')


bootstrap = bytes.fromhex('88 77 66 55 10 0C 80 4F 01 00 00 00 00 00 00 00 FF FF 08 00 A6 02 00 00')
write('bootstrap.hex', bootstrap, 'Real bootstrap datagram, firmware 1.7.11 (a capture posted on Parrot's developer forum)')

default_demo = packet(HOVER_STATE, 1234, 1, [
    demo(4, 0, 87, -1234.5, 2500.25, -90000.0, 1520, 123.5, -45.25, 0.0, 42),
    option(16, bytes(324)),
])
assert len(default_demo) == 500
write('demo-default.hex', default_demo, 'Default demo mode: demo (148) + zero vision_detect (328) + checksum')

full = packet(HOVER_STATE & ~(1 << 10), 5000, 0, [
    demo(3, 0, 64, -5000.0, 0.0, 45000.0, 2500, 1500.0, 0.0, -100.0, 7),
    magneto(),
    gps(),
])
assert len(full) == 16 + 148 + 83 + 216 + 8
write('demo-magneto-gps.hex', full, 'demo + magneto (83) + GPS (216, firmware 2.4.8 layout) + checksum')

corrupt = bytearray(default_demo)
corrupt[40] ^= 0x01  # altitude low byte 0xF0 -> 0xF1; checksum left as it was
write('corrupt-checksum.hex', bytes(corrupt), 'demo-default with one altitude bit flipped after checksumming')

write('truncated-300.hex', default_demo[:300], 'demo-default cut at 300 bytes: vision_detect overruns')
write('truncated-20.hex', default_demo[:20], 'demo-default cut at 20 bytes: shorter than header + checksum')
