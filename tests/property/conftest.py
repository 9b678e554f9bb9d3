"""Print the mutation tally in the terminal summary, whether or not output is captured."""

from __future__ import annotations

import pytest
from mutations import REPORT


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if REPORT:
        terminalreporter.section("vwlog mutation detection")
        for line in REPORT:
            terminalreporter.write_line(line)
