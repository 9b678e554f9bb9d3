"""The HTML report in a real browser: headless Chromium renders it without a console error and
the screenshot shows the board drawn at the violation.

Needs Debian's ``chromium``; when it is missing the test tries ``apt-get install -y chromium``
and skips, saying why, if that fails.
"""

from __future__ import annotations

import os
import shutil
import statistics
import struct
import subprocess
import tempfile
import zlib
from collections import Counter
from pathlib import Path

import pytest

from vwlog.render.html import report_html

from .logs import judged_report, sample

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--enable-logging=stderr",
    "--v=0",
    "--window-size=1300,2400",
)
TERRITORY = (0xFD, 0xF6, 0xE3)
"""The drawn Territories' background colour (``.territory`` in the report's CSS)."""
MARKED = (0xE8, 0x59, 0x0C)
"""The outline of the cards the violating event names (``.hl``)."""


def _chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        pytest.skip("chromium is not installed and cannot be installed here (needs root apt-get)")
    try:
        subprocess.run(
            ["apt-get", "install", "-y", "chromium"],
            check=True,
            capture_output=True,
            timeout=600,
        )
    except (subprocess.SubprocessError, OSError) as err:
        pytest.skip(f"chromium is not installed and 'apt-get install -y chromium' failed: {err}")
    found = shutil.which("chromium")
    if not found:
        pytest.skip("'apt-get install -y chromium' gave no chromium on PATH")
    return found


def _pixels(png: bytes) -> tuple[int, int, list[tuple[int, int, int]]]:
    """Width, height and RGB pixels of a PNG: with Pillow where it is installed, else decoded
    here with zlib (8-bit RGB or RGBA, as Chromium writes them)."""
    try:
        from PIL import Image
    except ImportError:
        return _decode(png)
    import io

    with Image.open(io.BytesIO(png)) as image:
        rgb = image.convert("RGB")
        data = rgb.tobytes()
        return rgb.width, rgb.height, list(zip(data[0::3], data[1::3], data[2::3], strict=True))


def _decode(png: bytes) -> tuple[int, int, list[tuple[int, int, int]]]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, height, channels = 8, b"", 0, 0, 0
    while pos < len(png):
        (length,) = struct.unpack(">I", png[pos : pos + 4])
        kind, data = png[pos + 4 : pos + 8], png[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", data[:10])
            assert depth == 8, depth
            channels = {2: 3, 6: 4}[color]
        elif kind == b"IDAT":
            idat += data
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows: list[bytearray] = []
    prev = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind_ = raw[start]
        line = bytearray(raw[start + 1 : start + 1 + stride])
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b = prev[x]
            c = prev[x - channels] if x >= channels else 0
            if kind_ == 1:
                line[x] = (line[x] + a) & 0xFF
            elif kind_ == 2:
                line[x] = (line[x] + b) & 0xFF
            elif kind_ == 3:
                line[x] = (line[x] + (a + b) // 2) & 0xFF
            elif kind_ == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[x] = (line[x] + pred) & 0xFF
        rows.append(line)
        prev = line
    pixels = [(row[x], row[x + 1], row[x + 2]) for row in rows for x in range(0, stride, channels)]
    return width, height, pixels


def _near(p: tuple[int, int, int], q: tuple[int, int, int], tolerance: int = 6) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(p, q, strict=True))


@pytest.mark.slow
def test_the_html_report_renders_in_headless_chromium(tmp_path: Path) -> None:
    browser = _chromium()
    page = tmp_path / "damage-over-atk.html"
    page.write_text(
        report_html(judged_report(sample("invalid/damage-over-atk.jsonl"))),
        encoding="utf-8",
    )
    assert 'id="board-193"' in page.read_text(encoding="utf-8")
    shot = tmp_path / "damage-over-atk.png"
    with tempfile.TemporaryDirectory() as profile:
        run = subprocess.run(
            [
                browser,
                *FLAGS,
                f"--user-data-dir={profile}",
                f"--screenshot={shot}",
                page.as_uri(),
            ],
            capture_output=True,
            text=True,
            timeout=90,
            check=False,
        )
    assert run.returncode == 0, run.stderr[-2000:]
    console = [
        line
        for line in run.stderr.splitlines()
        if "Uncaught" in line or "CONSOLE" in line or ":INFO:CONSOLE" in line
    ]
    assert not console, console
    assert shot.exists()
    data = shot.read_bytes()
    assert len(data) > 20_000, len(data)
    width, height, pixels = _pixels(data)
    assert (width, height) == (1300, 2400)
    # not a blank page: the grey levels vary, and the board is drawn with its Territories and
    # the marked cards of the violating event
    grey = [sum(p) // 3 for p in pixels[::97]]
    assert statistics.pstdev(grey) > 10
    colours = Counter(pixels)
    territory = sum(n for c, n in colours.items() if _near(c, TERRITORY))
    marked = sum(n for c, n in colours.items() if _near(c, MARKED, 30))
    assert territory > 5_000, territory
    assert marked > 200, marked
