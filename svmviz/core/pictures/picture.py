"""What a picture of a plot may be: PNG or SVG by the file's suffix, a size and scale
within bounds. Checked before anything is drawn (and by `svmviz train --plot` before the
training), without Qt."""

from __future__ import annotations

import os
from pathlib import Path

from svmviz.core.errors import InputError

MIN_SIDE, MAX_SIDE = 100, 8000  # pixels, before and after the scale (8000² × 4 B: 256 MB)
GIF_MAX_BYTES = 1 << 30  # a GIF's frames are kept until the end (one byte a pixel each)
FORMATS = ("png", "svg")


def check_size(width: int, height: int, scale: float) -> None:
    """A picture of ``width`` × ``height`` pixels at ``scale`` (PNG: the pixels, lines and
    text times the scale) within the bounds, or an InputError naming what is not."""
    for side, name in ((width, "width"), (height, "height")):
        if int(side) != side or not MIN_SIDE <= side <= MAX_SIDE:
            raise InputError(f"the {name} must be {MIN_SIDE}–{MAX_SIDE} pixels, not {side}")
    if not 0.5 <= scale <= 4:
        raise InputError(f"the scale must be 0.5–4, not {scale:g}")
    if max(width, height) * scale > MAX_SIDE:
        raise InputError(
            f"{width} × {height} pixels at {scale:g}× is {round(width * scale)} × "
            f"{round(height * scale)}: at most {MAX_SIDE} pixels a side; choose a smaller size "
            "or scale"
        )


def check_format(path: str | os.PathLike[str]) -> str:
    """The picture's format ("png" or "svg") by the suffix of ``path``."""
    kind = Path(path).suffix.lower().lstrip(".")
    if kind not in FORMATS:
        raise InputError(f"{path}: choose a .png or .svg file name")
    return kind


def check_gif_size(
    frames: int,
    width: int,
    height: int,
    scale: float,
    remedy: str = "choose fewer frames, a smaller size, or numbered PNG frames",
) -> None:
    """Refuse a GIF whose frames would not fit in memory (each is kept until the end, one
    byte a pixel)."""
    pixels = round(width * scale) * round(height * scale)
    if frames * pixels > GIF_MAX_BYTES:
        raise InputError(
            f"{frames} frames of {pixels / 1e6:.1f} million pixels would need "
            f"{frames * pixels / 2**30:.1f} GB for a GIF (at most 1 GB): {remedy}"
        )
