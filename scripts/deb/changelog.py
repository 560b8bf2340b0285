#!/usr/bin/env python3
"""CHANGELOG.md as a Debian changelog, for the package's /usr/share/doc/phototimer/changelog.gz.

The package is native (its version has no Debian revision), so its one changelog is in Debian's
format: one entry per release of CHANGELOG.md ("## VERSION — YYYY-MM-DD"), each bullet an item.
An "## Unreleased" section (changes on main since the last release) is not a release: the
package carries the last release's version, so it is left out.
Usage: changelog.py CHANGELOG.md MAINTAINER
"""
import email.utils
import re
import sys
import textwrap
from datetime import datetime, timezone

text = open(sys.argv[1], encoding="utf-8").read()
maintainer = sys.argv[2]
releases = re.split(r"^## ", text, flags=re.M)[1:]
if not releases:
    sys.exit("error: no '## VERSION — DATE' release in " + sys.argv[1])
out = []
for release in releases:
    heading, _, body = release.partition("\n")
    if heading.strip() == "Unreleased":
        continue
    match = re.match(r"(\S+) — (\d{4}-\d{2}-\d{2})", heading)
    if not match:
        sys.exit("error: a release heading is not 'VERSION — YYYY-MM-DD': " + heading)
    version, date = match.groups()
    when = datetime.strptime(date, "%Y-%m-%d").replace(hour=12, tzinfo=timezone.utc)
    items = [re.sub(r"\s+", " ", item).strip() for item in re.split(r"^- ", body, flags=re.M)[1:]]
    if not items:
        items = [re.sub(r"\s+", " ", body).strip()]
    out.append(f"phototimer ({version}) unstable; urgency=medium\n")
    for item in items:
        plain = item.replace("**", "").replace("`", "")
        wrapped = textwrap.wrap(plain, width=76)
        out.append("  * " + wrapped[0])
        out.extend("    " + line for line in wrapped[1:])
    out.append(f"\n -- {maintainer}  {email.utils.format_datetime(when)}\n")
print("\n".join(out), end="")
