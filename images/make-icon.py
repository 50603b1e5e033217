#!/usr/bin/env python3
# Regenerates images/icon.png (128x128 RGBA) with the standard library only: `python3 images/make-icon.py`.
# Draws the extension icon: a dark tile with three linked nodes (a small pipeline), anti-aliased by supersampling.
import struct, zlib, math
N = 128; S = 4
bg = (24, 28, 40); tile = (36, 42, 60); edge_c = (120, 200, 255); node_c = (255, 196, 64); gate_c = (120, 230, 160)
nodes = [((30, 40), node_c), ((64, 88), node_c), ((98, 40), gate_c)]
edges = [(0, 1), (1, 2), (0, 2)]
def seg_dist(px, py, ax, ay, bx, by):
    dx, dy = bx - ax, by - ay
    t = max(0, min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - (ax + t * dx), py - (ay + t * dy))
def color_at(x, y):
    # rounded tile
    r = 22; cx = min(max(x, r), N - r); cy = min(max(y, r), N - r)
    if math.hypot(x - cx, y - cy) > r: return None
    c = tile
    for a, b in edges:
        (ax, ay), _ = nodes[a]; (bx, by), _ = nodes[b]
        if seg_dist(x, y, ax, ay, bx, by) < 4.5: c = edge_c
    for (nx, ny), nc in nodes:
        d = math.hypot(x - nx, y - ny)
        if d < 15: c = nc
        if d < 7: c = tile
    return c
rows = []
for y in range(N):
    row = bytearray([0])
    for x in range(N):
        acc = [0, 0, 0, 0]
        for sy in range(S):
            for sx in range(S):
                c = color_at(x + (sx + 0.5) / S, y + (sy + 0.5) / S)
                if c is not None:
                    acc[0] += c[0]; acc[1] += c[1]; acc[2] += c[2]; acc[3] += 255
        n = S * S; a = acc[3] // n
        if a: row += bytes([acc[0] * 255 // acc[3], acc[1] * 255 // acc[3], acc[2] * 255 // acc[3], a])
        else: row += bytes([0, 0, 0, 0])
    rows.append(bytes(row))
def chunk(kind, data):
    return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data) & 0xffffffff)
png = b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', N, N, 8, 6, 0, 0, 0)) + chunk(b'IDAT', zlib.compress(b''.join(rows), 9)) + chunk(b'IEND', b'')
open(__import__('os').path.join(__import__('os').path.dirname(__file__), 'icon.png'), 'wb').write(png)
print(len(png))
