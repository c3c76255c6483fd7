"""The user docs: a short README with a section per user task, and no link that leads nowhere."""

import re
from pathlib import Path

ROOT = Path(__file__).parents[2]
# the user tasks the README has a section for (its table of contents links each)
TASKS = [
    "Install", "Watch a game", "Recount after a deal", "Read a photo", "Replay a record",
    "Run a tournament", "Run an event of several tables", "Teach it your set",
    "Train the detector, render data",
]
LINK = re.compile(r"\]\(([^)\s]+)\)|src=\"([^\"]+)\"")


def _docs() -> list[Path]:
    files = [ROOT / "README.md", ROOT / "README.ru.md", ROOT / "RULES.md"]
    files += sorted((ROOT / "docs").rglob("*.md")) + sorted((ROOT / "models").glob("*.md"))
    return files


def _anchor(heading: str) -> str:
    slug = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return slug.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    text = path.read_text(encoding="utf-8")
    return {_anchor(h) for h in re.findall(r"^#+ (.+)$", text, flags=re.M)}


def test_the_readme_is_short_and_has_a_section_per_user_task():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 300
    sections = re.findall(r"^## (.+)$", text, flags=re.M)
    assert [s for s in sections if s in TASKS] == TASKS
    for task in TASKS:
        assert f"(#{_anchor(task)})" in text, f"the README's table does not link {task!r}"


def test_the_readme_tells_no_lab_history():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for word in ("UTC", "session", "2-core", "this machine", "2026-"):
        assert word not in text, word


def test_every_relative_link_in_the_docs_leads_to_a_file_and_heading():
    broken = []
    for path in _docs():
        for target, src in LINK.findall(path.read_text(encoding="utf-8")):
            link = target or src
            if re.match(r"[a-z]+:", link):  # http:, https:, mailto:
                continue
            file, _, anchor = link.partition("#")
            dest = (path.parent / file).resolve() if file else path
            if not dest.exists():
                broken.append(f"{path.relative_to(ROOT)}: {link}")
            elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
                broken.append(f"{path.relative_to(ROOT)}: {link} (no such heading)")
    assert broken == []


# a file of the repository named in the user docs (generated data and runs are made by the reader)
REPO_PATH = re.compile(
    r"(?<![\w./-])((?:engine|vision|webui|dominocam|lab|benchmarks|models|tests|docs)/[\w./-]*\w"
    r"\.(?:py|sh|onnx|md|json|jpg|png))\b"
)
MODULE = re.compile(r"python -m ((?:engine|vision|webui|dominocam|lab|benchmarks|tests)(?:\.\w+)+)")


def _user_docs() -> list[Path]:
    return [ROOT / "README.md", ROOT / "README.ru.md", ROOT / "models" / "MODEL_CARD.md",
            *sorted((ROOT / "docs" / "guides").glob("*.md"))]


def test_every_file_and_module_the_user_docs_name_exists():
    missing = []
    for path in _user_docs():
        text = path.read_text(encoding="utf-8")
        for name in REPO_PATH.findall(text):
            if not (ROOT / name).exists():
                missing.append(f"{path.relative_to(ROOT)}: {name}")
        for module in MODULE.findall(text):
            file = ROOT / module.replace(".", "/")
            if not (file.with_suffix(".py").exists() or (file / "__main__.py").exists()):
                missing.append(f"{path.relative_to(ROOT)}: python -m {module}")
    assert missing == []
