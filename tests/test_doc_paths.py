"""What the README and the docs cite is in the repository: a clone has every file they name.

A citation is a backticked path that looks like a file (it ends in one of
``FILE_SUFFIXES``) or a folder (it ends in ``/``), a path with a ``/`` and such
a suffix inside a fenced code block, or a Markdown link target. It must exist
relative to the repository root or to the citing document's folder (a glob
must match something). Nothing may point at ``../shared``, the folder beside
the repository that a clone does not have.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

DOCUMENTS = sorted(
    [ROOT / "README.md", *(ROOT / "docs").glob("*.md"), *(ROOT / "results").glob("*/README.md")]
)

FILE_SUFFIXES = (
    ".md",
    ".csv",
    ".tsv",
    ".py",
    ".parquet",
    ".ipynb",
    ".json",
    ".txt",
    ".png",
    ".svg",
)

#: What the documented commands make in a run folder, not files in the repository.
MADE_BY_COMMANDS = (
    "results/runs/",
    "run.json",
    "parts/",
    "report.md",
    "report/",
    "plots/",
    "RUN/",
)

_FENCE = re.compile(r"^```.*?^```", re.S | re.M)
_INLINE = re.compile(r"`([^`\n]+)`")
_LINK = re.compile(r"\]\(([^)\s]+)\)")


def cited_paths(text: str) -> set[str]:
    """The repository paths a Markdown text cites (see the module docstring)."""
    fences = _FENCE.findall(text)
    spans = _INLINE.findall(_FENCE.sub("", text))
    in_code = [tok for block in fences for tok in block.split() if "/" in tok]
    links = [link for link in _LINK.findall(text) if "://" not in link]
    found = set()
    for path in spans + in_code + links:
        if " " in path or not (path.endswith(FILE_SUFFIXES) or path.endswith("/")):
            continue
        if path.startswith("/") or path.startswith("~"):
            continue
        found.add(path)
    return found


#: The README's layout tree names sub-folders (``cli/``) under these.
PACKAGES = ("engine", "solver", "experiments")


def missing_paths(doc: Path, root: Path = ROOT) -> list[str]:
    """The paths ``doc`` cites that neither ``root`` nor ``doc``'s folder holds
    (nor a package folder: the README's layout tree names ``cli/`` under
    ``experiments/``)."""

    def exists(base: Path, path: str) -> bool:
        if any(ch in path for ch in "*?["):
            return any(base.glob(path))
        return (base / path).exists()

    skipped = MADE_BY_COMMANDS
    return sorted(
        path
        for path in cited_paths(doc.read_text(encoding="utf-8"))
        if not path.startswith(skipped)
        and not any(exists(b, path) for b in (root, doc.parent, *(root / p for p in PACKAGES)))
    )


@pytest.mark.parametrize("doc", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_document_cites_the_folder_beside_the_repository(doc):
    assert "../shared" not in doc.read_text(encoding="utf-8")


@pytest.mark.parametrize("doc", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_cited_path_is_in_the_repository(doc):
    assert missing_paths(doc) == []


def test_the_check_finds_what_it_should(tmp_path):
    """The scanner is not vacuous: it flags a missing file and folder, and only those."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "here.md").write_text("x")
    doc = tmp_path / "docs" / "page.md"
    doc.write_text(
        "See `here.md`, `docs/here.md`, `docs/gone.md`, `nowhere/` and [a](lost.csv);\n"
        "`results/runs/demo/run.json` is made by a command; `some words.md` is prose.\n"
        "```bash\ncanfield x data/in.tsv --out results/runs/x\n```\n"
    )
    assert missing_paths(doc, root=tmp_path) == [
        "data/in.tsv",
        "docs/gone.md",
        "lost.csv",
        "nowhere/",
    ]


def test_the_main_citations_are_scanned():
    """The README's citations of the rules, the findings and the baselines are seen."""
    cited = cited_paths((ROOT / "README.md").read_text(encoding="utf-8"))
    assert {"docs/rules.md", "docs/findings.md", "docs/seeds/", "results/baselines/"} <= cited
