"""Every exception of vwlog but those of its surroundings, and the `Violation` value
(`vwlog.model.violation`).

Imports only the model (`vwlog.model.text`, `vwlog.model.violation`), so every layer may use it.
Exceptions carry fields and build their message in ``__str__``; ``text()`` gives the same message
as a template and its values, so the command line and the service can say it in the user's
language. A violation is data, not an exception (it is raised only in strict mode, inside
`IllegalEventError`).
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Literal, Self

from vwlog.model.text import Msg, did_you_mean, joined_semicolons, msg, said_text
from vwlog.model.violation import Violation

if TYPE_CHECKING:
    from collections.abc import Sequence


class VwlogError(Exception):
    """Root of every vwlog exception; never raised bare."""

    def text(self) -> Msg | str:
        """The message as a template and its values, so a person can be told it in their
        language (`vwlog.io.i18n.say`); the English message where there is no template."""
        return str(self)

    def said(self) -> str:
        """The English message that remembers its template (a `SaidText`, where `text` has
        one): what a worker process hands back for the parent to say in the user's language."""
        text = self.text()
        return said_text(text) if isinstance(text, Msg) else str(text)


class LogFormatError(VwlogError, ValueError):
    """A log file is unreadable or malformed."""

    def __init__(self, path: str, line: int | None, detail: str, field: str | None = None) -> None:
        super().__init__(path, line, detail, field)
        self.path = path
        self.line = line
        self.detail = detail
        self.field = field

    def __str__(self) -> str:
        return str(self.text())

    def text(self) -> Msg:
        """``path, line N, field 'f': detail`` (the detail as the reader words it)."""
        where: Msg | str = self.path
        if self.line is not None:
            where = msg("{where}, line {line}", where=where, line=self.line)
        if self.field:
            where = msg("{where}, field {field}", where=where, field=repr(self.field))
        return msg("{where}: {detail}", where=where, detail=self.detail)


class UnsupportedVersionError(LogFormatError):
    """A log declares a format version that no upcaster can read."""


class OutputError(VwlogError):
    """A file that vwlog writes (a log, a schema) could not be written."""

    def __init__(self, path: str, detail: str) -> None:
        super().__init__(path, detail)
        self.path = path
        self.detail = detail

    def __str__(self) -> str:
        return f"cannot write {self.path!r}: {self.detail}"


class IllegalEventError(VwlogError, ValueError):
    """An event breaks rules; raised only in strict mode or by play mode."""

    def __init__(
        self,
        seq: int | None,
        event_type: str,
        violations: Sequence[Violation],
        *,
        after: int = 0,
    ) -> None:
        super().__init__(seq, event_type, tuple(violations))
        self.seq = seq
        self.event_type = event_type
        self.violations = tuple(violations)
        self.after = after
        """In play mode: how many events the same decision applied before this one (a chosen
        result comes after the decision and its earlier consequences)."""

    def __str__(self) -> str:
        return str(self.text())

    def text(self) -> Msg:
        """One line, whatever the count (errors are shown as one ``Error: …`` line)."""
        where: Msg | str = self.event_type
        if self.seq:
            where = msg("event {seq} ({event})", seq=self.seq, event=self.event_type)
        vs = self.violations
        rules = joined_semicolons(
            [msg("{rule} {message}", rule=v.rule, message=v.text or v.message) for v in vs]
        )
        if len(self.violations) == 1:
            return msg("{where} breaks 1 rule: {rules}", where=where, rules=rules)
        return msg(
            "{where} breaks {n} rules: {rules}", where=where, n=len(self.violations), rules=rules
        )


class MatchNotFoundError(VwlogError, LookupError):
    """No stored match has this id."""

    def __init__(self, match_id: str) -> None:
        super().__init__(match_id)
        self.match_id = match_id

    def __str__(self) -> str:
        return str(self.text())

    def text(self) -> Msg:
        """What is missing, and where to look."""
        return msg("no stored match {match} (see 'vwlog list')", match=repr(self.match_id))


class SequenceConflictError(VwlogError):
    """Another writer already appended at this position of the match (optimistic concurrency)."""

    def __init__(self, match_id: str, seq: int) -> None:
        super().__init__(match_id, seq)
        self.match_id = match_id
        self.seq = seq

    def __str__(self) -> str:
        return str(self.text())

    def text(self) -> Msg:
        """Who was first, and what to do."""
        return msg(
            "match {match} already has an event at seq {seq}: another writer appended first; "
            "nothing was written, reload and try again",
            match=repr(self.match_id),
            seq=self.seq,
        )


class MatchExistsError(VwlogError):
    """A different match with this id is already stored: its head hash differs."""

    def __init__(self, match_id: str, stored_head: str | None, new_head: str | None) -> None:
        super().__init__(match_id, stored_head, new_head)
        self.match_id = match_id
        self.stored_head = stored_head
        self.new_head = new_head

    def __str__(self) -> str:
        stored = (self.stored_head or "none")[:12]
        new = (self.new_head or "none")[:12]
        return (
            f"match {self.match_id!r} is already stored with different contents (stored head "
            f"{stored}, this one {new}): nothing was written; export the stored match and "
            "compare the two with 'vwlog diff', or import this one under another id"
        )


class StoreError(VwlogError):
    """The match store failed (database error, corrupt record)."""

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail

    def __str__(self) -> str:
        return f"store error: {self.detail}"


class StoreConfigError(VwlogError):
    """The ``--store`` URL is malformed or needs an extra that is not installed."""

    def __init__(self, url: str, detail: str) -> None:
        super().__init__(url, detail)
        self.url = url
        self.detail = detail

    def __str__(self) -> str:
        return f"store {self.url!r}: {self.detail}"


class CardPoolError(VwlogError, ValueError):
    """A card pool or deck list is malformed."""

    def __init__(self, source: str, detail: str) -> None:
        super().__init__(source, detail)
        self.source = source
        self.detail = detail

    def __str__(self) -> str:
        return f"{self.source}: {self.detail}"


class UsageError(VwlogError, ValueError):
    """A request does not make sense (for example a fork at a position that is not a priority
    point)."""

    context: str = ""
    """Where the problem arose, prefixed to the message (``"decision 2 of 3: "``)."""

    def __init__(self, detail: str | Msg) -> None:
        super().__init__(detail)
        self.detail = str(detail)
        self.detail_text = detail

    def __str__(self) -> str:
        return f"{self.context}{self.message()}"

    def message(self) -> str:
        """What is wrong, without the context."""
        return str(self.phrase())

    def phrase(self) -> Msg | str:
        """`message` as a template and its values (the English string where the error was
        raised with one)."""
        return self.detail_text

    def text(self) -> Msg | str:
        """The context, then `phrase`."""
        if not self.context:
            return self.phrase()
        return msg("{context}{message}", context=self.context, message=self.phrase())

    def within(self, context: str) -> Self:
        """A copy of this error with ``context`` put before its message (the same class, so
        callers can still tell the cases apart).

        >>> str(UsageError("empty decision").within("decision 2 of 3: "))
        'decision 2 of 3: empty decision'
        """
        err = copy.copy(self)
        err.context = context + self.context
        return err


# -- specific usage errors --------------------------------------------------------------------
# Each is a `UsageError`, so ``except UsageError`` sites keep working. Their messages say what
# is wrong in terms of the match, never which command-line flag to type: the CLI adds that
# (`vwlog.cli.errors`).


class UnreadableDecisionError(UsageError):
    """A decision a player wrote cannot be read, in any game's notation or as JSON."""


class DecisionSyntaxError(UnreadableDecisionError):
    """A decision written in the play notation (or as JSON) cannot be read."""

    def __init__(self, text: str, detail: str | Msg, syntax: str | None = None) -> None:
        super().__init__(detail)
        self.args = (text, detail, syntax)
        self.decision = text
        self.syntax = syntax

    def phrase(self) -> Msg | str:
        said = self.detail_text
        if self.syntax:
            said = msg("{detail} (the syntax is '{syntax}')", detail=said, syntax=self.syntax)
        if self.decision:
            said = msg("decision {decision}: {detail}", decision=repr(self.decision), detail=said)
        return said


class UnknownVerbError(DecisionSyntaxError):
    """A decision starts with a word that names no decision."""

    def __init__(self, text: str, verb: str, hint: str | None = None) -> None:
        super().__init__(text, did_you_mean(msg("unknown decision {verb}", verb=repr(verb)), hint))
        self.args = (text, verb, hint)
        self.verb = verb

    def phrase(self) -> Msg | str:
        return self.detail_text


class NoDecisionAwaitedError(UsageError):
    """Nobody is to decide now: the match is over or has not started."""

    def __init__(self, match_id: str | None = None, winner: str | None = None) -> None:
        detail: Msg
        if winner is not None and match_id:
            detail = msg(
                "match {match} is over (won by {winner})", match=repr(match_id), winner=winner
            )
        elif winner is not None:
            detail = msg("the match is over (won by {winner})", winner=winner)
        else:
            detail = msg("no decision is awaited now (the match is over or not started)")
        super().__init__(detail)
        self.args = (match_id, winner)
        self.match_id, self.winner = match_id, winner


class MatchOverError(NoDecisionAwaitedError):
    """A decision was given for a match that is already over."""

    def __init__(self, match_id: str | None, winner: str | None) -> None:
        super().__init__(match_id, winner or "nobody")


class MatchNotStartedError(UsageError):
    """A stored match has no ``match_started`` event, so it has no ruleset and no board."""

    def __init__(self, match_id: str, detail: str = "has not started") -> None:
        said = (
            msg("match {match} has not started", match=repr(match_id))
            if detail == "has not started"
            else msg("match {match} {detail}", match=repr(match_id), detail=detail)
        )
        super().__init__(said)
        self.args = (match_id, detail)
        self.match_id = match_id


class NotPlayableError(UsageError):
    """An event was offered as a decision but is never played (a ruling, a fork marker)."""

    def __init__(self, event_type: str, reason: str) -> None:
        super().__init__(msg("{event} is not played: {reason}", event=event_type, reason=reason))
        self.args = (event_type, reason)
        self.event_type, self.reason = event_type, reason


class ChoiceError(UsageError):
    """A choice given for a result cannot be used: the object never resulted, its skill leaves
    no choice, or more cards were named than the choice takes."""

    def __init__(self, object_id: str, problem: Literal["unused", "no choice", "too many"]) -> None:
        if problem == "unused":
            said = msg(
                "the choice for object {object_id} was not used: it did not result",
                object_id=repr(object_id),
            )
        elif problem == "no choice":
            said = msg(
                "object {object_id} leaves no choice when it results", object_id=repr(object_id)
            )
        else:
            said = msg(
                "the choice for object {object_id} names more cards than it takes",
                object_id=repr(object_id),
            )
        super().__init__(said)
        self.args = (object_id, problem)
        self.object_id = object_id
        self.problem = problem


class NotAPriorityPointError(UsageError):
    """A position that is no fork point of its game (for Vandaria Wars and WoW TCG, where no
    player holds priority) was asked for as a fork point."""

    def __init__(  # priority: the game's fork points are where a player holds priority
        self,
        match_id: str,
        seq: int,
        before: int | None = None,
        after: int | None = None,
        *,
        priority: bool = True,
    ) -> None:
        near: Msg | str = ", ".join(f"seq {s}" for s in (before, after) if s is not None)
        values = {"seq": seq, "match": repr(match_id), "near": near or msg("none nearby")}
        super().__init__(
            msg("seq {seq} of {match} is not a priority point (nearest: {near})", **values)
            if priority
            else msg("seq {seq} of {match} is not a fork point (nearest: {near})", **values)
        )
        self.args = (match_id, seq, before, after)
        self.match_id, self.seq, self.before, self.after = match_id, seq, before, after


class SeqOutOfRangeError(UsageError, IndexError):
    """A sequence number outside the events of a log or stored match."""

    def __init__(self, source: str, seq: int, first: int | None, last: int | None) -> None:
        if first is None or last is None:
            detail = msg(
                "no event with seq {seq} in {source}: it has no events", seq=seq, source=source
            )
        else:
            detail = msg(
                "no event with seq {seq} in {source} (its seqs run {first}..{last})",
                seq=seq,
                source=source,
                first=first,
                last=last,
            )
        super().__init__(detail)
        self.args = (source, seq, first, last)
        self.source, self.seq, self.first, self.last = source, seq, first, last


class StoredSeqOutOfRangeError(SeqOutOfRangeError):
    """A sequence number outside the events of a stored match (0 is the empty board)."""

    def __init__(self, match_id: str, seq: int, last: int) -> None:
        super().__init__(repr(match_id), seq, 1, last)
        self.args = (match_id, seq, last)
        self.detail_text = msg(
            "match {match} has events 1 to {last}; no seq {seq}",
            match=repr(match_id),
            last=last,
            seq=seq,
        )
        self.detail = str(self.detail_text)
        self.match_id = match_id


class RulesetError(UsageError):
    """A ruleset, or a change to one, is not valid."""


class RulesetOverrideError(RulesetError):
    """A ruleset flag override (``FLAG=VALUE``) names no flag, is malformed, or its value does
    not fit the flag."""

    def __init__(self, override: str, detail: str | Msg, flag: str | None = None) -> None:
        super().__init__(detail)
        self.args = (override, detail, flag)
        self.override = override
        self.flag = flag

    def phrase(self) -> Msg | str:
        return msg(
            "ruleset override {override}: {detail}",
            override=repr(self.override),
            detail=self.detail_text,
        )


class UnknownFlagError(RulesetOverrideError):
    """A ruleset flag override names no flag of `Ruleset`."""

    def __init__(self, override: str, flag: str) -> None:
        super().__init__(override, msg("no ruleset flag {flag}", flag=repr(flag)), flag)
        self.args = (override, flag)


class RulesetFileError(RulesetError):
    """A ruleset file cannot be read or is not a valid ruleset."""

    def __init__(self, path: str, detail: str | Msg, field: str | None = None) -> None:
        super().__init__(detail)
        self.args = (path, detail, field)
        self.path = path
        self.field = field

    def phrase(self) -> Msg | str:
        if self.field:
            return msg(
                "{path}, field {field}: {detail}",
                path=self.path,
                field=repr(self.field),
                detail=self.detail_text,
            )
        return msg("{path}: {detail}", path=self.path, detail=self.detail_text)


class UnknownPlayerError(UsageError, LookupError):
    """A player id that has no seat in the match."""

    def __init__(self, player: str, seated: Sequence[str] = (), hint: str | None = None) -> None:
        players: Msg | str = ", ".join(seated) or msg("none, the match has not started")
        said = msg(
            "no player {player} in this match (players: {players})",
            player=repr(player),
            players=players,
        )
        super().__init__(did_you_mean(said, hint))
        self.args = (player, tuple(seated), hint)
        self.player = player
        self.seated = tuple(seated)


class UnknownCardError(UsageError, LookupError):
    """A card instance id that the match does not know, or a skill the card lacks."""

    def __init__(self, card: str, skill: str | None = None) -> None:
        if skill is None:
            detail = msg("unknown card {card}", card=repr(card))
        else:
            detail = msg("{card} has no skill {skill}", card=card, skill=repr(skill))
        super().__init__(detail)
        self.args = (card, skill)
        self.card = card
        self.skill = skill


class SourceNotFoundError(UsageError, LookupError):
    """A name that is neither a readable log file nor a stored match."""

    def __init__(self, ref: str) -> None:
        super().__init__(msg("{ref}: no such log file or stored match", ref=ref))
        self.args = (ref,)
        self.ref = ref


class NotAForkError(UsageError):
    """A match that records no parent where a fork is needed."""

    def __init__(self, match_id: str) -> None:
        super().__init__(
            msg("match {match} is not a fork (it records no parent)", match=repr(match_id))
        )
        self.args = (match_id,)
        self.match_id = match_id


class ParentNotStoredError(UsageError, LookupError):
    """The parent of a fork is no longer in the store."""

    def __init__(self, fork_id: str, parent_id: str) -> None:
        super().__init__(
            msg(
                "the parent {parent} of fork {fork} is not stored",
                parent=repr(parent_id),
                fork=repr(fork_id),
            )
        )
        self.args = (fork_id, parent_id)
        self.fork_id, self.parent_id = fork_id, parent_id


class ForkNameError(UsageError):
    """A fork name is not allowed, or every id it could give is taken."""

    def __init__(self, name: str, detail: str | Msg) -> None:
        super().__init__(msg("fork name {name}: {detail}", name=repr(name), detail=detail))
        self.args = (name, detail)
        self.name = name


class InvalidParameterError(UsageError):
    """A parameter of a use case is outside what it accepts (a checkpoint interval below 1,
    a player count outside 2 to 4, ...)."""

    def __init__(self, parameter: str, value: object, detail: str | Msg) -> None:
        super().__init__(
            msg(
                "{parameter} {detail}, not {value}",
                parameter=parameter,
                detail=detail,
                value=repr(value),
            )
        )
        self.args = (parameter, value, detail)
        self.parameter = parameter
        self.value = value


__all__ = [
    "CardPoolError",
    "ChoiceError",
    "DecisionSyntaxError",
    "ForkNameError",
    "IllegalEventError",
    "InvalidParameterError",
    "LogFormatError",
    "MatchExistsError",
    "MatchNotFoundError",
    "MatchNotStartedError",
    "MatchOverError",
    "NoDecisionAwaitedError",
    "NotAForkError",
    "NotAPriorityPointError",
    "NotPlayableError",
    "OutputError",
    "ParentNotStoredError",
    "RulesetError",
    "RulesetFileError",
    "RulesetOverrideError",
    "SeqOutOfRangeError",
    "SequenceConflictError",
    "SourceNotFoundError",
    "StoreConfigError",
    "StoreError",
    "StoredSeqOutOfRangeError",
    "UnknownCardError",
    "UnknownFlagError",
    "UnknownPlayerError",
    "UnknownVerbError",
    "UnreadableDecisionError",
    "UnsupportedVersionError",
    "UsageError",
    "Violation",
    "VwlogError",
]
