"""Statistics never trust silently: every result whose effects were taken as logged is kept in
a match's metrics (card, skill, seq) and counted in the corpus, from files and from the store."""

from __future__ import annotations

from typing import TYPE_CHECKING

import orjson

from tests.trust.support import run
from vwlog.engine.replay import replay
from vwlog.io.logfile import open_log
from vwlog.projections.stats import CorpusStats, MatchMetrics, MatchMetricsVisitor
from vwlog.services import validate_log
from vwlog.services.stats import withdraw

if TYPE_CHECKING:
    from pathlib import Path

    from click.testing import CliRunner


def _metrics(path: Path) -> MatchMetrics:
    with open_log(path) as reader:
        return replay(reader.records(), MatchMetricsVisitor(), header=reader.header)


def test_a_match_s_metrics_list_what_validation_took_as_logged(generated: Path) -> None:
    report = validate_log(generated)
    assert report.trusted
    metrics = _metrics(generated)
    assert [(t.seq, t.card, t.skill, t.effects) for t in metrics.trusted] == [
        (t.seq, t.card, t.skill, t.effects) for t in report.trusted
    ]
    stats = CorpusStats.build([metrics, metrics])
    assert stats.trusted_results == 2 * len(report.trusted)
    assert stats.with_trusted == 2
    assert sum(stats.trusted_skills.values()) == stats.trusted_results
    withdraw(stats, metrics)
    assert stats.trusted_results == len(report.trusted)
    assert stats.with_trusted == 1


def test_stats_of_a_file_count_and_list_them(runner: CliRunner, generated: Path) -> None:
    trusted = validate_log(generated).trusted
    text = run(runner, "stats", generated)
    assert text.exit_code == 0, text.output
    n = len(trusted)
    assert f"taken as logged (effects not machine-checked): {n} results in 1 match: " in text.stdout
    per_match = run(runner, "stats", "--per-match", generated)
    listed = "taken as logged (effects not machine-checked): seq {seq}: {card} {skill} ("
    for t in trusted:
        assert listed.format(seq=t.seq, card=t.card, skill=t.skill) in per_match.stdout
    as_json = orjson.loads(run(runner, "stats", "--format", "json", generated).stdout)
    assert as_json["corpus"]["trusted_results"] == n
    assert as_json["corpus"]["with_trusted"] == 1


def test_the_store_s_statistics_count_them(
    runner: CliRunner, generated: Path, tmp_path: Path
) -> None:
    store = tmp_path / "vwlog.db"
    assert run(runner, "import", generated, store=store).exit_code == 0
    n = len(validate_log(generated).trusted)
    as_json = orjson.loads(run(runner, "stats", "--format", "json", store=store).stdout)
    assert as_json["corpus"]["trusted_results"] == n
    rebuilt = orjson.loads(
        run(runner, "stats", "--rebuild", "--format", "json", store=store).stdout
    )
    assert rebuilt["corpus"] == as_json["corpus"]
