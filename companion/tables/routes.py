"""Engine-mode pages: choose a game (``/play``), start a table, the host screen with its
QR code (``/t/<code>``) and the phone page (``/t/<code>/seat``).

The pages are server-rendered shells; ``static/js/table.js`` and ``static/js/seat.js``
fill them from the JSON API and keep them live. Tokens never travel in a query string:
the host token reaches the host screen in the URL fragment after the form, and the
browser keeps it in its own storage.
"""

from __future__ import annotations

import json
from pathlib import Path

from flask import Response, abort, current_app, redirect, render_template, request, session, url_for
from markupsafe import Markup
from wtforms import ValidationError

from .. import codes
from ..assets import static_url
from ..bots import LEVELS, has_bot
from ..games import GAMES, IllegalAction
from ..games.base import Game
from ..network import base_url, qr_svg, unreachable_reason
from . import lifecycle, reads, seats, store
from .api import remember_table
from .blueprint import bp
from .envelope import join_url, levels_of
from .errors import TableError
from .forms import chosen_options, option_fields, table_form


def board_module_url(slug: str) -> str | None:
    """The URL of the game's board module ``static/js/games/<slug>.js``, if it has one."""
    name = f"js/games/{slug}.js"
    if not (Path(current_app.static_folder or "") / name).is_file():
        return None
    return static_url(name)


def faces_json(game, options) -> Markup:
    """The game's card faces as JSON for a ``<script type="application/json">`` block
    (not executed, so the CSP allows it); ``<`` escaped so no tag can close it."""
    text = json.dumps(game.card_faces(options), ensure_ascii=False, sort_keys=True)
    return Markup(text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


def board_context(table) -> dict:
    game = GAMES[table.game]
    return {
        "table": table,
        "game": game,
        "spec": game.spec,
        "names": store.seat_names(table),
        "seat_bots": levels_of(table),
        "faces": faces_json(game, table.options),
        "board_url": board_module_url(game.slug),
    }


def table_or_404(code: str):
    try:
        return store.get_table(code)
    except TableError:
        abort(404, "There is no table with that code. Check the code, or start a new table.")


@bp.get("/play")
def index(solo_errors: dict[str, str] | None = None):
    records = store.records_of([str(code) for code in session.get("tables", [])])
    return render_template(
        "tables/index.html",
        games=list(GAMES.values()),
        records=records,
        all_games=GAMES,
        solo_games=seats.solo_games(),
        bot_levels=LEVELS,
        solo_errors=solo_errors or {},
    )


@bp.post("/play/<game>/solo")
def solo(game: str):
    """Play solo: the player in seat 1, bots of the level chosen in every other seat; the
    player lands on their seat page (its token in the fragment) and the game runs."""
    game_or_404(game)
    try:
        code, token = lifecycle.start_solo(
            game, request.form.get("name"), request.form.get("players"), request.form.get("level")
        )
    except TableError as problem:
        return index({game: problem.message}), 422
    remember_table(code)
    return redirect(url_for("tables.seat", code=code) + f"#token={token}", 303)


def game_or_404(slug: str) -> Game:
    if slug not in GAMES:
        abort(404, "There is no such game here.")
    return GAMES[slug]


def create_from_form(game: Game, form) -> tuple[str, str]:
    """The table the Play form asks for (its options, its bots): its code and host token.
    An option the engine refuses is a :class:`TableError` 422 with the engine's words."""
    try:
        options = chosen_options(form, game, request.form)
    except (ValidationError, IllegalAction) as problem:
        raise TableError(422, str(problem)) from None
    seated = seats.levels_from_form(request.form, form.players.data)
    table, token = lifecycle.create_table(game.slug, form.players.data, options, bot_seats=seated)
    remember_table(table.code)
    return table.code, token


@bp.route("/play/<game>", methods=["GET", "POST"])
def new(game: str):
    chosen = game_or_404(game)
    form = table_form(chosen, request.form if request.method == "POST" else None)
    error = None
    if form.validate_on_submit():
        try:
            code, token = create_from_form(chosen, form)
        except TableError as problem:
            error = problem.message
        else:
            # The fragment never reaches a server: the host screen keeps it in storage.
            return redirect(url_for("tables.host", code=code) + f"#host={token}", 303)
    if request.method == "POST" and form.errors and error is None:
        error = "Some options need a change: see the messages below."
    page = render_template(
        "tables/new.html",
        game=chosen,
        form=form,
        spec=chosen.spec,
        option_rows=option_fields(form),
        mode="play",
        error=error,
        bot_levels=LEVELS if has_bot(chosen) else (),
        chosen_bots=[request.form.get(f"bot-{seat}", "") for seat in range(chosen.max_players)],
    )
    return page, 422 if request.method == "POST" else 200


@bp.get("/t/<code>")
def host(code: str):
    table = table_or_404(code)
    if table.code != code:
        return redirect(url_for("tables.host", code=table.code))
    url = join_url(table.code, request.host_url)
    return render_template(
        "tables/host.html",
        join_url=url,
        unreachable=unreachable_reason(url, request.environ),
        bot_levels=list(LEVELS) if has_bot(GAMES[table.game]) else [],
        **board_context(table),
    )


def board_page(code: str, page: str):
    """A table's page drawn around its board (``seat``, ``watch``), at the table's own
    spelling of the code."""
    table = table_or_404(code)
    if table.code != code:
        return redirect(url_for(f"tables.{page}", code=table.code))
    return render_template(f"tables/{page}.html", **board_context(table))


@bp.get("/t/<code>/seat")
def seat(code: str):
    return board_page(code, "seat")


@bp.get("/t/<code>/watch")
def watch(code: str):
    """The spectator page: the public board, live; no hand, no actions, no token."""
    return board_page(code, "watch")


def qr_response(url: str) -> Response:
    response = Response(qr_svg(url), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/t/<code>/watch.svg")
def watch_qr(code: str):
    table = table_or_404(code)
    return qr_response(base_url(request.host_url) + url_for("tables.watch", code=table.code))


@bp.get("/t/<code>/join.svg")
def join_qr(code: str):
    table = table_or_404(code)
    return qr_response(join_url(table.code, request.host_url))


@bp.get("/join")
def join_page():
    """Type a table's code (forgiving: case, spaces, O/0 and I/1) to go to its phone page."""
    typed = request.args.get("code")
    if typed is None:
        return render_template("tables/join.html", typed="", error=None)
    found, error = reads.find_code(typed)
    if found is not None:
        return redirect(url_for("tables.seat", code=found), 303)
    elsewhere = codes.joins_elsewhere(typed)  # a score sheet's join code (issue 28)
    if len(elsewhere) == 1:
        return redirect(elsewhere[0], 303)
    return render_template("tables/join.html", typed=typed[:40], error=error), 404
