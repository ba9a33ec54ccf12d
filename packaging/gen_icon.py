#!/usr/bin/env python3
"""Draws td's desktop icon from the game's own sprites (assets/atlas.png):
a cannon tower (its base and turret) on a road tile, composed at the
sprites' 32x32 and scaled by whole pixels to 32, 64 and 128 (nearest: the
art stays crisp). Writes packaging/icons/td-SIZE.png (committed; installed
as share/icons/hicolor/SIZExSIZE/apps/td.png by cmake/install.cmake).
Needs only the standard library (zlib): python3 packaging/gen_icon.py"""
import os
import struct
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
LAYERS = ["tile_road", "base_cannon", "turret_cannon"]  # bottom to top
SIZES = [32, 64, 128]


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"{path}: not a PNG")
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype != 6 or interlace:
                sys.exit(f"{path}: expected 8-bit RGBA, not interlaced")
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, stride, rows, prev = zlib.decompress(idat), w * 4, [], bytearray(w * 4)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - 4] if i >= 4 else 0
            b = prev[i]
            c = prev[i - 4] if i >= 4 else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, rows


def write_png(path, size, px):
    raw = b"".join(b"\0" + bytes(px[y * size * 4:(y + 1) * size * 4]) for y in range(size))
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def main():
    _, atlas = read_png(os.path.join(ROOT, "assets", "atlas.png"))
    index = {}
    for line in open(os.path.join(ROOT, "assets", "atlas.txt")):
        f = line.split()
        if len(f) == 5 and not line.startswith("#"):
            index[f[0]] = tuple(int(v) for v in f[1:])
    icon = [0.0] * (32 * 32 * 4)  # premultiplied-free "over" in floats
    for name in LAYERS:
        x0, y0, w, h = index[name]
        if (w, h) != (32, 32):
            sys.exit(f"{name}: expected a 32x32 sprite")
        for y in range(32):
            for x in range(32):
                r, g, b, a = atlas[y0 + y][(x0 + x) * 4:(x0 + x) * 4 + 4]
                k, al = (y * 32 + x) * 4, a / 255
                for c, v in enumerate((r, g, b)):
                    icon[k + c] = v * al + icon[k + c] * (1 - al)
                icon[k + 3] = a + icon[k + 3] * (1 - al)
    os.makedirs(os.path.join(HERE, "icons"), exist_ok=True)
    for size in SIZES:
        s = size // 32
        px = bytearray(size * size * 4)
        for y in range(size):
            for x in range(size):
                k, o = ((y // s) * 32 + x // s) * 4, (y * size + x) * 4
                px[o:o + 4] = bytes(min(255, round(v)) for v in icon[k:k + 4])
        write_png(os.path.join(HERE, "icons", f"td-{size}.png"), size, px)


if __name__ == "__main__":
    main()
