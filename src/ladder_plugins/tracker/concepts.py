"""The concept lexicon of the matcher: the words and phrases instruction files and reviews use for one idea.

Feedback about code says one thing in many words: "split it up", "break it down", "chop it up" and "refactor
into helpers"; "unless explicitly asked", "until the user says to", "without permission". The matcher
(:mod:`.similarity`) reads every word through this lexicon before it weighs anything, so that two wordings of
one rule meet on the same concept. It is written for the domain (coding guidelines, agent instruction files,
review comments), not from any one pair of feedback: each class is a set of words that a guideline uses
interchangeably.

A class is one line, ``head: words | phrases``:

* ``head`` names the concept; every word and phrase of the line becomes it (``logger`` → ``log``);
* the words are single words, read as the matcher reads words (stemmed, so ``split`` covers ``splits``);
* the phrases are matched in the text before it is cut into words, each of their words in turn, separated by
  spaces, hyphens, underscores, dots, slashes, ``=`` or ``:`` (``hard-coded``, ``set_trace``, ``os.path``). In a
  phrase ``a/b`` is either word, ``word*`` any word starting so, ``~`` one optional filler word (``it``,
  ``them``, ``the``, ``this``, ``your``...), ``#`` a number.

A class marked ``?`` is a *condition*, not a subject: when, whether or for whom a rule applies (asked, unless,
explicitly, the user). It weighs little, as a generic word does: "unless explicitly asked" follows rules about
commits, pushes, comments and features alike, and is none of them.

:data:`SLOTS` are choices a rule makes among alternatives (Google, NumPy or reST docstrings; uv, pip or
poetry; public or private): two rules that each name one and no choice in common ask different things.
:data:`OBJECTS` are the things rules are about (functions, classes, commits, pull requests, comments...): a rule
about one is not about a topic of the table none of whose phrases names it.

The lexicon is data: :func:`build` compiles it once (the matcher's module does, on import) into a frozen
:class:`Lexicon`, whose phrases are indexed by their first characters so that a text costs one look-up per word.

May import: nothing of the package (this module is data and the code that compiles it). Must not import:
anything that reads files.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from types import MappingProxyType
from typing import Callable, Mapping, Sequence

__all__ = ["CLASSES", "OBJECTS", "SLOTS", "Lexicon", "build"]

CLASSES: tuple[str, ...] = (
    # --- what is done to code ---------------------------------------------------------------------------------
    "split: split splitting chop decompose modularize modularise subdivide extract | break/breaks/breaking/broke/"
    "broken ~ up/down/apart, chop/chopped/chopping ~ up, carve* ~ up, pull* ~ out into, factor* ~ out, "
    "refactor* ~ into, separate* ~ into, move* ~ into helper*",
    "delet: delete deletion remove removal erase wipe purge rm discard | get rid of, drop* ~ table*, clean* ~ up",
    "chang: change modify modification alter alteration edit tweak | make changes",
    "updat: update refresh | up to date, keep* ~ in sync, out of date",
    "renam: rename renaming",
    "overwrit: overwrite clobber",
    "add: add introduce insert",
    "creat: create generate",
    "rewrit: rewrite reimplement",
    # --- size and shape ---------------------------------------------------------------------------------------
    "long: long longer length lengthy short shorter small smaller large larger big bigger huge giant massive tiny "
    "oversized exceed exceeding | grow* ~ past, grow* ~ beyond, too many lines, fit* on ~ screen",
    "line: line lines",
    "loc: loc sloc | # lines, # lines of code, lines of code, line count, hundred* ~ lines, # loc, # sloc",
    "charcount: | # char*, # column*, # col*",
    "function: function functions func method methods routine subroutine | member function*",
    "modul: module modules | source file*, code file*, python file*, \\.py file*",
    "class: class classes",
    "complex: complex complexity complicated convoluted intricate tricky simple simpler simplify simplicity "
    "straightforward kiss | hard to follow, hard to understand, hard to read, keep it simple, non trivial, "
    "non obvious, not obvious",
    "nest: nest nested nesting flatten | arrow code, level* of indentation, reduc* ~ indentation, deep* indent*",
    "guard: guard | early return*, return* early, guard clause*, guard statement*, bail* out early",
    "focus: focused focus cohesive coherent responsibility responsibilities | single purpose, one thing",
    "unnecessari: unnecessary needless redundant superfluous excessive obvious pointless extraneous noise noisy "
    "trivial | not needed",
    "dry: dry duplicate duplicated duplication duplicating repetition repeated copypaste | don't repeat yourself, "
    "copy paste*, copy and paste*",
    "abstraction: abstraction abstractions abstract indirection",
    "bundl: bundle bundled bundling batch batched batching lump lumped | mix* ~ together, lump* ~ together",
    "loop: loop loops looping iterate iterating iteration iterations | for loop*",
    "comprehension: comprehension comprehensions | generator expression*",
    "inherit: inherit inheritance inheriting subclass subclasses subclassing",
    # --- comments and documentation ---------------------------------------------------------------------------
    "comment: comment comments commenting | inline comment*, explanatory comment*, code comment*, "
    "block comment*",
    "commentedout: commentedout | commented out, comment* ~ out, dead code in comment*",
    "explain: explain explaining explanation rationale | why not what, the why",
    "docstring: docstring docstrings docstr | doc string*, doc comment*, documentation string*",
    "documentation: documentation docs doc document documented documenting",
    "readme: readme",
    "changelog: changelog changelogs | release notes",
    "descript: descriptive meaningful expressive selfexplanatory | self explanatory, self documenting, "
    "intention revealing",
    "readabl: readable readability legible legibility understandable clarity",
    "english: english",
    "spell: spell spelling typo typos misspell misspelled misspelling misspellings codespell spellcheck",
    "maintain: maintain maintainability maintainable unmaintainable",
    # --- names and values -------------------------------------------------------------------------------------
    "name: name names naming identifier identifiers",
    "variabl: variable variables var vars",
    "constant: constant constants const | named constant*",
    "magic: magic | numeric literal*, number literal*, literal number*, literal value*, inline literal*, "
    "bare literal*, unexplained number*, hard coded #, hardcoded #, hard coded number*, hardcoded number*",
    "hardcod: hardcode hardcoded hardcoding hardwired | hard code*, hard coded, hard coding, hard wired",
    "global: global globals singleton singletons | module level state, mutable module*, module level variable*",
    "paramet: parameter parameters param params argument arguments arg args kwarg kwargs",
    "default: default defaults",
    "mutabl: mutable mutables",
    "fstr: fstr fstring fstrings | f string*",
    "format: format formats formatting formatted formatter formatters reformat reformatted reformatting",
    # --- types ------------------------------------------------------------------------------------------------
    "hint: hint hints annotation annotations annotate annotated typed untyped | type hint*, type annotation*",
    "typecheck: typecheck typechecker mypy pyright pytype pyre | type check*, type checker*",
    "union: union unions optional | optional\\[, union\\[",
    "modern: modern modernize modernise | new style, newer syntax, pep 604, pep 585, built in generic*, "
    "builtin generic*, built in type*, builtin type*",
    # --- errors -----------------------------------------------------------------------------------------------
    "except: except exception exceptions | try except, try catch",
    "bareexcept: bareexcept catchall | bare except*, broad except*, except exception, except baseexception, "
    "blanket except*, catch* all exception*, catch* all error*, catch* everything, catch all, pokemon exception*, "
    "catch* broad*, catch* generic exception*, except: pass",
    "catch: catch catches catching caught trap",
    "swallow: swallow swallowed swallowing | silently ignor*, silently fail*, fail* silently, ignor* ~ error*, "
    "ignor* ~ exception*",
    "rais: raise raising raised throw throws throwing thrown reraise",
    "traceback: traceback tracebacks stacktrace backtrace | stack trace*",
    "handl: handle handling handler handled",
    "assert: assert asserts assertion assertions asserting",
    "validat: validate validation validating sanitize sanitise sanitization sanitisation | input check*",
    # --- output and logging -----------------------------------------------------------------------------------
    "log: log logs logger loggers logging logg logged",
    "print: print prints printing println stdout | console\\.log, debug print*, debug output, print statement*, "
    "print call*",
    "breakpoint: breakpoint breakpoints pdb ipdb debugger | set trace, import pdb",
    "todo: todo todos fixme fixmes xxx",
    # --- secrets and security ---------------------------------------------------------------------------------
    "secret: secret secrets password passwords passwd token tokens credential credentials apikey apikeys dotenv | "
    "api key*, access key*, secret key*, private key*, ssh key*, auth token*, \\.env, sensitive data, "
    "sensitive information, sensitive value*",
    "envvar: envvar envvars getenv | environment variable*, env var*, os\\.environ*, os\\.getenv",
    "security: security secure insecure unsafe vulnerability vulnerabilities vulnerable exploit exploitable "
    "injection",
    "shell: shell | shell true, os\\.system, os\\.popen",
    "eval: eval exec",
    "input: input inputs | user provided data, untrusted data",
    "databas: database databases db sql",
    "licens: license licence licensed licensing gpl agpl lgpl",
    # --- tests and checks -------------------------------------------------------------------------------------
    "test: test tests testing tested spec specs | unit test*, test case*, test suite*, test file*",
    "coverag: coverage covered uncovered untested",
    "mock: mock mocks mocking mocked stub stubs fake fakes monkeypatch",
    "fixture: fixture fixtures",
    "parametriz: parametrize parametrized parameterize parameterized parametrise parametrised",
    "lint: lint linter linters linting flake8 pylint | static analysis",
    "suppress: suppress suppression noqa silence | type: ignore, type ignore, pylint: disable, pylint disable, "
    "eslint disable, ts ignore, disable* ~ check*, disable* ~ rule*",
    "pass: pass passes passing green | all green, turn* green",
    "complet: complete completed completion done finish finished finishing finalize | mark* ~ as complete, "
    "mark* ~ complete, consider* ~ complete, call* ~ done",
    "verify: verify verification verified",
    "ci: ci pipeline pipelines | continuous integration, github actions, ci cd",
    "precommit: precommit | pre commit",
    # --- version control --------------------------------------------------------------------------------------
    "commit: commit commits committing committ | git commit",
    "push: push pushes pushing pushed | git push",
    "forc: force forced | force with lease",
    "merg: merge merging merged",
    "rebas: rebase rebasing rebased",
    "amend: amend amending amended",
    "squash: squash squashing squashed",
    "branch: branch branches",
    "main: main master trunk | default branch, main branch",
    "pr: pr prs | pull request*, merge request*",
    "stag: stage staging staged | git add",
    "messag: message messages msg",
    "attribution: attribution coauthor | co author*, co authored by, generated with, generated by",
    "issue: issue issues ticket tickets",
    "histor: history",
    "repository: repository repositories repo repos codebase | committed code, committed file*, code base, "
    "checked in code",
    "releas: release releases releasing publish published publishing",
    "deploy: deploy deploying deployment deployments",
    # --- dependencies and environment -------------------------------------------------------------------------
    "dependency: dependency dependencies deps dep package packages library libraries lib libs thirdparty | "
    "third party",
    "stdlib: stdlib | standard library, built in module*, builtin module*",
    "pin: pin pinned pinning lockfile | exact version*, specific version*, lock file*",
    "version: version versions versioning",
    "instal: install installing installed installation",
    "venv: venv virtualenv | virtual env*, \\.venv",
    "config: config configuration configure configured settings setting",
    "inject: inject injected | dependency injection, inject* dependenc*",
    "circular: circular | circular import*, circular dependenc*, import cycle*",
    "production: production prod",
    # --- files, paths, resources ------------------------------------------------------------------------------
    "ospath: ospath | os\\.path",
    "pathlib: pathlib | path object*, pathlib\\.path",
    "contextmanager: contextmanager | context manager*, context operator*, with statement*, with block*, "
    "with open, with ~ open\\(",
    "clos: close closed closing | left open, leav* ~ open",
    "encod: encoding encodings utf8 charset | utf 8",
    "directory: directory directories folder folders dir dirs",
    "temp: tempfile temporary tmp tmpdir | tmp path",
    "url: url urls link links",
    # --- time, concurrency, performance -----------------------------------------------------------------------
    "timezon: timezone timezones tz utc | time zone*, timezone aware",
    "async: async asyncio await coroutine coroutines",
    "thread: thread threads threading concurrency concurrent | thread safe",
    "performanc: performance fast faster slow slower speed efficient efficiency optimize optimise perf latency",
    "cach: cache caching cached memoize memoise",
    # --- scope of the work and conduct ------------------------------------------------------------------------
    "featur: feature features functionality functionalities capability capabilities",
    "bug: bug bugs bugfix bugfixes defect defects | bug fix*",
    "unrequest: unrequested overengineer overengineering overengineered | beyond what ~ was asked, "
    "beyond what ~ was requested, beyond the scope, beyond ~ task, not asked for, not requested, over engineer*, "
    "scope creep, gold plat*, extra feature*, extra functionalit*, nice to have*, nobody asked for, "
    "no one asked for",
    "invent: invent invented inventing fabricate fabricated hallucinate hallucinated guess guessing | make up, "
    "made up",
    "wait: wait waiting stop pause | hold off",
    "read: read reading",
    "convention: convention conventions consistent consistency conform pattern patterns | existing style, "
    "surrounding code, rest of the code, rest of the codebase",
    "markdown: markdown md",
    # --- conditions: when, whether, for whom a rule applies (they weigh little) ------------------------------
    "?request: ask asks asked asking request requests requested requesting permission approval approve approved "
    "consent confirmation confirm confirmed told instruct instructed instruction instructions unasked unprompted "
    "proactively automatically | tell* you to, told to, say* to, says so, say so, go ahead, sign off, "
    "check* with the user, without asking, without being asked, on your own, by yourself, auto commit*, "
    "auto push*, autocommit*, autopush*",
    "?explicit: explicit explicitly",
    "?unless: unless | except when, except if, except for, except to, except where, except in, except as",
    "?user: user users owner operator human maintainer maintainers",
    "?alway: always avoid ensure sure instead prefer preferred favor favour",
)

#: the things a rule is about (not what it says of them): "keep pull requests small" is about pull requests, and no
#: topic whose phrases never name one is what it is about, however alike "keep functions small" reads (not "file"
#: nor "line": "this file", "on this line" say where as often as what)
OBJECTS = """
function class commit pr branch test comment docstring variable import message dependency issue directory
"""

#: choices among alternatives: two rules that each name some of one slot's, and none in common, differ
SLOTS: tuple[str, ...] = (
    "google numpy numpydoc sphinx restructuredtext rst epytext",
    "uv pip poetry pipenv conda pdm hatch rye",
    "pytest unittest nose",
    "public private",
    "black yapf autopep8 mdformat prettier",
    "tab tabs spaces",
)

_FILLER = r"(?:(?:it|them|this|that|these|those|the|a|an|your|its|their|things?|code|up|all)\s+)?"
_SEPARATOR = r"[\s\-_./=:`'\"]+"


def _token(token: str) -> str:
    """The pattern of one word of a phrase (see the module docstring)."""
    if token == "#":
        return r"\d+"
    alternatives = []
    for word in token.split("/"):
        open_end = word.endswith("*")
        pattern = word.rstrip("*") if "\\" in word else re.escape(word.rstrip("*"))
        alternatives.append(pattern + (r"[a-z0-9]*" if open_end else ""))
    return "(?:" + "|".join(alternatives) + ")"


def _phrase_pattern(phrase: str) -> str:
    """The pattern of a phrase: its words in turn, separated as the module docstring says, a filler word allowed
    where it has ``~`` (``break ~ up`` matches "break up" and "break it up")."""
    pattern, filler = "", False
    for token in phrase.split():
        if token == "~":
            filler = True
            continue
        if pattern:
            pattern += _SEPARATOR + (_FILLER if filler else "")
        pattern += _token(token)
        filler = False
    return pattern + r"(?![a-z0-9])"


def _starts(phrase: str) -> set[str]:
    """The first two characters a phrase can start with (its index keys; ``#`` for a number)."""
    first = phrase.split()[0]
    return {"#" if word == "#" else word.replace("\\", "")[:2] for word in first.split("/")}


#: where a word starts: where a phrase may
_START = re.compile(r"(?<![a-z0-9])[a-z0-9.]")


def _one(read: Callable[[str], tuple[str, ...]], word: str) -> str:
    """``word`` as the matcher reads it: one word, or ``""`` for a stop word (``done``); a word the matcher would
    cut in two (``tmp_path``) is an error: write it as a phrase."""
    found = read(word)
    if len(found) > 1:
        raise ValueError(f"concept lexicon: {word!r} reads as {len(found)} words; write it as a phrase")
    return found[0] if found else ""


@dataclass(frozen=True)
class Lexicon:
    """A compiled lexicon: phrases to rewrite, words to fold into concepts, conditions, slots."""

    #: the phrases by the first two characters they can start with: (pattern, the head word it is rewritten to)
    phrases: Mapping[str, tuple[tuple["re.Pattern[str]", str], ...]]
    #: a word as the matcher reads it → its concept
    concepts: Mapping[str, str]
    #: the concepts that are conditions (``?`` classes)
    conditions: frozenset[str]
    #: the slots: each the concepts it is a choice among
    slots: tuple[frozenset[str], ...]
    #: the concepts that are things a rule is about (:data:`OBJECTS`)
    objects: frozenset[str] = frozenset()

    def rewrite(self, lowered: str) -> str:
        """``lowered`` with every phrase replaced by its class's head word, the longest phrase where two start at
        one word."""
        pieces, done, at = [], 0, 0
        while (start := _START.search(lowered, at)) is not None:
            begin, best = start.start(), (0, "")
            key = "#" if lowered[begin].isdigit() else lowered[begin:begin + 2]
            for pattern, head in self.phrases.get(key, ()):
                found = pattern.match(lowered, begin)
                if found is not None and found.end() > best[0]:
                    best = (found.end(), head)
            if best[0]:
                pieces += [lowered[done:begin], f" {best[1]} "]
                done = at = best[0]
            else:
                at = begin + 1
        return "".join(pieces) + lowered[done:]

    def concept(self, word: str) -> str:
        """The concept of a word as the matcher reads it (the word itself when no class has it)."""
        return self.concepts.get(word, word)


def _class(line: str, read: Callable[[str], tuple[str, ...]]) -> tuple[str, str, list[str], list[str]]:
    """A class line (see the module docstring) as its head word, its concept, its words and its phrases."""
    head, _, rest = line.partition(":")
    head = head.lstrip("?").strip()
    words, _, phrases = rest.partition("|")
    concept = _one(read, head)
    if not concept:
        raise ValueError(f"concept lexicon: the head {head!r} is no word the matcher reads")
    return head, concept, [head, *words.split()], [p.strip() for p in phrases.split(",") if p.strip()]


_Read = Callable[[str], tuple[str, ...]]


def _add_words(concepts: dict[str, str], concept: str, words: list[str], read: _Read) -> None:
    """Each of ``words``, as the matcher reads it, folded into ``concept``; a word already in another class is an
    error: one meaning each."""
    for word in words:
        read_word = _one(read, word)
        if read_word and concepts.setdefault(read_word, concept) != concept:
            raise ValueError(f"concept lexicon: {word!r} is in {concepts[read_word]!r} and {concept!r}")


def _add_phrases(index: dict[str, list[tuple["re.Pattern[str]", str]]], head: str, phrases: list[str]) -> None:
    """Each of ``phrases``, compiled, under the characters it can start with, rewritten to ``head``."""
    for phrase in phrases:
        compiled = re.compile(_phrase_pattern(phrase))
        for key in _starts(phrase):
            index.setdefault(key, []).append((compiled, head))


def build(classes: Sequence[str], slots: Sequence[str], read: Callable[[str], tuple[str, ...]],
          objects: str = "") -> Lexicon:
    """A :class:`Lexicon` from ``classes``, ``slots`` and ``objects`` (see the module docstring); ``read`` is how
    the matcher reads a word (keywords, stemmed and folded). A word in two classes is an error: one meaning each."""
    concepts: dict[str, str] = {}
    phrases: dict[str, list[tuple["re.Pattern[str]", str]]] = {}
    conditions = set()
    for line in classes:
        head, concept, words, class_phrases = _class(line, read)
        if line.startswith("?"):
            conditions.add(concept)
        _add_words(concepts, concept, words, read)
        _add_phrases(phrases, head, class_phrases)

    def concepts_of(words: str) -> frozenset[str]:
        return frozenset(concepts.get(w, w) for word in words.split() for w in read(word))

    index = MappingProxyType({key: tuple(found) for key, found in phrases.items()})
    return Lexicon(index, MappingProxyType(concepts), frozenset(conditions), tuple(map(concepts_of, slots)),
                   concepts_of(objects))
