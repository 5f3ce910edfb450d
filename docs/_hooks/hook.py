"""The MkDocs hooks of the ladder-plugins site (``hooks:`` in ``mkdocs.yml``): the reference, built from the code.

- ``on_config``: the screenshot of the HTML report starts (in a thread, once a process); every rule page joins the nav
  under Reference > Rules, so the nav lists the catalogue's codes without a hand-kept list;
- ``on_files``: the generated pages (rules, hooks, Python API) and the screenshot are
  added as files of the site;
- ``on_page_markdown``: a hand-written page's ``<!-- ladder-docs: NAME -->`` marker becomes the generated part
  it names (every command's help, the configuration keys, the event fields, the golden outputs, ...); an
  unknown name fails the build.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from ladder_docs import api, cli, configuration, layout, log, rules, schemas  # this directory is on sys.path
from ladder_docs.screenshot import shared
from mkdocs.structure.files import File, Files

SHOT = "assets/html-report.png"
_MARKER = re.compile(r"<!-- ladder-docs: ([\w-]+) -->")
_state: dict[str, Any] = {}


def on_config(config: Any) -> Any:
    _state["shot"] = shared()
    codes = [rule.code for rule in rules.catalogue()]
    if not _extend(config.nav or [], "reference/rules/index.md", [{c: f"reference/rules/{c}.md"} for c in codes]):
        log.warning("mkdocs.yml's nav has no list holding reference/rules/index.md for the rule pages")
    return config


def _extend(nav: Any, anchor: str, entries: list[dict[str, str]]) -> bool:
    """Append ``entries`` to the nav list that holds ``anchor`` (once: a rebuild under ``serve`` finds them)."""
    if isinstance(nav, list):
        if anchor in nav:
            nav[:] = [item for item in nav if item not in entries] + entries
            return True
        return any(_extend(item, anchor, entries) for item in nav)
    if isinstance(nav, dict):
        return any(_extend(value, anchor, entries) for value in nav.values())
    return False


def _pages() -> dict[str, str]:
    keys = configuration.key_names()
    pages = rules.pages(keys)
    pages["reference/hooks.md"] = api.hooks_page()
    pages["reference/api.md"] = api.api_page()
    return pages


def on_files(files: Files, config: Any) -> Files:
    for uri, text in _pages().items():
        files.append(File.generated(config, uri, content=text))
    shot = _state["shot"]
    png, reason = shot.result()
    _state["shot_reason"] = reason
    if shot.failed:  # a broken report or browser fails a --strict build; no Chromium at all is only said
        log.warning("no screenshot of the HTML report: %s", reason)
    elif reason:
        log.info("no screenshot of the HTML report: %s", reason)
    if png:
        files.append(File.generated(config, SHOT, content=png))
    return files


def _screenshot(page: Any) -> str:
    reason = _state.get("shot_reason", "")
    if reason:
        return f'!!! note "No screenshot in this build"\n    {reason}.\n'
    depth = page.file.src_uri.count("/")
    return f"![The HTML report of the demo project's history]({'../' * depth}{SHOT})\n"


MARKERS: dict[str, Callable[[Any], str]] = {
    "cli": lambda page: cli.page(),
    "configuration": lambda page: configuration.page(),
    "event-fields": lambda page: schemas.event_table(),
    "sighting-fields": lambda page: schemas.sighting_fields(),
    "state-version": lambda page: schemas.state_version(),
    "golden-examples": lambda page: schemas.golden_examples(),
    "parts": lambda page: layout.parts_table(),
    "report-screenshot": _screenshot,
}


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    def generated(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in MARKERS:
            log.warning("%s: unknown marker <!-- ladder-docs: %s --> (known: %s)", page.file.src_uri, name,
                        ", ".join(MARKERS))
            return match.group(0)
        return MARKERS[name](page)

    return _MARKER.sub(generated, markdown)
