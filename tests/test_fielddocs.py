"""The attribute docstrings read once per module are pydantic's own, for every model of vwlog."""

from __future__ import annotations

import importlib
import pkgutil
import sys

import pydantic
import pydantic._internal._fields as fields
import pytest

import vwlog
from vwlog.model.fielddocs import attribute_docstrings

SKIP = ("vwlog.__main__",)


def models() -> list[type[pydantic.BaseModel]]:
    """Every pydantic model defined in a module of vwlog (each module imported)."""
    found = []
    for info in pkgutil.walk_packages(vwlog.__path__, "vwlog."):
        if info.name in SKIP:
            continue
        try:
            module = importlib.import_module(info.name)
        except ImportError:  # an optional dependency is missing: nothing of it is read
            continue
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, pydantic.BaseModel)
                and value.__module__ == info.name
            ):
                found.append(value)
    return found


def test_pydantic_reads_attribute_docstrings_through_the_once_per_module_reader() -> None:
    assert getattr(fields.extract_docstrings_from_cls, "read_once", False)


def test_every_models_attribute_docstrings_are_pydantics_own() -> None:
    original = fields.extract_docstrings_from_cls.original  # type: ignore[attr-defined]
    checked = 0
    for cls in models():
        mine = attribute_docstrings(cls)
        assert mine is not None, cls
        assert mine == original(cls, use_inspect=True), cls
        checked += 1
    assert checked > 150  # the events, the catalog, the statistics, the API's shapes, ...


def test_a_class_made_in_a_function_is_left_to_pydantic() -> None:
    def make() -> type[pydantic.BaseModel]:
        class Local(pydantic.BaseModel):
            model_config = pydantic.ConfigDict(use_attribute_docstrings=True)
            x: int = 0
            """The x."""

        return Local

    local = make()
    assert attribute_docstrings(local) is None
    assert local.model_fields["x"].description == "The x."


@pytest.mark.parametrize("name", ["vwlog.events.base", "vwlog.events.match"])
def test_a_module_is_parsed_once(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from vwlog.model import fielddocs

    module = sys.modules.get(name) or importlib.import_module(name)
    assert fielddocs._MODULES.get(name) is not None  # read when its models were defined
    classes = [
        v
        for v in vars(module).values()
        if isinstance(v, type) and issubclass(v, pydantic.BaseModel) and v.__module__ == name
    ]
    assert len(classes) > 1

    def parse_again(_module: object) -> None:
        raise AssertionError(f"{name} parsed again")

    monkeypatch.setattr(fielddocs, "_read", parse_again)
    for cls in classes:
        assert fielddocs.attribute_docstrings(cls) is not None
