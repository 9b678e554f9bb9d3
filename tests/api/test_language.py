"""The service's error answers in the language ``Accept-Language`` asks for, from a real
``vwlog serve`` on loopback: the library's errors, the routes' own refusals, and English when
the header names no language vwlog speaks. The error code and the answer's shape stay the
same in every language; ``Content-Language`` says which one the message is in."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from tests.api.server import Server

INDONESIAN = {"Accept-Language": "id-ID,id;q=0.9,en;q=0.5"}


@pytest.mark.parametrize(
    ("headers", "lang", "message"),
    [
        (INDONESIAN, "id", "tidak ada pertandingan tersimpan 'no-such-match' (lihat 'vwlog list')"),
        ({"Accept-Language": "en-GB,en;q=0.9,id;q=0.4"}, "en", "no stored match 'no-such-match'"),
        ({"Accept-Language": "fr-FR, de"}, "en", "no stored match 'no-such-match'"),
        ({}, "en", "no stored match 'no-such-match' (see 'vwlog list')"),
    ],
    ids=["id", "en-first", "neither", "none"],
)
def test_a_library_error_in_the_language_asked_for(
    sqlite_server: Server, headers: dict[str, str], lang: str, message: str
) -> None:
    with sqlite_server.client() as c:
        r = c.get("/matches/no-such-match", headers=headers)
    assert r.status_code == 404
    assert r.headers["content-language"] == lang
    body = r.json()
    assert body["error"] == "not_found"  # the code is for programs: never translated
    assert body["message"].startswith(message)


def test_a_route_refusal_in_indonesian(sqlite_server: Server) -> None:
    with sqlite_server.client() as c:
        english = c.get("/whoami")
        indonesian = c.get("/whoami", headers=INDONESIAN)
    assert english.status_code == indonesian.status_code == 401
    assert english.json()["message"] == "no token presented"
    assert indonesian.json() == {**english.json(), "message": "tidak ada token yang diberikan"}
    assert indonesian.headers["www-authenticate"] == "Bearer"


def test_a_usage_error_names_the_same_values_in_indonesian(sqlite_server: Server) -> None:
    """A fork at a position that is no priority point: the seq and the match id are the same
    in both answers, only the words around them change."""
    match_id = sqlite_server.tokens.get("match:absolute-victory", "absolute-victory")
    with sqlite_server.client("judge") as c:
        english = c.post(f"/matches/{match_id}/forks", json={"at": 1})
        indonesian = c.post(f"/matches/{match_id}/forks", json={"at": 1}, headers=INDONESIAN)
    assert english.status_code == indonesian.status_code == 400
    assert "is not a priority point" in english.json()["message"]
    said = indonesian.json()["message"]
    assert said.startswith(f"seq 1 dari '{match_id}' bukan titik prioritas (terdekat: ")
    nearest = english.json()["message"].split("(nearest: ")[1]
    assert said.endswith(nearest)
