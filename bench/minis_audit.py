"""Mutation audit of the miniatures judge: every single-event mutation of generated legal
records (`vwlog.games.minis.mutate`) is judged; the share cited at the mutated event must be
at least 99 %, and none may pass.

    python bench/minis_audit.py --records 200 --seed 0

Prints one line per mutation kind and the total; exit 1 below the bar.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter

from vwlog.engine.replay import Validator, replay
from vwlog.events.base import LogHeader
from vwlog.games.minis.events import MinisRecord
from vwlog.games.minis.generate import generate
from vwlog.games.minis.mutate import mutations

BAR = 0.99
"""Least share of mutations cited at the mutated event."""


def audit(
    records: int, seed: int = 0, *, show: int = 0
) -> tuple[Counter[str], Counter[str], Counter[str]]:
    """Per mutation kind: how many there were, how many were cited at their event, how many
    passed unseen (``show``: print that many misses)."""
    total: Counter[str] = Counter()
    at_event: Counter[str] = Counter()
    unseen: Counter[str] = Counter()
    header = LogHeader(game="minis", match_id="audit")
    for s in range(seed, seed + records):
        events = generate(s, players=3 if s % 5 == 0 else 2)
        for m in mutations(events):
            recs = [MinisRecord(seq=i, event=e) for i, e in enumerate(m.events, 1)]
            found = replay(recs, Validator(), header=header).violations
            total[m.kind] += 1
            if not found:
                unseen[m.kind] += 1
            elif found[0].seq == m.seq:
                at_event[m.kind] += 1
            if (not found or found[0].seq != m.seq) and show > 0:
                show -= 1
                print("miss", s, m.kind, m.seq, m.events[m.seq - 1], found[:1])
    return total, at_event, unseen


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--show", type=int, default=0, help="print this many misses")
    args = parser.parse_args()
    began = time.perf_counter()
    total, at_event, unseen = audit(args.records, args.seed, show=args.show)
    for kind in sorted(total):
        print(f"{kind:8} {total[kind]:7} at the event {at_event[kind]:7} unseen {unseen[kind]}")
    n, hit = sum(total.values()), sum(at_event.values())
    share = hit / n if n else 0.0
    print(
        f"total    {n:7} at the event {hit:7} ({share:.2%}) in {time.perf_counter() - began:.1f} s"
    )
    return 0 if share >= BAR and not sum(unseen.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
