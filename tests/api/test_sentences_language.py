"""The sentences the service says of a match (the events' descriptions, the legal decisions'
sentences) in the language the request asks for: ``?lang=`` first, else ``Accept-Language``,
English when it names no language vwlog speaks; ``Content-Language`` and the page's ``lang``
say which, and the answer varies by ``Accept-Language``. Names and ids stay as the log has
them; the JSON's shape and its values for programs (type, seq, phase) do not change."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    import httpx

    from tests.api.server import Server

INDONESIAN = {"Accept-Language": "id-ID,id;q=0.9,en;q=0.5"}
ENGLISH = {"Accept-Language": "en-GB,en;q=0.9"}


def _events(server: Server, params: dict[str, object], headers: dict[str, str]) -> httpx.Response:
    combat = server.tokens["match:full-combat"]
    with server.client("judge") as c:
        return c.get(f"/matches/{combat}/events", params=params, headers=headers)


@pytest.mark.parametrize(
    ("params", "headers", "lang"),
    [
        ({}, INDONESIAN, "id"),
        ({"lang": "id"}, ENGLISH, "id"),
        ({"lang": "en"}, INDONESIAN, "en"),
        ({}, ENGLISH, "en"),
        ({}, {}, "en"),
        ({}, {"Accept-Language": "fr, de;q=0.5"}, "en"),
    ],
    ids=["accept-id", "query-id", "query-en", "accept-en", "none", "neither"],
)
def test_event_sentences_in_the_language_asked_for(
    sqlite_server: Server, params: dict[str, object], headers: dict[str, str], lang: str
) -> None:
    r = _events(sqlite_server, {"after": 8, "limit": 4, **params}, headers)
    assert r.status_code == 200
    assert r.headers["content-language"] == lang
    assert "Accept-Language" in r.headers["vary"]
    page = r.json()
    assert page["lang"] == lang
    said = [e["description"] for e in page["events"]]
    if lang == "id":
        assert said == [
            "p1 memilih supply 1 gold (turn pertama)",
            "p1 mengambil 1 gold",
            "Tahap Unslide dimulai",
            "p1 tidak punya apa pun untuk di-unslide",
        ]
    else:
        assert said == [
            "p1 chooses the supply of 1 gold (first turn)",
            "p1 takes 1 gold",
            "Unslide step begins",
            "p1 has nothing to unslide",
        ]
    # what programs read is the same in every language
    first = page["events"][0]
    assert (first["seq"], first["type"], first["phase"]) == (9, "supply_chosen", "PREP")


def test_an_unknown_lang_is_refused_in_the_language_of_the_header(
    sqlite_server: Server,
) -> None:
    r = _events(sqlite_server, {"lang": "fr"}, INDONESIAN)
    assert r.status_code == 422
    assert r.headers["content-language"] == "id"


def test_a_seats_view_is_said_in_indonesian_too(sqlite_server: Server) -> None:
    english = _events(sqlite_server, {"after": 0, "limit": 3, "player": "p2"}, {})
    indonesian = _events(sqlite_server, {"after": 0, "limit": 3, "player": "p2"}, INDONESIAN)
    a, b = english.json()["events"], indonesian.json()["events"]
    assert [e["seq"] for e in a] == [e["seq"] for e in b]
    assert [e["description"] for e in a] != [e["description"] for e in b]
    assert all(e["event"] is None for e in b)  # the recorded events stay hidden from a seat


def test_the_legal_decisions_are_said_in_indonesian(sqlite_server: Server) -> None:
    lifo = sqlite_server.tokens["match:register-lifo"]
    with sqlite_server.client("judge") as c:
        english = c.get(f"/matches/{lifo}/awaited", params={"limit": 5})
        indonesian = c.get(f"/matches/{lifo}/awaited", params={"limit": 5, "lang": "id"})
    assert english.status_code == indonesian.status_code == 200
    assert indonesian.headers["content-language"] == "id"
    a, b = english.json(), indonesian.json()
    if not a["options"]:
        pytest.skip("the sample's match is over: no legal decision to say")
    assert [o["words"] for o in a["options"]] == [o["words"] for o in b["options"]]
    assert [o["text"] for o in a["options"]] != [o["text"] for o in b["options"]]


def test_a_diff_is_said_in_the_language_asked_for(sqlite_server: Server) -> None:
    match = sqlite_server.tokens["match:full-combat"]
    with sqlite_server.client("judge") as c:
        fork = c.post(f"/matches/{match}/forks", json={"at": 40})
        assert fork.status_code == 201, fork.text
        fork_id = fork.json()["match_id"]
        played = c.post(f"/matches/{fork_id}/decisions", json={"decisions": ["pay p1-001 s1"]})
        assert played.status_code == 200, played.text
        english = c.get("/diff", params={"a": match, "b": fork_id})
        indonesian = c.get("/diff", params={"a": match, "b": fork_id}, headers=INDONESIAN)
    assert english.status_code == indonesian.status_code == 200
    assert indonesian.headers["content-language"] == "id"
    en, id_ = english.json()["divergence"], indonesian.json()["divergence"]
    assert en["seq"] == id_["seq"] == 41
    assert en["position"].startswith("turn 1 · p1 active · Combat Phase")
    assert id_["position"].startswith("turn 1 · p1 aktif · Combat Phase")
    assert en["b"]["text"] != id_["b"]["text"]
    assert [x["text"] for x in en["differences"]] != [x["text"] for x in id_["differences"]]
    # what programs read is the same
    assert [x["key"] for x in en["differences"]] == [x["key"] for x in id_["differences"]]
