"""What the Python tests share: where the repository, the datasets and the
CLI are, and the skip-or-fail rule (a missing prerequisite skips, and fails
under TRAWL_REQUIRE_ALL=1, as in the Rust tests)."""

import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "datasets"
BIN = pathlib.Path(os.environ.get("TRAWL_BIN", ROOT / "target" / "release" / "trawl"))


def need(ok, why):
    """Skips (fails under TRAWL_REQUIRE_ALL=1) unless `ok`."""
    if not ok:
        if os.environ.get("TRAWL_REQUIRE_ALL") == "1":
            pytest.fail(f"TRAWL_REQUIRE_ALL=1 and a prerequisite is missing: {why}")
        pytest.skip(why)
