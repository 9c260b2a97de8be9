#!/usr/bin/env python3
"""run_cases.py BIN CASES: IREE's own dispatch-formation lit cases (IREE's DispatchCreation
tests, the inputs that use upstream dialects only, transcribed in raw/ and written to
cases/ by mk.py; each case names its source file and commit) run through `BIN budget`,
metrale's dispatches per function against the count IREE's CHECK lines give, with the
modes its RUN line sets as DLTI entries (iree.*). Prints "agree N of M", then one line per
disagreeing function: file, function, IREE's count, metrale's, what the case is, and the
cause found when it was read (causes.tsv). The cases are IREE's (Apache-2.0 WITH
LLVM-exception, https://github.com/iree-org/iree)."""
import json, subprocess, sys, os, csv, io
bin_, d = sys.argv[1], sys.argv[2]
rows = [l.rstrip('\n').split('\t') for l in open(os.path.join(d, 'manifest.tsv')) if l.strip()]
causes = {}
cf = os.path.join(os.path.dirname(d), 'causes.tsv')
if os.path.exists(cf):
    for l in open(cf):
        if l.strip() and not l.startswith('#'):
            k, v = l.rstrip('\n').split('\t', 1); causes[k] = v
cache = {}
def run(fn):
    if fn in cache: return cache[fn]
    p = subprocess.run([bin_, 'budget', os.path.join(d, fn), '--json', '-'], capture_output=True, text=True)
    res = {}
    try:
        js = json.loads(p.stdout)
        for f in js.get('functions', []):
            b = f.get('budget')
            res[f['name']] = b['dispatches'] if b else 'ERR:' + str(f.get('error', 'no budget'))[:60]
    except Exception:
        err = (p.stderr.strip().splitlines() or ['?'])[-1]
        res = {'*': 'ERR:' + err[:100]}
    cache[fn] = res; return res
agree = tot = und = 0; bad = []
for fn, func, exp, cat in rows:
    if exp == 'undetermined': und += 1; continue
    tot += 1
    r = run(fn); got = r.get(func, r.get('*', 'ERR:function not reported'))
    if str(got) == exp: agree += 1
    else: bad.append((fn, func, exp, got, cat + ('  [cause ' + causes[fn] + ']' if fn in causes else '')))
sys.stdout.reconfigure(line_buffering=True)
print(f'agree {agree} of {tot}' + (f'  ({und} undetermined not compared)' if und else ''))
for b in bad: print('\t'.join(map(str, b)))
