"""The curated library API: every name in `vwlog.__all__` resolves, ``import vwlog`` stays
cheap, and the "Use as a library" page's example (docs/library.md) runs as a doctest."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

import vwlog

ROOT = Path(__file__).parent.parent


def library_section() -> tuple[str, str]:
    """The "Use as a library" page of the documentation (once a README section)."""
    path = ROOT / "docs" / "library.md"
    text = path.read_text(encoding="utf-8")
    found = re.search(r"^# Use as a library\n(.*)", text, re.M | re.S)
    if found:
        return "docs/library.md", found.group(1)
    pytest.fail("no 'Use as a library' heading in docs/library.md")


def test_every_public_name_resolves_to_its_home() -> None:
    homes = vwlog._HOMES
    assert set(vwlog.__all__) == {"__version__", *homes}
    for name, module in homes.items():
        value = getattr(vwlog, name)
        assert getattr(sys.modules[module], name) is value


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        _ = vwlog.nope  # type: ignore[attr-defined]  # the point of the test


def test_importing_vwlog_loads_no_database_library() -> None:
    code = (
        "import sys, vwlog; "
        "print(sorted(m for m in ('eventsourcing', 'sqlite3', 'psycopg', 'orjson') "
        "if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == "[]"


def test_the_readme_library_example_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    name, section = library_section()
    monkeypatch.chdir(ROOT)  # the example names files relative to the repository
    parser = doctest.DocTestParser()
    test = parser.get_doctest(section, {}, f"{name}: Use as a library", name, 0)
    assert len(test.examples) >= 10, "the example lost its steps"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    result = runner.run(test, out=lambda text: pytest.fail(text))
    assert result.failed == 0
    assert result.attempted == len(test.examples)


def modules_with_examples() -> list[str]:
    """Every vwlog module whose docstrings carry ``>>>`` examples."""
    found = []
    for info in pkgutil.walk_packages(vwlog.__path__, "vwlog."):
        spec = importlib.util.find_spec(info.name)
        origin = spec.origin if spec is not None else None
        if origin and origin.endswith(".py") and ">>> " in Path(origin).read_text("utf-8"):
            found.append(info.name)
    return sorted(found)


@pytest.mark.parametrize("name", modules_with_examples())
def test_the_examples_in_module_docstrings_run(name: str) -> None:
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    tests = [t for t in finder.find(module, name) if t.examples]
    assert tests, f"{name} mentions '>>> ' but has no runnable example"
    for test in tests:
        result = runner.run(test, out=lambda text: pytest.fail(text))
        assert result.failed == 0
