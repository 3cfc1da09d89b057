# The cffi declarations maturin generates (see __init__.pyi): `ffi` makes and reads the C values.
from typing import Any

ffi: Any
