# Reads `metrale run --json` and prints, per function, the kernels, allocations, resident
# rows and handles the mlir-cpu model predicts beside those the run measured
# (test/Run/fusion-mlir*.test).
import json
import sys

doc = json.load(sys.stdin)
for f in doc["functions"]:
    if "measured" not in f:
        print(f"{f['name']}: not run")
        continue
    p, m = f["predicted"], f["measured"]
    print(f"{f['name']}: launches {p['kernel_launches']}/{m['kernel_launches']} "
          f"allocations {p['device_allocation_events']}/{m['device_allocation_events']} "
          f"bytes {p['device_allocation_bytes']}/{m['device_allocation_bytes']} "
          f"resident {p['resident_resource_rows']}/{m['resident_resource_rows']} "
          f"handles {p['resident_resource_handles']}/{m['resident_resource_handles']}")
