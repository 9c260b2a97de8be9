"""Prints a SARIF log's rules, then per result: rule, level, file:line:col (the file's
base name) and, for summaries, two of its metrics. For FileCheck."""
import json
import os
import sys

run = json.load(open(sys.argv[1]))["runs"][0]
print("rules: " + " ".join(sorted(r["id"] for r in run["tool"]["driver"]["rules"])))
for res in run["results"]:
    loc = ""
    if res.get("locations"):
        p = res["locations"][0]["physicalLocation"]
        r = p.get("region", {})
        loc = "%s:%s:%s" % (os.path.basename(p["artifactLocation"]["uri"]), r.get("startLine", ""),
                            r.get("startColumn", ""))
    m = res.get("properties", {}).get("metrics", {})
    extra = " ".join("%s=%s" % (k, m[k]) for k in ("dispatches", "off_fast_path_ops") if k in m)
    print(" ".join(x for x in (res["ruleId"], res["level"], loc, extra) if x))
