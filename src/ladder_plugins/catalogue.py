"""The one catalogue of rule codes, rule keys, families, scopes and messages.

Nothing else in the code base spells a ``LADxxx`` code: front ends, reports and the
documentation generator all look rules up here. Third-party plugins contribute their
own :class:`Rule` objects through the ``ladder_rules`` hook.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Iterable, Mapping, Optional

__all__ = [
    "Rule",
    "RuleIndex",
    "RULES",
    "ROLES",
    "GATE",
    "NEW_CODE",
    "SUPPRESSION",
    "CONFIGURATION",
    "UNKNOWN_RULE",
    "WORKLOG_RULES",
    "lookup",
    "lint_rule",
    "number",
    "plural",
    "worse_than",
    "bound_text",
]

ROLES = ("app", "test", "library", "script", "generated", "vendor")

#: what outputs show for a rule key read from the history that no installed rule has (a plugin since
#: removed, a log merged from elsewhere): never the key itself, which nothing vouches for
UNKNOWN_RULE = "unknown"

Limit = Optional[float]


def _limits(app: Limit, test: Limit, library: Limit, script: Limit) -> Mapping[str, Limit]:
    """Per-role defaults; generated and vendor code share app's (they are skipped by default)."""
    return MappingProxyType(
        {
            "app": app,
            "test": test,
            "library": library,
            "script": script,
            "generated": app,
            "vendor": app,
        }
    )


@dataclass(frozen=True)
class Rule:
    """One rule: a metric compared with a per-role limit.

    ``kind`` is ``"max"`` (violated above the limit, yellow from ``yellow_ratio`` x
    limit), ``"min"`` (violated below the limit) or ``"meta"`` (raised by the
    analysis itself, not a threshold). ``metric`` names the unit or file metric the
    rule reads; a unit whose metric is ``None`` is not subject to the rule.
    """

    code: str
    key: str
    family: str
    scope: str
    metric: Optional[str]
    kind: str
    what: str
    summary: str
    reference: str
    defaults: Mapping[str, Limit] = field(default_factory=lambda: _limits(None, None, None, None))
    source: str = "built-in-metric"
    #: the metric in a few letters, for a list of several (``cyclomatic 12 > 10, ABC 21.5 > 17``)
    short: str = ""
    #: what the value counts, said after it (``1037 lines``); empty for a plain number
    measure: str = ""
    #: a file rule whose metric is worked out from the file's lines alone, not its syntax tree: the git walk
    #: measures it in a past version it does not parse whole
    from_lines: bool = False

    @property
    def label(self) -> str:
        return self.short or self.key

    @property
    def has_limit(self) -> bool:
        """A threshold rule (``max`` or ``min``); a ``meta`` rule is raised by the analysis itself."""
        return self.kind in ("max", "min")

    @property
    def is_minimum(self) -> bool:
        """Violated below its limit; every other rule is read as a maximum, violated above it."""
        return self.kind == "min"

    def exceeds(self, value: Optional[float], limit: Optional[float]) -> bool:
        """Whether ``value`` violates ``limit`` (red): below a minimum, above a maximum; not without both."""
        return value is not None and limit is not None and worse_than(value, limit, minimum=self.is_minimum)

    def past_limit(self, actual: float, limit: Optional[float]) -> Optional[float]:
        """How far ``actual`` lies past ``limit``, relative to the limit: ``0.67`` for a cognitive 25 > 15,
        ``1.0`` for no assertions against a minimum of 1, ``0`` at the limit, negative short of it (the
        yellow band); ``None`` for a rule without a limit. Relative, so that values of different rules
        compare: the one measure reports rank violations by."""
        if limit is None or not self.has_limit:
            return None
        gap = limit - actual if self.is_minimum else actual - limit
        return gap / (abs(limit) or 1.0)

    def message(
        self, unit: Optional[str], actual: float, limit: Optional[float], detail: Optional[str] = None,
        *, path: Optional[str] = None,
    ) -> str:
        """The human message, without the code: names the unit (or the file, by its name, from ``path``), the
        value and the limit."""
        subject = _subject(unit, path)
        if self.kind == "meta":
            return f"{self.what} on {subject}" + (f": {detail}" if detail else "")
        value = number(actual) + (f" {self.measure}" if self.measure else "")
        return f"{self.what} of {subject} is {value} ({self.bound(actual, limit)})"

    def bound(self, actual: Optional[float], limit: Optional[float]) -> str:
        """``> 10``, ``< 1``, or ``limit 5`` for a value of a maximum in the yellow band (close to the limit, not
        over)."""
        if not self.is_minimum and limit is not None and actual is not None and actual <= limit:
            return f"limit {number(limit)}"
        return bound_text(limit, minimum=self.is_minimum)

    def brief(self, actual: Optional[float], limit: Optional[float]) -> str:
        """``cyclomatic 12 > 10``: the value against its limit in a few words, for a list of several."""
        return f"{self.label} {number(actual)} {self.bound(actual, limit)}"


def _subject(unit: Optional[str], path: Optional[str] = None) -> str:
    if unit:
        return f"'{unit}'"
    return f"'{path.rpartition('/')[2]}'" if path else "the file"


def plural(count: int, noun: str) -> str:
    """``1 file``, ``2 files``: the one place counts are worded."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def worse_than(value: float, other: float, *, minimum: bool) -> bool:
    """Whether ``value`` lies past ``other`` the wrong way: below it for a minimum, above it for a maximum.

    The one place the two kinds of limit differ: a value over its limit (``other`` the limit), a version worse
    than an earlier one (``other`` the earlier value), or better (the earlier value worse than it).
    """
    return value < other if minimum else value > other


def bound_text(limit: Optional[float], *, minimum: bool) -> str:
    """``> 10`` for a maximum, ``< 1`` for a minimum: the side of its limit a violating value lies on."""
    return f"{'<' if minimum else '>'} {number(limit)}"


def number(value: Optional[float]) -> str:
    """``22`` for 22.0, ``21.47`` otherwise, ``-`` for no value: the one place values are worded."""
    if value is None:
        return "-"
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.2f}"


_CC = "https://radon.readthedocs.io/en/latest/intro.html#cyclomatic-complexity"
_SONAR = "https://www.sonarsource.com/resources/cognitive-complexity/"
_ABC = "https://docs.rubocop.org/rubocop/cops_metrics.html#metricsabcsize"
_DOC = "ladder_plugins/metrics.md"
_MI = "https://radon.readthedocs.io/en/latest/intro.html#maintainability-index"

_BUILTIN = (
    Rule(
        "LAD000", "configuration", "meta", "file", None, "meta",
        "ladder-plugins cannot run",
        "The configuration ([tool.ladder] or the front end's options) is invalid; "
        "the message says which file and key, and what is expected.",
        _DOC,
    ),
    Rule(
        "LAD001", "suppression", "meta", "unit", None, "meta",
        "invalid suppression",
        "A '# ladder: ignore[...]' comment must name known rules and give a reason "
        "after the brackets; otherwise it suppresses nothing and is reported itself.",
        _DOC,
    ),
    Rule(
        "LAD101", "cyclomatic_max", "complexity", "unit", "cyclomatic", "max",
        "cyclomatic complexity",
        "McCabe cyclomatic complexity: 1 + decision points, counted by radon's rules.",
        _CC, _limits(10, 5, 10, 15),
        short="cyclomatic",
    ),
    Rule(
        "LAD102", "cognitive_max", "complexity", "unit", "cognitive", "max",
        "cognitive complexity",
        "SonarSource cognitive complexity: breaks in linear flow, weighted by nesting.",
        _SONAR, _limits(15, 8, 15, 25),
        short="cognitive",
    ),
    Rule(
        "LAD103", "abc_max", "complexity", "unit", "abc", "max",
        "ABC size",
        "sqrt(A^2 + B^2 + C^2) of assignments, branches (calls) and conditions, "
        "counted as RuboCop Metrics/AbcSize counts.",
        _ABC, _limits(17, 25, 17, 30),
        short="ABC",
    ),
    Rule(
        "LAD104", "function_lines_max", "size", "unit", "function_lines", "max",
        "body length",
        "Non-blank, non-comment lines of the body, docstring excluded.",
        _DOC, _limits(50, 60, 50, 100),
        short="body lines", measure="lines",
    ),
    Rule(
        "LAD105", "params_max", "interface", "unit", "params", "max",
        "number of parameters",
        "Named parameters (positional-only, ordinary, keyword-only); self/cls and "
        "*args/**kwargs excluded.",
        _DOC, _limits(5, 8, 5, 8),
        short="parameters",
    ),
    Rule(
        "LAD106", "nesting_max", "complexity", "unit", "nesting", "max",
        "nesting depth",
        "Deepest nesting of control blocks (if, for, while, try, with, match).",
        _DOC, _limits(4, 3, 4, 5),
        short="nesting",
    ),
    Rule(
        "LAD107", "file_lines_max", "size", "file", "file_lines", "max",
        "file length",
        "Physical lines in the file.",
        _DOC, _limits(1000, 1500, 1000, 2000),
        short="file lines", measure="lines", from_lines=True,
    ),
    Rule(
        "LAD108", "min_assertions", "test-quality", "unit", "assertions", "min",
        "number of assertions",
        "Assertions in a test function: assert statements, pytest.raises/warns/"
        "deprecated_call, unittest assert*/fail* and mock assert_* calls.",
        _DOC, _limits(None, 1, None, None),
        short="assertions",
    ),
    Rule(
        "LAD111", "exported_params_max", "interface", "exported-unit", "params", "max",
        "number of parameters of public API",
        "Parameters of a public unit in library code (stricter than params_max).",
        _DOC, _limits(None, None, 4, None),
        short="public parameters",
    ),
    Rule(
        "LAD112", "exported_cyclomatic_max", "complexity", "exported-unit", "cyclomatic", "max",
        "cyclomatic complexity of public API",
        "Cyclomatic complexity of a public unit in library code.",
        _CC, _limits(None, None, 8, None),
        short="public cyclomatic",
    ),
    Rule(
        "LAD113", "exported_lines_max", "size", "exported-unit", "function_lines", "max",
        "body length of public API",
        "Body lines of a public unit in library code.",
        _DOC, _limits(None, None, 40, None),
        short="public body lines", measure="lines",
    ),
    Rule(
        "LAD114", "maintainability_min", "maintainability", "file", "maintainability", "min",
        "maintainability index",
        "radon's maintainability index of the file (0-100; rank A above 19, B 10-19, C 9 and below); "
        "off until a limit is set.",
        _MI,
        short="maintainability",
    ),
)

GATE = Rule(
    "LAD900", "recurring_hotspot", "gate", "unit", None, "meta",
    "recurring hotspot",
    "This violation kept coming back on code that kept being edited: it crossed "
    "the hotspot threshold (recurrence.hotspot_min_count occurrences on "
    "recurrence.hotspot_min_days distinct days).",
    _DOC,
)

NEW_CODE = Rule(
    "LAD901", "new_violation", "gate", "unit", None, "meta",
    "new violation",
    "In mode new: a red violation in a unit that did not violate that rule at the base "
    "commit (--base, default the merge base with the default branch), or that got worse "
    "than it was there.",
    _DOC,
)


def _lint(code: str, key: str, what: str, summary: str) -> Rule:
    """A rule of the work-log and knowledge-base lint: raised by the lint, no limit, no history."""
    family = "kb" if key.startswith("kb_") else "worklog"
    scope = "note" if family == "kb" else "report"
    return Rule(code, key, family, scope, None, "meta", what, summary, _DOC, source="worklog-lint")


#: The work-log and knowledge-base lint's rules (``ladder worklog check``, ``ladder kb check``). They are not
#: metric rules: no analysis raises them, so they are kept apart from :data:`RULES`.
_WORKLOG = (
    _lint("LAD300", "worklog_unreadable", "work log cannot be read",
          "The work log must be a UTF-8 text file of reports; the message names the byte or the reason."),
    _lint("LAD301", "worklog_header", "malformed report header",
          "Every report opens with '=== Report #N | lines: L | elapsed: MM:SS | type: T ===' (in count mode "
          "ending '| loop: N of M': N the loop reports at and below it, M the contract's min_required_loops), the "
          "final block with '=== FINAL REPORT | elapsed: MM:SS | loops: N ==='; nothing precedes the first header."),
    _lint("LAD302", "worklog_lines", "wrong line count",
          "'lines:' is the number of lines from the header through the report's last content line, interior "
          "blank lines included, trailing blank lines and the '---' separator excluded."),
    _lint("LAD303", "worklog_type", "unknown report type",
          "A report's type is feedback, milestone or synthesis."),
    _lint("LAD304", "worklog_elapsed", "malformed elapsed time",
          "'elapsed:' is minutes and seconds, MM:SS, the seconds 00 to 59."),
    _lint("LAD305", "worklog_order", "reports out of order",
          "Reports stack newest on top: numbers strictly decrease downwards, without gaps unless allowed."),
    _lint("LAD306", "worklog_separator", "wrong separator between reports",
          "Exactly one '---' line stands between two reports, and none after the last."),
    _lint("LAD307", "worklog_contract_keys", "start contract keys",
          "Report #0 is the start contract: its exact keys, case-sensitive, in the exact order, none missing."),
    _lint("LAD308", "worklog_contract_value", "start contract value",
          "Each start contract value has its form: task_type from its list, integers or null, a YYYY-MM-DD "
          "date, an HH:MM time, a list of done_definition bullets; Report #0 is written within one minute "
          "(elapsed 01:00 at most)."),
    _lint("LAD309", "worklog_termination", "no termination mode",
          "At least one of min_required_minutes and min_required_loops is set; both null is invalid."),
    _lint("LAD310", "worklog_reference", "unresolved relative reference",
          "'K-reports-below, line N below' names a report that exists below and a line within its count."),
    _lint("LAD311", "worklog_absolute_reference", "absolute report reference",
          "Report bodies refer to other reports relatively ('2-reports-below'), never as 'Report #N'; the message "
          "gives the relative reference that names the same report."),
    _lint("LAD312", "worklog_correction", "wrong correction report",
          "A CORRECTION names the report it corrects relatively and states its real declared and actual "
          "line counts."),
    _lint("LAD313", "worklog_final", "malformed final report",
          "The FINAL REPORT block has every field of the skill's end block, and 'loops:' is the number of "
          "loop reports (typed feedback, or recording two of the loop's steps)."),
    _lint("LAD314", "worklog_fail_gate", "strict FAIL gate item missing",
          "With --final: the items of the skill's strict FAIL gate that a program can check are all present, "
          "the knowledge base passing its own check and mapping key decisions (D#) to evidence (E#)."),
    _lint("LAD320", "kb_layout", "knowledge base layout",
          "kb/ holds raw/, archive/, curated/ and _index.md; every note is a .md file in one of the folders, and "
          "nothing but notes is in them."),
    _lint("LAD321", "kb_frontmatter", "note frontmatter",
          "A note opens with YAML frontmatter between '---' lines that reads as a mapping."),
    _lint("LAD322", "kb_field", "note field",
          "The frontmatter has every required field of the note schema, each of its form."),
    _lint("LAD323", "kb_id", "note id",
          "A note's id is YYYYMMDD-HHMMSS-slug, equal to its file name, and unique in the knowledge base."),
    _lint("LAD324", "kb_status", "note status",
          "A note's status matches its folder: raw in raw/, archived in archive/, curated in curated/."),
    _lint("LAD325", "kb_link", "note link",
          "A link names an existing note, and links go both ways."),
    _lint("LAD326", "kb_evidence", "note evidence",
          "A curated note lists its evidence, and every E# entry has fetched_at and method."),
    _lint("LAD327", "kb_archived_reason", "archived without a reason",
          "An archived note says why, in archived_reason."),
    _lint("LAD328", "kb_register", "register",
          "kb/curated/ holds the uncertainty and gap registers, tagged type/register, with their columns."),
    _lint("LAD329", "kb_index", "stale index",
          "kb/_index.md is what 'ladder kb index' writes for the notes there are."),
)

WORKLOG_RULES: Mapping[str, Rule] = MappingProxyType({rule.code: rule for rule in _WORKLOG})

CONFIGURATION = _BUILTIN[0]
SUPPRESSION = _BUILTIN[1]

#: Built-in rules by code, in catalogue order (plugins add theirs at run time).
RULES: Mapping[str, Rule] = MappingProxyType({rule.code: rule for rule in _BUILTIN + (GATE, NEW_CODE)})


@dataclass(frozen=True)
class RuleIndex:
    """Rules found by name: a code in any case (``lad102``) or a key as written (``cognitive_max``). The one
    place a rule is looked up by name: the built-in table here, the installed rules in :mod:`.plugins`."""

    by_code: Mapping[str, Rule]
    by_key: Mapping[str, Rule]

    @classmethod
    def of(cls, rules: Iterable[Rule]) -> "RuleIndex":
        listed = tuple(rules)
        return cls(MappingProxyType({rule.code: rule for rule in listed}),
                   MappingProxyType({rule.key: rule for rule in listed}))

    def find(self, name: str) -> Optional[Rule]:
        """The rule whose code or key is ``name``; ``None`` for a name none has."""
        return self.by_code.get(name.upper()) or self.by_key.get(name)


_BUILTIN_INDEX = RuleIndex.of(RULES.values())
_LINT_INDEX = RuleIndex.of(_WORKLOG)


def lookup(name: str) -> Optional[Rule]:
    """Find a built-in rule by code (``LAD102``) or key (``cognitive_max``); :func:`.plugins.rule_of` finds a
    plugin's too."""
    return _BUILTIN_INDEX.find(name)


def lint_rule(name: str) -> Rule:
    """A rule of the work-log and knowledge-base lint by key (``worklog_lines``) or code; a name it does not
    have is our bug, so this raises ``KeyError``."""
    rule = _LINT_INDEX.find(name)
    if rule is None:
        raise KeyError(name)
    return rule
