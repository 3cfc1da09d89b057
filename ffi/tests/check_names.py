"""The C column of SPEC.md section 18's table of public names is the C header's: each name is
declared in ffi/include/seeded_backoff.h as a function, a type, a macro or a struct field.
Exits 1 on a name the header does not declare.
usage: python3 ffi/tests/check_names.py"""
import re
import sys

from spec_table import HEADER as header, column

names = [name for names in column("18", "C").values() for name in names]


def declared(name):
    forms = (rf"^[\w *]*\b{name}\(",  # a function (its return type a pointer too)
             rf"^}} {name};", rf"^typedef [^;]*\b{name};",  # a type
             rf"^#define {name}\b",  # a macro
             rf"^  \w+ {name};")  # a struct field
    return any(re.search(form, header, re.M) for form in forms)


problems = [name for name in names if not declared(name)]
for name in problems:
    print(f"FAIL SPEC.md section 18 names {name}, which the header does not declare")
print(f"C names against SPEC.md section 18: {len(names)} names, {len(problems)} problems")
sys.exit(1 if problems or not names else 0)
