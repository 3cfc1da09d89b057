"""Prints the first ```sh block after a heading of README.md, so a test runs the install lines
exactly as the README shows them. usage: python3 readme-block.py README.md 'HEADING LINE'"""
import sys

path, heading = sys.argv[1], sys.argv[2]
lines = open(path, encoding="utf-8").read().split("\n")
if heading not in lines:
    sys.exit(f"readme-block: {path} has no heading {heading!r}")
rest = lines[lines.index(heading) + 1:]
start = rest.index("```sh") + 1
print("\n".join(rest[start:rest.index("```", start)]))
