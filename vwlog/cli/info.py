"""``vwlog info``: what this installation runs with and where it keeps things: the version, the
engine (compiled or pure), the store and why that one, the store key, the language."""

from __future__ import annotations

import os
from pathlib import Path

import click
import orjson

from vwlog.cli import options
from vwlog.cli.base import CliContext, main
from vwlog.io.i18n import active_language, normalize_language
from vwlog.io.i18n import gettext as _
from vwlog.render.text import term
from vwlog.store.location import STORE_ENV, StoreLocation, legacy_store

_LANGUAGE_VARIABLES = ("VWLOG_LANG", "LC_ALL", "LC_MESSAGES", "LANG")
"""Where the language comes from when no ``--lang`` names it, first found first."""


def _language_source(active: str) -> str:
    """What chose the active language: ``--lang``, the variable that names it, or the default."""
    for name in _LANGUAGE_VARIABLES:
        found = normalize_language(os.environ.get(name))
        if found is not None:
            return name if found == active else "--lang"
    return "default" if active == "en" else "--lang"


def facts(cli: CliContext) -> dict[str, object]:
    """What ``vwlog info`` shows, as a JSON object."""
    from vwlog import build
    from vwlog.render.provenance import engine_build_note, provenance
    from vwlog.store.localkey import KEY_ENV, key_path
    from vwlog.store.settings import redact, settings_from_url

    said = provenance()
    store = redact(cli.store)
    sqlite_file: str | None = None
    try:
        backend = settings_from_url(cli.store)
    except Exception:  # a malformed URL: shown as given, its error comes when it is opened
        backend = {}
    if backend.get("PERSISTENCE_MODULE") == "eventsourcing.sqlite":
        sqlite_file = str(backend.get("SQLITE_DBNAME"))
    key = key_path()
    language = active_language()
    legacy = legacy_store(StoreLocation(cli.store, cli.store_source))
    return {
        "vwlog": said.version,
        "engine": "compiled" if build.is_compiled() else "pure",
        "engine_detail": said.engine,
        "engine_note": engine_build_note(),
        "store": store,
        "store_source": {"option": "--store", "environment": STORE_ENV}.get(
            cli.store_source, "default"
        ),
        "store_exists": None if sqlite_file is None else Path(sqlite_file).is_file(),
        "store_file": sqlite_file,
        "legacy_store": None if legacy is None else str(legacy),
        "store_key": str(key),
        "store_key_source": KEY_ENV if os.environ.get(KEY_ENV) else "default",
        "store_key_exists": key.is_file(),
        "language": language,
        "language_source": _language_source(language),
        "rules_revision": said.rules_revision,
        "ruleset": said.ruleset,
    }


def _text(f: dict[str, object]) -> list[str]:
    where = {
        "--store": _("named by --store"),
        STORE_ENV: _("named by {variable}").format(variable=STORE_ENV),
        "default": _("the per-user default: $XDG_DATA_HOME/vwlog/vwlog.db"),
    }[str(f["store_source"])]
    state = {
        True: _("exists"),
        False: _("not created yet"),
        None: _("a server or memory: store"),
    }[f["store_exists"]]  # type: ignore[index]
    key_where = (
        _("named by {variable}").format(variable=f["store_key_source"])
        if f["store_key_source"] != "default"
        else _("the per-user default: $XDG_CONFIG_HOME/vwlog/store.key")
    )
    key_state = _("exists") if f["store_key_exists"] else _("not created yet")
    engine = _("compiled (mypyc)") if f["engine"] == "compiled" else _("pure Python")
    lines = [
        f"vwlog {f['vwlog']}",
        _("engine: {engine} ({detail})").format(engine=engine, detail=f["engine_detail"]),
    ]
    if f["engine_note"]:
        lines.append(f"  {f['engine_note']}")
    lines += [
        _("store: {store} ({where}; {state})").format(store=f["store"], where=where, state=state),
        _("store key: {key} ({where}; {state})").format(
            key=f["store_key"], where=key_where, state=key_state
        ),
        _("language: {language} (from {source})").format(
            language=f["language"], source=f["language_source"]
        ),
        _("rules revision: {rules}").format(rules=f["rules_revision"]),
        _("ruleset: {ruleset}").format(ruleset=f["ruleset"]),
    ]
    return lines  # a vwlog.db passed over in this folder: the group's note says so


@main.command("info")
@options.output_format(["text", "json"], "Output format: text lines or one JSON object.")
@click.pass_context
def info(ctx: click.Context, output_format: str) -> None:
    """Show the version, engine, store (and why that one), store key and language.

    The store is the one --store names, else VWLOG_STORE's, else the per-user
    default: vwlog/vwlog.db in $XDG_DATA_HOME (~/.local/share when unset).

    Example:

    \b
        vwlog info
        vwlog --store matches.db info --format json
    """
    cli = ctx.find_object(CliContext)
    assert cli is not None  # the group sets it
    found = facts(cli)
    if output_format == "json":
        click.echo(orjson.dumps(found, option=orjson.OPT_INDENT_2).decode())
        return
    for line in _text(found):
        click.echo(term(line))


__all__ = ["facts", "info"]
