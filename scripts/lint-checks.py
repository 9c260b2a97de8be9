#!/usr/bin/env python3
"""lint-checks.py: finds checks in the lit suite that match more than they say.

FileCheck and -verify-diagnostics match a pattern anywhere in a line (a message), so a
number at either end of a pattern is a prefix or suffix match: `latency_ns=300` passes
where 3008 is printed, `CHECK: 15 dispatches` where 215 is, and a field name at the start
matches a longer name that ends with it (`dispatches = 0 : i64` is satisfied by
`load_time_dispatches = 0 : i64`). This script reads every test file and reports each
such check, with the anchor it needs:

  trailing number   `... 300`        ->  `... 300{{$}}` (end of line) or `300{{[[:>:]]}}`
                                          (end of word: LLVM's regex has no \\b), or the
                                          text that follows it in the output
  leading number    `15 passed`      ->  `{{^}}15 passed`, `{{[[:<:]]}}15 passed`, or
                                          the text before it
  leading field     `dispatches = 0` ->  `{{[[:<:]]}}dispatches = 0` when another report
                                          field (from include/metrale/*.def) ends with it
  number beside .*  `{{.*}}15`, `15{{.*}}`: the wildcard can take digits
  target name       `on h100`        ->  `on h100{{$}}` or `on h100:` when a longer built-in
                                          target's name begins with it (h100-megakernel)
  COUNT-n           passes n + 1 matches: the next directive must be a NOT of the pattern

CHECK-NOT lines are not linted (a looser NOT rejects more, it cannot pass a wrong value);
`expected-*` messages are (they are substring matches too: use `expected-remark-re` with
`{{[[:>:]]}}`, or end the message with the text after the number).

  python3 scripts/lint-checks.py ROOT [FILES...]     exit 1 when any check is unanchored
"""
import os
import re
import sys

DIRECTIVE = r"(?:-SAME|-NEXT|-DAG|-LABEL|-COUNT-[0-9]+)?"
PREFIX_OPT = re.compile(r"--?check-prefix(?:es)?[= ]([A-Za-z0-9_,-]+)")
EXPECTED = re.compile(
    r"expected-(?:error|note|remark|warning)(-re)? *(?:@(?:[+-][0-9]+|above|below|unknown))? *\{\{(.*)\}\}\s*$")
# Regexes that can match a digit next to a number: wildcards and classes with digits.
DIGITY = re.compile(r"^(\.[*+?]|\.\*\?|\.|\[[^\]]*(0-9|\\d|:digit:|:alnum:)[^\]]*\][*+?]?|\\d[*+?]?)")


def field_names(root):
    names = set()
    inc = os.path.join(root, "include", "metrale")
    for f in sorted(os.listdir(inc)):
        if not f.endswith(".def"):
            continue
        with open(os.path.join(inc, f)) as fh:
            for line in fh:
                m = re.match(r"\s*MET_[A-Z_]+\(\s*([a-z][a-z0-9_]*)\s*,", line)
                if m:
                    names.add(m.group(1))
    return names


def suffix_fields(names):
    """Field names that are a proper suffix of another field (after an underscore)."""
    return {w for w in names if any(o != w and o.endswith("_" + w) for o in names)}


def split_pattern(p):
    """[(kind, text)] with kind 'lit', 're' ({{...}}) or 'var' ([[...]])."""
    out, i = [], 0
    while i < len(p):
        if p.startswith("{{", i):
            j = p.find("}}", i + 2)
            # FileCheck takes the first "}}" that closes the regex (a regex ending in '}'
            # is written with a space); good enough here.
            if j < 0:
                out.append(("lit", p[i:]))
                break
            out.append(("re", p[i + 2:j]))
            i = j + 2
        elif p.startswith("[[", i):
            j = p.find("]]", i + 2)
            if j < 0:
                out.append(("lit", p[i:]))
                break
            out.append(("var", p[i + 2:j]))
            i = j + 2
        else:
            j = min([k for k in (p.find("{{", i), p.find("[[", i)) if k >= 0] or [len(p)])
            out.append(("lit", p[i:j]))
            i = j
    return [(k, t) for k, t in out if not (k == "lit" and t == "")]


def target_prefixes(root):
    """Built-in target names that begin another one (h100, h100-megakernel): a pattern
    that ends with one matches the longer name too."""
    names = set()
    with open(os.path.join(root, "lib", "target.c")) as fh:
        names.update(re.findall(r'\.name = "([a-z0-9-]+)"', fh.read()))
    return {n for n in names if any(o != n and o.startswith(n) for o in names)}


def problems(pattern, suffixes, regex_literals=True, prefixes=()):
    """Why |pattern| matches more than it says, as a list of strings."""
    why = []
    parts = split_pattern(pattern.strip())
    if not regex_literals:
        parts = [("lit", pattern.strip())]
    if not parts:
        return why
    first_kind, first = parts[0]
    last_kind, last = parts[-1]
    if last_kind == "lit":
        t = last.rstrip()
        m = re.search(r"(^|[^A-Za-z_0-9.])([0-9](?:[0-9,]*[0-9])?(?:\.[0-9]+)?)$", t) or re.search(r"([0-9]x)([0-9]+)$", t)
        if m and t == last:
            why.append("ends with the number %s (a prefix of longer numbers)" % m.group(2))
        m = re.search(r"(^|[^A-Za-z_0-9-])([a-z][a-z0-9-]*)$", t)
        if m and t == last and m.group(2) in prefixes:
            why.append("ends with the target name '%s', the start of a longer target's name" % m.group(2))
    if first_kind == "lit":
        t = first.lstrip()
        if t == first and re.match(r"[0-9]", t):
            why.append("starts with a number (the end of longer numbers)")
        m = re.match(r"([a-z][a-z0-9_]*)", t)
        if t == first and m and m.group(1) in suffixes and (len(t) == len(m.group(1)) or not re.match(r"[a-z0-9_]", t[len(m.group(1))])):
            why.append("starts with the field name '%s', the end of a longer field's name" % m.group(1))
    for (ka, a), (kb, b) in zip(parts, parts[1:]):
        if ka == "re" and kb == "lit" and re.match(r"[0-9]", b) and DIGITY.match(a.strip()):
            why.append("a number right after the regex {{%s}}, which can take digits" % a)
        if ka == "lit" and kb == "re" and re.search(r"[0-9]$", a) and DIGITY.match(b.strip()):
            why.append("a number right before the regex {{%s}}, which can take digits" % b)
    return why


def lint_file(path, suffixes, explicit=False, targets=()):
    with open(path, encoding="utf-8", errors="replace") as fh:
        lines = fh.read().split("\n")
    if not explicit and "lint-checks: not a test" in lines[0]:
        return []  # a sample of bad checks (test/Gate/Inputs), linted only when named
    prefixes = set()
    for line in lines:
        if "FileCheck" in line:
            found = PREFIX_OPT.findall(line)
            if not found:
                prefixes.add("CHECK")
            for f in found:
                prefixes.update(x for x in f.split(",") if x)
    out = []
    if prefixes:
        alt = "|".join(sorted(map(re.escape, prefixes), key=len, reverse=True))
        directive = re.compile(r"(?:^|[^A-Za-z0-9_-])(%s)%s:(.*)$" % (alt, DIRECTIVE))
    else:
        directive = None
    for n, line in enumerate(lines, 1):
        if directive:
            m = directive.search(line)
            if m and not re.match(r"\s*(RUN|REQUIRES|UNSUPPORTED|XFAIL)\s*:", line.lstrip("/#; ")):
                for w in problems(m.group(2), suffixes, prefixes=targets):
                    out.append((path, n, line.strip(), w))
                if re.search(r"-COUNT-[0-9]+:", m.group(0)):
                    # A COUNT-n passes n + 1 matches too: the next directive of the prefix
                    # must be a NOT (of the same pattern), or the count done with grep -c.
                    not_next = False
                    for later in lines[n:]:
                        if re.search(r"(?:^|[^A-Za-z0-9_-])%s-NOT:" % re.escape(m.group(1)), later):
                            not_next = True
                            break
                        mm = directive.search(later)
                        if mm and mm.group(1) == m.group(1):
                            break
                    if not not_next:
                        out.append((path, n, line.strip(), "a COUNT passes more matches too: a NOT of the same pattern must follow it"))
                continue
        m = EXPECTED.search(line)
        if m:
            for w in problems(m.group(2), suffixes, regex_literals=bool(m.group(1)), prefixes=targets):
                out.append((path, n, line.strip(), w))
    return out


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    root = argv[1]
    suffixes = suffix_fields(field_names(root))
    prefixes = target_prefixes(root)
    files = argv[2:]
    explicit = bool(files)
    if not files:
        for d, subdirs, fs in os.walk(os.path.join(root, "test")):
            subdirs.sort()
            files += [os.path.join(d, f) for f in sorted(fs) if f.endswith((".mlir", ".test"))]
    found = []
    for f in files:
        found += lint_file(f, suffixes, explicit, prefixes)
    for path, n, line, why in found:
        print("%s:%d: %s\n    %s" % (os.path.relpath(path, root), n, why, line[:160]))
    print("lint-checks: %d file(s), %d unanchored check(s)" % (len(files), len(found)))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
