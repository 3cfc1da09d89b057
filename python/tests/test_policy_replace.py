"""Policy.replace: a policy with some options changed, by the core's rules over that policy
(SPEC.md section 2.1, `sb_policy_with_options`), not rebuilt field by field. Expected policies are
written from the rules, each as the same policy built from a preset."""

import pytest

from seeded_backoff import Policy, PolicyError


def test_the_other_fields_and_the_strategys_parameter_are_kept():
    assert Policy("grpc", spread_per_mille=50).replace(max_elapsed_ms=5000) == Policy(
        "grpc", spread_per_mille=50, max_elapsed_ms=5000)
    p = Policy(jitter_ms=250, max_retries=3).replace(deadline="clamp", max_elapsed_ms=9000)
    assert (p.jitter_ms, p.max_retries, p.deadline, p.max_elapsed_ms) == (250, 3, "clamp", 9000)
    # The hint limit never follows the cap (SPEC.md section 2: one hint limit).
    assert Policy(jitter_ms=250).replace(max_backoff_ms=60_000) == Policy(jitter_ms=250, max_backoff_ms=60_000)
    assert Policy(jitter_ms=250, max_hint_ms=4_000).replace(max_backoff_ms=60_000).max_hint_ms == 4_000
    assert Policy().replace(max_backoff_ms=60_000, max_hint_ms=5).max_hint_ms == 5
    # A newly chosen strategy's parameter is the reference value.
    assert Policy("aws_standard").replace(jitter="google").jitter_ms == 1000
    assert Policy(jitter_ms=250).replace(jitter="proportional").spread_per_mille == 200
    assert Policy().replace() == Policy()


def test_a_refused_replacement_names_the_option_and_changes_nothing():
    p = Policy(jitter_ms=250)
    with pytest.raises(PolicyError, match="spread_per_mille applies only to jitter 'proportional', got 3"):
        p.replace(spread_per_mille=3)
    with pytest.raises(PolicyError, match=r"max_backoff_ms must be in initial_ms..=2147483647, got this policy's value"):
        p.replace(initial_ms=99_999)
    with pytest.raises(TypeError, match="initial_ms"):
        p.replace(initial_ms=True)
    with pytest.raises(TypeError):
        p.replace(preset="grpc")  # the base is the policy itself
    assert p == Policy(jitter_ms=250)
