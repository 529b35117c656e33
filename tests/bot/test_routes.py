"""The list of Discord routes the bot calls (tests/bot/routes.py) names real operations of Discord's
API document and real tests; that each named test calls its route, and that no test calls a route
the list leaves out, is checked as the tests run (tests/bot/fake_discord.py, tests/bot/harness.py)."""

from __future__ import annotations

import importlib

import pytest

from tests.bot import contract
from tests.bot.routes import ROUTES, Route, assert_covers


@pytest.mark.parametrize("route", ROUTES, ids=[r.operation for r in ROUTES])
def test_each_route_is_the_documents_and_has_a_test(route: Route) -> None:
    concrete = "/api/v10" + route.template.replace("{", "1").replace("}", "")  # every parameter a number
    if "interaction_token" in route.template or "webhook_token" in route.template:
        concrete = concrete.replace("/1webhook_token", "/tok-1").replace("/1interaction_token", "/tok-1")
    found = contract.operation(route.method, concrete)
    assert found is not None and found[0].operation_id == route.operation, (route, found)
    assert found[0].template == route.template
    path, name = route.test.split("::")
    module = importlib.import_module(path.removesuffix(".py").replace("/", "."))
    assert callable(getattr(module, name.split("[")[0], None)), f"{route.test} does not exist"


def test_the_list_names_each_route_once() -> None:
    assert len({r.operation for r in ROUTES}) == len(ROUTES)


def test_a_named_test_that_missed_its_route_fails() -> None:
    calls = {r.operation for r in ROUTES if r.test == ROUTES[0].test}
    assert_covers(calls, ROUTES[0].test)
    with pytest.raises(AssertionError, match="did not call"):
        assert_covers(calls - {ROUTES[0].operation}, ROUTES[0].test)


async def test_a_route_the_list_leaves_out_fails_the_test_that_called_it() -> None:
    import aiohttp

    from tests.bot.fake_discord import CHANNEL_ID, FakeDiscord

    fake = FakeDiscord()
    base = await fake.start()
    try:
        async with aiohttp.ClientSession() as session:
            await session.put(f"{base}/channels/{CHANNEL_ID}/pins/1", headers={"Authorization": "Bot fake-token"})
    finally:
        await fake.stop()
    assert any("is not listed in tests/bot/routes.py" in str(v) for v in fake.unexpected_violations())
