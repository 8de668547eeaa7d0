#!/usr/bin/env python3
"""Writes the small sample images the Coalesce app opens (python3 standard library only).

Each image is chosen to show something in the app:
  zoneplate-320x200.png    8-bit grey, non-square (transpose visibly swaps the sides), fine rings
                           that a box filter blurs away along one axis only.
  shapes-160x120.ppm       8-bit colour (binary PPM): the app reduces colour to luminance or one channel.
  ramp16-128x96.png        16-bit grey, values up to 65535: needs 16-bit or float output files.
  noise-97x61.pgm          8-bit grey (binary PGM), odd sizes that do not divide into tiles.

Run:  python3 images/make_samples.py [output-folder]   (default: the folder of this script)
The output is deterministic, so rerunning it reproduces the committed files byte for byte.
"""

import math
import os
import struct
import sys
import zlib


def png_bytes(width, height, rows, bit_depth, colour_type):
    """rows: list of bytes objects, one per scanline, already packed for the bit depth."""
    def chunk(kind, payload):
        body = kind + payload
        return struct.pack(">I", len(payload)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, bit_depth, colour_type, 0, 0, 0)
    raw = b"".join(b"\x00" + row for row in rows)  # filter type 0 (none) on every scanline
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def zoneplate(width, height):
    # Rings whose frequency grows with the distance from the centre: cos(k * r^2).
    cx, cy = (width - 1) / 2.0, (height - 1) / 2.0
    k = math.pi / (2.2 * max(width, height))
    rows = []
    for y in range(height):
        row = bytearray(width)
        for x in range(width):
            r2 = (x - cx) ** 2 + (y - cy) ** 2
            row[x] = int(round(127.5 + 127.5 * math.cos(k * r2)))
        rows.append(bytes(row))
    return png_bytes(width, height, rows, 8, 0)


def ramp16(width, height):
    # A diagonal ramp over the full 16-bit range: an 8-bit file would lose it.
    rows = []
    top = (width - 1) + (height - 1)
    for y in range(height):
        row = bytearray()
        for x in range(width):
            row += struct.pack(">H", (x + y) * 65535 // top)
        rows.append(bytes(row))
    return png_bytes(width, height, rows, 16, 0)


def shapes(width, height):
    # A red disc, a green bar and a blue square on a dark background, as binary PPM (P6).
    pixels = bytearray()
    for y in range(height):
        for x in range(width):
            r = g = b = 24
            if (x - 50) ** 2 + (y - 60) ** 2 < 35 ** 2:
                r = 230
            if 20 <= y < 36:
                g = 200
            if 95 <= x < 145 and 55 <= y < 105:
                b = 240
            pixels += bytes((r, g, b))
    return b"P6\n%d %d\n255\n" % (width, height) + bytes(pixels)


def noise(width, height, seed=12345):
    # A linear congruential generator, so the file is the same on every machine.
    state = seed
    pixels = bytearray()
    for _ in range(width * height):
        state = (1103515245 * state + 12345) % (1 << 31)
        pixels.append(state >> 23)
    return b"P5\n%d %d\n255\n" % (width, height) + bytes(pixels)


SAMPLES = {
    "zoneplate-320x200.png": lambda: zoneplate(320, 200),
    "shapes-160x120.ppm": lambda: shapes(160, 120),
    "ramp16-128x96.png": lambda: ramp16(128, 96),
    "noise-97x61.pgm": lambda: noise(97, 61),
}


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    os.makedirs(out_dir, exist_ok=True)
    for name, make in SAMPLES.items():
        path = os.path.join(out_dir, name)
        data = make()
        tmp = path + ".tmp"
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)  # never leave a half-written sample behind
        print("%s  %d bytes" % (path, len(data)))


if __name__ == "__main__":
    main()
