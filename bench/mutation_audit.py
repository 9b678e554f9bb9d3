"""The mutation audit at scale: single edits of generated legal matches, caught at the edited
event or not.

    python bench/mutation_audit.py                     # 600 edits per event kind, 600 card
                                                       # and 300 + 300 header edits, seed 2026
    python bench/mutation_audit.py --per-kind 100 --per-file-kind 50

The edits and how each is judged are `tests/property/audit.py`'s: events (dropped,
duplicated, swapped, moved, a number or a player changed, one effect of a result changed)
judged in memory against play mode, which says which event the edited log first breaks; card
definitions in ``match_started`` and header fields judged as ``vwlog validate`` judges the
file. The sources are generated matches of every format (duel, Tag Team, 3 on 3, Battle
Royal of 3 and 4), random and greedy policies, every choice drawn. The figures (edits,
illegal ones, caught at the edited event, caught elsewhere, missed, legal, false alarms,
crashes, per kind; the first rule reported; examples of every miss) go to ``--out`` as JSON
and to stdout. See docs/fidelity.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for where in (ROOT, ROOT / "tests" / "property"):
    if str(where) not in sys.path:
        sys.path.insert(0, str(where))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-kind", type=int, default=600, help="edits per event kind")
    parser.add_argument("--per-file-kind", type=int, default=300, help="edits per header kind")
    parser.add_argument("--cards", type=int, default=600, help="card-definition edits")
    parser.add_argument("--sources", type=int, default=10, help="generated matches")
    parser.add_argument("--turns", type=int, default=8, help="turns of each source match")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", default=str(ROOT / "bench" / "mutation_results.json"))
    args = parser.parse_args()

    from audit import EVENT_KINDS, run_audit, sources

    from vwlog.build import is_compiled

    load_before = os.getloadavg()
    began, cpu0 = time.perf_counter(), time.process_time()
    srcs = sources(args.sources, turns=args.turns)
    short = sources(args.sources, turns=3, seed=38)
    per_kind = dict.fromkeys(EVENT_KINDS, args.per_kind)
    audit = run_audit(srcs, per_kind, seed=args.seed)
    files = {"card": args.cards, "header": args.per_file_kind}
    files["header resealed"] = args.per_file_kind
    audit_files = run_audit(short, files, seed=args.seed + 1)
    for name in ("total", "illegal", "at_event", "late", "missed", "legal", "false_alarms"):
        getattr(audit, name).update(getattr(audit_files, name))
    audit.crashes.update(audit_files.crashes)
    audit.rules.update(audit_files.rules)
    for what, found in audit_files.examples.items():
        audit.examples.setdefault(what, []).extend(found)
    figures = {
        **audit.as_json(),
        "sources": [s.log.name for s in srcs],
        "source_events": sum(len(s.log.events) for s in srcs),
        "file_sources": [s.log.name for s in short],
        "seed": args.seed,
        "wall_seconds": round(time.perf_counter() - began, 1),
        "cpu_seconds": round(time.process_time() - cpu0, 1),
        "started": time.strftime(
            "%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - (time.perf_counter() - began))
        ),
        "engine": "compiled (mypyc)" if is_compiled() else "pure Python",
        "machine": {
            "cpus": os.cpu_count(),
            "load_average_before": [round(x, 2) for x in load_before],
            "load_average_after": [round(x, 2) for x in os.getloadavg()],
            "max_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
            "python": platform.python_version(),
        },
    }
    Path(args.out).write_text(json.dumps(figures, indent=2) + "\n")
    shown = {k: v for k, v in figures.items() if k not in ("per_kind", "examples")}
    print(json.dumps(shown, indent=2))
    print(json.dumps(figures["examples"], indent=2))
    return 0 if audit.rate() >= 0.999 and not sum(audit.crashes.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
