"""A referee-assistant setup is read within the limits every uploaded file is (game/schema/common.py):
its size, and how deep it nests, both checked before tomllib sees it; each refusal says what was
wrong and what is allowed (issue 22, finding 13)."""

from __future__ import annotations

import pytest

from game.schema.common import MAX_DEPTH
from game.service.referee import MAX_SETUP_BYTES, builtin_setups, setup_doc
from game.systems import REFEREE_SYSTEMS
from game.systems.setup import SetupError


def refusal(text: str) -> SetupError:
    with pytest.raises(SetupError) as caught:
        setup_doc("wsim", text=text)
    return caught.value


def test_every_built_in_setup_is_read_within_the_limits() -> None:
    for name, sysm in REFEREE_SYSTEMS.items():
        for setup in builtin_setups(name):
            sysm.initial_state(setup_doc(name, setup))


@pytest.mark.parametrize("text", [
    "x = " + "[" * 30_000 + "]" * 30_000,
    "x = " + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1),
    "x = " + "{a = " * (MAX_DEPTH + 1) + "1" + "}" * (MAX_DEPTH + 1),
    "[" + ".".join(["a"] * (MAX_DEPTH + 1)) + "]",
    ".".join(["k"] * 20_000) + " = 1",
])
def test_a_setup_nested_past_the_limit_is_refused_before_parsing(text: str) -> None:
    err = refusal(text)
    assert err.message.startswith("That setup file ") and f"more than {MAX_DEPTH}" in err.message, err.message
    assert err.allowed == f"Nest arrays, inline tables and table names at most {MAX_DEPTH} deep."


def test_nesting_up_to_the_limit_is_read() -> None:
    inner = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert setup_doc("wsim", text=f"x = {inner}")["x"] is not None
    assert setup_doc("wsim", text='x = "' + "[" * 1000 + '"')["x"] == "[" * 1000  # brackets in a string are text


def test_a_setup_too_large_or_not_toml_is_refused() -> None:
    err = refusal("# " + "x" * MAX_SETUP_BYTES)
    assert "bytes; the limit is 100,000" in err.message and err.allowed == "Keep it under 100 KB."
    assert refusal("players = [").message.startswith("The setup is not valid TOML: ")
    assert refusal("x = 1" + "0" * 5000).message.startswith("The setup is not valid TOML: ")  # past int's digit limit
