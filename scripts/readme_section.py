"""A section of README.md that a script writes: the lines between '<!-- NAME:begin -->'
and '<!-- NAME:end -->'. Shared by options-table.py and usage-block.py."""
import os
import re
import sys


def sync(root, name, text, mode, differs):
    """Prints |text| (mode ""), rewrites the section with it ("--write"), or compares
    ("--check"): when the section differs, calls differs(section) to say how, and exits 1."""
    if not mode:
        print(text, end="")
        return
    path = os.path.join(root, "README.md")
    readme = open(path).read()
    m = re.search(r"(<!-- %s:begin -->\n)(.*?)(<!-- %s:end -->)" % (name, name), readme, re.S)
    if not m:
        sys.exit("README.md has no '<!-- %s:begin -->' ... '<!-- %s:end -->' section" % (name, name))
    if mode == "--write":
        open(path, "w").write(readme[:m.start(2)] + text + readme[m.end(2):])
    elif m.group(2) != text:
        differs(m.group(2))
        sys.exit(1)
