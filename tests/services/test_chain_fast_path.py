"""The hash chain's short path agrees with its full analysis on every line, sound or not.

`ChainCheck.feed` accepts the usual line (chained, in its place, canonical) in a few steps
(`ChainCheck._sound`); anything else goes to the full analysis, which names what is wrong. These
tests feed the same lines, intact and damaged in many ways, to a check that takes the short
path and to one that never does, and require the same reports and the same decoded data. They
divert the short path by patching it, so they run on the pure-Python engine (`tests.engines`).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

import orjson
import pytest

from tests.engines import WATCHES_CALLS
from vwlog.io import codec
from vwlog.io.chain import ChainCheck, VerifyReport
from vwlog.io.logfile import open_log

from .support import generated_log, lines_of

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

pytestmark = WATCHES_CALLS


def _report(
    path: Path, lines: list[bytes], *, short: bool, monkeypatch: pytest.MonkeyPatch
) -> tuple[VerifyReport, list[dict[str, Any] | None], int]:
    """Feed ``lines`` (the header first) to a chain check; its report, what each feed
    returned, and how often the short path accepted a line."""
    accepted = 0
    real = ChainCheck._sound

    def counted(self: ChainCheck, *args: Any) -> bool:
        nonlocal accepted
        taken = short and real(self, *args)
        accepted += taken
        return taken

    with monkeypatch.context() as patch:
        patch.setattr(ChainCheck, "_sound", counted)
        with open_log(path) as reader:
            check = ChainCheck(str(path), reader.header)
        fed = [check.feed(i, raw) for i, raw in enumerate(lines[1:], start=2)]
        return check.report(), fed, accepted


def _same(path: Path, lines: list[bytes], monkeypatch: pytest.MonkeyPatch) -> int:
    """Assert both ways agree on ``lines``; how many lines the short path accepted."""
    path.write_bytes(b"\n".join(lines) + b"\n")
    short, fed_short, accepted = _report(path, lines, short=True, monkeypatch=monkeypatch)
    full, fed_full, none = _report(path, lines, short=False, monkeypatch=monkeypatch)
    assert none == 0
    assert short == full
    assert fed_short == fed_full
    return accepted


@pytest.fixture(scope="module")
def log_lines(tmp_path_factory: pytest.TempPathFactory) -> list[bytes]:
    """The lines of a generated, hashed match (the header first)."""
    path = generated_log(tmp_path_factory.mktemp("chain"), 29, 2)
    return lines_of(path)


def test_an_intact_log_takes_the_short_path_on_every_line(
    log_lines: list[bytes], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    accepted = _same(tmp_path / "intact.jsonl", log_lines, monkeypatch)
    assert accepted == len(log_lines) - 1
    report, _, _ = _report(
        tmp_path / "intact.jsonl", log_lines, short=True, monkeypatch=monkeypatch
    )
    assert report.broken is None


def _resorted(data: dict[str, Any]) -> bytes:
    """The same record with its hash member last: valid JSON, not canonical."""
    claimed = data.pop("hash")
    return orjson.dumps({**dict(sorted(data.items())), "hash": claimed})


def _spaced(data: dict[str, Any]) -> bytes:
    return orjson.dumps(data, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2).replace(b"\n", b"")


def _seq_moved(data: dict[str, Any]) -> bytes:
    data["seq"] += 1
    return codec.canonical(data)


def _hash_changed(data: dict[str, Any]) -> bytes:
    data["hash"] = ("0" if data["hash"][0] != "0" else "1") + data["hash"][1:]
    return codec.canonical(data)


def _hash_upper(data: dict[str, Any]) -> bytes:
    data["hash"] = data["hash"].upper()
    return codec.canonical(data)


def _hash_number(data: dict[str, Any]) -> bytes:
    data["hash"] = 7
    return codec.canonical(data)


def _hash_gone(data: dict[str, Any]) -> bytes:
    del data["hash"]
    return codec.canonical(data)


def _key_after_hash(data: dict[str, Any]) -> bytes:
    data["zz"] = {"hash": data["hash"]}
    return codec.canonical(data)


def _key_before_hash(data: dict[str, Any]) -> bytes:
    data["aa"] = [1, "hash"]
    return codec.canonical(data)


def _nested_hash_only(data: dict[str, Any]) -> bytes:
    claimed = data.pop("hash")
    data["event"]["hash"] = claimed
    return codec.canonical(data)


def _key_ending_in_hash(data: dict[str, Any]) -> bytes:
    """A key whose canonical text ends in ``"hash":`` (its quote escaped)."""
    data["event"]['x"hash'] = 1
    return codec.canonical(data)


def _string_holding_hash(data: dict[str, Any]) -> bytes:
    data["note"] = f'"hash":"{data["hash"]}"'
    return codec.canonical(data)


def _hash_not_ascii(data: dict[str, Any]) -> bytes:
    data["hash"] = "\u00e9" * 64
    return codec.canonical(data)


def _seq_only(data: dict[str, Any]) -> bytes:
    return codec.canonical({"hash": data["hash"], "seq": data["seq"]})


def _hash_only(data: dict[str, Any]) -> bytes:
    return codec.canonical({"hash": data["hash"]})


def _seq_string(data: dict[str, Any]) -> bytes:
    data["seq"] = str(data["seq"])
    return codec.canonical(data)


def _seq_float(data: dict[str, Any]) -> bytes:
    data["seq"] = float(data["seq"])
    return codec.canonical(data)


def _seq_in_event(data: dict[str, Any]) -> bytes:
    """A ``seq`` member inside the event too: the line's own is still the last one."""
    data["event"]["seq"] = data["seq"]
    return codec.canonical(data)


def _at_holding_seq(data: dict[str, Any]) -> bytes:
    data["at"] = f'"seq":{data["seq"]}}}'
    return codec.canonical(data)


def _seq_object(data: dict[str, Any]) -> bytes:
    data["seq"] = {"seq": data["seq"]}
    return codec.canonical(data)


def _not_an_object(data: dict[str, Any]) -> bytes:
    return codec.canonical([data])


def _not_json(data: dict[str, Any]) -> bytes:
    return codec.canonical(data)[:-1]


def _type_a_list(data: dict[str, Any]) -> bytes:
    data["event"]["type"] = ["match_started"]
    return codec.canonical(data)


def _unicode_key(data: dict[str, Any]) -> bytes:
    data["hásh"] = 1
    return codec.canonical(data)


DAMAGE: dict[str, Callable[[dict[str, Any]], bytes]] = {
    "hash last": _resorted,
    "spaced": _spaced,
    "seq moved": _seq_moved,
    "hash changed": _hash_changed,
    "hash upper-case": _hash_upper,
    "hash a number": _hash_number,
    "hash gone": _hash_gone,
    "a key after hash": _key_after_hash,
    "a key before hash": _key_before_hash,
    "hash inside the event": _nested_hash_only,
    "a key ending in a quoted hash": _key_ending_in_hash,
    "a string holding a hash member": _string_holding_hash,
    "hash 64 characters, not ascii": _hash_not_ascii,
    "seq and hash only": _seq_only,
    "hash only": _hash_only,
    "seq a string": _seq_string,
    "seq a float": _seq_float,
    "seq an object": _seq_object,
    "a seq inside the event": _seq_in_event,
    "at holding a seq member": _at_holding_seq,
    "not an object": _not_an_object,
    "not json": _not_json,
    "a non-ascii key": _unicode_key,
    "the event type a list": _type_a_list,
}


@pytest.mark.parametrize("kind", sorted(DAMAGE))
def test_a_damaged_line_gets_the_same_report_both_ways(
    kind: str, log_lines: list[bytes], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(kind)
    for where in (1, 2, rng.randrange(3, len(log_lines)), len(log_lines) - 1):
        lines = list(log_lines)
        lines[where] = DAMAGE[kind](orjson.loads(lines[where]))
        accepted = _same(tmp_path / "damaged.jsonl", lines, monkeypatch)
        assert accepted <= len(log_lines) - 2  # never the damaged line


def test_a_line_whose_hash_would_match_elsewhere_in_the_chain_is_not_accepted(
    log_lines: list[bytes], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two sound lines swapped: each is canonical and carries a true hash, of another place."""
    lines = list(log_lines)
    lines[3], lines[4] = lines[4], lines[3]
    accepted = _same(tmp_path / "swapped.jsonl", lines, monkeypatch)
    # not the two swapped lines (their seqs and hashes are out of place), nor the line after
    # them (it chains from the hash of the line that now comes before it); the chain goes on
    # from each line's claimed hash, so the lines after those hold again
    assert accepted == len(log_lines) - 1 - 3


def _hash_in_place(lines: list[bytes], where: int, data: dict[str, Any]) -> str:
    """The hash the chain gives ``data`` (a record without its hash) at line ``where``, as a
    forger computes it: from the hash of the line before (the header's, before line 1)."""
    previous = orjson.loads(lines[where - 1])["hash"]
    return codec.chain_hash(previous, codec.canonical(data))


@pytest.mark.parametrize(
    "kind",
    [
        "the event type a list",
        "a key after hash",
        "a key before hash",
        "a key ending in a quoted hash",
        "a string holding a hash member",
        "seq and hash only",
        "seq moved",
        "seq a float",
        "seq an object",
        "a seq inside the event",
        "at holding a seq member",
    ],
)
def test_a_damaged_line_with_a_true_hash_gets_the_same_report_both_ways(
    kind: str, log_lines: list[bytes], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The damage hashed into the chain, as a forger would: the short path sees the line."""
    for where in (1, 2, len(log_lines) // 2):
        _same(tmp_path / "forged.jsonl", forged(log_lines, where, kind), monkeypatch)


def forged(log_lines: list[bytes], where: int, kind: str) -> list[bytes]:
    """The lines with line ``where`` damaged by ``kind`` (`DAMAGE`) and hashed into the chain
    as a forger would."""
    lines = list(log_lines)
    damaged = orjson.loads(DAMAGE[kind](orjson.loads(lines[where])))
    damaged.pop("hash", None)
    damaged["hash"] = _hash_in_place(lines, where, damaged)
    lines[where] = codec.canonical(damaged)
    return lines


def _hash_last(data: dict[str, Any], claimed: str) -> bytes:
    return orjson.dumps({**data, "hash": claimed})  # the rest sorted


def _keys_reversed(data: dict[str, Any], claimed: str) -> bytes:
    return orjson.dumps({"hash": claimed, **dict(reversed(data.items()))})


def _indented(data: dict[str, Any], claimed: str) -> bytes:
    options = orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2
    return orjson.dumps({**data, "hash": claimed}, option=options).replace(b"\n", b"")


def _hash_after_a_later_key(data: dict[str, Any], claimed: str) -> bytes:
    """With a member that sorts between ``hash`` and ``seq``: the hash just before ``seq``,
    where it sits in a usual record (all else sorted)."""
    ordered = dict(sorted(data.items()))
    seq = ordered.pop("seq")
    return orjson.dumps({**ordered, "hash": claimed, "seq": seq})


MISWRITTEN: dict[str, Callable[[dict[str, Any], str], bytes]] = {
    "hash last": _hash_last,
    "keys reversed": _keys_reversed,
    "indented": _indented,
    "hash after a key that sorts after it": _hash_after_a_later_key,
}


@pytest.mark.parametrize("kind", sorted(MISWRITTEN))
def test_a_line_not_in_canonical_form_with_a_true_hash_gets_the_same_report_both_ways(
    kind: str, log_lines: list[bytes], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A forger's line hashed as the chain hashes it, but written another way: the hash holds,
    the line does not (the short path must not take it for its canonical form)."""
    for where in (1, 2, len(log_lines) // 2):
        lines = list(log_lines)
        data = orjson.loads(lines[where])
        data.pop("hash")
        if kind == "hash after a key that sorts after it":
            data["id"] = 1
        claimed = _hash_in_place(lines, where, data)
        lines[where] = MISWRITTEN[kind](data, claimed)
        accepted = _same(tmp_path / "miswritten.jsonl", lines, monkeypatch)
        # the line after still chains, unless the forger changed the record (a new hash)
        changed = claimed != orjson.loads(log_lines[where])["hash"]
        assert accepted == len(log_lines) - 2 - changed, kind
        report, _, _ = _report(
            tmp_path / "miswritten.jsonl", lines, short=True, monkeypatch=monkeypatch
        )
        assert report.broken is not None, kind
        assert report.broken.seq == where, kind
