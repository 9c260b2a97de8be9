#!/usr/bin/env python3
"""Build cases/*.mlir and cases/manifest.tsv from raw/*.txt (IREE DispatchCreation lit cases,
inputs transcribed; expected dispatch counts read off their CHECK lines).

raw file format:
  //@ src: FILE @ COMMIT         (IREE test file, commit read)
  //@ run: TEXT                  (what its RUN line runs)
  //@ modes: aggressive_fusion fuse_pad horizontal_fusion   (DLTI modes set; may be empty)
  //=== NAME                     (starts a kept case)
  // expect: FUNC=N [FUNC=N...]  (or FUNC=undetermined)
  // cat: TEXT                   (category / note)
  // modes: ...                  (optional per-case override)
  ...IR, util.func allowed...
  //=== SKIP NAME: REASON        (a case not kept)
  //=== UNDET NAME: REASON       (a kept case whose checks do not determine the count)
"""
import os, re, sys, glob
here = os.path.dirname(os.path.abspath(__file__))
raw = os.path.join(here, 'raw'); out = os.path.join(here, 'cases')
os.makedirs(out, exist_ok=True)
for f in glob.glob(os.path.join(out, '*.mlir')): os.remove(f)
MODEKEY = {'aggressive_fusion': 'iree.aggressive_fusion', 'fuse_pad': 'iree.fuse_pad',
           'horizontal_fusion': 'iree.horizontal_fusion', 'split_reduction': 'iree.split_reduction'}
man = []; skipped = []
def emit(srcstem, meta, name, lines):
    hdr = {}; body = []
    for l in lines:
        m = re.match(r'// (expect|cat|modes):\s*(.*)$', l)
        if m and not body: hdr[m.group(1)] = m.group(2).strip(); continue
        body.append(l)
    modes = (hdr.get('modes', meta.get('modes', ''))).split()
    text = '\n'.join(body)
    text = re.sub(r'\butil\.func\b', 'func.func', text)
    text = re.sub(r'\butil\.return\b', 'return', text)
    text = re.sub(r'\btensor\.pack\b', 'linalg.pack', text)
    text = re.sub(r'\btensor\.unpack\b', 'linalg.unpack', text)
    aliases = [l for l in text.split('\n') if l.startswith('#')]
    rest = [l for l in text.split('\n') if not l.startswith('#')]
    fn = f'{srcstem}__{name}.mlir'
    o = [f'// IREE lit case {name} from compiler/src/iree/compiler/DispatchCreation/test/{meta["src"]}',
         f'// RUN line runs: {meta["run"]}',
         f'// expect: {hdr["expect"]}', f'// cat: {hdr.get("cat","")}',
         f'// modes: {" ".join(modes) or "(none)"}']
    o += aliases
    if modes:
        ent = ', '.join(f'"{MODEKEY[m]}" = true' for m in modes)
        o.append('module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = '
                 f'#dlti.target_device_spec<"metrale.target" = "host-cpu", {ent}>>}} {{')
        o += rest; o.append('}')
    else:
        o += rest
    open(os.path.join(out, fn), 'w').write('\n'.join(o).rstrip() + '\n')
    for kv in hdr['expect'].split():
        func, n = kv.split('=')
        man.append((fn, func, n, hdr.get('cat', '')))
for rf in sorted(glob.glob(os.path.join(raw, '*.txt'))):
    srcstem = os.path.basename(rf)[:-4]
    meta = {}; cur = None; lines = []
    for l in open(rf).read().split('\n'):
        m = re.match(r'//@ (\w+):\s*(.*)$', l)
        if m and cur is None: meta[m.group(1)] = m.group(2).strip(); continue
        m = re.match(r'//=== (.*)$', l)
        if m:
            if cur: emit(srcstem, meta, cur, lines)
            cur = None; lines = []
            s = m.group(1)
            if s.startswith('UNDET '):
                n, r = s[6:].split(':', 1)
                man.append((f'{srcstem}__{n.strip()}.mlir(not written)', n.strip(), 'undetermined', r.strip()))
            elif s.startswith('SKIP '):
                n, r = s[5:].split(':', 1); skipped.append((srcstem, n.strip(), r.strip()))
            else: cur = s.strip()
            continue
        if cur: lines.append(l)
    if cur: emit(srcstem, meta, cur, lines)
with open(os.path.join(out, 'manifest.tsv'), 'w') as f:
    for r in man: f.write('\t'.join(r) + '\n')
with open(os.path.join(out, 'skipped.tsv'), 'w') as f:
    for r in skipped: f.write('\t'.join(r) + '\n')
print(f'{len(set(r[0] for r in man))} case files, {len(man)} functions, {len(skipped)} skipped')
