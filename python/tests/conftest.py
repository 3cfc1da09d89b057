"""Shared paths: the repository's test vectors and its independent model (tests/model), which
gives the expected values by a route independent of the code under test."""

import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VECTORS = os.path.join(REPO, "tests", "vectors")
sys.path.insert(0, os.path.join(REPO, "tests", "model"))

# A typed program for the type checkers (typed/check_types.py), never imported or run.
collect_ignore = ["typed"]
