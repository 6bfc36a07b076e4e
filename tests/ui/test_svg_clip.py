"""An exported curve plot draws its curves without a clip path, cut at the view box in the
file (ImageMagick's own SVG renderer inverted the clip and drew no curve)."""

import re
import xml.dom.minidom as minidom

import numpy as np
import pytest

pytest.importorskip("PySide6.QtWidgets")

from svmviz.ui.window.svg_clip import clipped, polylines, unclip

CLIPPED = b"""<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
<g><clipPath id="v_clip"><path d="M10,10 L90,10 L90,90 L10,90 L10,10 "/></clipPath>
<g clip-path="url(#v_clip)"><g stroke="blue">
<path d="M0,50 L50,50 L50,95 L60,95 L60,50 L100,50 "/></g>
<g transform="matrix(1,0,0,1,10,10)"><rect x="0" y="0" width="80" height="80"/></g></g></g>
</svg>"""


def test_a_polyline_is_cut_at_the_rectangle_and_split_where_it_leaves_it():
    (line,) = polylines("M0,50 L50,50 L50,95 L60,95 L60,50 L100,50 ")
    parts = clipped(line, (10, 10, 90, 90))
    assert [p.tolist() for p in parts] == [
        [[10, 50], [50, 50], [50, 90]],
        [[60, 90], [60, 50], [90, 50]],
    ]
    assert polylines("M0,0 C1,1 2,2 3,3") is None  # (a curve command: left to the clip)


def test_a_group_of_polylines_and_its_border_loses_its_clip():
    doc = minidom.parseString(unclip(CLIPPED))
    assert not [g for g in doc.getElementsByTagName("g") if g.getAttribute("clip-path")]
    d = doc.getElementsByTagName("path")[1].getAttribute("d")
    xy = np.array([float(v) for v in re.findall(r"[-\d.]+", d)]).reshape(-1, 2)
    assert xy.min() >= 10 and xy.max() <= 90


def test_a_group_with_an_image_keeps_its_clip():
    svg = CLIPPED.replace(b"<g stroke=", b'<image width="200" height="200"/><g stroke=')
    assert unclip(svg).count(b'clip-path="url(#v_clip)"') == 1


def test_the_exported_objective_has_its_curves_inside_the_view_unclipped(
    make_window, wait_frame, tmp_path
):
    w = make_window(iterations=300)
    w.run_to_budget()
    wait_frame(w, lambda s: s.t == 300 and s.reference is not None)
    path = tmp_path / "objective.svg"
    assert w.exports.write_picture("objective", path, 500, 400)
    doc = minidom.parse(str(path))
    assert not [g for g in doc.getElementsByTagName("g") if g.getAttribute("clip-path")]
    clip = doc.getElementsByTagName("clipPath")[0].getElementsByTagName("path")[0]
    box = polylines(clip.getAttribute("d"))[0]
    lo, hi = box.min(axis=0), box.max(axis=0)
    curves = [
        line
        for p in doc.getElementsByTagName("path")
        if p.parentNode.getAttribute("stroke") in ("#0072b2", "#d55e00")  # F(w_t), F*
        for line in (polylines(p.getAttribute("d")) or [])
    ]
    assert len(curves) >= 2
    points = np.concatenate(curves)
    assert len(points) > 10
    assert (points >= lo - 1e-6).all() and (points <= hi + 1e-6).all()
