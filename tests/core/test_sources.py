"""The short citations the window shows name the texts of docs/references.md."""

from pathlib import Path

from svmviz.core.sources import SOURCES, cite, cite_html

REFERENCES = (Path(__file__).parents[2] / "docs" / "references.md").read_text(encoding="utf-8")


def test_each_short_citation_names_its_text_s_author():
    entries = {e[:3]: e for e in REFERENCES.split("- **")[1:]}
    assert set(SOURCES) == set(entries)
    for number, short in SOURCES.items():
        author = short.split(",")[0].split(" & ")[0]
        assert author in entries[number], (number, short)
        section = short.rpartition("§")[2]
        assert "§" not in short or f"§{section}" in entries[number], (number, short)


def test_a_citation_names_the_part_meant():
    assert cite("002: Pegasos", "003") == (
        "(Bartlett, CS281B Lecture 23: Pegasos; Shalev-Shwartz & Ben-David, UML §16.3)"
    )
    assert cite_html("000") == "(Shalev-Shwartz &amp; Ben-David, UML §17.2)"
