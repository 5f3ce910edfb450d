"""The managed rules block: a projection of the feedback that kept coming back, not a log.

The block is a pure function of state: recurring LAD hotspots and patterns from the
history's read side, and tracker items that qualify by severity and count (Blocker after 1
occurrence, Critical after 2, Major after 3; ``docs/how-to/rules-block.md``). It is
rebuilt whole every time, so it never accumulates and nobody has to prune it:

- *merge*: sections whose rendered bodies are identical are one section (counts
  added), whatever their keys, because the same lesson arrives under new ids;
- *rank*: severity, then count, then the most recent recurrence (without it feedback
  hit often long ago outranks feedback hit this week), then title, so it is stable;
- *budget*: the block never exceeds ``max_bytes`` (UTF-8, markers included). The
  layout is decided by rank alone: every section keeps at least a heading-only line
  with its name and count (*demoted*, never dropped), titles shortened as far as
  :data:`DEMOTED_CAPS` allows before any section is only counted in one closing
  line; in the room left, sections are written in full in rank order. A demoted
  section is back in full the moment it outranks one that is written in full.

Lessons (``lessons.store``: what the detached reviewer learnt from the user's complaints)
qualify by the same thresholds on their occurrences (publication and recurrences); each is
its title and how to apply it. A Minor lesson never enters the block: the prompt hook gives
it only to a prompt that names its keywords.

Everything taken from the history, the state file or the code is reduced to a safe
character set (:func:`safe_text`) and every line is normalised again when rendered,
so no value can add a line, a marker, markup or an ANSI sequence to an agent's context.
Severity of a tracker item (documented in ``docs/how-to/rules-block.md``; the item as ``tracker.item`` reads
it, whether it is due as ``tracker.promotion`` decides): a ``severity`` set by hand
(``item["ladder"]["severity"]``, else the item's own ``severity``) wins; otherwise an
item that needs promotion is *Critical* when a check exists for it (recommended
level 4) and it is still at level 1 or 2, else *Major*; an item that needs no
promotion and has no severity set by hand is not in the block. A hotspot the gate
fails on now (LAD900, every mode but ``advisory``) is Critical; in ``advisory`` mode,
for a hotspot known from history (it fails on its next edit that leaves it over the
limit) and for a pattern, Major. The hotspots are the gate's: the view reads git
where ``ladder check`` does.

Module-level imports are the standard library and the spine only: the prompt hook
reads the block (through :mod:`.rules_file`) under a time budget.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable, Optional, Sequence

from ..errors import LadderError
from ..reports.sanitize import agent_data

if TYPE_CHECKING:
    from ..tracker.item import TrackerItem

__all__ = [
    "BEGIN", "END", "HEADER", "FULL_PREFIX", "DEMOTED_PREFIX", "DEMOTED_SUFFIX", "MORE_PREFIX",
    "SEVERITIES", "THRESHOLDS", "DEFAULT_FILES", "DEFAULT_MAX_BYTES", "MIN_BYTES", "NEWLINES", "NAME_CAP", "TITLE_CAP",
    "Section", "Block", "RulesConfig", "rules_config", "safe_text", "plain_line",
    "merge", "rank", "render_block", "minimum_bytes", "heading_line", "gives_in_full", "demoted_line", "more_line",
    "in_written_form",
    "hotspot_sections", "pattern_sections", "item_sections", "lesson_sections", "DEMOTED_CAPS",
    "item_severity", "build_sections", "build_block",
]

BEGIN = "<!-- ladder:rules:begin -->"
END = "<!-- ladder:rules:end -->"
HEADER = ("## Recurring feedback in this repository (ladder-plugins)",
          "Facts recorded by ladder-plugins: feedback that kept coming back. Not instructions.")
#: a full section's first line starts with this; a demoted one is a line starting with ``DEMOTED_PREFIX``
FULL_PREFIX = "### "
DEMOTED_PREFIX = "- "
DEMOTED_SUFFIX = " (shortened to fit)"
MORE_PREFIX = "\u2026 and "
SEVERITIES = ("Blocker", "Critical", "Major")
#: how many occurrences make a piece of feedback of this severity qualify
THRESHOLDS = {"Blocker": 1, "Critical": 2, "Major": 3}
DEFAULT_FILES = (".agent/rules/feedback-loop.md",)
DEFAULT_MAX_BYTES = 6144
NEWLINES = ("\n", "\r\n", "\r")
NAME_CAP = 80
TITLE_CAP = 160
#: the title lengths a demoted line is tried at, longest first: names are shortened before any is dropped
DEMOTED_CAPS = (TITLE_CAP, 100, 70, 50, 32, 20)

_RANK = {name: number for number, name in enumerate(SEVERITIES)}
_SAFE_PUNCT = frozenset(" _./:#@-',;()!?%+=&$\\")  # the backslash: agent_data's escape of a speaker's word
_DAY = re.compile(r"\d{4}-\d\d-\d\d")
#: what a heading ends with after its title's " (": the count (``heading_line``)
_COUNT_TAIL = re.compile(r"\d+\u00d7\)")
#: a body line starting with one of these would read as a heading, a demoted line or the closing line
_STRUCTURAL = ("#", "-", MORE_PREFIX[0], "<")
#: a section's first line as the writer gives it: a full heading, or a demoted line
_SECTION_LINE = re.compile(rf"(?:{re.escape(FULL_PREFIX)}(?:{'|'.join(SEVERITIES)}): .+ \(\d+\u00d7\)"
                           rf"|{re.escape(DEMOTED_PREFIX)}(?:{'|'.join(SEVERITIES)}): .+ \(\d+\u00d7\)"
                           rf"{re.escape(DEMOTED_SUFFIX)})")
_MORE_LINE = re.compile(re.escape(MORE_PREFIX) + r"\d+ more")


@dataclass(frozen=True)
class Section:
    """One piece of recurring feedback: ``key`` says where it came from (for debugging a merge)."""

    key: str
    severity: str
    title: str
    body: tuple[str, ...] = ()
    count: int = 1
    #: the ISO date of the most recent recurrence ("" when unknown: ranked oldest)
    last: str = ""

    def __post_init__(self) -> None:
        if self.severity not in SEVERITIES:
            raise ValueError(f"severity {self.severity!r} is not one of {', '.join(SEVERITIES)}")
        object.__setattr__(self, "body", tuple(self.body))


@dataclass(frozen=True)
class Block:
    """The rendered block and how its sections were laid out (in rank order: full, demoted, counted)."""

    text: str
    full: tuple[Section, ...]
    demoted: tuple[Section, ...]
    counted: tuple[Section, ...]
    max_bytes: int
    #: the characters a demoted line's title was cut to, so that every name fits (:data:`DEMOTED_CAPS`)
    title_cap: int = TITLE_CAP

    @property
    def saturated(self) -> bool:
        """The budget is full: something was shortened or only counted (working as designed)."""
        return bool(self.demoted or self.counted)

    @property
    def size(self) -> int:
        return len(self.text.encode("utf-8"))

    @property
    def sections(self) -> int:
        return len(self.full) + len(self.demoted) + len(self.counted)


@dataclass(frozen=True)
class RulesConfig:
    """``[tool.ladder.rules]``: the files that hold the block and its size cap."""

    files: tuple[str, ...] = DEFAULT_FILES
    max_bytes: int = DEFAULT_MAX_BYTES


def rules_config(settings: Any) -> RulesConfig:
    """The rules table of ``settings``, or the defaults where the settings have none (yet)."""
    table = getattr(settings, "rules", None)
    files = tuple(getattr(table, "files", None) or DEFAULT_FILES)
    return RulesConfig(files, int(getattr(table, "max_bytes", None) or DEFAULT_MAX_BYTES))


# -- safe text -------------------------------------------------------------------------------------------


def _joins_previous(text: str, cut: int) -> bool:
    """Whether cutting before ``text[cut]`` would split a character as a reader sees it."""
    return unicodedata.combining(text[cut]) > 0 or text[cut] in "\u200d\ufe0e\ufe0f" or text[cut - 1] == "\u200d"


def _capped(text: str, cap: int) -> str:
    if len(text) <= cap:
        return text
    cut = max(cap - 3, 1)
    while cut > 1 and _joins_previous(text, cut):
        cut -= 1
    return text[:cut].rstrip() + "..."


def _safe_char(char: str) -> str:
    return char if char in _SAFE_PUNCT or unicodedata.category(char)[0] in "LNM" else "?"


def safe_text(value: Any, cap: int = NAME_CAP) -> str:
    """A value from the history, the state file or the code as data: printable, one line, markup-free
    (letters, digits and marks of any script and a little punctuation; anything else is ``?``), capped at
    ``cap`` characters without splitting one; ``reports.sanitize.agent_data`` first (one line, no speaker).
    The block's own ``reports.brief``-like reduction."""
    text = agent_data("" if value is None else str(value))
    return _capped("".join(_safe_char(c) for c in text).strip(), cap)


def plain_line(text: str, cap: Optional[int] = None) -> str:
    """One line of the block as it is rendered: ``reports.sanitize.agent_data`` (controls and ANSI gone, line
    breaks spaces, ``<``/``>`` as ``‹``/``›`` so no HTML comment can open or close inside the block, a speaker's
    word escaped), optionally capped."""
    line = agent_data(text)
    return line if cap is None else _capped(line, cap)


def _body_lines(section: Section) -> tuple[str, ...]:
    """The body as rendered: each line plain, none empty, none that would read as the block's structure."""
    lines = (plain_line(line) for line in section.body)
    return tuple("\\" + line if line.startswith(_STRUCTURAL) else line for line in lines if line)


def _title(section: Section, cap: int = TITLE_CAP) -> str:
    return plain_line(section.title, cap) or "(untitled)"


def heading_line(section: Section) -> str:
    """``### Critical: <title> (2×)``: the first line of a section written in full."""
    return f"{FULL_PREFIX}{section.severity}: {_title(section)} ({section.count}\u00d7)"


def gives_in_full(block: str, severity: str, title: str) -> bool:
    """Whether a written block holds a section of this severity and title in full (its heading, whatever its
    count has grown to since), not only named in a demoted line. The heading is :func:`heading_line`'s, read
    up to its count."""
    if severity not in SEVERITIES:
        return False
    probe = heading_line(Section("", severity, title, count=0))
    heading = probe[:-len("0\u00d7)")]
    # the count must follow: "Never catch Exception (" also begins the heading of "Never catch Exception (in ...)"
    return any(line.startswith(heading) and _COUNT_TAIL.fullmatch(line[len(heading):].rstrip()) is not None
               for line in block.splitlines())


def demoted_line(section: Section, cap: int = TITLE_CAP) -> str:
    """``- Major: <title> (3×) (shortened to fit)``: a section that did not fit in full, its title cut to ``cap``
    characters."""
    return f"{DEMOTED_PREFIX}{section.severity}: {_title(section, cap)} ({section.count}\u00d7){DEMOTED_SUFFIX}"


def more_line(count: int) -> str:
    """``… and 4 more``: the sections that did not fit even as a heading."""
    return f"{MORE_PREFIX}{count} more"


# -- merge, rank, budget ---------------------------------------------------------------------------------


def _next_kind(line: str, previous: str) -> Optional[str]:
    """What ``line`` is in a written block after a line of kind ``previous`` (header, full, body, demoted,
    more), or ``None`` where the writer would not put it."""
    if plain_line(line) != line or previous == "more":  # the closing count is the last line
        return None
    if _SECTION_LINE.fullmatch(line):
        return "full" if line.startswith(FULL_PREFIX) else "demoted"
    if _MORE_LINE.fullmatch(line):
        return "more"
    # a body line follows its heading (a demoted section has none) and cannot read as structure
    return "body" if previous in ("full", "body") and not line.startswith(_STRUCTURAL) else None


def in_written_form(lines: Sequence[str]) -> bool:
    """Whether a block's lines (markers included, without line ends) are in the form :func:`render_block`
    gives them: the markers, the header, then sections (a heading with its body lines, or a demoted line) and
    at most a closing count, every line as :func:`plain_line` leaves it. What the prompt hook puts in front of
    an agent every turn must be the writer's: a block edited into anything else (an escape code, a fake closing
    tag, a ``SYSTEM:`` line, prose) is not injected, whatever ``ladder rules check`` says of it later."""
    head = (BEGIN, *HEADER)
    if len(lines) <= len(head) or tuple(lines[:len(head)]) != head or lines[-1] != END:
        return False
    kind = "header"
    for line in lines[len(head):-1]:
        following = _next_kind(line, kind)
        if following is None:
            return False
        kind = following
    return True


def _merge_key(section: Section) -> tuple[str, ...]:
    """The rendered body; a section without one is merged on its title instead (two bodiless sections are
    not the same lesson)."""
    body = _body_lines(section)
    return ("body", *body) if body else ("title", _title(section))


def _merged(group: Sequence[Section]) -> Section:
    if len(group) == 1:
        return group[0]
    best = rank(group)[0]
    return dataclasses.replace(best, key="+".join(sorted({s.key for s in group})),
                               count=sum(s.count for s in group), last=max(s.last for s in group))


def merge(sections: Iterable[Section]) -> list[Section]:
    """One section per rendered body, counts added; the best-ranked member gives severity and title."""
    groups: dict[tuple[str, ...], list[Section]] = {}
    for section in sections:
        groups.setdefault(_merge_key(section), []).append(section)
    return [_merged(group) for group in groups.values()]


def rank(sections: Iterable[Section]) -> list[Section]:
    """Severity (Blocker first), then count (more first), then ``last`` (most recent first), then title."""
    ordered = sorted(sections, key=lambda s: (_title(s), s.key))
    ordered.sort(key=lambda s: s.last, reverse=True)
    ordered.sort(key=lambda s: (_RANK[s.severity], -s.count))
    return ordered


def _bytes(lines: Iterable[str], newline: str) -> int:
    return sum(len(line.encode("utf-8")) + len(newline) for line in lines)


def minimum_bytes(sections: int = 0, newline: str = "\n") -> int:
    """The smallest budget a block of ``sections`` sections fits in: markers, header and, when there is a
    section, the closing ``… and N more`` line."""
    tail = (more_line(sections),) if sections else ()
    return _bytes((BEGIN, *HEADER, *tail, END), newline)


#: the smallest budget that holds any block of up to 999,999 sections, whatever the newline
MIN_BYTES = minimum_bytes(999_999, "\r\n")


def _plan(full: Sequence[int], short: Sequence[int], budget: int, tail: Callable[[int], int]) -> tuple[int, int]:
    """How many sections go in full, and how many in full or demoted, by rank alone: each step keeps room for
    the closing line that counts the rest."""
    total, used, whole = len(full), 0, 0
    while whole < total and used + full[whole] + tail(total - whole - 1) <= budget:
        used, whole = used + full[whole], whole + 1
    placed = whole
    while placed < total and used + short[placed] + tail(total - placed - 1) <= budget:
        used, placed = used + short[placed], placed + 1
    return whole, placed


def _require(max_bytes: int, sections: int, newline: str) -> None:
    """A budget below the minimum cannot hold even the closing line: a configuration to fix, said clearly."""
    need = minimum_bytes(sections, newline)
    if max_bytes < need:
        raise LadderError(f"the rules block needs at least {need} bytes (its markers, header and closing line) "
                          f"but max_bytes is {max_bytes}; raise [tool.ladder.rules] max_bytes to {MIN_BYTES} "
                          "or more")


def _full_lines(section: Section) -> tuple[str, ...]:
    return (heading_line(section), *_body_lines(section))


def _upgraded(full: Sequence[int], short: Sequence[int], budget: int) -> int:
    """With every section's demoted line in, how many go in full instead, in rank order, within ``budget``."""
    used, whole = sum(short), 0
    while whole < len(full) and used + full[whole] - short[whole] <= budget:
        used, whole = used + full[whole] - short[whole], whole + 1
    return whole


def _demoted_sizes(ranked: Sequence[Section], newline: str) -> Iterable[tuple[int, list[int]]]:
    """Each cap of :data:`DEMOTED_CAPS` with the sizes of the demoted lines it gives."""
    for cap in DEMOTED_CAPS:
        yield cap, [_bytes((demoted_line(s, cap),), newline) for s in ranked]


def _layout(ranked: Sequence[Section], max_bytes: int, newline: str) -> tuple[int, int, int]:
    """How many sections in full, how many in full or demoted, and the demoted titles' cap: every name is kept
    (titles shortened, down to :data:`DEMOTED_CAPS`' last) before any is only counted; of the caps that keep
    them all, the one that leaves the most sections in full (the longest of those)."""
    budget = max_bytes - minimum_bytes(0, newline)
    full = [_bytes(_full_lines(s), newline) for s in ranked]
    kept = [(_upgraded(full, short, budget), cap) for cap, short in _demoted_sizes(ranked, newline)
            if sum(short) <= budget]
    if kept:
        whole, cap = max(kept, key=lambda found: found[0])  # the first (longest cap) of the best
        return whole, len(ranked), cap
    cap = DEMOTED_CAPS[-1]
    short = [_bytes((demoted_line(s, cap),), newline) for s in ranked]
    whole, placed = _plan(full, short, budget, lambda rest: _bytes((more_line(rest),), newline) if rest else 0)
    return whole, placed, cap


def _text(ranked: Sequence[Section], layout: tuple[int, int, int], newline: str) -> str:
    whole, placed, cap = layout
    rest = len(ranked) - placed
    lines = [BEGIN, *HEADER, *(line for s in ranked[:whole] for line in _full_lines(s)),
             *(demoted_line(s, cap) for s in ranked[whole:placed]), *((more_line(rest),) if rest else ()), END]
    return newline.join(lines) + newline


def render_block(sections: Iterable[Section], *, max_bytes: int = DEFAULT_MAX_BYTES, newline: str = "\n") -> Block:
    """The block, markers included, in at most ``max_bytes`` UTF-8 bytes written with ``newline``."""
    if newline not in NEWLINES:
        raise ValueError(f"newline must be one of {NEWLINES!r}")
    ranked = rank(merge(sections))
    _require(max_bytes, len(ranked), newline)
    layout = _layout(ranked, max_bytes, newline)
    whole, placed, cap = layout
    return Block(_text(ranked, layout, newline), tuple(ranked[:whole]), tuple(ranked[whole:placed]),
                 tuple(ranked[placed:]), max_bytes, cap)


# -- from state ------------------------------------------------------------------------------------------


def _day(value: Any) -> str:
    text = str(value or "")[:10]
    return text if _DAY.fullmatch(text) else ""


def _what(rule_key: str) -> str:
    from ..catalogue import lookup

    rule = lookup(rule_key)
    return rule.what if rule is not None else safe_text(rule_key)


def _where(rec: Any) -> str:
    """``'price' in src/shop/pricing.py``, or the file alone for a file rule."""
    path = safe_text(rec.path)
    return f"'{safe_text(rec.unit)}' in {path}" if rec.unit else path


def _value(view: Any, rec: Any) -> str:
    from ..reports.summary import value_sentence

    return value_sentence(view, rec)


def _gate_fact(mode: str, known: bool) -> str:
    from ..catalogue import GATE
    from ..config import Mode  # here, not at the top: the prompt hook's reader of the block imports this module

    if mode == Mode.ADVISORY:
        return f"The gate is advisory here: {GATE.code} reports it without failing."
    if known:
        return (f"It is known from history: the recurrence gate ({GATE.code}) does not fail on it yet; its next "
                f"edit that leaves it over the limit fails the run (mode {safe_text(mode)}).")
    return f"The recurrence gate ({GATE.code}) fails on it now (mode {safe_text(mode)})."


def _hotspot(view: Any, rec: Any, mode: str) -> Section:
    from ..config import Mode
    what, where = _what(rec.rule_key), _where(rec)
    facts = f"{where}: {what} ({safe_text(rec.rule_key)}) {_value(view, rec)}; {rec.describe()}."
    known = not rec.triggered
    return Section(f"hotspot:{safe_text(rec.fingerprint, 400)}",
                   "Major" if mode == Mode.ADVISORY or known else "Critical", f"{where}: {what}",
                   (facts, _gate_fact(mode, known)), rec.occurrences, _day(rec.days[-1] if rec.days else rec.last_seen))


def hotspot_sections(view: Any, mode: str) -> list[Section]:
    """The view's current hotspots (resolved ones are not in ``view.hotspots``): Critical where the gate
    fails on them now, Major in ``advisory`` mode and for one known from history (it fails on its next edit)."""
    return [_hotspot(view, rec, mode) for rec in view.hotspots]


def _pattern(pattern: Any, last: str) -> Section:
    what, group = _what(pattern.rule_key), f"{pattern.kind} {safe_text(pattern.group)}"
    body = f"Code in {group}: {what} ({safe_text(pattern.rule_key)}) {pattern.describe()}."
    return Section(f"pattern:{safe_text(pattern.rule_key)}:{pattern.kind}:{safe_text(pattern.group)}", "Major",
                   f"{what} in {group}", (body,), pattern.recurrences, last)


def pattern_sections(view: Any) -> list[Section]:
    """The view's patterns, Major; a role and an area made of the same fingerprints are said once."""
    days = {rec.fingerprint: rec.days[-1] for rec in view.recurring if rec.days}
    seen: set[tuple[str, frozenset[str]]] = set()
    found = []
    for pattern in view.patterns:
        same = (pattern.rule_key, pattern.members)
        if same not in seen or not pattern.members:
            seen.add(same)
            found.append(_pattern(pattern, max((_day(days.get(fp)) for fp in pattern.members), default="")))
    return found


def _hand_severity(item: TrackerItem) -> Optional[str]:
    """A severity set by hand: the ``ladder`` extra's first, then the item's own; anything else is ignored."""
    return next((s.strip().capitalize() for s in item.severities if s.strip().capitalize() in SEVERITIES), None)


def _derived_severity(item: TrackerItem) -> Optional[str]:
    """An item that needs promotion and is below its recommended level: Critical when a check exists for it
    (recommended level 4) and it is still at level 1 or 2, else Major."""
    from ..tracker.promotion import due, gap

    if not due(item) or gap(item)[0] <= 0:
        return None
    return "Critical" if item.recommended_level >= 4 and item.current_level <= 2 else "Major"


def item_severity(item: TrackerItem) -> Optional[str]:
    """The severity a tracker item is in the block with, or ``None`` when it does not qualify (see the module
    docstring); it qualifies when its occurrences reach the severity's threshold."""
    severity = _hand_severity(item) or _derived_severity(item)
    if severity is None or item.occurrences < THRESHOLDS[severity]:
        return None
    return severity


def _item(item: TrackerItem, severity: str) -> Section:
    from ..tracker.model import level_name

    topic = safe_text(item.topic, TITLE_CAP)
    where = safe_text(item.current_location or "")
    body = [f"Feedback '{topic}' is encoded at {level_name(item.current_level)}"
            f"{f' ({where})' if where else ''}; the tracker recommends {level_name(item.recommended_level)}."]
    if _hand_severity(item):
        body.append(f"Its severity, {severity}, was set by hand in the tracker's state.")
    return Section(f"feedback:{safe_text(item.id)}", severity, topic, tuple(body), item.occurrences,
                   _day(item.last_seen))


def item_sections(entries: Iterable[Any]) -> list[Section]:
    """The tracker items that qualify, from the state file's entries as they are (each read once as a
    ``tracker.item.TrackerItem``; an entry that is not one is left out, as the tracker leaves it). An item
    whose text is only a capture's opaque keys is left out too: it says nothing an agent could act on, and
    the complaints behind it reach the block as their lesson."""
    from ..tracker.item import read_items
    from ..tracker.keywords import keys_only

    graded = ((item, item_severity(item)) for item in read_items(entries).items if not keys_only(item.topic))
    return [_item(item, severity) for item, severity in graded if severity is not None]


def lesson_sections(lessons: Iterable[Any]) -> list[Section]:
    """The lessons (``lessons.store.Lesson``) that qualify: Blocker, Critical or Major with at least the
    threshold's occurrences; each its title and how to apply it."""
    return [Section(f"lesson:{lesson.family}", lesson.severity, lesson.title, (f"How to apply: {lesson.apply}",),
                    lesson.count, _day(lesson.last))
            for lesson in lessons
            if lesson.severity in THRESHOLDS and lesson.count >= THRESHOLDS[lesson.severity]]


def _ignore(message: str) -> None:
    """A warning sink that says nothing (reading for the block must not repeat what other commands say)."""


def _entries(settings: Any, warn: Callable[[str], None]) -> list[Any]:
    from ..tracker.state import StateFile

    return StateFile(settings.root / settings.feedback.state, settings.root, warn).read(repair=False).items


def build_sections(settings: Any, warn: Optional[Callable[[str], None]] = None) -> list[Section]:
    """Every section the project's state makes: hotspots and patterns (the history's read side, checked
    against the code now), the lessons of ``.agent/reflections/``, then the tracker's items (the state file
    as it is: read, never repaired)."""
    from ..history.view import load_view
    from ..lessons.store import read_lessons

    sink = warn or _ignore
    view = load_view(settings, warn=sink, check=True)
    lessons = lesson_sections(read_lessons(settings.root))
    return hotspot_sections(view, settings.mode) + pattern_sections(view) + lessons + item_sections(
        _entries(settings, sink))


def build_block(settings: Any, warn: Optional[Callable[[str], None]] = None, newline: str = "\n") -> Block:
    """The block ``ladder rules sync`` writes for this project now."""
    return render_block(build_sections(settings, warn), max_bytes=rules_config(settings).max_bytes,
                        newline=newline)
