"""Validation collects the young generation less often, and puts the thresholds back."""

from __future__ import annotations

import gc
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from vwlog.model.errors import LogFormatError
from vwlog.services import collection, validate_log, validate_logs
from vwlog.services.collection import YOUNG_THRESHOLD, fewer_collections

if TYPE_CHECKING:
    from collections.abc import Iterator

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "generated-military.jsonl"


@pytest.fixture(autouse=True)
def default_thresholds() -> Iterator[None]:
    """Each test starts from CPython's defaults and leaves the process as it found it."""
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield
    gc.set_threshold(*before)


def _young_collections(run: Any) -> int:
    """How many young-generation collections run while ``run()`` does."""
    seen: list[int] = []

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and info["generation"] == 0:
            seen.append(1)

    gc.callbacks.append(note)
    try:
        run()
    finally:
        gc.callbacks.remove(note)
    return len(seen)


def _validate_six() -> None:
    # one batch: the threshold stays raised from the first log to the last (restoring it
    # starts a young collection at once, which a count per log would mostly measure)
    for report in validate_logs([SAMPLE] * 6):
        assert report.ok  # type: ignore[union-attr]


def test_validation_collects_the_young_generation_less_often(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    validate_log(SAMPLE)  # imports and caches out of the way
    raised = _young_collections(_validate_six)
    assert gc.get_threshold() == (700, 10, 10)
    monkeypatch.setattr(collection, "YOUNG_THRESHOLD", 700)  # as if it were not raised
    default = _young_collections(_validate_six)
    # six 1,956-event matches: 10 young collections at 700 when measured, 1 at the raised
    # threshold (when it is restored after the batch)
    assert 3 * raised < default


def test_the_thresholds_come_back_after_an_unreadable_file(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    with pytest.raises(LogFormatError):
        validate_log(bad)
    assert gc.get_threshold() == (700, 10, 10)


def test_nested_and_concurrent_users_restore_once_the_last_one_leaves() -> None:
    inside = threading.Event()
    leave = threading.Event()

    def other() -> None:
        with fewer_collections():
            inside.set()
            leave.wait(10)

    thread = threading.Thread(target=other)
    thread.start()
    inside.wait(10)
    with fewer_collections():
        with fewer_collections():
            assert gc.get_threshold()[0] == YOUNG_THRESHOLD
        assert gc.get_threshold()[0] == YOUNG_THRESHOLD
    assert gc.get_threshold()[0] == YOUNG_THRESHOLD  # the other thread is still inside
    leave.set()
    thread.join(10)
    assert gc.get_threshold() == (700, 10, 10)


@pytest.mark.parametrize("chosen", [(50_000, 10, 10), (0, 10, 10)])
def test_a_process_that_chose_fewer_collections_or_none_is_left_alone(
    chosen: tuple[int, int, int],
) -> None:
    gc.set_threshold(*chosen)
    with fewer_collections():
        assert gc.get_threshold() == chosen
    assert gc.get_threshold() == chosen


def test_a_threshold_changed_meanwhile_is_not_overwritten() -> None:
    with fewer_collections():
        gc.set_threshold(2_000, 10, 10)
    assert gc.get_threshold() == (2_000, 10, 10)


def test_a_batch_keeps_the_raised_threshold_between_its_logs() -> None:
    from vwlog.services import validate_logs

    seen: list[tuple[int, ...]] = []
    for report in validate_logs([SAMPLE, SAMPLE, SAMPLE]):
        assert report.ok  # type: ignore[union-attr]
        seen.append(gc.get_threshold())
    # between two logs the batch still runs raised: no young collection starts at each
    # restore; after the batch the process's own setting is back
    assert seen == [(YOUNG_THRESHOLD, 10, 10)] * 3
    assert gc.get_threshold() == (700, 10, 10)


def test_a_worker_keeps_the_raised_threshold_unless_it_set_its_own() -> None:
    collection.keep_fewer_collections()
    assert gc.get_threshold() == (YOUNG_THRESHOLD, 10, 10)
    gc.set_threshold(50_000, 10, 10)
    collection.keep_fewer_collections()
    assert gc.get_threshold() == (50_000, 10, 10)
    gc.set_threshold(0, 10, 10)  # automatic collection disabled: left so
    collection.keep_fewer_collections()
    assert gc.get_threshold() == (0, 10, 10)
