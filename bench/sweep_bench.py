"""The false-positive sweep at scale: generated matches of every format, judged like files.

    python bench/sweep_bench.py                        # ≥ 1,000,000 events, 1 process, seed 1
    python bench/sweep_bench.py --events 40000 --jobs 2 --seed 7

Matches of the four formats (duel; Tag Team of 4 and of 6; 3 on 3; Battle Royal of 3 and of 4)
are generated with every decision and every choice among consequences drawn from the seed (three
in four by the random policy, one by the greedy one), written sealed as ``vwlog simulate -o``
writes them, and judged as ``vwlog validate`` judges a file (`tests.simulate.sweep`). Each
format gets a quarter of ``--events``. A violation, a verdict other than OK or a consequence
owed is a finding; the first ones go to the results with the command that makes the match
again. The figures (matches, events, violations per format, verdicts, victories, choices
drawn, seed and match indexes, wall and CPU time, engine, machine load) go to ``--out`` as
JSON and to stdout. See docs/fidelity.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-turns", type=int, default=200)
    parser.add_argument("--out", default=str(ROOT / "bench" / "sweep_results.json"))
    args = parser.parse_args()

    from tests.simulate.sweep import FORMATS, sweep
    from vwlog.build import is_compiled

    load_before = os.getloadavg()
    started = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    per_format = -(-args.events // len(FORMATS))
    tally, run = sweep(
        per_format, seed=args.seed, jobs=args.jobs, max_turns=args.max_turns, progress=True
    )
    figures = {
        "events_asked": args.events,
        **tally.as_json(),
        **run,
        "started": started,
        "engine": "compiled (mypyc)" if is_compiled() else "pure Python",
        "machine": {
            "cpus": os.cpu_count(),
            "load_average_before": [round(x, 2) for x in load_before],
            "load_average_after": [round(x, 2) for x in os.getloadavg()],
            "python": platform.python_version(),
            "platform": platform.platform(),
        },
    }
    Path(args.out).write_text(json.dumps(figures, indent=2) + "\n")
    shown = {k: v for k, v in figures.items() if k != "findings"}
    print(json.dumps(shown, indent=2))
    for finding in tally.findings[:20]:
        print(finding)
    return 1 if tally.findings else 0


if __name__ == "__main__":
    raise SystemExit(main())
