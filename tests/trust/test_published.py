"""A log's card definitions and ruleset held to the published ones (R-TRUST-1, R-TRUST-2).

The differences are generated from the packaged pool and the `Ruleset` model, not listed by
hand: every leaf field of every card, every ruleset flag.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, get_args

import orjson
import pytest
from pydantic import ValidationError

from tests.trust.support import SAMPLES, resealed, run
from vwlog.events import MatchStarted
from vwlog.io.logfile import read_log
from vwlog.io.pools import load_pool
from vwlog.io.trust import PACKAGED_POOL_ID, builtin_registry, pool_hash
from vwlog.model.cards import DEFAULT_RULESET, CardDef, Ruleset
from vwlog.rules.catalog import RULES
from vwlog.rules.published import (
    OWN_DEFINITIONS_WARNING,
    card_fields,
    compare_cards,
    compare_ruleset,
    flatten,
)
from vwlog.services import ValidationOptions, validate_log
from vwlog.services.trust import TrustOptions

if TYPE_CHECKING:
    from pathlib import Path

    from click.testing import CliRunner

    from vwlog.events import EventRecord

POOL = load_pool()
CARDS = {c.id: c for c in POOL.cards}


def _shape(path: str) -> str:
    return re.sub(r"\.\d+", ".*", path)


def _walk(value: Any, path: str, out: dict[str, list[Any]]) -> None:
    if path:
        bucket = out.setdefault(_shape(path), [])
        if value not in bucket:
            bucket.append(value)
    if isinstance(value, dict):
        for key, item in value.items():
            _walk(item, f"{path}.{key}" if path else key, out)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _walk(item, f"{path}.{index}", out)


def _values_by_shape() -> dict[str, list[Any]]:
    """Every value (leaf or not) each field shape takes in the pool."""
    out: dict[str, list[Any]] = {}
    for card in POOL.cards:
        _walk(card.model_dump(mode="json", by_alias=True), "", out)
    return out


VALUES = _values_by_shape()


def _set_path(data: Any, path: str, value: Any) -> None:
    keys = path.split(".")
    for key in keys[:-1]:
        data = data[int(key)] if isinstance(data, list) else data[key]
    last = keys[-1]
    if isinstance(data, list):
        data[int(last)] = value
    else:
        data[last] = value


def _candidates(value: Any, shape: str) -> list[Any]:
    out: list[Any] = []
    if isinstance(value, bool):
        out.append(not value)
    elif isinstance(value, int):
        out += [value + 1, value - 1]
    elif isinstance(value, str) and shape == "id":
        out.append(value + "-errata")  # another card's id would name another card
    elif isinstance(value, str):
        out += [v for v in VALUES.get(shape, []) if v != value]
        out.append(value + " (errata)")
    elif value is None or value == []:
        out += [v for v in VALUES.get(shape, []) if v not in (None, [])]
        out += [[v] for v in VALUES.get(shape + ".*", [])]
        out += [1, "x"]
    out.append(None)
    return out


def mutations() -> list[tuple[str, str, Any, Any]]:
    """(card id, field path, published, logged) for every leaf field of every card, each with
    a logged value that is a valid card definition and differs."""
    found: list[tuple[str, str, Any, Any]] = []
    for card in POOL.cards:
        data = card.model_dump(mode="json", by_alias=True)
        for path, value in flatten(data).items():
            for candidate in _candidates(value, _shape(path)):
                if candidate == value:
                    continue
                changed = orjson.loads(orjson.dumps(data))
                _set_path(changed, path, candidate)
                try:
                    logged = CardDef.model_validate(changed)
                except ValidationError:
                    continue
                if card_fields(logged).get(path, "(absent)") != value:
                    found.append((card.id, path, value, candidate))
                    break
    return found


MUTATIONS = mutations()


def test_every_field_of_every_card_gets_a_difference() -> None:
    every = {(c.id, path) for c in POOL.cards for path in card_fields(c)}
    made = {(card, path) for card, path, _, _ in MUTATIONS}
    assert len(every) > 500
    assert made == every, f"no valid difference for {sorted(every - made)[:5]}"


def _reported(card_id: str, path: str, logged: Any) -> str | None:
    """Why the difference was not reported as it should be, or ``None``."""
    data = CARDS[card_id].model_dump(mode="json", by_alias=True)
    _set_path(data, path, logged)
    card = CardDef.model_validate(data)
    found = compare_cards(CARDS, [card])
    if {v.rule for v in found} != {"R-TRUST-1"}:
        return f"rules {sorted({v.rule for v in found})}"
    if path == "id":  # the card is no longer the published one
        want = f"card {logged!r} ({card.name}) is not in the published pool (by default)"
        return None if [v.message for v in found] == [want] else str(found)
    ours = [v for v in found if f"field {path!r}" in v.message]
    if not ours or f"card {card_id!r}" not in ours[0].message:
        return f"not named: {[v.message for v in found]}"
    return None


def test_a_logged_card_field_that_differs_is_r_trust_1() -> None:
    """Every generated difference (one per leaf field of every card) is reported."""
    wrong = {
        f"{card_id}:{path}": why
        for card_id, path, _, logged in MUTATIONS
        if (why := _reported(card_id, path, logged)) is not None
    }
    assert wrong == {}


def _flag_change(name: str, value: Any) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    annotation = Ruleset.model_fields[name].annotation
    # the choices of a Literal, also inside an optional one (``Literal[...] | None``)
    parts = [annotation, *get_args(annotation)]
    choices = [c for part in parts for c in get_args(part) if isinstance(c, str)]
    if choices:
        return next(c for c in choices if c != value)
    if value is None:
        accepts_bool = bool in parts or "accept" in name
        return True if accepts_bool else 40
    return value + "-errata"


FLAGS = list(Ruleset.model_fields)


@pytest.mark.parametrize("flag", FLAGS)
def test_a_logged_ruleset_flag_that_differs_is_r_trust_2(flag: str) -> None:
    value = getattr(DEFAULT_RULESET, flag)
    logged = DEFAULT_RULESET.model_copy(update={flag: _flag_change(flag, value)})
    logged = Ruleset.model_validate(logged.model_dump())
    found = compare_ruleset(DEFAULT_RULESET, logged)
    assert [v.rule for v in found] == ["R-TRUST-2"]
    assert f"flag {flag!r}" in found[0].message
    assert found[0].expected is not None
    assert found[0].actual is not None


def test_the_trust_rules_are_in_the_catalog() -> None:
    assert {"R-TRUST-1", "R-TRUST-2", "R-TRUST-3"} <= set(RULES)


def test_the_packaged_pool_and_default_ruleset_are_published() -> None:
    registry = builtin_registry()
    assert registry.pools[PACKAGED_POOL_ID].hash == pool_hash(POOL)
    assert "vw-default@1" in registry.rulesets


def test_the_earlier_packaged_pool_stays_published_byte_for_byte() -> None:
    """vw-sample-pool@1 is kept as it was published: only the four skills whose effects @2
    made machine-readable differ, and a log played under @1 is still held to @1."""
    registry = builtin_registry()
    earlier = registry.pools["vw-sample-pool@1"]
    assert earlier.builtin
    assert earlier.hash != registry.pools[PACKAGED_POOL_ID].hash
    now = {c.id: c for c in POOL.cards}
    changed = {
        (c.id, s.id)
        for c in earlier.pool.cards
        for s, t in zip(c.skills, now[c.id].skills, strict=True)
        if s != t
    }
    assert changed == {
        ("necromancer-male", "s1"),
        ("oracle-of-mists", "s1"),
        ("seers-lantern", "s1"),
        ("glimpse-of-fate", "play"),
    }
    for card_id, skill_id in changed:
        card = next(c for c in earlier.pool.cards if c.id == card_id)
        assert card.skill(skill_id).effects is None  # type: ignore[union-attr]
        assert now[card_id].skill(skill_id).effects  # type: ignore[union-attr]
    assert set(now) == {c.id for c in earlier.pool.cards}


@pytest.mark.parametrize(
    ("fixture", "pool_id"), [("generated", "vw-sample-pool@1"), ("generated_now", PACKAGED_POOL_ID)]
)
def test_a_log_naming_no_pool_is_held_to_the_built_in_pool_it_repeats(
    request: pytest.FixtureRequest, tmp_path: Path, fixture: str, pool_id: str
) -> None:
    source: Path = request.getfixturevalue(fixture)
    unnamed = resealed(source, tmp_path / "unnamed.jsonl", lambda records: records, pool=None)
    start = read_log(unnamed)[1][0].event
    assert isinstance(start, MatchStarted)
    assert start.pool is None
    report = validate_log(unnamed)
    assert report.ok, report.violations
    assert report.integrity is not None
    assert report.integrity.pool.startswith(f"published {pool_id} ")


# -- through validation ----------------------------------------------------------------------


def _with_start(records: list[EventRecord], **update: Any) -> list[EventRecord]:
    start = records[0].event
    assert isinstance(start, MatchStarted)
    records[0] = records[0].model_copy(update={"event": start.model_copy(update=update)})
    return records


@pytest.mark.slow
@pytest.mark.parametrize("index", [1, 7, len(MUTATIONS) // 2, len(MUTATIONS) - 1])
def test_a_re_sealed_log_with_a_changed_card_is_illegal(
    generated: Path, tmp_path: Path, index: int
) -> None:
    """A sample of the generated differences, through the whole validation of a log."""

    def alter(records: list[EventRecord]) -> list[EventRecord]:
        start = records[0].event
        assert isinstance(start, MatchStarted)
        card_id, path, _, logged = MUTATIONS[index]
        data = CARDS[card_id].model_dump(mode="json", by_alias=True)
        _set_path(data, path, logged)
        cards = [c for c in start.cards if c.id != card_id]
        return _with_start(records, cards=(*cards, CardDef.model_validate(data)))

    forged = resealed(generated, tmp_path / "forged.jsonl", alter)
    report = validate_log(forged)
    card_id, path, _, logged = MUTATIONS[index]
    trust = [v for v in report.violations if v.rule == "R-TRUST-1"]
    if path == "id":  # a renamed card is a card the published pool does not have
        assert any(
            f"{logged!r}" in v.message and "not in the published pool" in v.message for v in trust
        )
    else:
        assert any(f"field {path!r}" in v.message and card_id in v.message for v in trust)
    assert all(v.seq == 1 for v in trust)
    assert not report.ok
    assert report.integrity is not None
    assert report.integrity.ok


def test_a_re_sealed_log_with_a_changed_flag_is_illegal_and_exits_1(
    runner: CliRunner, generated: Path, tmp_path: Path
) -> None:
    forged = resealed(
        generated,
        tmp_path / "flag.jsonl",
        lambda rs: _with_start(rs, ruleset=DEFAULT_RULESET.model_copy(update={"hand_limit": 9})),
    )
    result = run(runner, "validate", forged)
    assert result.exit_code == 1
    assert "R-TRUST-2" in result.stdout
    assert "flag 'hand_limit': published 7, logged 9" in result.stdout
    assert " ILLEGAL · " in result.stdout


def test_a_log_whose_cards_match_nothing_published_is_unverified_with_a_warning(
    runner: CliRunner, tmp_path: Path
) -> None:
    source = SAMPLES / "absolute-victory.jsonl"
    _, records = read_log(source)
    start = records[0].event
    assert isinstance(start, MatchStarted)
    text = source.read_bytes()
    for card in start.cards:  # a pool of its own: every card id renamed in every line
        text = text.replace(f'"{card.id}"'.encode(), f'"homebrew-{card.id}"'.encode())
    raw = tmp_path / "renamed.jsonl"
    raw.write_bytes(text)
    out = resealed(raw, tmp_path / "own.jsonl", lambda rs: rs, pool=None)
    report = validate_log(out)
    assert report.violations == []
    assert report.integrity is not None
    assert OWN_DEFINITIONS_WARNING in report.integrity.warnings
    for form in ("text", "json", "markdown"):
        result = run(runner, "validate", "--format", form, out)
        assert OWN_DEFINITIONS_WARNING in result.stdout, form
        # legal only under definitions nobody published: UNVERIFIED (exit 3), never OK
        assert result.exit_code == 3, form
        assert "UNVERIFIED" in result.stdout or "unverified" in result.stdout, form
    trusted = run(runner, "validate", "--trust-log-definitions", out)
    assert trusted.exit_code == 0
    assert "OK (under the log's own definitions, trusted as asked)" in trusted.stdout


def test_pool_publish_and_hold_a_log_to_it(runner: CliRunner, tmp_path: Path) -> None:
    store = tmp_path / "vwlog.db"
    errata = POOL.model_copy(
        update={
            "cards": tuple(
                c.model_copy(update={"cost": c.cost + 1}) if c.id == "militia-spearman" else c
                for c in POOL.cards
            )
        }
    )
    path = tmp_path / "errata.json"
    path.write_bytes(orjson.dumps(errata.model_dump(mode="json", by_alias=True)))
    published = run(runner, "pool", "publish", path, "--id", "spring-cup@1", store=store)
    assert published.exit_code == 0, published.output
    assert "pool spring-cup@1 published" in published.stdout
    again = run(runner, "pool", "publish", path, "--id", "spring-cup@1", store=store)
    assert "already published" in again.stdout
    sample = SAMPLES / "absolute-victory.jsonl"
    held = run(runner, "validate", "--pool", "spring-cup@1", sample, store=store)
    assert held.exit_code == 1
    assert "R-TRUST-1" in held.stdout
    assert "'militia-spearman'" in held.stdout
    assert "field 'cost'" in held.stdout
    own = validate_log(sample, ValidationOptions(trust=TrustOptions()))
    assert own.ok


def test_unknown_pool_and_ruleset_ids_are_one_line_errors(runner: CliRunner) -> None:
    sample = SAMPLES / "absolute-victory.jsonl"
    for option, value in (("--pool", "nope@1"), ("--ruleset", "nope@1")):
        result = run(runner, "validate", option, value, sample)
        assert result.exit_code == 2
        assert result.stdout == ""
        assert result.stderr.count("\n") == 1
        assert result.stderr.startswith(f"Error: {option} nope@1: no ")


def test_publishing_other_content_under_a_taken_id_changes_nothing(
    runner: CliRunner, tmp_path: Path
) -> None:
    store = tmp_path / "vwlog.db"
    first = tmp_path / "cup.json"
    first.write_bytes(orjson.dumps({"id": "cup", "version": 1, "hand_limit": 8}))
    assert run(runner, "ruleset", "publish", first, store=store).exit_code == 0
    before = store.read_bytes()
    second = tmp_path / "cup2.json"
    second.write_bytes(orjson.dumps({"id": "cup", "version": 1, "hand_limit": 9}))
    result = run(runner, "ruleset", "publish", second, store=store)
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: ")
    assert result.stderr.count("\n") == 1
    listed = run(runner, "ruleset", "list", store=store)
    assert "cup@1" in listed.stdout
    assert store.read_bytes() == before
    malformed = tmp_path / "bad.json"
    malformed.write_bytes(b'{"hand_limit": "many"}')
    bad = run(runner, "ruleset", "publish", malformed, store=store)
    assert bad.exit_code == 2
    assert bad.stderr.count("\n") == 1
    assert "line 1" in bad.stderr
    assert "hand_limit" in bad.stderr
    unknown = run(runner, "pool", "publish", tmp_path / "missing.json", "--id", "x@1", store=store)
    assert unknown.exit_code == 2
    assert unknown.stderr.count("\n") == 1
