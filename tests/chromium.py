"""Looking at pictures the way a person would: headless Chromium draws a page,
Pillow reads the pixels back.

A test asks for the ``browser`` fixture of ``engine/test_pictures.py``; without
Chromium (Debian's ``chromium``) or Pillow it is skipped, unless the
environment says ``SOLVERS_REQUIRE_CHROMIUM=1`` (the CI does), where a missing
browser is a failure so that the picture tests cannot be skipped unnoticed.
"""

from __future__ import annotations

import base64
import math
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

REQUIRED = os.environ.get("SOLVERS_REQUIRE_CHROMIUM") == "1"

#: A pixel belongs to a palette colour when it is at most this far from it
#: (Euclidean distance in RGB): exact centres are exact, this only absorbs
#: rounding in the browser's colour pipeline.
TOLERANCE = 24.0

#: The page background around pictures in a gallery: no picture uses it.
MAGENTA = "#ff00ff"


def unavailable(reason: str) -> None:
    if REQUIRED:
        pytest.fail(f"SOLVERS_REQUIRE_CHROMIUM=1, but {reason}")
    pytest.skip(reason)


def rgb(colour: str) -> tuple[int, int, int]:
    """``"#rrggbb"`` as a tuple."""
    value = colour.lstrip("#")
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)


def distance(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    return math.dist(a[:3], b[:3])


def colour_at(image: Any, x: float, y: float, palette: dict[str, str]) -> str:
    """The name of the palette colour of the pixel under the point ``(x, y)``;
    fails when the pixel is no colour of the palette (a blend, or a stray)."""
    pixel = image.getpixel((math.floor(x), math.floor(y)))
    name = min(palette, key=lambda key: distance(pixel, rgb(palette[key])))
    gap = distance(pixel, rgb(palette[name]))
    assert gap <= TOLERANCE, (
        f"the pixel at ({x:.1f}, {y:.1f}) is {pixel}, not a colour of the picture "
        f"(nearest: {name} {palette[name]}, {gap:.0f} away)"
    )
    return name


def bbox_of(image: Any, colour: str, box: tuple[int, int, int, int] | None = None) -> Any:
    """The bounding box ``(left, top, right, bottom)`` of the pixels of exactly
    ``colour`` (within a small tolerance) inside ``box``, or ``None``."""
    from PIL import Image, ImageChops

    region = image if box is None else image.crop(box)
    plain = Image.new("RGB", region.size, rgb(colour))
    # pixels within the tolerance of the colour become white, the rest black
    close = ImageChops.difference(region, plain).convert("L").point(lambda v: 255 if v < 8 else 0)
    found = close.getbbox()
    if found is None or box is None:
        return found
    left, top = box[0], box[1]
    return (found[0] + left, found[1] + top, found[2] + left, found[3] + top)


def drawn_box(image: Any, box: tuple[int, int, int, int]) -> Any:
    """The bounding box of everything inside ``box`` that is not the gallery's
    magenta background."""
    from PIL import Image, ImageChops

    region = image.crop(box)
    found = ImageChops.difference(region, Image.new("RGB", region.size, rgb(MAGENTA))).getbbox()
    if found is None:
        return None
    return (found[0] + box[0], found[1] + box[1], found[2] + box[0], found[3] + box[1])


class Browser:
    """Headless Chromium, one fresh profile folder, pictures at one pixel per
    CSS pixel."""

    def __init__(self, executable: str, folder: Path) -> None:
        self.executable = executable
        self.folder = folder
        self.shots = 0

    def _run(self, url: str, size: tuple[int, int], *extra: str) -> subprocess.CompletedProcess:
        argv = [
            self.executable,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
            "--no-first-run",
            f"--user-data-dir={self.folder / 'profile'}",
            f"--window-size={size[0]},{size[1]}",
            *extra,
            url,
        ]
        return subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False)

    def screenshot(self, page: Path, size: tuple[int, int], fragment: str = "") -> Any:
        """The page drawn in a window of ``size`` (width, height), as an RGB image."""
        from PIL import Image

        self.shots += 1
        out = self.folder / f"shot-{self.shots}.png"
        done = self._run(page.as_uri() + fragment, size, f"--screenshot={out}")
        assert out.is_file(), f"chromium wrote no screenshot: {done.stderr[-2000:]}"
        image = Image.open(out).convert("RGB")
        assert image.size == size
        return image

    def dom(self, page: Path, fragment: str = "", wait_ms: int = 0) -> str:
        """The page's DOM after its scripts ran, as HTML text; ``wait_ms``: let
        the page's timers run that long first, in virtual time (no real wait)."""
        wait = [f"--virtual-time-budget={wait_ms}"] if wait_ms else []
        done = self._run(page.as_uri() + fragment, (800, 600), "--dump-dom", *wait)
        assert done.returncode == 0 and "<html" in done.stdout, done.stderr[-2000:]
        return done.stdout


def browser(folder: Path) -> Browser:
    """A :class:`Browser`, or a skip (a failure under SOLVERS_REQUIRE_CHROMIUM=1)."""
    try:
        import PIL  # noqa: F401
    except ImportError:
        unavailable("Pillow is not installed (pip install '.[test]')")
    executable = shutil.which("chromium")
    if executable is None:
        unavailable("chromium is not installed (Debian: apt-get install chromium)")
    return Browser(executable, folder)


def gallery(pictures: list[str], width: int = 1000, gap: int = 20) -> tuple[str, list[Any], Any]:
    """An HTML page showing each SVG text in ``pictures`` as an image of its own
    (a data URL, as a viewer opening the file would see it) on a magenta
    background: the page, each picture's ``(x, y, width, height)`` and the
    window size that shows them all."""
    import xml.etree.ElementTree as ET

    places, x, y, row_height = [], gap, gap, 0
    images = []
    for svg in pictures:
        root = ET.fromstring(svg)
        w, h = float(root.get("width")), float(root.get("height"))
        if x > gap and x + w + gap > width:
            x, y, row_height = gap, y + row_height + gap, 0
        places.append((x, y, w, h))
        data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
        images.append(
            f'<img src="data:image/svg+xml;base64,{data}" alt="" '
            f'style="position:absolute;left:{x}px;top:{y}px">'
        )
        x += math.ceil(w) + gap
        row_height = max(row_height, math.ceil(h))
    page = (
        "<!DOCTYPE html><html><head><meta charset='utf-8'><style>"
        f"html,body{{margin:0;background:{MAGENTA}}}</style></head><body>"
        + "".join(images)
        + "</body></html>"
    )
    return page, places, (width, y + row_height + gap)
