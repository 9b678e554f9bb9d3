"""Where a report comes from: the vwlog version, the rules revision, the ruleset and pool hashes,
the engine, and when it was made.

The rules revision is a digest of the rule catalog (`vwlog.rules.catalog_data.RULES_TABLE`,
generated from docs/rules.md), so two reports judged by the same rules text carry the same
revision; the ruleset and pool hashes are SHA-256 digests of their canonical JSON, so a report
names exactly the reading and the cards it was judged with.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import html
import os
import platform
import sys
from dataclasses import dataclass
from functools import cache
from importlib.metadata import version as installed_version
from typing import TYPE_CHECKING, Any

from vwlog import build
from vwlog.games import GameRules
from vwlog.io import codec
from vwlog.io import trust as io_trust
from vwlog.io.i18n import gettext as _
from vwlog.io.pools import load_pool
from vwlog.render.markdown import md_code
from vwlog.rules import DEFAULT_RULESET
from vwlog.rules.catalog_data import RULES_TABLE

if TYPE_CHECKING:
    from collections.abc import Iterable

    from vwlog.model.cards import CardDef, Ruleset

__all__ = [
    "Provenance",
    "engine_name",
    "pool_hash",
    "provenance",
    "provenance_html",
    "provenance_markdown",
    "rules_revision",
    "ruleset_hash",
]

_SHORT = 16
"""Hex digits shown of each digest (64 bits: enough to tell revisions apart)."""


def _digest(payload: bytes) -> str:
    return hashlib.sha256(payload).hexdigest()[:_SHORT]


@cache
def rules_revision() -> str:
    """A digest of the rule catalog: ids, titles, bases and texts, in catalog order."""
    return _digest(codec.canonical([list(row) for row in RULES_TABLE]))


def ruleset_hash(ruleset: Ruleset | None = None) -> str:
    """The ruleset's content hash as published (`vwlog.io.trust.ruleset_hash`), shortened (the
    default ruleset when ``None``)."""
    return io_trust.ruleset_hash(DEFAULT_RULESET if ruleset is None else ruleset)[:_SHORT]


def pool_hash(cards: Iterable[CardDef] | None = None) -> str:
    """The packaged pool's published content hash when ``None``, else the hash of a match's own
    card definitions as its seal names them (`vwlog.io.trust`), shortened."""
    if cards is None:
        return _default_pool_hash()
    return io_trust.cards_hash(tuple(cards))[:_SHORT]


@cache
def _default_pool_hash() -> str:
    return io_trust.pool_hash(load_pool())[:_SHORT]


_ENGINE = "vwlog pure-Python engine on "
_COMPILED_ENGINE = "vwlog compiled engine (mypyc) on "


def _engine_said(engine: str) -> str:
    """`engine_name` in the active language (another engine's name as it is)."""
    if engine.startswith(_ENGINE):
        return _("vwlog pure-Python engine on {python}").format(python=engine[len(_ENGINE) :])
    if engine.startswith(_COMPILED_ENGINE):
        python = engine[len(_COMPILED_ENGINE) :]
        return _("vwlog compiled engine (mypyc) on {python}").format(python=python)
    return engine


def engine_name() -> str:
    """Which engine judges: vwlog's compiled or pure-Python engine (`vwlog.build`), and the
    interpreter running it."""
    impl = platform.python_implementation()
    ver = ".".join(str(x) for x in sys.version_info[:3])
    prefix = _COMPILED_ENGINE if build.is_compiled() else _ENGINE
    return f"{prefix}{impl} {ver}"


def engine_build_note() -> str | None:
    """Why the pure-Python engine runs although a compiled one was built (or could be), for
    ``vwlog --version``; ``None`` when the compiled engine runs."""
    if build.is_compiled():
        return None
    why = {
        "forced": _("{env}=pure is set").format(env=build.ENV),
        "pure": _("not compiled; build it with: {command}").format(command=build.BUILD_COMMAND),
        "partial": _("the compiled build is incomplete; rebuild it with: {command}").format(
            command=build.BUILD_COMMAND
        ),
        "stale": _(
            "the compiled build is older than the sources; rebuild it with: {command}"
        ).format(command=build.BUILD_COMMAND),
        "wheel": _("this installation holds the pure-Python engine ({reason})").format(
            reason=str((build.wheel_info() or {}).get("reason", "?"))
        ),
    }
    return _("engine build: {why}").format(why=why.get(build.STATE, build.STATE))


@dataclass(frozen=True)
class Provenance:
    """What a report was made with, and when."""

    version: str
    rules_revision: str
    ruleset: str
    """``id@version`` of the ruleset."""
    ruleset_hash: str
    pool_hash: str
    engine: str
    generated: str
    """When the report was made, ISO 8601 in UTC."""

    def as_dict(self) -> dict[str, str]:
        """The provenance as a JSON object."""
        return {
            "vwlog": self.version,
            "rules_revision": self.rules_revision,
            "ruleset": self.ruleset,
            "ruleset_hash": self.ruleset_hash,
            "pool_hash": self.pool_hash,
            "engine": self.engine,
            "generated": self.generated,
        }

    def sentence(self) -> str:
        """The provenance in one line of plain text (values as they are: escape them for the
        output they go into)."""
        return _(
            "vwlog {version} · rules revision {rules} · ruleset {ruleset} ({ruleset_hash}) · "
            "card pool {pool} · {engine} · generated {generated}"
        ).format(
            version=self.version,
            rules=self.rules_revision,
            ruleset=self.ruleset,
            ruleset_hash=self.ruleset_hash,
            pool=self.pool_hash,
            engine=_engine_said(self.engine),
            generated=self.generated,
        )

    def lines(self) -> list[str]:
        """The provenance as ``key: value`` lines (for ``--version`` and text footers)."""
        return [
            f"vwlog {self.version}",
            _("rules revision: {rules}").format(rules=self.rules_revision),
            _("ruleset: {ruleset} ({hash})").format(ruleset=self.ruleset, hash=self.ruleset_hash),
            _("card pool: {pool}").format(pool=self.pool_hash),
            _("engine: {engine}").format(engine=_engine_said(self.engine)),
        ]


def _now() -> dt.datetime:
    """The current time, or ``SOURCE_DATE_EPOCH`` (seconds) when set: the reproducible-builds
    convention, so two runs over the same logs write the same bytes."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    if epoch.isdigit():
        return dt.datetime.fromtimestamp(int(epoch), dt.UTC)
    return dt.datetime.now(dt.UTC)


def provenance(
    ruleset: Ruleset | Any = None,
    cards: Iterable[CardDef] | None = None,
    *,
    now: dt.datetime | None = None,
    game: GameRules | None = None,
) -> Provenance:
    """The provenance of a report judged under ``ruleset`` with ``cards`` (defaults: the
    packaged ruleset and pool), made ``now`` (default: the current time, or the time
    ``SOURCE_DATE_EPOCH`` gives, for reproducible output). For a game without published pools
    and rulesets (``game``), its catalog's revision and its own ruleset, and no pool."""
    when = (now or _now()).astimezone(dt.UTC).isoformat(timespec="seconds")
    if game is not None and not game.publishes:
        own: Any = game.default_ruleset if ruleset is None else ruleset
        return Provenance(
            version=installed_version("vwlog"),
            rules_revision=_digest(codec.canonical([list(e) for e in game.entries.values()])),
            ruleset=f"{own.id}@{own.version}",
            ruleset_hash=_digest(codec.canonical(own.model_dump(mode="json"))),
            pool_hash="none",
            engine=engine_name(),
            generated=when,
        )
    rs = DEFAULT_RULESET if ruleset is None else ruleset
    return Provenance(
        version=installed_version("vwlog"),
        rules_revision=rules_revision(),
        ruleset=f"{rs.id}@{rs.version}",
        ruleset_hash=ruleset_hash(rs),
        pool_hash=pool_hash(cards),
        engine=engine_name(),
        generated=when,
    )


def provenance_markdown(p: Provenance) -> str:
    """The provenance as a closing Markdown paragraph (the values in a code span, so nothing a
    log's ruleset name carries is read as Markdown)."""
    return (
        "\n---\n\n" + _("Provenance: {provenance}").format(provenance=md_code(p.sentence())) + "\n"
    )


def provenance_html(page: str, p: Provenance) -> str:
    """``page`` with the provenance as a footer before its ``</body>`` (escaped)."""
    said = _("Provenance: {provenance}").format(
        provenance=f"<code>{html.escape(p.sentence())}</code>"
    )
    footer = f'<footer class="provenance"><p>{said}</p></footer>\n'
    at = page.rfind("</body>")
    if at < 0:
        return page + footer
    return page[:at] + footer + page[at:]
