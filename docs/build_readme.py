"""Assemble README.md from docs/readme/*.md (one file per area, so parallel work never collides).

Run: python docs/build_readme.py
"""

from pathlib import Path

ORDER = ["_head", "web", "live", "read", "engine", "tournament", "event", "train", "synth", "_tail"]


def main() -> None:
    here = Path(__file__).parent / "readme"
    parts = [here / f"{name}.md" for name in ORDER if (here / f"{name}.md").exists()]
    text = "\n\n".join(p.read_text(encoding="utf-8").strip() for p in parts) + "\n"
    (Path(__file__).parent.parent / "README.md").write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
