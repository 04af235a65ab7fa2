"""MkDocs hooks for the reference site (mkdocs.yml names this file).

A page may link to a file of the repository outside docs/ (RELIABILITY.md, CHANGELOG.md, a module's README); the site
holds only docs/, so such a link is pointed at the file in the repository on GitHub instead of being left broken.

A page may also mark sections that are alternatives of each other, such as one per store, between
"<!-- tabs" and "<!-- end of tabs -->": on GitHub they read as plain "###" sections, and the site shows each as a
tab (pymdownx.tabbed), which would otherwise need indented blocks that GitHub renders as code.
"""
import os
import re

_LINK = re.compile(r"\]\((?!https?://|#|mailto:)([^)\s]+)\)")
_TABS = re.compile(r"^<!-- tabs.*?-->\n(.*?)^<!-- end of tabs -->\n", re.DOTALL | re.MULTILINE)
_TAB = re.compile(r"^### (.+)\n", re.MULTILINE)


def _tabs(match):
    sections = _TAB.split(match.group(1))
    if sections[0].strip():
        raise ValueError("text before the first ### heading of a tab group: " + sections[0].strip()[:80])
    out = []
    for title, body in zip(sections[1::2], sections[2::2]):
        indented = "\n".join("    " + line if line.strip() else "" for line in body.strip("\n").split("\n"))
        out.append('=== "' + title.strip().replace('"', "'") + '"\n\n' + indented + "\n")
    return "\n".join(out) + "\n"


def on_page_markdown(markdown, page, config, files):
    docs_dir = os.path.abspath(config["docs_dir"])
    root = os.path.dirname(docs_dir)
    page_dir = os.path.dirname(os.path.join(docs_dir, page.file.src_path))
    repo = config["repo_url"].rstrip("/") + "/blob/main/"

    def outside(match):
        target = match.group(1)
        path, _, anchor = target.partition("#")
        resolved = os.path.normpath(os.path.join(page_dir, path))
        if resolved == docs_dir or resolved.startswith(docs_dir + os.sep):
            return match.group(0)
        relative = os.path.relpath(resolved, root).replace(os.sep, "/")
        return "](" + repo + relative + ("#" + anchor if anchor else "") + ")"

    return _TABS.sub(_tabs, _LINK.sub(outside, markdown))
