"""``vwlog stats`` for a game other than Vandaria Wars: which game a set of logs (or a store)
holds, and that game's own statistics (`vwlog.services.gamestats`).

Logs of several games are refused in one line, naming the games and how many logs each has:
the figures of two games do not add up. A store is measured by Vandaria Wars' statistics as
before; one that holds no Vandaria Wars match and matches of one other game is measured by that
game's statistics.
"""

from __future__ import annotations

import os
import stat
from typing import TYPE_CHECKING

import click

from vwlog.cli.render import echo
from vwlog.games import GameRules, rules_for, unavailable
from vwlog.io.files import STDIO
from vwlog.io.i18n import gettext as _
from vwlog.io.i18n import say
from vwlog.model.errors import UsageError
from vwlog.model.games import DEFAULT_GAME
from vwlog.model.text import msg
from vwlog.render.gamestats import game_stats_csv, game_stats_json, game_stats_text
from vwlog.render.text import term
from vwlog.services.gamestats import (
    GameCorpus,
    game_corpus,
    game_stats,
    games_of,
    measure_game_log,
    measure_store,
    stored_games,
)

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

__all__ = ["corpus_of_logs", "corpus_of_store", "show", "vw_only"]


def _one_game(by_game: Mapping[str, Sequence[object]], what: str) -> str | None:
    """The one game ``by_game`` holds (``None``: none but unreadable logs).

    Raises:
        UsageError: it holds several.
    """
    games = sorted(g for g in by_game if g)
    if len(games) > 1:
        held = ", ".join(f"{g} {len(by_game[g])}" for g in games)
        raise UsageError(
            msg(
                "{what} are of several games ({held}): vwlog stats measures one game at a time",
                what=what,
                held=held,
            )
        )
    return games[0] if games else None


def vw_only(game: GameRules, asked: Mapping[str, bool]) -> None:
    """Refuse the options of Vandaria Wars' statistics that ``game``'s do not have.

    Raises:
        GameUnavailableError: ``stats --html is not available for game X``.
    """
    for option, given in asked.items():
        if given:
            raise unavailable(game, f"stats {option}")


def _read_twice(path: str) -> bool:
    """Whether ``path`` can be opened once for its header and again to be measured: not
    standard input, and not a FIFO or a device, whose bytes a first reading would consume."""
    if path == STDIO:
        return False
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return True  # measuring it says why it cannot be read
    return not stat.S_ISFIFO(mode) and not stat.S_ISCHR(mode)


def corpus_of_logs(paths: Sequence[str]) -> tuple[GameCorpus | None, int]:
    """The statistics of ``paths`` if they hold another game's logs (``None``: Vandaria
    Wars', measured as before), and how many could not be read (each said on stderr).

    Raises:
        UsageError: the logs are of several games.
        GameUnavailableError: their game has no statistics.
    """
    readable = [p for p in paths if _read_twice(p)]
    by_game = games_of(readable)
    gid = _one_game(by_game, _("the logs"))
    if gid is None or gid == DEFAULT_GAME or len(readable) < len(paths):
        return None, 0
    game = rules_for(gid)
    game_stats(game)  # its statistics, or the one-line refusal
    unreadable = 0
    measured = []
    for path in [*by_game.get(gid, []), *by_game.get("", [])]:
        outcome = measure_game_log(path, game)
        if isinstance(outcome, str):
            unreadable += 1
            click.echo(_("Error: {message}").format(message=term(say(outcome))), err=True)
            continue
        measured.append(outcome)
    return game_corpus(game, measured), unreadable


def corpus_of_store(url: str, *, forks: bool) -> GameCorpus | None:
    """The statistics of the store at ``url`` when it holds no Vandaria Wars match and the
    matches of one other game (``None`` otherwise).

    Raises:
        UsageError: it holds matches of several other games.
    """
    from vwlog.store import MatchStore

    with MatchStore.open(url) as store:
        by_game = stored_games(store, forks=forks)
        if DEFAULT_GAME in by_game:
            return None
        gid = _one_game(by_game, _("the stored matches"))
        if gid is None:
            return None
        game = rules_for(gid)
        if game.stats is None:
            return None
        return measure_store(store, game, by_game[gid])


def show(corpus: GameCorpus, output_format: str, *, per_match: bool) -> None:
    """Print the statistics in ``output_format``."""
    shown = {"json": game_stats_json, "csv": game_stats_csv}.get(output_format, game_stats_text)
    text = shown(corpus, per_match=per_match)
    if output_format == "text":
        echo(text.rstrip("\n"))
    else:
        click.echo(text, nl=False)
