#!/usr/bin/env python3
"""Checks that a Linux wheel's platform tag names the glibc its native code needs.

The newest GLIBC_x.y symbol version that any shared object in the wheel links against (readelf,
which reads every ELF machine) is the glibc the wheel needs. The tag must be the one `auditwheel
show` (PyPA's checker, python/requirements-dev.txt) finds the wheel consistent with: the oldest
manylinux policy that has every symbol version (so never older than what the objects need), for
the objects' machine. Prints the finding.

usage: check-wheel-glibc.py WHEEL   (auditwheel on PATH)
"""
import os
import re
import subprocess
import sys
import tempfile
import zipfile

MACHINES = {"Advanced Micro Devices X86-64": "x86_64", "AArch64": "aarch64"}


def main(wheel):
    tag = os.path.basename(wheel)[: -len(".whl")].split("-")[-1]
    match = re.fullmatch(r"manylinux_(\d+)_(\d+)_(\w+)", tag.split(".")[0])
    if not match:
        sys.exit(f"{wheel}: platform tag {tag} is not manylinux_X_Y_ARCH")
    tagged = (int(match.group(1)), int(match.group(2)))
    needed, machines, objects = (0, 0), set(), []
    with tempfile.TemporaryDirectory() as tmp, zipfile.ZipFile(wheel) as z:
        for name in z.namelist():
            if not re.search(r"\.so(\.|$)", name):
                continue
            path = z.extract(name, tmp)
            objects.append(name)
            header = subprocess.run(["readelf", "-h", path], capture_output=True, text=True, check=True).stdout
            machines.add(re.search(r"Machine:\s+(.*)", header).group(1).strip())
            syms = subprocess.run(["readelf", "--dyn-syms", "-W", path], capture_output=True, text=True, check=True).stdout
            for major, minor in re.findall(r"@GLIBC_(\d+)\.(\d+)", syms):
                needed = max(needed, (int(major), int(minor)))
    if not objects:
        sys.exit(f"{wheel}: no shared object")
    arch = {MACHINES.get(m, m) for m in machines}
    if arch != {match.group(3)}:
        sys.exit(f"{wheel}: tagged {match.group(3)}, its objects are {sorted(arch)}")
    if needed > tagged:
        sys.exit(f"{wheel}: tagged glibc {tagged[0]}.{tagged[1]}, its objects need {needed[0]}.{needed[1]}")
    shown = subprocess.run(["auditwheel", "show", wheel], capture_output=True, text=True, check=True).stdout
    consistent = re.search(r'consistent\s+with\s+the\s+following\s+platform\s+tag:\s+"([^"]+)"', shown)
    if not consistent or consistent.group(1) != tag:
        sys.exit(f"{wheel}: tagged {tag}, auditwheel show says: {' '.join(shown.split())}")
    print(f"{os.path.basename(wheel)}: {', '.join(objects)} need glibc {needed[0]}.{needed[1]} "
          f"({match.group(3)}); auditwheel: consistent with {tag}, its tag")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
