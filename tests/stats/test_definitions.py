"""Every statistic has a definition: in its field docstring, in docs/statistics.md, on the HTML
page and in ``vwlog stats --help``."""

from __future__ import annotations

import csv
import inspect
import io
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from pydantic import BaseModel, ConfigDict

from vwlog.cli import main
from vwlog.projections import stats as stats_module
from vwlog.projections.stats import CorpusStats
from vwlog.render.statspage import (
    DEFINED_MODELS,
    DERIVED,
    definitions,
    definitions_markdown,
    render_csv,
    render_html,
    render_matches_csv,
    report,
)

if TYPE_CHECKING:
    from click.testing import CliRunner

    from tests.stats.conftest import Match

DOC = Path(__file__).resolve().parents[2] / "docs" / "statistics.md"
BEGIN = "<!-- BEGIN GENERATED DEFINITIONS"
END = "<!-- END GENERATED DEFINITIONS -->"
DATA_KEYED = {
    "skipped",
    "rulesets",
    "formats",
    "supply",
    "deck",
    "played",
    "cards",
    "skills_registered",
    "skills_triggered",
    "trusted_skills",
}
"""Dicts whose keys are data (reasons, rulesets, packages, card ids), not figures."""


def stats_models() -> list[type[BaseModel]]:
    return [
        obj
        for name, obj in vars(stats_module).items()
        if inspect.isclass(obj)
        and issubclass(obj, BaseModel)
        and obj.__module__.startswith(stats_module.__name__ + ".")
        and not name.startswith("_")
    ]


def defined_names() -> set[str]:
    names = {f for m in DEFINED_MODELS for f in m.model_fields}
    return names | {name for name, _ in DERIVED}


def is_defined(name: str) -> bool:
    return name in defined_names() or bool(re.fullmatch(r"supply_[A-Z0-9_]+", name))


def test_every_model_of_the_statistics_is_documented() -> None:
    missing = [m.__name__ for m in stats_models() if m not in DEFINED_MODELS]
    assert not missing, f"add to statsreport.DEFINED_MODELS: {missing}"


def test_every_field_has_a_definition() -> None:
    undefined = [
        f"{model}.{field}"
        for model, _summary, rows in definitions()
        for field, text in rows
        if not text
    ]
    assert not undefined, f"fields without a docstring: {undefined}"
    assert all(summary for _m, summary, _rows in definitions())


def test_a_field_without_a_docstring_is_caught() -> None:
    class Extra(BaseModel):
        model_config = ConfigDict(use_attribute_docstrings=True)

        documented: int = 0
        """Counted."""
        bare: int = 0

    from vwlog.render.statspage import field_definitions

    assert field_definitions(Extra) == [("documented", "Counted."), ("bare", "")]


def test_docs_match_the_docstrings() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert BEGIN in text
    assert END in text
    generated = text.split(BEGIN, 1)[1].split("-->", 1)[1].split(END, 1)[0]
    assert generated.strip() == definitions_markdown().strip(), (
        "docs/statistics.md is out of date: replace the part between the GENERATED markers "
        "with the output of "
        "python -c 'from vwlog.render.statspage import definitions_markdown as d; print(d())'"
    )


def test_docs_define_win_rates_intervals_and_filters() -> None:
    text = DOC.read_text(encoding="utf-8")
    for phrase in ("Wilson", "1.959963984540054", "finished", "--player", "--since", "n = 0"):
        assert phrase in text


def leaf_keys(data: Any, parent: str | None = None) -> set[str]:
    """The keys of every figure in a JSON document (the keys of data-keyed dicts left out,
    their values looked into)."""
    keys: set[str] = set()
    if isinstance(data, dict):
        data_keyed = parent in DATA_KEYED
        for k, v in data.items():
            if isinstance(v, dict | list):
                keys |= leaf_keys(v, None if data_keyed else k)
            elif not data_keyed:
                keys.add(k)
    elif isinstance(data, list):
        for item in data:
            keys |= leaf_keys(item)
    return keys


def test_every_figure_of_the_reports_is_defined(corpus: list[Match]) -> None:
    stats = CorpusStats.build(m.metrics for m in corpus).canonical()
    data = json.loads(json.dumps(report(stats, min_n=3)))
    assert {k for k in leaf_keys(data) if not is_defined(k)} == set()
    rows = list(csv.DictReader(io.StringIO(render_csv(stats))))
    assert {r["metric"] for r in rows if not is_defined(r["metric"])} == set()
    header = next(csv.reader(io.StringIO(render_matches_csv([corpus[0].metrics]))))
    assert {c for c in header if not is_defined(c)} == set()
    per_match = json.loads(corpus[0].metrics.model_dump_json())
    assert {k for k in leaf_keys(per_match) if not is_defined(k)} == set()


def test_html_page_ends_with_the_definitions() -> None:
    pytest.importorskip("matplotlib", reason="the HTML page needs the 'stats' extra")
    page = render_html(CorpusStats())
    appendix = page.split('<h2 id="definitions">Definitions</h2>', 1)[1]
    assert "docs/statistics.md" in appendix
    for name, _summary, rows in definitions():
        assert f"<h3>{name}</h3>" in appendix
        for field, _text in rows:
            assert f"<td>{field}</td>" in appendix.replace("&lt;", "<").replace("&gt;", ">")


def test_help_links_the_definitions(runner: CliRunner) -> None:
    result = runner.invoke(main, ["stats", "--help"])
    assert result.exit_code == 0
    assert "docs/statistics.md" in result.stdout
