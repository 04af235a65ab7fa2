"""MkDocs hooks for the reference site (mkdocs.yml names this file).

A page may link to a file of the repository outside docs/ (RELIABILITY.md, CHANGELOG.md, a module's README); the site
holds only docs/, so such a link is pointed at the file in the repository on GitHub instead of being left broken.
"""
import os
import re

_LINK = re.compile(r"\]\((?!https?://|#|mailto:)([^)\s]+)\)")


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

    return _LINK.sub(outside, markdown)
