"""Renders an SVG to a PNG with headless Chromium: render.py OUT.png IN.svg, at the
picture's own width and height (its <svg> element's attributes)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

out, svg = sys.argv[1], os.path.abspath(sys.argv[2])
exe = shutil.which("chromium") or shutil.which("chromium-browser")
head = open(svg, encoding="utf-8").read(4096)
m = re.search(r'<svg [^>]*width="(\d+)" height="(\d+)"', head)
size = "%s,%s" % (m.group(1), m.group(2)) if m else "1400,660"
with tempfile.TemporaryDirectory() as profile:
    subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    "--user-data-dir=" + profile, "--screenshot=" + os.path.abspath(out),
                    "--window-size=" + size, "file://" + svg],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
if not os.path.exists(out):
    sys.exit("chromium wrote no screenshot")
