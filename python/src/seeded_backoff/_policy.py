"""Policy: a preset with keyword overrides, resolved and validated by the core
(`sb_policy_from_options`, the same rules as the npm package and the CLI)."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Dict, Optional, Tuple, TypedDict, Union

from ._check import integer, one_of, show
from ._ffi import DEADLINES, JITTERS, PRESETS, STATUS, U32_MAX, ffi, lib, message, text
from ._errors import PolicyError

__all__ = ["Policy", "PolicyOptions"]

# Each option, its `SB_OPTION_*` bit and the `sb_policy` field it sets (the multiplier sets two).
_BITS = {
    "initial_ms": lib.SB_OPTION_INITIAL_MS,
    "multiplier": lib.SB_OPTION_MULTIPLIER,
    "max_backoff_ms": lib.SB_OPTION_MAX_BACKOFF_MS,
    "max_retries": lib.SB_OPTION_MAX_RETRIES,
    "jitter": lib.SB_OPTION_JITTER,
    "jitter_ms": lib.SB_OPTION_JITTER_MS,
    "spread_per_mille": lib.SB_OPTION_SPREAD_PER_MILLE,
    "max_hint_ms": lib.SB_OPTION_MAX_HINT_MS,
    "max_elapsed_ms": lib.SB_OPTION_MAX_ELAPSED_MS,
    "deadline": lib.SB_OPTION_DEADLINE,
    "paced": lib.SB_OPTION_PACED,
}


def _option_of(field: str) -> str:
    """The keyword a core field name belongs to ('multiplier_den' is part of 'multiplier')."""
    return "multiplier" if field.startswith("multiplier") else field


def _rules() -> Dict[str, str]:
    """Each option's range rule: the core's message for it where the core has one."""
    rules = {}
    for name, status in sorted(STATUS.items(), key=lambda kv: kv[1]):
        field = text(lib.sb_policy_error_field(status)) if name.startswith("SB_ERR_POLICY_") else None
        if field and _option_of(field) == field and field not in rules:
            rules[field] = message(status)
    return rules


_RULES = _rules()
Multiplier = Union[int, float, Fraction, Tuple[int, int], None]
_MULTIPLIER_RULE = "multiplier must be an int, a float with at most 3 decimals, a Fraction or a (num, den) tuple"


def _multiplier(value: Any) -> Tuple[int, int]:
    """(num, den) for the core, which checks the range and reduces the fraction."""
    if isinstance(value, bool):
        raise TypeError(f"{_MULTIPLIER_RULE}, got {show(value)}")
    if isinstance(value, tuple) and len(value) == 2:
        return (integer("multiplier numerator", value[0]), integer("multiplier denominator", value[1]))
    if isinstance(value, int):
        return (integer("multiplier", value), 1)
    if isinstance(value, float):
        # Checked before scaling: an infinite, NaN or huge float has no milli to round to.
        if not (math.isfinite(value) and 0 <= value <= U32_MAX / 1000):
            raise ValueError(f"{_MULTIPLIER_RULE}, got {show(value)}")
        milli = round(value * 1000)
        if milli / 1000 != value:
            raise ValueError(f"{_MULTIPLIER_RULE}, got {show(value)}")
        return (milli, 1000)
    if isinstance(value, Fraction):
        if value < 0 or value.numerator > U32_MAX or value.denominator > U32_MAX:
            raise ValueError(f"{_MULTIPLIER_RULE}, got {show(value)}")
        return (value.numerator, value.denominator)
    raise TypeError(f"{_MULTIPLIER_RULE}, got {show(value)} ({type(value).__name__})")


def _given(**options: Any) -> "dict[str, Any]":
    """The options given (not None), in the order of `_BITS`."""
    return {k: v for k, v in options.items() if v is not None}


def _encode(given: "dict[str, Any]") -> "tuple[Any, int]":
    """The `sb_policy` values and `SB_OPTION_*` bits of the options given, each checked for type."""
    values = ffi.new("sb_policy *")
    bits = 0
    for name, v in given.items():
        bits |= _BITS[name]
        if name == "multiplier":
            values.multiplier_num, values.multiplier_den = _multiplier(v)
        elif name == "jitter":
            values.jitter = one_of("jitter", v, JITTERS)
        elif name == "deadline":
            values.deadline = one_of("deadline", v, DEADLINES)
        elif name == "paced":
            if not isinstance(v, bool):
                raise TypeError(f"paced must be a bool, got {show(v)}")
            values.paced = int(v)
        else:
            setattr(values, name, integer(name, v, rule=_RULES.get(name)))
    return values, bits


def _check(status: int, given: "dict[str, Any]", base: str = "the preset's") -> None:
    """Raises the PolicyError of a refused policy, naming the option at fault and its value (or
    `base` value, for an option not given)."""
    if status == lib.SB_OK:
        return
    field = text(lib.sb_policy_error_field(status))
    option = _option_of(field) if field else None
    if option in given:
        detail = f", got {show(given[option])}"
    elif option:
        detail = f", got {base} value (set {option} too)"
    else:
        detail = ""
    raise PolicyError(status, option, detail)


class PolicyOptions(TypedDict, total=False):
    """The keywords of `Policy` as a dict, for the functions that take them as `**options`
    (`retry(max_retries=5)`): each checked by a type checker as `Policy` checks it."""

    preset: str
    initial_ms: int
    multiplier: Union[int, float, Fraction, Tuple[int, int]]
    max_backoff_ms: int
    max_retries: int
    jitter: str
    jitter_ms: int
    spread_per_mille: int
    max_hint_ms: int
    max_elapsed_ms: int
    deadline: str
    paced: bool


class _Field:
    """A read-only integer field of the resolved `sb_policy`, under the same name."""

    def __init__(self, doc: str) -> None:
        self.__doc__ = doc

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, policy: Any, owner: Any = None) -> int:
        if policy is None:  # looked up on the class: the descriptor itself (for help())
            return self  # type: ignore[return-value]
        return int(getattr(policy._c, self.name))


class Policy:
    """A validated retry policy, shared by every request. Immutable; equal policies compare equal.

    >>> p = Policy("google", max_retries=5)
    >>> (p.initial_ms, p.max_backoff_ms, p.max_retries, p.jitter, p.jitter_ms)
    (1000, 32000, 5, 'google', 1000)
    >>> Policy("aws_standard", jitter="google").jitter_ms    # the reference width
    1000
    """

    PRESETS = PRESETS
    """The preset names: 'google', 'google_64s', 'aws_standard', 'grpc', 'mobile'."""
    JITTERS = JITTERS
    """The jitter strategies: 'none', 'google', 'full', 'equal', 'decorrelated', 'proportional'."""
    DEADLINES = DEADLINES
    """What a delay crossing max_elapsed_ms does: 'give_up' or 'clamp'."""

    __slots__ = ("_c",)

    def __init__(self, preset: str = "google", *, initial_ms: Optional[int] = None,
                 multiplier: Multiplier = None,
                 max_backoff_ms: Optional[int] = None, max_retries: Optional[int] = None,
                 jitter: Optional[str] = None, jitter_ms: Optional[int] = None,
                 spread_per_mille: Optional[int] = None, max_hint_ms: Optional[int] = None,
                 max_elapsed_ms: Optional[int] = None, deadline: Optional[str] = None,
                 paced: Optional[bool] = None) -> None:
        given = _given(initial_ms=initial_ms, multiplier=multiplier, max_backoff_ms=max_backoff_ms,
                       max_retries=max_retries, jitter=jitter, jitter_ms=jitter_ms,
                       spread_per_mille=spread_per_mille, max_hint_ms=max_hint_ms,
                       max_elapsed_ms=max_elapsed_ms, deadline=deadline, paced=paced)
        preset_code = one_of("preset", preset, PRESETS)
        values, bits = _encode(given)
        out = ffi.new("sb_policy *")
        _check(lib.sb_policy_from_options(out, preset_code, values, bits), given)
        self._c = out[0]

    def replace(self, *, initial_ms: Optional[int] = None, multiplier: Multiplier = None,
                max_backoff_ms: Optional[int] = None, max_retries: Optional[int] = None,
                jitter: Optional[str] = None, jitter_ms: Optional[int] = None,
                spread_per_mille: Optional[int] = None, max_hint_ms: Optional[int] = None,
                max_elapsed_ms: Optional[int] = None, deadline: Optional[str] = None,
                paced: Optional[bool] = None) -> "Policy":
        """This policy with the options given changed (the keywords of `Policy`, preset
        excepted), by the same rules as over a preset: the strategy's parameter is kept while the
        strategy is, the hint limit stays what it was (it never follows the cap), an option the
        strategy has no use for is refused (the core's `sb_policy_with_options`).

        >>> narrow = Policy(jitter_ms=250)
        >>> timed = narrow.replace(max_elapsed_ms=60_000)
        >>> (timed.jitter_ms, timed.max_elapsed_ms, narrow.max_elapsed_ms)
        (250, 60000, 0)
        """
        given = _given(initial_ms=initial_ms, multiplier=multiplier, max_backoff_ms=max_backoff_ms,
                       max_retries=max_retries, jitter=jitter, jitter_ms=jitter_ms,
                       spread_per_mille=spread_per_mille, max_hint_ms=max_hint_ms,
                       max_elapsed_ms=max_elapsed_ms, deadline=deadline, paced=paced)
        values, bits = _encode(given)
        out = ffi.new("sb_policy *")
        _check(lib.sb_policy_with_options(out, ffi.new("sb_policy *", self._c), values, bits), given, "this policy's")
        return Policy._from_c(out[0])

    @classmethod
    def _from_c(cls, c_policy: Any) -> "Policy":
        p: Policy = object.__new__(cls)
        p._c = ffi.new("sb_policy *", c_policy)[0]
        return p

    # Read-only views of the resolved policy.
    initial_ms = _Field("The first delay's base, ms.")
    max_backoff_ms = _Field("The cap on every delay, ms.")
    max_retries = _Field("Retries before giving up.")
    max_hint_ms = _Field("The largest Retry-After honoured, ms.")
    max_elapsed_ms = _Field("Time budget since the first attempt, ms (0: none).")
    jitter_ms = _Field("Google jitter's width, ms (0 for the other strategies).")
    spread_per_mille = _Field("Proportional jitter's half-width, per mille (0 for the others).")

    @property
    def jitter(self) -> str:
        """The jitter strategy's name (one of Policy.JITTERS)."""
        return JITTERS[int(self._c.jitter)]

    @property
    def deadline(self) -> str:
        """What a delay crossing max_elapsed_ms does: 'give_up' or 'clamp'."""
        return DEADLINES[int(self._c.deadline)]

    @property
    def paced(self) -> bool:
        """Whether a Retry-After is the wait itself (a pacing server, SPEC.md §16)."""
        return bool(self._c.paced)

    @property
    def multiplier(self) -> Fraction:
        """The growth factor per retry, as the exact fraction the core uses."""
        return Fraction(self._c.multiplier_num, self._c.multiplier_den)

    def _key(self) -> Tuple[int, ...]:
        c = self._c
        return (c.initial_ms, c.multiplier_num, c.multiplier_den, c.max_backoff_ms, c.max_retries,
                c.jitter, c.jitter_ms, c.spread_per_mille, c.max_hint_ms, c.max_elapsed_ms, c.deadline,
                c.paced)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Policy) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        extra = {"google": f", jitter_ms={self.jitter_ms}",
                 "proportional": f", spread_per_mille={self.spread_per_mille}"}.get(self.jitter, "")
        elapsed = f", max_elapsed_ms={self.max_elapsed_ms}, deadline={self.deadline!r}" if self.max_elapsed_ms else ""
        return (f"Policy(initial_ms={self.initial_ms}, multiplier={str(self.multiplier)!r}, "
                f"max_backoff_ms={self.max_backoff_ms}, max_retries={self.max_retries}, "
                f"jitter={self.jitter!r}{extra}, max_hint_ms={self.max_hint_ms}{elapsed}"
                f"{', paced=True' if self.paced else ''})")
