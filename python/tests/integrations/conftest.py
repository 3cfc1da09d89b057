"""The integration tests (Google's client library, valkey-py against redis-server) read the
independent model (tests/model) and the shared helpers of python/tests."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.join(REPO, "tests", "model"))
sys.path.insert(0, os.path.dirname(HERE))
