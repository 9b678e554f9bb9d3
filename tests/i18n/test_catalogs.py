"""The gettext catalogs are complete and current: every message the code and the templates can
show has an Indonesian translation (not empty, not fuzzy) with the same placeholders, the
template ``vwlog.pot`` is what extraction gives today, and the project's own setup compiles the
catalogs into the ``.mo`` files vwlog reads."""

from __future__ import annotations

import ast
import gettext
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from vwlog.cli.clicktext import CLICK_MESSAGES
from vwlog.io import i18n

ROOT = Path(__file__).resolve().parents[2]
POT = ROOT / "vwlog" / "locale" / "vwlog.pot"
PO = ROOT / "vwlog" / "locale" / "id" / "LC_MESSAGES" / "vwlog.po"
KEYWORDS = {
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "N_": None,
    "Np_": (1, 2),
    "msg": None,
    "violation": (2,),
    "wrong": (2,),
}

_PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|\{(\w*)[^{}]*\}")


def _extracted() -> set[str | tuple[str, ...]]:
    with (ROOT / "babel.cfg").open(encoding="utf-8") as handle:
        method_map, options_map = parse_mapping_cfg(handle)
    found: set[str | tuple[str, ...]] = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(ROOT / "vwlog"), method_map, options_map, keywords=KEYWORDS
    ):
        found.add(message if isinstance(message, str) else tuple(message))
    # a word that is also a counted noun's singular (a "card" column) shares the plural entry
    singulars = {m[0] for m in found if isinstance(m, tuple)}
    return {m for m in found if not (isinstance(m, str) and m in singulars)}


def _key(message_id: object) -> str | tuple[str, ...]:
    return message_id if isinstance(message_id, str) else tuple(message_id)  # type: ignore[arg-type]


def _placeholders(text: str) -> list[str]:
    return sorted(a or b for a, b in _PLACEHOLDER.findall(text))


@pytest.fixture(scope="module")
def extracted() -> set[str | tuple[str, ...]]:
    found = _extracted()
    assert len(found) > 150, "extraction found almost nothing: is babel.cfg right?"
    return found


@pytest.fixture(scope="module")
def indonesian() -> dict[str | tuple[str, ...], object]:
    with PO.open("rb") as handle:
        catalog = read_po(handle, locale="id")
    return {_key(m.id): m for m in catalog if m.id}


def test_the_template_is_what_extraction_gives_today(
    extracted: set[str | tuple[str, ...]],
) -> None:
    with POT.open("rb") as handle:
        template = {_key(m.id) for m in read_po(handle) if m.id}
    assert extracted - template == set(), "new messages: run .ci/catalogs all and translate"
    assert template - extracted == set(), "vwlog.pot lists messages no longer used"


def test_every_message_has_an_indonesian_translation(
    extracted: set[str | tuple[str, ...]], indonesian: dict[str | tuple[str, ...], object]
) -> None:
    missing = sorted(map(str, extracted - set(indonesian)))
    assert missing == [], f"no Indonesian entry for {missing}"
    empty = []
    fuzzy = []
    for key in extracted:
        message = indonesian[key]
        strings = [message.string] if isinstance(message.string, str) else list(message.string)  # type: ignore[attr-defined]
        if not all(s.strip() for s in strings):
            empty.append(key)
        if message.fuzzy:  # type: ignore[attr-defined]
            fuzzy.append(key)
    assert empty == [], f"empty Indonesian entries: {empty}"
    assert fuzzy == [], f"fuzzy Indonesian entries: {fuzzy}"


def test_placeholders_are_the_same_in_both_languages(
    indonesian: dict[str | tuple[str, ...], object],
) -> None:
    wrong = []
    for key, message in indonesian.items():
        sources = [key] if isinstance(key, str) else list(key)
        strings = [message.string] if isinstance(message.string, str) else list(message.string)  # type: ignore[attr-defined]
        want = _placeholders(sources[-1])
        for text in strings:
            if _placeholders(text) != want:
                wrong.append((key, text))
        if len(sources) == 2 and _placeholders(sources[0]) != want and key not in CLICK_MESSAGES:
            # click's own (vwlog.cli.clicktext) give every placeholder of both forms to each
            wrong.append((key, "singular and plural differ"))
    assert wrong == []


def test_placeholder_check_catches_a_difference() -> None:
    assert _placeholders("seq {seq}, line {line}") == ["line", "seq"]
    assert _placeholders("seq {seq}, baris {baris}") != _placeholders("seq {seq}, line {line}")
    assert _placeholders("Board %(label)s: %(position)s") == ["label", "position"]


def test_the_setup_compiles_the_catalogs(tmp_path: Path) -> None:
    """``.ci/catalogs compile`` (what ``.ci/setup`` runs) turns the committed .po into a .mo
    that gettext reads, offline; the compiled catalog agrees with the .po."""
    copy = tmp_path / "repo"
    (copy / ".ci").mkdir(parents=True)
    shutil.copy(ROOT / ".ci" / "catalogs", copy / ".ci" / "catalogs")
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    shutil.copytree(ROOT / "vwlog" / "locale", copy / "vwlog" / "locale")
    for mo in (copy / "vwlog" / "locale").rglob("*.mo"):
        mo.unlink()
    pybabel = shutil.which("pybabel") or str(ROOT / ".venv" / "bin" / "pybabel")
    subprocess.run(
        ["bash", ".ci/catalogs", "compile"],
        cwd=copy,
        env={"PYBABEL": pybabel, "PATH": "/usr/bin:/bin"},
        check=True,
        capture_output=True,
    )
    mo = copy / "vwlog" / "locale" / "id" / "LC_MESSAGES" / "vwlog.mo"
    with mo.open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    assert compiled.gettext("Hash chain") == "Rantai hash"
    assert compiled.ngettext("violation", "violations", 3) == "pelanggaran"
    with PO.open("rb") as handle:
        catalog = read_po(handle, locale="id")
    for message in catalog:
        if message.id and isinstance(message.id, str):
            assert compiled.gettext(message.id) == message.string


def test_the_po_is_read_when_the_mo_is_missing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A checkout that skipped the setup still speaks Indonesian: the .po is compiled in
    memory."""
    locale = tmp_path / "locale"
    shutil.copytree(ROOT / "vwlog" / "locale", locale)
    for mo in locale.rglob("*.mo"):
        mo.unlink()
    monkeypatch.setattr(i18n, "LOCALE_DIR", locale)
    i18n.translations.cache_clear()
    try:
        assert i18n.translations("id").gettext("Hash chain") == "Rantai hash"
    finally:
        i18n.translations.cache_clear()


# -- the engine's sentences and the command line's help ---------------------------------------

_TEMPLATE_CALLS = {"msg": 0, "violation": 1, "wrong": 1, "HTTPException": 1, "UsageError": 0}
"""Calls whose argument at this index is a sentence for people: a template the catalogs must
be able to extract, so a string literal (never an f-string or a variable); an error's message
is a ``msg("...")`` of one."""


def _said_or_made(arg: ast.expr, tree: ast.Module) -> bool:
    """An `HTTPException`'s message that is a template made elsewhere or a sentence said
    already: an error's own template (``err.text()``: the error class makes it with ``msg``,
    checked there), or a name every assignment of which masks a sentence said through ``say``
    (a refusal to a player's token, its hidden cards masked after it was said)."""
    if (
        isinstance(arg, ast.Call)
        and isinstance(arg.func, ast.Attribute)
        and arg.func.attr == "text"
        and not arg.args
    ):
        return True
    if not isinstance(arg, ast.Name):
        return False
    assigned = [
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Assign) and any(getattr(t, "id", None) == arg.id for t in n.targets)
    ]
    return bool(assigned) and all(
        isinstance(v, ast.Call)
        and getattr(v.func, "attr", None) == "mask"
        and bool(v.args)
        and isinstance(v.args[0], ast.Call)
        and getattr(v.args[0].func, "id", None) == "say"
        for v in assigned
    )


def test_every_sentence_for_people_is_a_literal_template() -> None:
    """Violations, event descriptions, errors and the service's refusals are written as
    templates (`vwlog.model.text.Msg`) that extraction can see: an f-string there would be
    said in English whatever the language, and no catalog test would notice."""
    hidden = []
    for path in sorted((ROOT / "vwlog").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            index = _TEMPLATE_CALLS.get(str(name))
            if index is None or len(node.args) <= index:
                continue
            arg = node.args[index]
            if isinstance(arg, ast.Name) and arg.id == "template":
                continue  # violation(), cite() and the like: their callers' templates are checked
            literal = isinstance(arg, ast.Constant) and isinstance(arg.value, str)
            built = isinstance(arg, ast.Call) and getattr(arg.func, "id", None) == "msg"
            if name == "UsageError" and path.name == "options.py" and isinstance(arg, ast.Name):
                continue  # named_for_user: a message said already, with the user's file names
            if name == "UsageError" and isinstance(arg, ast.Name) and arg.id == "detail":
                detail = [
                    n
                    for n in ast.walk(tree)
                    if isinstance(n, ast.Assign)
                    and any(getattr(t, "id", None) == "detail" for t in n.targets)
                ]
                if detail and all(
                    isinstance(n.value, ast.Call) and getattr(n.value.func, "id", None) == "msg"
                    for n in detail
                ):
                    continue  # detail = msg("..."), checked as a msg call
            if name == "HTTPException" and _said_or_made(arg, tree):
                continue
            wrapped = name in ("UsageError", "HTTPException")  # their message: a msg(...)
            if not (built if wrapped else literal):
                hidden.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert hidden == []


def test_the_literal_check_catches_an_f_string() -> None:
    tree = ast.parse('violation("R-CMB-4", f"{card} is slid")')
    (call,) = [n for n in ast.walk(tree) if isinstance(n, ast.Call)]
    assert isinstance(call.args[1], ast.JoinedStr)


def _help_texts() -> dict[str, str]:
    """Every paragraph of every command's help (the first is its short help; the verbatim
    example blocks, which are commands, are left as written) and every option's help, by
    where."""
    import click

    from vwlog.cli import main
    from vwlog.cli.helptexts import help_paragraphs

    found: dict[str, str] = {}

    def walk(command: click.Command, path: str) -> None:
        if command.help:
            for i, paragraph in enumerate(help_paragraphs(command.help)):
                if not paragraph.startswith("\b"):
                    found[f"{path} ¶{i + 1}"] = paragraph
        for param in command.params:
            if isinstance(param, click.Option) and param.help:
                found[f"{path} {param.opts[-1]}"] = param.help
        if isinstance(command, click.Group):
            for name, sub in command.commands.items():
                walk(sub, f"{path} {name}")

    walk(main, "vwlog")
    return found


def test_every_command_and_option_help_has_an_indonesian_entry(
    indonesian: dict[str | tuple[str, ...], object],
) -> None:
    """What ``--help`` shows (the command list's short help, every paragraph of a command's
    help, each option's help) is looked up at format time; each must be in the catalog,
    translated."""
    texts = _help_texts()
    assert len(texts) > 100, "the walk over the commands found almost nothing"
    missing = {where: text for where, text in texts.items() if text not in indonesian}
    assert missing == {}
    empty = [w for w, t in texts.items() if not indonesian[t].string.strip()]  # type: ignore[attr-defined]
    assert empty == []


def test_the_help_extractor_finds_what_click_shows(extracted: set[str | tuple[str, ...]]) -> None:
    """The Babel method for the command line (`vwlog.cli.helptexts.extract`) yields exactly
    the strings click looks up, so ``.ci/catalogs update`` keeps their entries."""
    texts = _help_texts()
    assert {w: t for w, t in texts.items() if t not in extracted} == {}
