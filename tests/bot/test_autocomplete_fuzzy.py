"""Issue 26, item 7, through Discord: names with typos autocomplete and resolve, ranked; a typo between
two close names is refused naming both; suggestions never carry what the asker may not see; time
zones autocomplete from the system's zone names."""

from __future__ import annotations

from importlib import resources
from typing import Any

import pytest

from tests.adversary.sweep import autocompleted
from tests.bot.fake_discord import CHANNEL_ID, _base, command, dispatch
from tests.bot.test_bot import ANN, BOB, EVE, last_followup, pick, setup_game

QUICKSTART = resources.files("game.data").joinpath("oak_and_iron/scenarios/quickstart.toml").read_text("utf-8")


def _typo(name: str) -> str:
    """One letter of the name changed: what a hurried member types."""
    middle = len(name) // 2
    return name[:middle] + ("x" if name[middle] != "x" else "y") + name[middle + 1:]


async def suggested(bot: Any, fake: Any, user: tuple[int, str], name: str, option: str, typed: str,
                    **filled: Any) -> list[str]:
    """What Discord would show `user` typing `typed` into /name's `option` (with `filled` options set)."""
    group, _, sub = name.partition(" ")
    opts: list[dict[str, Any]] = [{"name": k, "type": 3, "value": v} for k, v in filled.items()]
    opts.append({"name": option, "type": 3, "value": typed, "focused": True})
    if sub:
        opts = [{"name": sub, "type": 1, "options": opts}]
    data = {"id": "1", "name": group, "type": 1, "options": opts}
    sent = await dispatch(bot, _base(user, CHANNEL_ID, 4, data), fake)
    answers = [r for r in sent if r.payload.get("type") == 8]
    assert len(answers) == 1, [(r.method, r.path) for r in sent]
    return [c["value"] for c in answers[0].payload["data"]["choices"]]


async def test_kestral_autocompletes_and_resolves_to_kestrel(harness: Any) -> None:
    bot, fake = harness
    await setup_game(bot, fake)
    assert (await suggested(bot, fake, ANN, "move", "ship", "Kestral"))[0] == "Kestrel"
    assert await suggested(bot, fake, ANN, "board", "ship", "kestral") == ["Kestrel"]
    for user, card in ((ANN, "Effective Fire"), (BOB, "Take Courage"), (ANN, "Careful Aim"), (BOB, "Reload!")):
        await pick(bot, fake, user, card)
    sent = await dispatch(bot, command(ANN, "move", ship="Kestral", turn="end", turn_side="port", turn_degrees=30.0),
                          fake)
    assert last_followup(sent).content.startswith("✅"), last_followup(sent).content
    assert (await bot.service.reading.state_for_audit(1)).ship("Kestrel").heading == pytest.approx(150)
    answer = last_followup(await dispatch(bot, command(EVE, "board", ship="Otler"), fake))
    assert answer.files and "around Otter" in answer.content  # a look-up takes the typo too


async def test_a_typo_between_two_close_names_is_refused_naming_both(harness: Any) -> None:
    bot, fake = harness
    close = QUICKSTART.replace('"Otter"', '"Hawk"').replace('"Hoorn"', '"Hark"')
    await dispatch(bot, command(ANN, "game", "create", attachments={"file": fake.attach("hawks.toml", close.encode())}),
                   fake)
    await dispatch(bot, command(ANN, "game", "join", side="A"), fake)
    await dispatch(bot, command(BOB, "game", "join", side="B"), fake)
    for sent in (await dispatch(bot, command(BOB, "board", ship="Hawrk"), fake),
                 await dispatch(bot, command(BOB, "move", ship="Hawrk"), fake)):
        answer = last_followup(sent)
        assert answer.ephemeral and not answer.files, answer.content
        assert answer.content.startswith("❌ 'Hawrk' is close to both Hawk and Hark."), answer.content
    assert (await bot.service.reading.state_for_audit(1)).ship("Hawk").heading == 180  # nothing was moved
    # both are offered, the asker picks
    assert set((await suggested(bot, fake, BOB, "move", "ship", "Hawrk"))[:2]) == {"Hawk", "Hark"}


async def test_another_players_hidden_cards_are_never_suggested_or_resolved(harness: Any) -> None:
    """Bob types a typo of each card of Ann's hand into every autocompleted option the bot has: the
    suggestions are the same before and after Ann's secret pick, and none of the game's own lists
    (ships, seats, cards on offer…) offers Ann's cards; only the public rules catalogues name them."""
    bot, fake = harness
    await setup_game(bot, fake)
    state = await bot.service.reading.state_for_audit(1)
    hers = set(state.squadron("A").hand) - set(state.squadron("B").hand)
    assert hers
    catalogues = {("rules", "term"), ("squadron hand", "card")}  # every card the rules know, to anyone
    options = autocompleted(bot.tree)
    assert len(options) > 20

    async def everything() -> dict[tuple[str, str, str], list[str]]:
        return {(name, option, card): await suggested(bot, fake, BOB, name, option, _typo(card))
                for name, option in options for card in sorted(hers)}

    before = await everything()
    await pick(bot, fake, ANN, "Careful Aim")  # face down: Bob may not know it
    after = await everything()
    assert after == before
    for (name, option, _), offered in after.items():
        if (name, option) not in catalogues:
            assert not hers & set(offered), (name, option, offered)
    # an order naming Ann's card with a typo is not resolved for Bob: the refusal does not name it
    refused = last_followup(await dispatch(bot, command(BOB, "order", line="pick A Carefl Aim"), fake)).content
    assert refused.startswith("❌") and "Careful Aim" not in refused, refused


async def test_time_zones_autocomplete_and_a_wrong_one_is_refused_with_the_nearest(harness: Any) -> None:
    bot, fake = harness
    assert (await suggested(bot, fake, ANN, "clock hours", "time_zone", "Europe/Par"))[0] == "Europe/Paris"
    assert (await suggested(bot, fake, ANN, "clock hours", "time_zone", "paris"))[0] == "Europe/Paris"
    assert (await suggested(bot, fake, ANN, "clock hours", "time_zone", "new yrok"))[0] == "America/New_York"
    assert len(await suggested(bot, fake, ANN, "clock hours", "time_zone", "")) == 25  # Discord's most
    answer = last_followup(await dispatch(bot, command(ANN, "clock", "hours", time_zone="paris"), fake))
    assert answer.ephemeral and "Did you mean Europe/Paris" in answer.content, answer.content
    answer = last_followup(await dispatch(bot, command(ANN, "clock", "hours", time_zone="europe/paris"), fake))
    assert answer.content.startswith("🕰️ Your hours: Europe/Paris"), answer.content
