"""Runs the README's first Python example (the block after "## Python")
as a user would after `pip install`: .ci/run calls it in a fresh venv
holding only the installed package."""

import pathlib
import re

readme = pathlib.Path(__file__).resolve().parents[1] / "README.md"
section = readme.read_text().split("## Python: `pip install`", 1)[1]
block = re.search(r"```python\n(.*?)```", section, re.S).group(1)
scope: dict = {}
exec(compile(block, "README.md (Python example)", "exec"), scope)
rec = scope["rec"]
assert rec["title"] == "Tide pools", rec
assert "# Winter" in rec["markdown"], rec["markdown"]
print("README example: ok")
