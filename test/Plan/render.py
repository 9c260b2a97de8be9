"""Renders an SVG to a PNG with headless Chromium: render.py OUT.png IN.svg (1400 x 660)."""
import os
import shutil
import subprocess
import sys
import tempfile

out, svg = sys.argv[1], os.path.abspath(sys.argv[2])
exe = shutil.which("chromium") or shutil.which("chromium-browser")
with tempfile.TemporaryDirectory() as profile:
    subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    "--user-data-dir=" + profile, "--screenshot=" + os.path.abspath(out),
                    "--window-size=1400,660", "file://" + svg],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
if not os.path.exists(out):
    sys.exit("chromium wrote no screenshot")
