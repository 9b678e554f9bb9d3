"""Every sentence of the Vandaria Wars seeds (000 turn structure, 003 skills) and the rules that
enforce it: writes ``docs/coverage.md``.

    python tools/seed_coverage.py              # write docs/coverage.md
    python tools/seed_coverage.py --check      # exit 1 if a sentence is unaccounted for, or the
                                               # page is not current

A sentence is accounted for in one of two ways:

- a rule of the catalog quotes it (``quote`` in ``vwlog/data/rules.id.toml``, checked word for
  word against the seed by ``tests/i18n/test_rules_id.py``): the sentence lies inside the quote,
  or the quote inside the sentence;
- ``tools/seed_coverage.toml`` names it, with the rule ids that rest on it (a sentence the
  catalog paraphrases without quoting it) or, for a heading, a list opener or an introduction,
  the reason it prescribes nothing.

The seeds are read from the copies in ``tests/i18n/seeds/`` (the same files the quote test reads).
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEEDS = {
    "S000": ROOT / "tests" / "i18n" / "seeds" / "000_af46a2c8f4cf120d.txt",
    "S003": ROOT / "tests" / "i18n" / "seeds" / "003_e87579a532279b03.txt",
}
TITLES = {"S000": "Seed 000: turn structure", "S003": "Seed 003: skills"}
QUOTES = ROOT / "vwlog" / "data" / "rules.id.toml"
NOTES = ROOT / "tools" / "seed_coverage.toml"
PAGE = ROOT / "docs" / "coverage.md"

# a sentence ends at . ! ? followed by space and a capital, an opening quote or bracket; a bare
# list number ("1. Tahap Produce") does not end one
_SPLIT = re.compile(r"(?<=[^\d\s][.!?])\s+(?=[A-Z“”\"(])")
_BULLET = re.compile(r"^[•·\-*]\s*")


def norm(text: str) -> str:
    """Whitespace collapsed, as the quote test compares."""
    return re.sub(r"\s+", " ", text).strip()


def sentences(text: str) -> list[str]:
    """The seed's sentences in order: one per line, lines split at sentence ends."""
    out: list[str] = []
    for line in text.splitlines():
        line = _BULLET.sub("", line.strip()).strip()
        if line:
            out.extend(s for s in (norm(p) for p in _SPLIT.split(line)) if s)
    return out


@dataclass(frozen=True)
class Row:
    seed: str
    number: int
    sentence: str
    rules: tuple[str, ...]
    how: str
    """"quoted" (a rule quotes it), "noted" (the notes name the rules) or "descriptive"."""
    reason: str


def _quotes() -> list[tuple[str, str, list[str]]]:
    """(rule id, seed, the quote's lines) for every rule that quotes a seed."""
    table = tomllib.loads(QUOTES.read_text(encoding="utf-8"))
    return [
        (rid, row["seed"], [norm(line) for line in row["quote"].splitlines() if line.strip()])
        for rid, row in table.items()
        if "quote" in row
    ]


def _occurrences(text: str, part: str) -> list[int]:
    return [m.start() for m in re.finditer(re.escape(part), text)]


def quote_spans(text: str, lines: list[str]) -> list[tuple[int, int]]:
    """Where a quote stands in the (whitespace-normalised) seed: each of its lines located; a
    line found more than once ("Proses ini terjadi secara bersamaan.") is taken at the
    occurrence nearest the quote's lines found once, or at every occurrence if none is."""
    found = [(line, _occurrences(text, line)) for line in lines]
    anchors = [at[0] for _, at in found if len(at) == 1]
    spans: list[tuple[int, int]] = []
    for line, at in found:
        if len(at) > 1 and anchors:
            at = [min(at, key=lambda a: min(abs(a - b) for b in anchors))]
        spans.extend((a, a + len(line)) for a in at)
    return spans


def _notes() -> dict[tuple[str, str], dict[str, object]]:
    notes = tomllib.loads(NOTES.read_text(encoding="utf-8"))
    return {(n["seed"], norm(n["text"])): n for n in notes.get("sentence", [])}


def rows() -> tuple[list[Row], list[str]]:
    """Every sentence with what accounts for it, and the problems found (unaccounted sentences,
    notes naming no sentence of the seed, unknown rule ids)."""
    from vwlog.rules.catalog import RULES

    quotes = _quotes()
    notes = _notes()
    used: set[tuple[str, str]] = set()
    out: list[Row] = []
    problems: list[str] = []
    for seed, path in SEEDS.items():
        raw = path.read_text(encoding="utf-8")
        text = norm(raw)
        spans = [(rid, quote_spans(text, lines)) for rid, sd, lines in quotes if sd == seed]
        cursor = 0
        for n, s in enumerate(sentences(raw), start=1):
            start = text.index(s, cursor)
            cursor = end = start + len(s)
            quoted = tuple(rid for rid, at in spans if any(a < end and start < b for a, b in at))
            note = notes.get((seed, s))
            if note is not None:
                used.add((seed, s))
            if quoted:
                extra = tuple(str(r) for r in note.get("rules", ())) if note else ()  # type: ignore[attr-defined]
                out.append(Row(seed, n, s, quoted + extra, "quoted", ""))
            elif note is not None and note.get("rules"):
                ids = tuple(str(r) for r in note["rules"])  # type: ignore[attr-defined]
                out.append(Row(seed, n, s, ids, "noted", str(note.get("reason", ""))))
            elif note is not None:
                out.append(Row(seed, n, s, (), "descriptive", str(note["reason"])))
            else:
                problems.append(f"{seed} sentence {n} is unaccounted for: {s!r}")
    for seed, s in notes.keys() - used:
        problems.append(f"{NOTES.name}: no sentence of {seed} reads {s!r}")
    for row in out:
        problems.extend(
            f"{seed} sentence {row.number}: unknown rule id {rid}"
            for rid in row.rules
            if rid not in RULES
            for seed in (row.seed,)
        )
    return out, problems


def _cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("*", "\\*").replace("_", "\\_")


def render(table: list[Row]) -> str:
    from vwlog.rules.catalog import status

    lines = [
        "# Seed coverage: every sentence of seeds 000 and 003",
        "",
        "Generated by `python tools/seed_coverage.py` from the catalog's quotes",
        "(`vwlog/data/rules.id.toml`) and the notes in `tools/seed_coverage.toml`;",
        "`tests/i18n/test_coverage.py` fails when a sentence of either seed is unaccounted for or",
        "this page is not current. Sentences are cut at sentence ends and at line ends.",
        "",
        "*quoted*: a rule of the catalog quotes the sentence word for word (or a part of it);",
        "*noted*: the rule paraphrases it without a quote; *descriptive*: a heading, a list opener",
        "or an introduction that prescribes nothing, with the reason. A rule's status is",
        "enforced, partial, pending or descriptive (`vwlog rules ID` shows why).",
        "",
    ]
    counts: dict[str, int] = {}
    for row in table:
        counts[row.how] = counts.get(row.how, 0) + 1
    lines.append(
        f"{len(table)} sentences: {counts.get('quoted', 0)} quoted by a rule, "
        f"{counts.get('noted', 0)} paraphrased by a rule, "
        f"{counts.get('descriptive', 0)} descriptive."
    )
    for seed, title in TITLES.items():
        lines += [
            "",
            f"## {title}",
            "",
            "| # | Sentence | Rules (status) | How |",
            "|---|---|---|---|",
        ]
        for row in (r for r in table if r.seed == seed):
            rules = ", ".join(f"{rid} ({status(rid)[0]})" for rid in dict.fromkeys(row.rules))
            how = row.how if not row.reason else f"{row.how}: {_cell(row.reason)}"
            lines.append(f"| {row.number} | {_cell(row.sentence)} | {rules or '-'} | {how} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="check, write nothing")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    table, problems = rows()
    for p in problems:
        print(p, file=sys.stderr)
    page = render(table)
    if args.check:
        if PAGE.read_text(encoding="utf-8") != page if PAGE.exists() else True:
            print(
                f"{PAGE.relative_to(ROOT)} is not current: run python tools/seed_coverage.py",
                file=sys.stderr,
            )
            return 1
        return 1 if problems else 0
    PAGE.write_text(page, encoding="utf-8")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
