"""What the front ends ask of the tracker: scan, read, add a note, check. One core, thin front ends
(``ladder feedback``, the pytest item, ``ladder doctor``, the HTML report)."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence

from ..errors import LadderError
from .item import TrackerItem
from .promotion import Overdue, due, overdue
from .state import State, StateFile
from .topics import Topic

if TYPE_CHECKING:
    from .correct import Correction
    from .scan import Scan

__all__ = ["Tracker", "Overdue", "feedback_section"]


class Tracker:
    """The tracker of one project (its settings), with a warning sink."""

    def __init__(self, settings: Any, warn: Callable[[str], None], *, memory_dir: Optional[str] = None,
                 today: Optional[date] = None) -> None:
        from ..history.run import now_utc

        self.settings, self.warn, self.memory_dir = settings, warn, memory_dir
        self.today = today or now_utc().date()
        self.state_file = StateFile(settings.root / settings.feedback.state, settings.root, warn)
        self._pm: Any = None
        self._topics: Optional[Sequence[Topic]] = None

    @property
    def pm(self) -> Any:
        if self._pm is None:
            from .manager import tracker_manager

            self._pm = tracker_manager()
        return self._pm

    @property
    def topics(self) -> Sequence[Topic]:
        if self._topics is None:
            from .topics import load_topics

            self._topics = load_topics(self.pm)
        return self._topics

    def _scan_into(self, state: State) -> Scan:
        # the scan and its matcher (whose concept lexicon costs some 25 ms to build) only where a scan runs: what
        # only reads the state (list, report --no-scan, the HTML report, doctor) does without them
        from .scan import apply_sightings, scan_context, scan_sources

        context = scan_context(self.settings, self.warn, self.memory_dir)
        scan = apply_sightings(state.items, scan_sources(self.pm, context), self.pm, self.topics, self.today)
        for item_id in scan.untrusted:
            self.warn(f"{self.state_file.shown}: item {item_id!r} is malformed; kept as it is, not updated")
        return scan

    def scan(self, *, dry_run: bool = False) -> tuple[Scan, State]:
        """Collect, match and update the state (written unless ``dry_run`` or the file is read-only)."""
        if dry_run:
            state = self.state_file.read(repair=False)  # a damaged file is said, and left for a real scan
            return self._scan_into(state), state
        with self.state_file.updating() as state:
            scan = self._scan_into(state)
        return scan, state

    def read(self) -> State:
        """The state as it is, nothing repaired (``list``, ``report --no-scan``)."""
        return self.state_file.read(repair=False)

    def add_note(self, text: str, keywords: Sequence[str]) -> tuple[dict[str, Any], Scan, State]:
        """Keep a note (level 1) and scan, so it is matched and counted now."""
        from ..history.run import now_utc
        from .sources.journal import add_note, journal_dir

        folder = journal_dir(self.settings.root, self.settings.history_dir)
        entry = add_note(folder, self.settings.root, text, keywords, now_utc())
        scan, state = self.scan()
        return entry, scan, state

    def merge(self, keep: str, others: Sequence[str], *, dry_run: bool = False) -> tuple[Correction, State]:
        """The feedback of ``others`` is ``keep``'s (:func:`.correct.merge`); written unless ``dry_run``."""
        from .correct import merge

        return self._correct(lambda items: merge(items, keep, others, self.topics, self.today), dry_run)

    def split(self, item: str, sources: Sequence[str], *, dry_run: bool = False) -> tuple[Correction, State]:
        """The sources numbered ``sources`` of ``item`` are other feedback (:func:`.correct.split`); written
        unless ``dry_run``."""
        from .correct import split

        return self._correct(lambda items: split(items, item, sources, self.topics, self.today), dry_run)

    def _correct(self, change: Callable[[list[Any]], Correction], dry_run: bool) -> tuple[Correction, State]:
        """``change`` made to the state's items: under the lock and written atomically, or with ``dry_run`` to
        the state as read, writing nothing; a state that may not be written is refused, nothing changed."""
        if dry_run:
            state = self.state_file.read(repair=False)
            if state.read_only and not state.items:  # damaged: said above; "no item" would hide why
                raise LadderError(f"{self.state_file.shown} is read-only to this ladder-plugins or damaged (see the "
                                  "warning above); nothing would change")
            return change(state.items), state
        # a damaged file is not kept aside for a new one here (a scan does that): there is nothing to correct in it
        with self.state_file.updating(repair=False) as state:
            if state.read_only:
                raise LadderError(f"{self.state_file.shown} is read-only to this ladder-plugins or damaged (see the "
                                  "warning above); nothing was changed")
            done = change(state.items)
        return done, state

    def overdue(self, state: State) -> list[Overdue]:
        """Items needing promotion for more than ``grace_days`` (none while ``grace_days`` is unset)."""
        return overdue(state.tracked().items, self.settings.feedback.grace_days, self.today)

    @staticmethod
    def holder(state: State, identity: str) -> Optional[TrackerItem]:
        """The item that counted the source ``identity``, if any."""
        return next((item for item in state.tracked().items
                     if any(source.get("identity") == identity for source in item.sources)), None)

    @property
    def state_path(self) -> Path:
        return self.state_file.path


def feedback_section(settings: Any, warn: Callable[[str], None]) -> Any:
    """The HTML report's ladder section, from the state file as it is (read, never scanned or repaired: a
    report writes nothing); ``None`` when there is no state file."""
    from ..reports.html import FeedbackSection

    state_file = StateFile(settings.root / settings.feedback.state, settings.root, warn)
    if not state_file.path.exists():
        return None
    items = state_file.read(repair=False).tracked().items
    levels = [item.current_level for item in items]
    return FeedbackSection(state_file.shown, (levels.count(1), levels.count(2), levels.count(3), levels.count(4)),
                           tuple((i.id, i.topic, i.current_level, i.recommended_level) for i in items if due(i)))
