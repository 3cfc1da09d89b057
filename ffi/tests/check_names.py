"""The C column of SPEC.md section 18's table of public names is the C header's: each name is
declared in ffi/include/seeded_backoff.h as a function, a type, a macro or a struct field.
Exits 1 on a name the header does not declare.
usage: python3 ffi/tests/check_names.py"""
import os
import re
import sys

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
spec = open(os.path.join(root, "SPEC.md"), encoding="utf-8").read()
header = open(os.path.join(root, "ffi", "include", "seeded_backoff.h"), encoding="utf-8").read()

section = spec.split("\n## 18. ", 1)[1].split("\n## ", 1)[0]
rows = [line for line in section.splitlines() if line.startswith("|")]
at = [cell.strip() for cell in rows[0].split("|")].index("C")
names = [name for row in rows[2:] for name in re.findall(r"`([^`]+)`", row.split("|")[at])]


def declared(name):
    forms = (rf"^[\w ]*\b{name}\(",  # a function
             rf"^}} {name};", rf"^typedef [^;]*\b{name};",  # a type
             rf"^#define {name}\b",  # a macro
             rf"^  \w+ {name};")  # a struct field
    return any(re.search(form, header, re.M) for form in forms)


problems = [name for name in names if not declared(name)]
for name in problems:
    print(f"FAIL SPEC.md section 18 names {name}, which the header does not declare")
print(f"C names against SPEC.md section 18: {len(names)} names, {len(problems)} problems")
sys.exit(1 if problems or not names else 0)
