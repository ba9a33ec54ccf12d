"""PNG pixels for the CLI tests (python3's zlib, no PIL): read_png(path)
gives a function (x, y) -> (r, g, b), and the picture's width and height.
8-bit RGB or RGBA, non-interlaced (what td shot writes)."""
import struct, zlib


def read_png(path):
    d = open(path, "rb").read()
    at, idat = 8, b""
    while at < len(d):
        n, kind = struct.unpack(">I4s", d[at:at + 8])
        body = d[at + 8:at + 8 + n]
        at += 12 + n
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
    assert depth == 8 and ctype in (2, 6)
    bpp = 3 if ctype == 2 else 4
    raw, stride, rows, prev, at = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp), 0
    for _ in range(h):
        f, line = raw[at], bytearray(raw[at + 1:at + 1 + stride])
        at += 1 + stride
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return (lambda x, y: tuple(rows[y][x * bpp:x * bpp + 3])), w, h
