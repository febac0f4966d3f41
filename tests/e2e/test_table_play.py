"""Engine mode in a real browser: the host starts a Call the Shot table, two phones (each
its own browser context) join, each plays a card and one calls; the host screen follows
live (the game's board module, its card names from the embedded faces, the engine's
prompts and action labels), with no console error and no sideways scrolling on the
phones."""

from __future__ import annotations

import pytest

from ..browser import PHONE, wait_until

pytestmark = pytest.mark.e2e


def watch(page, errors: list[str]) -> None:
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)


def my_turn(phone) -> bool:
    return phone.evaluate("document.getElementById('seat-page').classList.contains('is-my-turn')")


def play_first_card(phone) -> tuple[str, str]:
    """Play the first card, saying the first claim offered (a Man of Honour has only one:
    the truth, and no choice is shown); the claim button's and the confirm button's words."""
    phone.locator("#hand button.hand-card:not([disabled])").first.click()
    options = phone.locator("#choices .option-list button.choice-button")
    said = ""
    if options.count():
        said = options.first.inner_text()
        options.first.click()
    confirm = phone.locator("#confirm-button")
    words = confirm.inner_text()
    confirm.click()
    return said, words


def table_state(server, code):
    """The engine's state of the table, and the card faces its pages embed."""
    from companion.games import GAMES
    from companion.tables import store

    with server.app.app_context():
        table = store.get_table(code)
        game = GAMES[table.game]
        return game.state_from_dict(table.state), game.card_faces(table.options)


def text_of(page, selector: str) -> str:
    """The text shown in ``selector``, whitespace collapsed (a term and its value apart)."""
    return " ".join(page.locator(selector).inner_text().split())


def test_two_phones_play_call_the_shot_and_the_host_follows_live(server, browser):
    errors: list[str] = []
    host_context = browser.new_context(viewport={"width": 1280, "height": 900})
    host = host_context.new_page()
    watch(host, errors)
    host.goto(server.url + "/play")
    host.locator("a[href='/play/call_the_shot']").click()
    host.locator("button[type=submit]").click()
    host.wait_for_url("**/t/*")
    assert "#" not in host.url  # the host token left the address bar for storage
    code = host.locator("#host").get_attribute("data-code")
    assert host.locator("img.join-qr").evaluate("img => img.naturalWidth > 0")
    wait_until(host, "document.getElementById('status').textContent.includes('Waiting for 2')")

    phones = []
    for name in ("Ann", "Bob"):
        context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        phone = context.new_page()
        watch(phone, errors)
        phone.goto(f"{server.url}/t/{code}/seat")
        phone.locator("#join-name").fill(name)
        phone.locator("#join-form button[type=submit]").click()
        phone.locator("#play").wait_for(state="visible")
        phones.append(phone)
    wait_until(host, "document.getElementById('seat-list').textContent.includes('Bob')")
    # The host's status says what the seats to act are doing ("to bid", "to shoot" …).
    wait_until(host, "/ to (play|bid|shoot)/.test(document.getElementById('status').textContent)")
    for phone in phones:
        wait_until(phone, "document.querySelectorAll('#hand button.hand-card').length === 5")
        assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    # The board is the game's own (its module loaded): the duel, the challenger, the shots.
    board = text_of(host, "#board")
    assert "Duel 1" in board and "Shots taken Ann 0, Bob 0 (out at 3)" in board, board
    # The phone to play reads the engine's prompt; the other one waits for it.
    opener = next(p for p in phones if my_turn(p))
    state, faces = table_state(server, code)
    assert text_of(opener, "#status") == state.prompt(state.turn)
    assert text_of(next(p for p in phones if p is not opener), "#status") == "Waiting for " + (
        ("Ann", "Bob")[state.turn] + "."
    )

    # Each phone plays one card, in turn, saying what it is: the engine's words for the
    # action on the confirm button ("Play Coward, say “Headshot”"), the claim alone on the
    # choice ("Say “Headshot”").
    played = 0
    for _ in range(40):
        if played == 2:
            break
        for phone in phones:
            if my_turn(phone):
                said, words = play_first_card(phone)
                assert words.startswith("Play ") and ", say “" in words, words
                if said:  # the short label is the claim of the engine's words
                    assert said == "Say " + words.split(", say ")[1], (said, words)
                played += 1
                wait_until(
                    phone, "!document.getElementById('seat-page').classList.contains('is-my-turn')"
                )
                break
        else:
            host.wait_for_timeout(100)
    assert played == 2
    wait_until(host, "document.getElementById('board').textContent.includes('Claims this duel')")
    wait_until(
        host,
        "[...document.querySelectorAll('.seats-table tbody tr')]"
        ".every(r => !r.textContent.includes('none yet'))",
    )
    # Each seat's claim is named as its card face says (the names are not typed in JS).
    state, faces = table_state(server, code)
    claims = state.view(None)["claims"]
    rows = host.locator(".seats-table tbody tr").all_text_contents()
    assert len(rows) == 2 and all(len(said) == 1 for said in claims)
    for seat, row in enumerate(rows):
        assert faces[claims[seat][0]]["text"] in row, (row, claims)

    # The next player calls the shot: the duel is settled and the host shows it at once.
    caller = next(p for p in phones if my_turn(p))
    caller.locator("#choices button", has_text="Call the shot").click()
    assert caller.locator("#confirm-button").inner_text() == "Call the shot"
    caller.locator("#confirm-button").click()
    wait_until(host, "document.getElementById('board').textContent.includes('Last duel (1)')")
    # The settled duel in words: who called, both revealed cards, the result; the shots
    # from the view's common block.
    state, faces = table_state(server, code)
    view, names = state.view(None), ("Ann", "Bob")
    last = view["last_duel"]
    board = text_of(host, "#board")
    assert f"{names[last['caller']]} called. Revealed: " in board, board
    for seat, shown in enumerate(last["revealed"]):
        if shown:
            assert f"{names[seat]}: {faces[shown['card']]['text']}" in board, board
    result = "nobody was shot" if last["shot"] is None else f"{names[last['shot']]} took a shot"
    assert f"Result: {result}" in board, board
    shots = ", ".join(f"{names[s]} {n}" for s, n in enumerate(view["scores"]))
    assert f"Shots taken {shots} (out at 3)" in board, board
    assert view["scores"] == [int(last["shot"] == s) for s in (0, 1)]

    # The host (this browser holds the host token) cannot take the call back: it showed
    # both cards. Two taps, and the reason stays on the host screen; the duel stands.
    undo = host.locator("#undo-button")
    assert undo.is_visible() and undo.is_enabled()
    undo.click()
    assert undo.inner_text() == "Tap again to undo"
    undo.click()
    host.locator("#host-error").wait_for(state="visible")
    assert "cannot be taken back" in host.locator("#host-error").text_content()
    assert "Last duel (1)" in host.locator("#board").text_content()
    errors[:] = [e for e in errors if "status of 422" not in e]  # the refusal, expected
    for phone in phones:  # the phones never get the host's powers
        assert phone.locator("#undo-button").count() == 0
    assert not errors, errors

    # The host frees Bob's seat (two taps, like undo): Bob's phone is back at the join form.
    # On a wide screen during play the seats fold away behind a button.
    host.locator("#seats-button").click()
    free = host.locator("button[aria-label='Free seat 2 (Bob)']")
    free.click()
    # A refresh between the taps (here: the screen shown again) keeps the first tap.
    with host.expect_response(lambda r: "/view" in r.url):
        host.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    host.wait_for_timeout(200)
    assert free.inner_text() == "Tap again to free"
    free.click()
    wait_until(host, "document.querySelectorAll('#seat-list li.is-open').length === 1")
    wait_until(phones[1], "!document.getElementById('join-form').hidden")
    # The browser logs the refused (401) view request of Bob's old key; nothing else.
    assert [e for e in errors if "401" not in e] == [], errors


def test_a_rejoin_link_moves_a_seat_and_short_streams_reconnect(serve, browser):
    """Streams that end every half second (as behind a strict proxy) still keep the host
    live; a seat moves to a new phone with its rejoin link, and the token leaves the
    address bar."""
    server = serve(TESTING=False, TABLES_SSE_SECONDS=0.5, TABLES_SSE_KEEPALIVE=0.2)
    errors: list[str] = []
    host = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    watch(host, errors)
    host.goto(server.url + "/play/shoot")
    host.locator("#players").select_option("2")
    host.locator("button[type=submit]").click()
    host.wait_for_url("**/t/*")
    code = host.locator("#host").get_attribute("data-code")

    first = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    watch(first, errors)
    first.goto(f"{server.url}/t/{code}/seat")
    first.locator("#join-name").fill("Ann")
    first.locator("#join-form button[type=submit]").click()
    first.locator("#play").wait_for(state="visible")
    host.wait_for_timeout(1500)  # a few streams come and go
    wait_until(host, "document.getElementById('seat-list').textContent.includes('Ann')")

    first.locator(".move-phone summary").click()
    first.locator("#rejoin-button").click()
    first.locator("#rejoin").wait_for(state="visible")
    link = first.locator("#rejoin .rejoin-link a").get_attribute("href")
    assert "#ticket=" in link
    assert first.locator("#rejoin img.ticket-qr").evaluate("img => img.naturalWidth > 0")

    # textContent, not innerText: innerText depends on layout, and the first phone's
    # page may not be rendered while the second one is in front.
    hand = first.locator("#hand button.hand-card").all_text_contents()
    assert len(hand) == 10
    second = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    watch(second, errors)
    # The link names this machine's LAN address; the test server listens on loopback.
    path = link.split("/t/", 1)[1]
    second.goto(f"{server.url}/t/{path}")
    second.locator("#play").wait_for(state="visible")
    assert "#" not in second.url
    wait_until(second, "document.querySelectorAll('#hand button.hand-card').length === 10")
    assert second.locator("#hand button.hand-card").all_text_contents() == hand
    wait_until(second, "document.getElementById('status').textContent.includes('Waiting')")
    assert second.locator("#join-form").is_hidden()
    # The old phone stops playing and says why.
    wait_until(first, "document.getElementById('gone').textContent.includes('moved')")
    assert first.locator("#play").is_hidden()
    # The browser logs the refused (401) view request of Ann's old key; nothing else.
    assert [e for e in errors if "401" not in e] == [], errors


def ui_move(phone, rng) -> bool:
    """Make one move on a phone through its buttons only, whatever the game; False when
    the phone has nothing to do."""
    if not my_turn(phone):
        return False
    grid = phone.locator(
        "#choices .number-grid button.choice-button, #choices > .option-list button"
    )
    cards = phone.locator("#hand button.hand-card:not([disabled])")
    if grid.count():  # a choice without a card (a bid, "Call the shot") when there is one
        grid.nth(rng.randrange(grid.count())).click()
    else:
        order = list(range(cards.count()))
        rng.shuffle(order)
        for index in order:  # one card, or several for a many-card move (ditch)
            cards.nth(index).click()
            if phone.locator("#confirm-bar").is_visible():
                break
            options = phone.locator("#choices .option-list button.choice-button")
            if options.count():
                options.nth(rng.randrange(options.count())).click()
                break
    confirm = phone.locator("#confirm-button")
    confirm.wait_for(state="visible", timeout=5000)
    confirm.click()
    return True


def join_phones(browser, server, code: str, count: int, errors: list[str]) -> list:
    """``count`` phones (each its own browser context) take the seats in order."""
    phones = []
    for seat in range(count):
        context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        phone = context.new_page()
        watch(phone, errors)
        phone.goto(f"{server.url}/t/{code}/seat")
        phone.locator("#join-name").fill(f"Player {seat + 1}")
        phone.locator("#join-form button[type=submit]").click()
        phone.locator("#play").wait_for(state="visible")
        phones.append(phone)
    return phones


def play_by_buttons(host, phones: list, moves: int, rng) -> None:
    """``moves`` moves through the phones' buttons, whoever is to act; the host screen
    follows each one (one stored version per seat taken, then one per action)."""
    made = 0
    for _ in range(moves * 20):
        if made == moves:
            break
        movers = [p for p in phones if my_turn(p)]
        if not movers:
            host.wait_for_timeout(100)
            continue
        phone = rng.choice(movers)
        assert ui_move(phone, rng)
        wait_until(phone, "!document.getElementById('act-error').textContent")
        made += 1
        version = len(phones) + made
        wait_until(host, f"document.getElementById('host').dataset.version === '{version}'")
        # Every phone shows that version before the next mover is picked: a phone still
        # drawing the one before would offer a turn that is no longer its own.
        shown = f"document.getElementById('seat-page').dataset.version === '{version}'"
        for other in phones:
            wait_until(other, shown)
    assert made == moves


# The kinds of move each game's run must have made through the buttons.
EXPRESSED = {
    "shoot": {"bid", "play"},
}  # Call the Shot's play and call: the first test of this module; PULL! and Pirate
# Tricks: tests/games/<slug>/test_pages_browser.py, with these helpers


@pytest.mark.parametrize(("game", "moves"), [("shoot", 6)])
def test_every_game_is_playable_with_the_phone_buttons_alone(server, browser, game, moves):
    """The generic phone page can express each engine's moves: bids, claims, targets,
    sealed choices and the two-card ditch, each by tapping and confirming."""
    import random

    from companion.games import GAMES

    errors: list[str] = []
    host = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    watch(host, errors)
    host.goto(f"{server.url}/play/{game}")
    host.locator("button[type=submit]").click()
    host.wait_for_url("**/t/*")
    code = host.locator("#host").get_attribute("data-code")
    phones = join_phones(browser, server, code, GAMES[game].min_players, errors)
    # The host's status says what the seats to act are doing ("to bid", "to shoot" …).
    wait_until(host, "/ to (play|bid|shoot)/.test(document.getElementById('status').textContent)")
    play_by_buttons(host, phones, moves, random.Random(4))
    for page in [host, *phones]:  # every field of the view found its place in the words
        text = page.locator("main").inner_text()
        for junk in ("undefined", "NaN", "[object", "null"):
            assert junk not in text, (junk, text)
    with server.app.app_context():
        from companion.tables import store

        table = store.get_table(code)
        state = store.full_state(table)
        assert len(state.log) == moves  # every confirmed tap is exactly one engine action
        assert store.replay_log(table).to_dict() == table.state
        kinds = {action["type"] for _, action in state.log}
    assert kinds >= EXPRESSED[game], kinds
    for phone in phones:
        assert phone.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert not errors, errors
