"""Store URLs to eventsourcing environments (`vwlog.store.settings`)."""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING

import pytest

from vwlog.model.errors import StoreConfigError
from vwlog.store import settings_from_url
from vwlog.store.settings import SQLITE_LOCK_TIMEOUT, redact

if TYPE_CHECKING:
    from pathlib import Path


def test_memory_is_the_plain_python_backend() -> None:
    assert settings_from_url("memory:") == {"PERSISTENCE_MODULE": "eventsourcing.popo"}


def test_a_plain_path_is_an_sqlite_file_made_absolute(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert settings_from_url("vwlog.db") == {
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": str(tmp_path / "vwlog.db"),
        "SQLITE_LOCK_TIMEOUT": str(SQLITE_LOCK_TIMEOUT),
    }


@pytest.mark.parametrize(
    ("url", "relative"),
    [
        ("sqlite:///matches.db", "matches.db"),
        ("sqlite:///sub/matches.db", "sub/matches.db"),
        ("sqlite:///with%20space.db", "with space.db"),
    ],
)
def test_sqlite_urls_name_a_path_after_the_third_slash(
    url: str, relative: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path)
    assert settings_from_url(url)["SQLITE_DBNAME"] == str(tmp_path / relative)


def test_a_fourth_slash_makes_an_absolute_sqlite_path(tmp_path: Path) -> None:
    settings = settings_from_url(f"sqlite:///{tmp_path}/m.db?timeout=90")
    assert settings["SQLITE_DBNAME"] == str(tmp_path / "m.db")
    assert settings["SQLITE_LOCK_TIMEOUT"] == "90"


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("", "empty store URL"),
        ("mysql://db/x", "unknown store scheme 'mysql'"),
        ("sqlite:relative.db", "sqlite:///relative/path.db"),
        ("sqlite:///", "no database file"),
        ("sqlite:///:memory:", "use 'memory:'"),
        ("sqlite:///m.db?timeout=soon", "whole number of seconds"),
        ("sqlite:///m.db?journal=off", "unknown option 'journal'"),
        ("sqlite:///m.db?timeout=1&timeout=2", "exactly one value"),
        ("no/such/dir/m.db", "does not exist"),
        ("postgresql://db.example/", "no database name"),
        ("postgresql://db.example:port/x", "port is not a number"),
        ("postgresql://db.example/x?sslmode=require", "unknown option 'sslmode'"),
    ],
)
def test_bad_urls_are_refused_with_the_reason(
    url: str, message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(StoreConfigError, match=message):
        settings_from_url(url)


def test_a_directory_is_not_a_database(tmp_path: Path) -> None:
    with pytest.raises(StoreConfigError, match="is a directory"):
        settings_from_url(str(tmp_path))


def test_postgresql_urls_become_postgres_settings() -> None:
    settings = settings_from_url("postgresql://vw:p%40ss@db.example:5433/matches?schema=club")
    assert settings == {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": "matches",
        "POSTGRES_HOST": "db.example",
        "POSTGRES_PORT": "5433",
        "POSTGRES_USER": "vw",
        "POSTGRES_PASSWORD": "p@ss",
        "POSTGRES_CONNECT_TIMEOUT": "10",
        "POSTGRES_POOL_SIZE": "1",
        "POSTGRES_MAX_OVERFLOW": "9",
        "POSTGRES_SCHEMA": "club",
    }


def test_postgresql_defaults_are_libpqs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("getpass.getuser", lambda: "judge")
    settings = settings_from_url("postgres:///matches")
    assert settings["POSTGRES_HOST"] == ""
    assert settings["POSTGRES_PORT"] == "5432"
    assert settings["POSTGRES_USER"] == "judge"
    assert settings["POSTGRES_PASSWORD"] == ""
    assert "POSTGRES_SCHEMA" not in settings


def test_postgresql_without_the_extra_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    find_spec = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name: None if name == "psycopg" else find_spec(name)
    )
    with pytest.raises(StoreConfigError, match=r"pip install 'vwlog\[postgres\]'") as caught:
        settings_from_url("postgresql://vw:secret@db.example/matches")
    assert "secret" not in str(caught.value)


def test_passwords_are_hidden_in_messages() -> None:
    assert redact("postgresql://vw:secret@db:5432/m") == "postgresql://vw:***@db:5432/m"
    assert redact("postgresql://vw@db/m") == "postgresql://vw@db/m"
    assert redact("plain/path.db") == "plain/path.db"
    with pytest.raises(StoreConfigError) as caught:
        settings_from_url("postgresql://vw:secret@db.example/m?bad=1")
    assert "secret" not in str(caught.value)


@pytest.mark.parametrize(
    ("url", "problem"),
    [
        ("postgresql://vw@db/matches?schema=Upper", "not a plain lower-case name"),
        ('postgresql://vw@db/matches?schema=a"b', "not a plain lower-case name"),
        ("postgresql://vw@db/matches?schema=" + "a" * 58, "not a plain lower-case name"),
        ("postgresql://vw@db/matches?schema=information_schema", "system schema"),
        ("postgresql://vw@db/matches?schema=pg_catalog", "system schema"),
        ("postgresql://vw@db/mat%00ches", "database name contains a NUL"),
        ("postgresql://v%00w@db/matches", "user contains a NUL"),
    ],
)
def test_a_schema_or_name_the_store_cannot_use_is_refused(url: str, problem: str) -> None:
    if not importlib.util.find_spec("psycopg"):
        pytest.skip("the postgres extra is not installed")
    with pytest.raises(StoreConfigError, match=problem):
        settings_from_url(url)


def test_a_lower_case_schema_of_57_characters_is_accepted() -> None:
    if not importlib.util.find_spec("psycopg"):
        pytest.skip("the postgres extra is not installed")
    name = "s" * 57
    settings = settings_from_url(f"postgresql://vw@db/matches?schema={name}")
    assert settings["POSTGRES_SCHEMA"] == name
