"""The web viewer's own words (buttons, headings, labels): every text of ``static/viewer.js``
that it says through ``word()``, each a message of the catalogs. The page
(`vwlog.api.routers.viewer`) hands them over in the negotiated language; the script falls back
to the English key for a word it is not given."""

# ruff: noqa: E501  (each text as the script writes it, one line)

from __future__ import annotations

from vwlog.io.i18n import N_, gettext

__all__ = ["VIEWER_WORDS", "viewer_words"]

VIEWER_WORDS: tuple[str, ...] = (
    N_("Error: {message}"),
    N_("Player"),
    N_("Since"),
    N_("Victory"),
    N_("Search"),
    N_("flagged only"),
    N_("show forks"),
    N_("Filter"),
    N_("Matches"),
    N_("finished"),
    N_("at least {count} turns"),
    N_("at most {count} turns"),
    N_("Also: {filters}"),
    N_("(clear)"),
    N_("fork of {parent} at {seq}"),
    N_("{total} matches, {first}–{last}"),
    N_("← previous"),
    N_("next →"),
    N_("Relic"),
    N_("Rune"),
    N_("slid"),
    N_("fatigued"),
    N_("attacking {target}"),
    N_("blocking {target}"),
    N_("Seq {seq}"),
    N_("Turn {turn}"),
    N_("Active {player}"),
    N_("Phase {phase}"),
    N_("Step {step}"),
    N_("Priority {player}"),
    N_("Viewing as {player}"),
    N_("Full record"),
    N_("Register:"),
    N_("empty"),
    N_("(team {team})"),
    N_("out"),
    N_("Gold {gold}"),
    N_("Honor {honor}"),
    N_("VP {vp}"),
    N_("Deck {count}"),
    N_("Subdeck {count}"),
    N_("Graveyard {count}"),
    N_("Hand ({count}):"),
    N_("hidden"),
    N_("Returning home:"),
    N_("Stray:"),
    N_("Hidden cards seen:"),
    N_("As {player}"),
    N_("Fork from here"),
    N_("fork the match at this priority point"),
    N_("First"),
    N_("first event (Home)"),
    N_("step back (←)"),
    N_("step forward (→)"),
    N_("Last"),
    N_("last event (End)"),
    N_("Next violation"),
    N_("Next combat step"),
    N_("Next turn"),
    N_("statistics"),
    N_("Events"),
    N_("Validation"),
    N_("Verdict: {verdict}"),
    N_(
        "Not available: the report names both hands; a player's token sees only its seat while the match is in progress."
    ),
    N_("Not available: {reason}"),
    N_("No violations."),
    N_("{count} violation(s)."),
    N_("Winner {winner} ({victory})."),
    N_("{rule} at {seq}"),
    N_("Integrity: checking…"),
    N_("Integrity: {status} ({records} records checked, up to event {seq})"),
    N_("BROKEN"),
    N_("ok"),
    N_("first broken link at seq {seq}: {reason}"),
    N_("Integrity: not available ({reason})"),
    N_("Integrity: not checked yet ({count} events)"),
    N_("Check the hash chain"),
    N_("other match id"),
    N_("Diff"),
    N_("no divergence"),
    N_("{outcome}: {common} events in common, first divergence at {seq} ({position})"),
    N_("{outcome}: {common} events in common"),
    N_("Compare"),
    N_("ruling kind"),
    N_("reason"),
    N_("Rulings"),
    N_("Record ruling (judges)"),
    N_("Play"),
    N_("Last append"),
    N_("rules:"),
    N_("The match is over."),
    N_("After event {seq}: no decision is awaited (the rules act next)."),
    N_("After event {seq}: {player} to decide ({kind}, {rule}); {count} legal:"),
    N_("After event {seq}: {player} to decide ({kind}, {rule})."),
    N_(
        "This log was uploaded: decisions are appended only to matches recorded live here (or their forks)."
    ),
    N_("The match is finished: nothing more is appended."),
    N_("Decisions are appended at the last event ({head}); this is event {seq}."),
    N_("This token may not make {player}'s decision."),
    N_("Present a token to append decisions."),
    N_("(more legal decisions than shown)"),
    N_("deck of {player}"),
    N_("Record a live match"),
    N_("Match id"),
    N_("Start"),
    N_(
        "The service shuffles the decks with a cryptographic random source; no seed is chosen here."
    ),
    N_("Table"),
    N_("Statistics"),
    N_("Rank cards played at least"),
    N_("times"),
    N_("Show"),
    N_(
        "{matches} matches ({finished} finished, {unfinished} unfinished), {sides} player-matches, {flagged} with violations."
    ),
    N_("win rate"),
    N_("95% CI"),
    N_(
        "Finished matches. Whiskers: Wilson 95% intervals; dashed line: the mean win rate ({rate})."
    ),
    N_("seat {seat}"),
    N_("{events} events, {turns} turns, won by {winner}"),
    N_("{events} events, {turns} turns"),
    N_("mean {resource}"),
    N_("Victory types"),
    N_("matches"),
    N_("Each bar lists its matches."),
    N_("victory"),
    N_("share"),
    N_("Win rate by seat"),
    N_("win rate (95% CI)"),
    N_("Win rate by turn order"),
    N_("Win rate by faction"),
    N_("Match length"),
    N_("turns"),
    N_(
        "Finished matches (n={n}). Turns: mean {turns_mean}, median {turns_median}. Events: mean {events_mean}, median {events_median}. Each bar lists its matches."
    ),
    N_("Tempo: mean resources at the end of each turn"),
    N_("turn"),
    N_("Each point averages the player-matches that reached the end of that turn."),
    N_("Top cards by win rate when played (n ≥ {n})"),
    N_("win rate when played (95% CI)"),
    N_(
        "Ranked by the lower end of the interval, so a high rate on little evidence does not outrank a solid one."
    ),
    N_("Events per match"),
    N_("events"),
    N_(
        "The {shown} longest of {total} matches; the length chart and the match list hold every one."
    ),
    N_("Grey: with violations. Each bar opens its match."),
    N_("anonymous"),
    N_("filters"),
    N_("timeline"),
    N_("viewpoint"),
    N_("Match"),
    N_("Players"),
    N_("Date"),
    N_("Turns"),
    N_("Winner"),
    N_("Violations"),
    N_("Fork"),
)
"""The English texts, as ``viewer.js`` writes them (a test checks the two agree)."""


def viewer_words() -> dict[str, str]:
    """Every viewer word in the active language, by its English text."""
    return {text: gettext(text) for text in VIEWER_WORDS}
