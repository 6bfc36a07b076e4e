"""Clip an exported SVG's curves to their view box in the file itself, for renderers that
get ``clip-path`` wrong.

pyqtgraph's SVG exporter wraps a plot's curves in ``<g clip-path="url(#…_clip)">``, whose
clip is the view box's rectangle. Qt, librsvg and Chromium honour it; ImageMagick's own SVG
renderer (MSVG, ``convert`` without librsvg) inverts it and draws no curve. Where every
element in such a group is a polyline (``M``/``L`` path data, absolute) or lies inside the
rectangle, the polylines are cut at its edges here and the group loses its ``clip-path``:
every renderer then draws the same picture. A group holding anything else (an image, a
transformed marker) keeps its clip.
"""

from __future__ import annotations

import re
import xml.dom.minidom as minidom

import numpy as np

_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_COMMAND = re.compile(rf"([ML])\s*({_NUMBER})\s*,?\s*({_NUMBER})")
_TRANSLATE = re.compile(rf"matrix\(1,0,0,1,({_NUMBER}),({_NUMBER})\)")


def polylines(d: str) -> list[np.ndarray] | None:
    """The polylines (n, 2) of path data of absolute M and L commands only (None else)."""
    if re.sub(rf"[ML]|{_NUMBER}|[\s,]", "", d):
        return None
    lines: list[list[tuple[float, float]]] = []
    for command, x, y in _COMMAND.findall(d):
        if command == "M" or not lines:
            lines.append([])
        lines[-1].append((float(x), float(y)))
    return [np.array(line) for line in lines]


def clipped(line: np.ndarray, rect) -> list[np.ndarray]:
    """The parts of polyline ``line`` inside ``rect`` (x0, y0, x1, y1), Liang–Barsky."""
    x0, y0, x1, y1 = rect
    parts: list[list[np.ndarray]] = []
    for a, b in zip(line[:-1], line[1:], strict=True):
        d = b - a
        t0, t1 = 0.0, 1.0
        for p, q in ((-d[0], a[0] - x0), (d[0], x1 - a[0]), (-d[1], a[1] - y0), (d[1], y1 - a[1])):
            if p == 0:
                if q < 0:
                    t0, t1 = 1.0, 0.0
                continue
            t = q / p
            t0, t1 = (max(t0, t), t1) if p < 0 else (t0, min(t1, t))
        if t0 > t1:
            continue
        start, end = a + t0 * d, a + t1 * d
        if parts and t0 == 0.0 and np.array_equal(parts[-1][-1], start):
            parts[-1].append(end)
        else:
            parts.append([start, end])
    return [np.array(p) for p in parts]


def path_data(lines: list[np.ndarray]) -> str:
    return " ".join(
        " ".join(f"{'M' if i == 0 else 'L'}{x:.4f},{y:.4f}" for i, (x, y) in enumerate(line))
        for line in lines
    )


def _clip_rect(clip) -> tuple[float, float, float, float] | None:
    """The rectangle of a clipPath made of one rectangular path."""
    paths = clip.getElementsByTagName("path")
    if len(paths) != 1:
        return None
    lines = polylines(paths[0].getAttribute("d"))
    if not lines or len(lines) != 1:
        return None
    xs, ys = lines[0][:, 0], lines[0][:, 1]
    if not set(np.round(xs, 6)) <= {xs.min(), xs.max()} or len(set(np.round(ys, 6))) > 2:
        return None
    return float(xs.min()), float(ys.min()), float(xs.max()), float(ys.max())


def _inside(element, rect) -> bool:
    """Whether a <rect> (translated at most) lies inside ``rect``."""
    dx = dy = 0.0
    node = element.parentNode
    while node is not None and node.nodeType == node.ELEMENT_NODE:
        transform = node.getAttribute("transform")
        if transform:
            m = _TRANSLATE.fullmatch(transform.replace(" ", ""))
            if m is None:
                return False
            dx, dy = dx + float(m.group(1)), dy + float(m.group(2))
        if node.getAttribute("clip-path"):
            break
        node = node.parentNode
    x = float(element.getAttribute("x") or 0) + dx
    y = float(element.getAttribute("y") or 0) + dy
    w, h = float(element.getAttribute("width")), float(element.getAttribute("height"))
    x0, y0, x1, y1 = rect
    eps = 1.0  # (a border drawn on the clip's edge)
    return x >= x0 - eps and y >= y0 - eps and x + w <= x1 + eps and y + h <= y1 + eps


def unclip(svg: bytes) -> bytes:
    """``svg`` with its clipped groups' polylines cut at their clip's rectangle and those
    groups unclipped, where nothing else is in them."""
    doc = minidom.parseString(svg)
    clips = {c.getAttribute("id"): c for c in doc.getElementsByTagName("clipPath")}
    changed = False
    for group in doc.getElementsByTagName("g"):
        m = re.fullmatch(r"url\(#(.+)\)", group.getAttribute("clip-path"))
        clip = clips.get(m.group(1)) if m else None
        rect = None if clip is None else _clip_rect(clip)
        if rect is None:
            continue
        new, fits = {}, True
        for node in group.getElementsByTagName("*"):
            if node.tagName == "g":
                continue
            if node.tagName == "path" and not _translated(node, group):
                lines = polylines(node.getAttribute("d"))
                if lines is not None:
                    new[node] = path_data([p for line in lines for p in clipped(line, rect)])
                    continue
            if node.tagName == "rect" and _inside(node, rect):
                continue
            fits = False
            break
        if not fits:
            continue
        for node, d in new.items():
            node.setAttribute("d", d)
        group.removeAttribute("clip-path")
        changed = True
    return doc.toxml(encoding="UTF-8") if changed else svg  # (else byte for byte)


def _translated(node, group) -> bool:
    """Whether an element has a transform between it and ``group``."""
    while node is not None and node is not group:
        if node.getAttribute("transform"):
            return True
        node = node.parentNode
    return False
