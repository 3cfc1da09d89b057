"""Fleet helpers (SPEC.md section 12), the same as the C library's."""

from __future__ import annotations

from typing import Union

from ._check import integer, show, u64
from ._ffi import ffi, lib
from ._errors import CoreError

__all__ = ["seed_from_device", "startup_delay"]


def seed_from_device(device_id: Union[bytes, bytearray, memoryview, str], boot_counter: int) -> int:
    """A reproducible seed from a device's unique id (bytes, or str as UTF-8) and a boot counter."""
    if isinstance(device_id, str):
        device_id = device_id.encode("utf-8")
    if not isinstance(device_id, (bytes, bytearray, memoryview)):
        raise TypeError(f"device_id must be bytes or str, got {show(device_id)}")
    data = bytes(device_id)
    out = ffi.new("uint64_t *")
    status = lib.sb_seed_from_device(data, len(data), integer("boot_counter", boot_counter), out)
    if status != lib.SB_OK:
        raise CoreError(status)
    return int(out[0])


def startup_delay(seed: int, window_ms: int) -> int:
    """A uniform wait in 0..=window_ms before the first connection after a fleet-wide restart."""
    out = ffi.new("uint32_t *")
    status = lib.sb_startup_delay(u64("seed", seed), integer("window_ms", window_ms), out)
    if status != lib.SB_OK:
        raise CoreError(status, f", got {window_ms}")
    return int(out[0])
