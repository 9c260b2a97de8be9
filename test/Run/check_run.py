"""Reads `metrale run --json -` on stdin and checks, for every function that ran, what a
real run must agree on exactly (issue 8): measured input_bytes and output_bytes equal the
prediction; measured allocation events equal the bufferized IR's allocations (straight-
line code); every measured rate is field x 10^9 // latency_ns. Prints one line per
function for FileCheck."""
import json
import sys

doc = json.load(sys.stdin)
RATES = {"output_bytes_per_second": "output_bytes", "readback_bytes_per_second": "readback_bytes",
         "bytes_moved_per_second": "bytes_moved",
         "device_allocation_bytes_per_second": "device_allocation_bytes"}
bad = 0
for f in doc["functions"]:
    if "error" in f:
        print("%s: error: %s" % (f["name"], f["error"]))
        continue
    p, m = f["predicted"], f["measured"]
    checks = {
        "inputs": m["input_bytes"] == p["input_bytes"],
        "outputs": m["output_bytes"] == p["output_bytes"] and m["output_buffers"] == p["output_buffers"],
        "allocations": m["device_allocation_events"] == f["bufferized_allocations"],
        "rates": all(m[r] == (m[b] * 10**9 // m["latency_ns"] if m["latency_ns"] else 0)
                     for r, b in RATES.items()),
        # Counted in the lowered program: a whole number each, handles at least rows.
        "resident": isinstance(m["resident_resource_rows"], int) and
                    m["resident_resource_handles"] >= m["resident_resource_rows"],
        "kernels": sum(k["launches"] for k in f["kernels"]) == m["kernel_launches"] * f["runs"],
    }
    bad += not all(checks.values())
    print("%s: runs %d, %s; recovered %s" % (
        f["name"], f["runs"], " ".join("%s %s" % (k, "ok" if v else "DIFFER") for k, v in checks.items()),
        str(m["recovered_after_device_loss"]).lower()))
sys.exit(1 if bad else 0)
