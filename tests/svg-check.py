# SPDX-License-Identifier: Apache-2.0
"""Checks of `velstatus explain -o svg` (tests/cli-explain-svg.sh), with
Python's standard library only.

  svg-check.py xml SVG [JSON TEXT]  the SVG parses as XML, is self-contained
      (no script, no external reference, no stylesheet), and, given the same
      run's -o json and text outputs, holds every operation ID of the JSON
      and every event time as the text prints it (the same zone)
  svg-check.py png PNG              a PNG that rsvg-convert drew is not blank:
      prints the share of non-white pixels and the number of colours

Exits 0 when the check holds, 1 with a message otherwise."""
import json
import re
import struct
import sys
import xml.etree.ElementTree as ET
import zlib

SVG_NS = "{http://www.w3.org/2000/svg}"
EVENT_LINE = re.compile(r"^  (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? [+-]\d{4} \S+) \(the (?:next pass|first pass from then on)\):$")


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def check_xml(path, json_path=None, text_path=None):
    with open(path, "rb") as f:
        raw = f.read()
    root = ET.fromstring(raw)
    if root.tag != SVG_NS + "svg":
        fail("%s: the root is %s, not svg" % (path, root.tag))
    for el in root.iter():
        tag = el.tag.replace(SVG_NS, "")
        if tag in ("script", "style", "foreignObject", "image", "use", "a"):
            fail("%s: a <%s> element: not self-contained" % (path, tag))
        for k, val in el.attrib.items():
            if "href" in k or k.startswith("on"):
                fail("%s: attribute %s" % (path, k))
            if "url(" in val and not re.fullmatch(r"url\(#[\w-]+\)", val):
                fail("%s: %s=%r refers outside the picture" % (path, k, val))
    text = "".join(root.itertext())
    if json_path is None:
        return
    with open(json_path) as f:
        doc = json.load(f)
    ids = [op["operationID"] for op in doc["operations"] or []]
    for i in ids:
        if i not in text:
            fail("%s: operation ID %r is not in it" % (path, i))
    with open(text_path) as f:
        times = [m.group(1) for m in map(EVENT_LINE.match, f.read().splitlines()) if m]
    events = len(doc["timeline"]["events"]) if doc["timeline"] else 0
    if len(times) != events:
        fail("%s: the text lists %d event times, the JSON has %d events" % (text_path, len(times), events))
    for t in times:
        if t not in text:
            fail("%s: event time %r is not in it" % (path, t))
    print("%s: XML, self-contained, %d operation IDs and %d event times in it" % (path, len(ids), len(times)))


def png_pixels(path):
    """The rows of an 8-bit RGB or RGBA PNG, unfiltered."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail("%s: not a PNG" % path)
    pos, idat, hdr = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = hdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        fail("%s: depth %d colour type %d interlace %d not handled" % (path, depth, ctype, interlace))
    bpp = 4 if ctype == 6 else 3
    raw, stride, rows, prev = zlib.decompress(idat), w * bpp, [], bytearray(w * bpp)
    for y in range(h):
        ft, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if ft == 1:
                line[i] = (line[i] + a) & 255
            elif ft == 2:
                line[i] = (line[i] + b) & 255
            elif ft == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ft == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def check_png(path):
    w, h, bpp, rows = png_pixels(path)
    ink, colours = 0, set()
    for row in rows:
        for x in range(0, w * bpp, bpp):
            px = row[x:x + 3]
            if bpp == 4 and row[x + 3] == 0:
                continue
            colours.add(bytes(px))
            ink += px != b"\xff\xff\xff"
    share = ink / float(w * h)
    print("%s: %dx%d, %.1f%% non-white pixels, %d colours" % (path, w, h, share * 100, len(colours)))
    if share < 0.02 or len(colours) < 8:
        fail("%s: the picture is (nearly) blank" % path)


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "xml":
        check_xml(*sys.argv[2:5])
    elif len(sys.argv) == 3 and sys.argv[1] == "png":
        check_png(sys.argv[2])
    else:
        fail("usage: svg-check.py xml SVG [JSON TEXT] | png PNG")
