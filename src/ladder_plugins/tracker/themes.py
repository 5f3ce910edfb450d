"""Feedback no check encodes, as meaning anchors for the matcher: when to commit or push, asking first.

The topic table (``topics.toml``) holds feedback a tool can enforce, each row with its check. Real
instruction files repeat other rules as often, about how an agent works rather than about code:
commit only when asked, never force-push, ask before deleting, run the tests before saying it is
done. They have no row (there is no check to suggest), yet "Never commit unless explicitly asked"
and "No commits without the user's confirmation" are one piece of feedback. A theme gives the
matcher a title and paraphrases for such feedback, as a topic does; it never becomes an item's
topic or a suggestion (:meth:`.similarity.Matcher.topic` answers only topics).

May import: nothing of the package. Must not import: anything (this module is data).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Theme", "THEMES"]


@dataclass(frozen=True)
class Theme:
    """Feedback no check encodes: what the matcher needs of a topic (its id, title and paraphrases)."""

    id: str
    title: str
    paraphrases: tuple[str, ...]
    #: words the theme's feedback uses, weighing more in its phrases (as a topic's keywords do)
    keywords: tuple[str, ...] = ()


THEMES: tuple[Theme, ...] = (
    Theme("commit-when-asked", "Commit only when the user asks", (
        "Never commit unless explicitly asked", "Don't run git commit on your own; wait until you are told to commit",
        "No commits without the user's confirmation", "Ask the user before committing changes",
        "Do not create commits unless requested"), ("asked", "unless", "confirmation", "approval", "told")),
    Theme("push-when-asked", "Push only when the user asks", (
        "Do not push unless asked", "Never push automatically; the user decides when to push",
        "Don't push or open a pull request without being told to", "Ask before pushing to the remote"),
        ("push", "pushing", "remote", "asked", "unless")),
    Theme("force-push", "Never force-push or rewrite pushed history", (
        "No git push --force", "Never rewrite history that others have pulled", "Don't force push a shared branch",
        "Never amend or rebase commits that are already pushed"), ("force", "rewrite", "history", "amend")),
    Theme("destructive-actions", "Ask before destructive actions: deleting files, data or someone's work", (
        "Ask before deleting files", "Never run rm -rf without confirmation",
        "Don't delete or overwrite the user's work without approval", "Confirm before dropping tables or deleting data",
        "Get explicit approval before removing or renaming files"),
        ("delete", "deleting", "remove", "destructive", "overwrite", "rm", "drop")),
    Theme("tests-before-done", "Run the tests and checks before calling the work done", (
        "Run the tests before committing", "Make sure the tests pass before you say the task is complete",
        "Run the checks before marking a task complete", "Never hand over a change without running the test suite",
        "Verify that everything is green before finishing", "Always test after making changes"),
        ("complete", "done", "finished", "green", "verify", "marking", "before")),
    Theme("new-dependencies", "Justify a new dependency before adding it", (
        "Prefer the standard library to a new package", "Don't add dependencies without asking",
        "Check whether an existing dependency already does it before adding another",
        "Is a new library really necessary? Use what the project already has"),
        ("dependency", "dependencies", "library", "package", "standard", "necessary", "existing")),
    Theme("small-commits", "Keep each commit small: one logical change", (
        "Make atomic commits, one logical change per commit", "Don't bundle unrelated changes into one commit",
        "Keep commits small and focused on a single task", "Several small commits, not one big commit"),
        ("atomic", "logical", "small", "focused", "bundle", "unrelated", "single")),
    Theme("magic-numbers", "No magic numbers: name literal values as constants", (
        "Avoid magic numbers and magic strings", "Put literal values in named constants",
        "Use a named constant instead of a bare numeric literal", "Extract magic values into variables or config"),
        ("magic", "constant", "constants", "literal", "literals", "numeric")),
    Theme("few-comments", "Comment sparingly: no comments that restate the code", (
        "Keep comments to a minimum; the code should speak for itself", "No comments that repeat what the code does",
        "Don't litter the code with obvious comments", "Avoid superfluous comments",
        "Only comment when the user asks for comments"),
        ("minimum", "sparingly", "obvious", "redundant", "superfluous", "restate", "repeat")),
    Theme("comments-explain-why", "Comments explain why, not what", (
        "Use comments to explain the reasoning behind non-obvious code", "Comment the intent, not the mechanics",
        "Explain tricky logic and workarounds in a comment",
        "Document the reason for a surprising decision in a comment"),
        ("why", "reason", "reasoning", "intent", "tricky", "workaround", "decision")),
    Theme("edit-history-comments", "No comments that narrate edits: the history belongs in version control", (
        "Don't leave comments saying what you changed, added or removed", "No '# updated' or '# removed X' comments",
        "Don't add comments that explain what was changed or why something was removed",
        "Do not annotate code with notes about previous versions",
        "Changes are described in the commit, not in comments"),
        ("changed", "removed", "updated", "previous", "history", "narrate", "edit")),
    Theme("scope", "Do what was asked, nothing more: no unrequested features or refactors", (
        "Make only the changes the task needs", "Don't add functionality beyond the request",
        "Avoid scope creep and over-engineering", "No drive-by refactors of unrelated code",
        "Keep the change minimal and focused on the request"),
        ("unrequested", "beyond", "scope", "minimal", "only", "unrelated", "drive-by")),
    Theme("commit-attribution", "No assistant attribution in commits and pull requests", (
        "Don't add a Co-Authored-By trailer for the assistant", "No 'Generated with' footer in commit messages",
        "Leave the AI tool's name out of commit messages and pull request descriptions",
        "Never credit Claude or any assistant as a co-author"),
        ("attribution", "co-authored-by", "coauthor", "generated", "trailer", "footer", "credit")),
    Theme("english", "Write code, comments and documentation in English", (
        "All code, comments and docs in English", "Use English for identifiers, comments and commit messages",
        "Write documentation in English only"), ("english", "language")),
)
