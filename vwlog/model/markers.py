"""The markers of what already happened in a phase or step (`MatchState.done`).

Part of the compiled engine core (`vwlog.build.COMPILED`), with the wire enums of
`vwlog.model.types`: compiled code reads the members of an enum defined in a compiled module
as constants, where Python 3.11 looks each one up through ``EnumType.__getattr__``.
`vwlog.model.state` re-exports `Marker`.
"""

from __future__ import annotations

from enum import StrEnum


class Marker(StrEnum):
    """What already happened in the current phase or step, as kept in `MatchState.done`.

    The projections leave these markers and the rules read them to know what comes next.
    Markers that concern one player (or one choice) are written ``<marker>:<who>`` by `of`;
    snapshots store the plain strings, which compare equal to the members.
    """

    OPENING = "opening"
    """``opening:<player>``: the player drew their opening hand."""
    PRODUCED = "produced"
    SUPPLY = "supply"
    """``supply:<option>``: the active player chose this Supply package."""
    SUPPLY_TAKEN = "supply_taken"
    UNSLID = "unslid"
    DEPLOYED = "deployed"
    WINDOW = "window"
    """A registration or result happened in this step's priority window (the step's own
    action is over)."""
    ATTACKERS = "attackers"
    DECLARED = "declared"
    BLOCKERS = "blockers"
    """``blockers:<player>``: this defender chose blocking Followers."""
    BLOCKS = "blocks"
    """``blocks:<player>``: this defender assigned blocks."""
    DAMAGE = "damage"
    """``damage:<player>``: this player distributed Follower damage."""
    REGISTERED = "registered"
    RESULTED = "resulted"
    STRUCK = "struck"
    """``struck:<territory>``: a result other than combat damage left this Territory with
    fatal damage (OQ-39)."""
    RETURNED = "returned"
    DISCARDED = "discarded"
    """``discarded:<player>``: this player discarded down to the hand limit."""
    CLEANED = "cleaned"
    TURN_ENDED = "turn_ended"

    def of(self, who: str) -> str:
        """The marker for one player or one choice: ``"<marker>:<who>"``."""
        return self + ":" + who  # a member is its value (a str), without enum.property's cost

    def choice(self, done: frozenset[str]) -> str | None:
        """The ``who`` of this marker in ``done`` (the first found), or ``None``."""
        prefix = self + ":"
        return next((d[len(prefix) :] for d in done if d.startswith(prefix)), None)


__all__ = ["Marker"]
