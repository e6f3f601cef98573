import pytest
from tests.test_discord_bot import ALICE, BOB, Rig, fake, followup, no_errors_logged, rig, lobby_to_start, panel_of
from tests.contract.test_discord_contract import start_game, last_panel, panel_items, click
from engine.registry import spec
pytestmark = pytest.mark.asyncio

@pytest.mark.parametrize("gid", ["history", "eight-minute", "rise"])
async def test_show(rig: Rig, gid: str) -> None:
    g = await start_game(rig, spec(gid))
    for i in range(6):
        st = await rig.service.status(g)
        calls = await rig.command(ALICE, "play", game=g)
        m = last_panel(calls)
        print("\n=== PANEL", i, m.content if m else followup(calls).content)
        if m is None: break
        for row in m.components:
            for it in row["components"]:
                print("   ", it.get("type"), it.get("label"), [o["label"] for o in it.get("options") or []][:8], it.get("custom_id"))
        cid, val = panel_items(m)[0]
        calls = await click(rig, ALICE, m, cid, val)
        print("--- ANSWER", followup(calls).content[:800])
    for sub in ("status", "hand", "board"):
        print(f"=== /{sub}:", followup(await rig.command(ALICE, sub, game=g)).content[:900])
    print("=== DMs:", [c.content[:300] for c in rig.fake.dm_posts(ALICE)][:4])
