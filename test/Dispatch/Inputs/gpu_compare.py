"""The GPT-2-style block at the H200 reference's sizes (../shared/gpu-reference): writes
each with gen_block.py, gives it the H200's bandwidth and memory as a DLTI spec on the
h100 target (the reference README's recipe), runs `metrale budget`, and prints the arena
beside XLA's temp buffer and torch.compile's peak, and the dispatches beside XLA's and
inductor's kernels."""
import json
import os
import subprocess
import sys

gpuref, example, work = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(work, exist_ok=True)
xla, torch = {}, {}
for line in open(os.path.join(gpuref, "h200-blocks.jsonl")):
    d = json.loads(line)
    if "cfg" not in d:
        continue
    key = tuple(d["cfg"])
    if d["part"] == "xla":
        xla[key] = d
    elif d.get("mode") == "compile":
        torch[key] = d
spec = ('module attributes {dlti.target_system_spec = #dlti.target_system_spec<"GPU" = '
        '#dlti.target_device_spec<"metrale.target" = "h100", "bandwidth_bytes_per_s" = '
        '4800000000000 : i64, "memory_bytes" = 150754820096 : i64>>} {\n')
for key in sorted(xla):
    s, d, h, dh = key
    path = os.path.join(work, "block_%d_%d.mlir" % (s, d))
    text = subprocess.run([sys.executable, os.path.join(gpuref, "gen_block.py"), example,
                           str(s), str(d), str(h), str(dh)], capture_output=True, text=True,
                          check=True).stdout
    with open(path, "w") as f:
        f.write(spec + text + "\n}\n")
    out = subprocess.run(["metrale", "budget", path, "--json", "-"], capture_output=True,
                         text=True, check=True).stdout
    b = json.loads(out)["functions"][0]["budget"]
    x, t = xla[key], torch.get(key, {})
    print("S=%d D=%d: arena %d, xla temp %d (%s), torch.compile peak %s; dispatches %d, "
          "xla kernels %d, torch.compile kernels %s" % (
              s, d, b["arena_bytes"], x["temp_bytes"],
              "below" if b["arena_bytes"] <= x["temp_bytes"] else "ABOVE",
              t.get("peak_activation_bytes", "-"), b["dispatches"], x["kernels_est"],
              t.get("kernels", "-")))
