"""The 算分 page's state and round building without Streamlit: one `RoundDraft` per browser session.

The page keeps one `RoundDraft` under ``st.session_state[DRAFT_KEY]`` (hand, melds, the photo's
reading, the last result) and the widgets keep their own values under `ENTRY_KEYS`; everything
here takes those values as a plain mapping, so it is tested without a browser.  Rule options are
passed through untouched (`table.options`): nothing here reads an option by name.
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scoring.errors import JingsuanError, RoundError
from scoring.round import previous_seat
from scoring.settlement import SEAT_ZH, SEATS
from scoring.tiles import format_tiles, jing_of, parse_tiles, tile

#: The session key of the round being entered.
DRAFT_KEY = "score"
#: Seat of a meld read from the photo: the winner's, whoever that is (chosen later on the page).
WINNER = "winner"
#: Below this detector confidence a tile is uncertain: counted, outlined in red, asked about.
LOW_CONFIDENCE = 0.5
MELD_TYPES: dict[str, str] = {"chi": "吃", "peng": "碰", "gang": "明杠", "angang": "暗杠", "bugang": "补杠"}
MELD_TYPES_EN: dict[str, str] = {"chi": "chow", "peng": "pung", "gang": "kong", "angang": "concealed kong", "bugang": "added kong"}
MELD_SIZE = {"chi": 3, "peng": 3, "gang": 4, "angang": 4, "bugang": 4}
#: Melds whose tile came from another player's discard, who must be named (a chi is always 上家's).
NEEDS_SOURCE = ("peng", "gang", "bugang")

#: The widgets' own session keys (their values are the round's details); cleared for a new round.
ENTRY_KEYS: tuple[str, ...] = (
    "win_tile", "indicator", "dealer", "win_seat", "win_from", "after_kong", "robbed_kong", "special", "follow",
    *(f"jz_{s}" for s in SEATS), *(f"jf_{s}" for s in SEATS),
)
#: Photo questions that a widget answers: shown until that widget has a value.
ANSWERED_BY = {"win_tile": "win_tile", "win_tile_check": "win_tile", "indicator": "indicator"}


class MissingAnswer(RoundError):
    """Something only the player can say is not said yet (not a refusal of the hand)."""


@dataclass
class RoundDraft:
    """The round being entered on 算分, apart from the widgets' values."""

    hand: list[str] = field(default_factory=list)
    sel: int | None = None
    melds: list[dict[str, Any]] = field(default_factory=list)
    reading: Any = None
    photo_key: str | None = None
    photo_bytes: bytes | None = None
    photo_t0: float | None = None
    #: The photo is the round's own: Streamlit emptied the uploader while another page (or table) was shown.
    photo_kept: bool = False
    upload_gen: int = 0
    dismissed: set[str] = field(default_factory=set)
    result: dict[str, Any] | None = None
    result_doc: dict[str, Any] | None = None
    attempt_doc: dict[str, Any] | None = None
    refusal: str | None = None
    ask: str | None = None
    false_win_seat: str | None = None
    editing_round: int | None = None
    meld_error: str | None = None
    recorded: int | None = None
    example_msg: tuple[str, str] | None = None
    #: The widgets' values of the round (`ENTRY_KEYS`) as the page last drew them: Streamlit forgets a widget's
    #: value while its page is not drawn, the draft does not.
    entries: dict[str, Any] = field(default_factory=dict)
    #: 胡 / 翻精 the app filled into an empty selector (the tile row, a photo, a round taken back), until the
    #: browser has shown them: key → (value, the page drawing from which on the browser may have it).
    filled: dict[str, tuple[Any, int]] = field(default_factory=dict)
    #: How many times the page has been drawn with this draft.
    drawings: int = 0
    #: The table the round is entered for (None until the page draws it at a table).
    table_id: int | None = None
    #: The language the page last drew the round in.
    lang: str | None = None

    def touched(self) -> None:
        """The round changed: an earlier result, refusal or question no longer holds."""
        self.result = self.result_doc = self.attempt_doc = None
        self.refusal = self.ask = self.false_win_seat = None

    def tap_hand(self, i: int) -> None:
        """Select a hand tile (tap again to unselect)."""
        self.sel = None if self.sel == i else i

    def tap_palette(self, code: str) -> None:
        """Replace the selected hand tile, or add a tile when none is selected."""
        if self.sel is not None and 0 <= self.sel < len(self.hand):
            self.hand[self.sel] = code
            self.sel = None
        else:
            self.hand.append(code)
        self.touched()

    def remove_selected(self) -> None:
        """Remove the selected hand tile."""
        if self.sel is not None and 0 <= self.sel < len(self.hand):
            self.hand.pop(self.sel)
        self.sel = None
        self.touched()

    def clear_hand(self) -> None:
        """Empty the concealed hand."""
        self.hand, self.sel = [], None
        self.touched()

    def remove_meld(self, i: int) -> None:
        """Drop the i-th meld."""
        if 0 <= i < len(self.melds):
            self.melds.pop(i)
        self.touched()

    def set_meld_source(self, i: int, seat: str | None) -> None:
        """The player said whose discard the i-th meld claimed."""
        if 0 <= i < len(self.melds):
            self.melds[i]["from"] = seat or None
        self.touched()

    def next_round(self) -> RoundDraft:
        """A clean draft for the next round (the uploader is renewed so the last photo is not read again)."""
        return RoundDraft(upload_gen=self.upload_gen + 1)

    def at_table(self, table_id: int, parked: MutableMapping[int, RoundDraft]) -> RoundDraft:
        """The round of the table the page now shows: this one, or (a table switch) the round left at that table
        before, else a clean one; this round is left at its own table until the player comes back to it."""
        if self.table_id is None or self.table_id == table_id:
            self.table_id = table_id
            return self
        parked[self.table_id] = self
        gen = max(d.upload_gen for d in (self, *parked.values())) + 1  # a new uploader: no other table's photo
        return parked.pop(table_id, None) or RoundDraft(upload_gen=gen, table_id=table_id)

    @property
    def upload_key(self) -> str:
        """The photo uploader's widget key (a new key empties it)."""
        return f"photo_{self.upload_gen}"


# ----------------------------------------------------------------------------- melds


def parse_meld(seat: str, kind: str, tiles_text: str, src: str | None, hand: Sequence[str], from_hand: bool) -> tuple[dict[str, Any], list[str]]:
    """A meld typed on the page → (meld, the hand left); a bad meld is a RoundError said in Chinese."""
    codes = [x.code for x in parse_tiles(tiles_text)]
    if len(codes) != MELD_SIZE[kind]:
        raise RoundError(
            f"牌写得不对：{MELD_TYPES[kind]}要 {MELD_SIZE[kind]} 张牌",
            f"bad tiles: a {MELD_TYPES_EN[kind]} needs {MELD_SIZE[kind]} tiles",
        )
    left = list(hand)
    if from_hand:
        for c in codes:
            if c not in left:
                raise RoundError(f"牌写得不对：手牌里没有 {tile(c).zh}", f"bad tiles: {c} is not in the hand")
            left.remove(c)
    meld: dict[str, Any] = {"seat": seat, "type": kind, "tiles": format_tiles(parse_tiles(codes))}
    if kind != "angang":
        meld["from"] = src or None
    if kind == "chi" and src:
        meld["claimed"] = codes[1]
    return meld, left


def add_meld(draft: RoundDraft, seat: str, kind: str, tiles_text: str, src: str | None, from_hand: bool) -> None:
    """Add a declared meld or kong; with `from_hand`, its tiles leave the winner's concealed hand."""
    meld, left = parse_meld(seat, kind, tiles_text, src, draft.hand, from_hand)
    if from_hand:
        draft.hand, draft.sel = left, None
    draft.melds.append(meld)
    draft.touched()


def melds_missing_source(melds: Sequence[Mapping[str, Any]]) -> list[int]:
    """Indices of the 碰/明杠/补杠 whose discarder nobody named yet (the photo cannot see it)."""
    return [i for i, m in enumerate(melds) if m.get("type") in NEEDS_SOURCE and not m.get("from")]


def photo_melds(result: Any) -> list[dict[str, Any]]:
    """The winner's melds the photo shows, as the page's meld list holds them (a concealed kong whose
    kind did not show is left out: its question asks the player to add it)."""
    out = []
    for m in getattr(result, "melds", None) or []:
        if not m.get("tiles") or m.get("type") not in MELD_TYPES:
            continue
        meld = {"seat": WINNER, "photo": True, "type": m["type"], "tiles": m["tiles"]}
        if m["type"] == "chi" and m.get("claimed"):
            meld["claimed"] = m["claimed"]
        if m["type"] != "angang":
            meld["from"] = None  # the photo cannot tell who discarded it: asked on the page (a chi is 上家's)
        out.append(meld)
    return out


def apply_reading(draft: RoundDraft, reading: Any) -> dict[str, str]:
    """Put what the photo decided into the draft (the hand without the winning tile, the winner's melds,
    replacing an earlier photo's and keeping hand-entered ones) → the widget values it also decides."""
    result = getattr(reading, "assignment", None)
    hand = list(getattr(reading, "hand", None) or [])
    entries: dict[str, str] = {}
    win = getattr(result, "win_tile", None)
    if win and hand and hand[-1] == win:
        hand = hand[:-1]
        entries["win_tile"] = win
    if getattr(result, "indicator", None):
        entries["indicator"] = result.indicator
    if hand:
        draft.hand, draft.sel = hand, None
    if result is not None:
        draft.melds = [m for m in draft.melds if not m.get("photo")] + photo_melds(result)
    draft.dismissed = set()
    draft.touched()
    return entries


def open_questions(questions: Sequence[Mapping[str, str]], entries: Mapping[str, Any], dismissed: set[str]) -> list[tuple[int, Mapping[str, str]]]:
    """The photo's questions still open: not dismissed, and not answered by a widget that now has a value."""
    out = []
    for i, q in enumerate(questions):
        widget = ANSWERED_BY.get(str(q.get("code", "")))
        if str(i) in dismissed or (widget and entries.get(widget)):
            continue
        out.append((i, q))
    return out


# ----------------------------------------------------------------------------- the round document


def count_jing(codes: list[str], indicator: str) -> dict[str, int]:
    """正精 and 副精 among `codes` for `indicator`."""
    zheng, fu = jing_of(tile(indicator))
    return {"zheng": sum(c == zheng.code for c in codes), "fu": sum(c == fu.code for c in codes)}


def winner_of(entries: Mapping[str, Any]) -> str | None:
    """The winning seat chosen on the page, None for a draw."""
    w = entries.get("win_seat") or "none"
    return None if w == "none" else str(w)


def check_answers(draft: RoundDraft, entries: Mapping[str, Any]) -> None:
    """Refuse to settle, with a question rather than a refusal, while the player has not said something needed."""
    winner = winner_of(entries)
    if not entries.get("indicator"):
        raise MissingAnswer("请先选翻精（指示牌）", "choose the indicator (翻精) first")
    if winner and not entries.get("win_tile"):
        raise MissingAnswer("请先选胡的那张牌", "choose the winning tile first")
    for i in melds_missing_source(draft.melds):
        m = draft.melds[i]
        seat = winner if m["seat"] == WINNER else m["seat"]
        if seat is None:
            continue
        tiles = "".join(x.zh for x in parse_tiles(m["tiles"]))
        raise MissingAnswer(
            f"{MELD_TYPES[m['type']]} {tiles} 是谁打出的牌？请在“副露与杠”里选",
            f"whose discard was the {MELD_TYPES_EN[m['type']]} {m['tiles']}? choose it under Melds",
        )


def build_round(draft: RoundDraft, entries: Mapping[str, Any], table: Any) -> dict[str, Any]:
    """The round document (round-format.md) from the draft and the widgets' values; MissingAnswer when
    the player still has to say the winning tile, the indicator or whose discard a meld claimed."""
    check_answers(draft, entries)
    winner = winner_of(entries)
    players: dict[str, Any] = {s: {} for s in SEATS}
    for m in draft.melds:
        seat = winner if m["seat"] == WINNER else m["seat"]
        if seat is None:  # the photo's melds, and nobody won: they are not anybody's
            continue
        meld = {k: v for k, v in m.items() if k not in ("seat", "photo") and v not in (None, "")}
        if m["type"] == "chi" and not meld.get("from"):
            meld["from"] = previous_seat(seat)  # a chi is always from 上家
        players[seat].setdefault("melds", []).append(meld)
    for s in SEATS:
        if s == winner:
            players[s]["hand"] = format_tiles(parse_tiles("".join(draft.hand)))
        else:
            players[s]["jing"] = {"zheng": int(entries.get(f"jz_{s}") or 0), "fu": int(entries.get(f"jf_{s}") or 0)}
    doc: dict[str, Any] = {
        "rules": table.rules,
        "options": dict(table.options),
        "unit": table.unit,
        "dealer": entries.get("dealer") or "E",
        "indicator": entries["indicator"],
        "players": players,
        "follow_dealer": int(entries.get("follow") or 0),
        "false_win": [],
        "win": None,
    }
    if winner:
        doc["win"] = {
            "seat": winner,
            "tile": entries["win_tile"],
            "from": entries.get("win_from") or "self",
            "after_kong": bool(entries.get("after_kong")),
            "robbed_kong": bool(entries.get("robbed_kong")),
            "special": entries.get("special") or "none",
        }
    return doc


def false_win_round(doc: dict[str, Any]) -> dict[str, Any]:
    """The same round settled as 诈胡 by the would-be winner: no win, his 精 counted from his tiles."""
    seat = doc["win"]["seat"]
    me = doc["players"][seat]
    codes = [x.code for x in parse_tiles(me.get("hand", ""))] + [doc["win"]["tile"]]
    for m in me.get("melds", []):
        codes += [x.code for x in parse_tiles(m["tiles"])]
    out = {**doc, "win": None, "false_win": [seat]}
    out["players"] = {
        **doc["players"],
        seat: {"jing": count_jing(codes, doc["indicator"]), "melds": me.get("melds", [])},
    }
    if not out["players"][seat]["melds"]:
        out["players"][seat].pop("melds")
    return out


def load_round(doc: Mapping[str, Any], round_id: int) -> tuple[RoundDraft, dict[str, Any]]:
    """A stored round as (draft, widget values), to fix it on the page and confirm it again (replacing it)."""
    win = doc.get("win") or {}
    winner = win.get("seat") if win.get("seat") in SEATS else None
    players = doc.get("players") or {}
    draft = RoundDraft(editing_round=round_id)
    draft.hand = [x.code for x in parse_tiles((players.get(winner) or {}).get("hand", ""))] if winner else []
    draft.melds = [
        {"seat": s, **m} for s in SEATS for m in ((players.get(s) or {}).get("melds") or []) if isinstance(m, dict)
    ]
    entries: dict[str, Any] = {"win_seat": winner or "none"}
    if winner:
        entries["win_tile"] = tile(win.get("tile", "1m")).code
        entries["win_from"] = win.get("from", "self")
        entries["after_kong"] = bool(win.get("after_kong"))
        entries["robbed_kong"] = bool(win.get("robbed_kong"))
        entries["special"] = win.get("special", "none")
    if doc.get("indicator"):
        entries["indicator"] = tile(doc["indicator"]).code
    entries["dealer"] = doc.get("dealer", "E")
    entries["follow"] = int(doc.get("follow_dealer", 0))
    for s in SEATS:
        jing = (players.get(s) or {}).get("jing") or {}
        entries[f"jz_{s}"] = int(jing.get("zheng", 0))
        entries[f"jf_{s}"] = int(jing.get("fu", 0))
    return draft, entries


def remember_entries(draft: RoundDraft, values: Mapping[str, Any]) -> None:
    """Keep the widgets' values of the round in the draft, as the page has just drawn them."""
    draft.entries = {key: values[key] for key in ENTRY_KEYS if key in values}


def restore_entries(draft: RoundDraft, state: MutableMapping[str, Any]) -> None:
    """Give the widgets back the round's values the session lost while another page was shown (a value the
    player emptied is None, not missing, and stays empty)."""
    for key, value in draft.entries.items():
        if key not in state:
            state[key] = value


#: The meld form's choices and their clean values (their labels, too, follow the language).
MELD_FORM_CHOICES: dict[str, Any] = {"m_seat": SEATS[0], "m_type": "chi", "m_from": ""}


def relabel(draft: RoundDraft, state: MutableMapping[str, Any], lang: str) -> None:
    """The page is drawn in another language: set the round's choices again from the draft. Streamlit's browser
    keeps a choice as the label it showed, which names no option once the labels change language (the winner
    showed none, 胡 / 翻精 stayed in Chinese, and 庄家 came back as '东·东家', refused by 结算)."""
    if draft.lang is not None and draft.lang != lang:
        state.update(draft.entries)
        state.update(MELD_FORM_CHOICES)
    draft.lang = lang


#: The selectors the app fills in for the player. Emptying one with its ✕ as the very next tap after the app
#: filled it looks like the browser's old empty value and is undone once; the tile row's 删除 always works.
FILLED_BY_APP = ("win_tile", "indicator")


def note_filled(draft: RoundDraft, state: Mapping[str, Any], key: str, value: Any, drawing: bool = False) -> None:
    """The app puts `value` into selector `key` (before the page is drawn, or while it is, `drawing`): a value put
    into an empty one is kept in the draft until the browser has shown it (`keep_filled`)."""
    if key not in FILLED_BY_APP:
        return
    if value is not None and (state.get(key) is None or key in draft.filled):
        draft.filled[key] = (value, draft.drawings if drawing else draft.drawings + 1)
    else:
        draft.filled.pop(key, None)


def keep_filled(draft: RoundDraft, state: MutableMapping[str, Any]) -> None:
    """Put back a 胡 / 翻精 the app filled in that the browser sent back empty: a tap that lands after the page was
    drawn but before the browser has shown the whole of it sends the selectors' old, empty values (seen in the
    by-hand journey: 翻精 tapped in, 结算 at once → "请先选翻精"). Checked only once the page that shows the
    value was drawn; a value the browser sends back is the browser's."""
    for key, (value, drawn) in list(draft.filled.items()):
        if draft.drawings < drawn:
            continue
        if state.get(key) is None:
            state[key] = value
            draft.filled[key] = (value, draft.drawings + 1)  # shown again by the coming drawing
        else:
            del draft.filled[key]


class FilledEntries(MutableMapping[str, Any]):
    """The session's values as the tile row changes them, with what it fills into an empty 胡 / 翻精 noted."""

    def __init__(self, state: MutableMapping[str, Any], draft: RoundDraft) -> None:
        self.state, self.draft = state, draft

    def __getitem__(self, key: str) -> Any:
        return self.state[key]

    def __setitem__(self, key: str, value: Any) -> None:
        note_filled(self.draft, self.state, key, value)
        self.state[key] = value

    def __delitem__(self, key: str) -> None:
        self.draft.filled.pop(key, None)
        del self.state[key]

    def __iter__(self) -> Any:
        return iter(list(self.state.keys()))

    def __len__(self) -> int:
        return len(self.state)


#: What each widget of a clean round shows. They are set, not merely forgotten: Streamlit's browser keeps showing
#: a widget's last value when the server forgets it, and sends it back with the next tap (the recorded round's
#: 胡 and 翻精 came back into the next). 庄家 is left out: the page proposes the ledger's next dealer.
EMPTY_ENTRIES: dict[str, Any] = {
    "win_tile": None, "indicator": None, "win_seat": SEATS[0], "win_from": "self", "after_kong": False,
    "robbed_kong": False, "special": "none", "follow": 0, **{f"j{k}_{s}": 0 for k in "zf" for s in SEATS},
}


def clear_entries(entries: MutableMapping[str, Any]) -> None:
    """Empty every widget of the round: each at its clean value (`EMPTY_ENTRIES`), 庄家 to be proposed again."""
    for key in ENTRY_KEYS:
        entries.pop(key, None)
    entries.update(EMPTY_ENTRIES)


# ----------------------------------------------------------------------------- messages

#: How many tiles a photo of one winning hand shows: 14, up to 18 with four kongs, one more with the flipped
#: 精 beside it; a few fewer when the reader missed some.  Outside this the photo is not of one hand.
HAND_PHOTO_TILES = range(11, 21)


def not_a_hand(n_tiles: int, lang: str = "zh") -> str | None:
    """One message for a photo whose tile count cannot be one winning hand (a heap, a wall, a few tiles); None
    when it can, or when nothing was read (the reader says that itself).  Said instead of the reader's
    questions, which would only be noise about such a photo."""
    if n_tiles == 0 or n_tiles in HAND_PHOTO_TILES:
        return None
    if lang != "zh":
        return (f"The photo shows {n_tiles} tiles: not one winning hand (about 14 expected). Photograph only the "
                "winner's tiles (hand, melds and the winning tile) and try again; the tiles read below can still be "
                "tapped and changed.")
    return (f"照片里有 {n_tiles} 张牌，不像一手胡牌（应为 14 张左右）。请只拍胡牌者的牌（手牌、吃碰杠和胡的那张）再试；"
            "下面读到的牌仍可以点来改。")


def tiles_read(reading: Any) -> int:
    """How many tiles a photo's reading holds: the layout's tiles (the round it read, and any tile it gave no role);
    the boxes it set aside as no tile, or looked at under the threshold and did not take in, are none. Every box
    where there is no layout."""
    roles = getattr(getattr(reading, "assignment", None), "tiles", None)
    return len(roles) if roles else len(getattr(reading, "detections", None) or [])


_REFUSAL_PREFIXES = ("这手牌不能胡：", "不能胡：")


def refusal_text(msg: str, lang: str = "zh") -> str:
    """One refusal line: '这手牌不能胡：…' once, whatever prefix the rule's message already carries."""
    if lang != "zh":
        return f"This hand cannot win: {msg}" if not msg.lower().startswith(("this hand cannot win", "forbidden win")) else msg
    for prefix in _REFUSAL_PREFIXES:
        if msg.startswith(prefix):
            msg = msg[len(prefix) :]
            break
    return f"这手牌不能胡：{msg}"


def error_text(exc: JingsuanError, lang: str = "zh") -> str:
    """The message of an error in the page's language."""
    return exc.zh if lang == "zh" else exc.en


__all__ = [
    "DRAFT_KEY", "ENTRY_KEYS", "MELD_TYPES", "SEAT_ZH", "WINNER", "MissingAnswer", "RoundDraft",
    "add_meld", "apply_reading", "build_round", "false_win_round", "load_round", "open_questions",
]


def table_options(table: Any) -> Any:
    """The table's 冲关 options (its preset and stored overrides) for reading a photo's most probable legal
    round; None (兴国) for another rule system or overrides that no longer read."""
    from scoring.chongguan import PRESETS, resolve_options

    if getattr(table, "rules", None) not in PRESETS:
        return None
    try:
        return resolve_options(table.rules, getattr(table, "options", None) or None)
    except RoundError:
        return None
