"""What the templates call: one-time form tokens, contract words, card buttons, QR codes."""

from __future__ import annotations

from ipaddress import ip_address
from urllib.parse import urlsplit

import segno
from flask import Flask, g, url_for
from flask_babel import format_date, format_time, gettext
from markupsafe import Markup

from ..games.history import describe, describe_entries
from ..i18n import current_locale, translate
from ..models import TablePlayer, iso, person_of
from ..rules.deal import describe_contract
from ..rules.game_state import GameState
from ..rules.messages import msg
from ..rules.playing_cards import NATURAL_RANKS, RANKS_BY_CODE, Rank, rank_letter
from ..rules.round_notes import round_notes
from ..rules.ruleset import Contract, RuleSet
from ..rules.sheet_words import buy_call, set_name, worded
from .charts import running_chart
from .home import current_theme
from .kept_regions import (
    FRAMES,
    back_here,
    frame_part,
    live_region,
    new_action_id,
    page_part,
    region_csrf_token,
)
from .live import poller
from .next_game import next_game_url
from .table_door import TABLES


def contract_words(contract: Contract, rules: RuleSet | None = None) -> list[str]:
    """The contract in the table's language, one part per meld kind, in the rules' words."""
    parts = describe_contract(contract)
    return [translate(worded(rules, part) if rules else part) for part in parts]


def round_reminders(state: GameState) -> list[str]:
    """The current round's rule reminders in the table's language."""
    current = state.current
    if current is None:
        return []
    return [translate(note) for note in round_notes(state.rules, current.setup, len(current.seats))]


def call_words(rules: RuleSet) -> str:
    """What the table calls to buy, in its language."""
    return translate(buy_call(rules))


def rules_name(rules: RuleSet) -> str:
    """A rule set's name: a preset's in the table's language, a table's own as typed."""
    return translate(set_name(rules))


def rule_words(rules: RuleSet, text: str) -> str:
    """A heading in the rule set's own wording (the sheet's "Vorgabe" in German)."""
    return translate(worded(rules, msg(text)))


def rank_buttons() -> list[tuple[str, str]]:
    """Rank codes with the letters of the table's language, low to high, joker last."""
    ranks = [*NATURAL_RANKS, Rank.JOKER]
    return [(rank.code, rank_letter(rank, current_locale())) for rank in ranks]


def hand_text(counts: dict[str, int]) -> str:
    """Tapped cards as the table reads them: "K K 7 JK", with the language's rank letters."""
    locale = current_locale()
    return " ".join(
        rank_letter(Rank.JOKER, locale)
        if code == Rank.JOKER.code
        else RANKS_BY_CODE[code].label(locale)
        for code, count in counts.items()
        for _ in range(count)
    )


def can_edit() -> bool:
    """Whether this request came in through the game's edit link."""
    access = g.get("access")
    return access is not None and bool(access.can_edit)


def person_name(spelling: TablePlayer) -> str:
    """The name a merged spelling now counts as."""
    return person_of(spelling).name


def qr_svg(url: str) -> Markup:
    """A QR code of a link as inline SVG, drawn here: no outside service sees the link. A link
    past a QR code's capacity (2,331 bytes at this error correction) gets a note instead."""
    try:
        code = segno.make(url, error="m")
    except segno.DataOverflowError:
        note = gettext("This link is too long for a QR code; share the link itself.")
        return Markup('<p class="qr-too-long">{}</p>').format(note)
    return Markup(code.svg_inline(scale=5, dark="#1d2327", light="#ffffff", title=url))


def points_at_this_machine(url: str) -> bool:
    """Whether a link's host is a loopback address, which no other phone can open."""
    host = urlsplit(url).hostname or ""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ip_address(host).is_loopback
    except ValueError:
        return False


def table_url(table_id: int | None) -> str | None:
    """The page of the table a game was played at, if this browser opened that table's link."""
    token = None if table_id is None else TABLES.remembered().get(table_id)
    return None if token is None else url_for("table.show", table_id=table_id, token=token)


def round_poller(page: str, state: GameState) -> Markup:
    """The round screen's poller, kept like its regions (pages/live.poller)."""
    return Markup(poller(page, state))


def init_app(app: Flask) -> None:
    """Make the helpers the templates use available to them."""
    app.extensions[FRAMES] = {}
    app.jinja_env.globals.update(
        new_action_id=new_action_id,
        region_csrf_token=region_csrf_token,
        live_region=live_region,
        page_part=page_part,
        frame_part=frame_part,
        back_here=back_here,
        round_poller=round_poller,
        can_edit=can_edit,
        hand_text=hand_text,
        qr_svg=qr_svg,
        person_name=person_name,
        running_chart=running_chart,
        contract_words=contract_words,
        round_reminders=round_reminders,
        call_words=call_words,
        rule_words=rule_words,
        rules_name=rules_name,
        rank_buttons=rank_buttons,
        describe_change=describe,
        describe_entries=describe_entries,
        format_time=format_time,
        format_date=format_date,
        current_theme=current_theme,
        table_url=table_url,
        next_game_url=next_game_url,
        points_at_this_machine=points_at_this_machine,
        iso=iso,
    )
