"""Every public docstring parses as reStructuredText without a warning.

The book's API pages render these docstrings (autodoc + napoleon) with ``-W``,
but CI builds no book: this test catches a malformed table or a broken role in
``make test`` instead. Sphinx's own roles are stood in for by literals; whether
their targets exist is the book build's check.
"""

from __future__ import annotations

import importlib
import inspect

import pytest

docutils_core = pytest.importorskip("docutils.core")
napoleon = pytest.importorskip("sphinx.ext.napoleon")
from docutils import nodes  # noqa: E402
from docutils.parsers.rst import Directive, directives, roles  # noqa: E402

import sigeval  # noqa: E402
from sigeval._registry import of_kind  # noqa: E402

SPHINX_ROLES = ["func", "class", "mod", "meth", "attr", "data", "obj", "exc", "ref", "doc", "term",
                "cite", "cite:t", "cite:p", "py:func", "py:class", "py:mod"]
# The public modules of the registry, and the private ones that define an exported name (``_results``).
MODULES = sorted({getattr(sigeval, name).__module__ for name in sigeval.__all__
                  if hasattr(getattr(sigeval, name), "__module__")}
                 | {f"sigeval.{m}" for m in of_kind("statistics", "front door", "plots")})


def _literal_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    return [nodes.literal(rawtext, text)], []


class _ContentDirective(Directive):
    """Sphinx's object directives (napoleon writes ``.. attribute::``): parse the body only."""

    has_content = True
    optional_arguments = 1
    final_argument_whitespace = True
    option_spec = {"type": directives.unchanged, "value": directives.unchanged, "no-index": directives.flag}

    def run(self):
        container = nodes.container()
        self.state.nested_parse(self.content, self.content_offset, container)
        return [container]


for _role in SPHINX_ROLES:
    roles.register_local_role(_role, _literal_role)
for _directive in ("attribute", "method", "seealso", "versionadded", "versionchanged"):
    directives.register_directive(_directive, _ContentDirective)


def _documented(module_name: str):
    module = importlib.import_module(module_name)
    yield module_name, module.__doc__ or ""
    for name in getattr(module, "__all__", []):
        obj = getattr(module, name)
        if not (inspect.isfunction(obj) or inspect.isclass(obj)):
            continue  # data such as a dict of colours has only its type's docstring
        yield f"{module_name}.{name}", inspect.getdoc(obj) or ""
        for attr, member in vars(obj).items() if inspect.isclass(obj) else ():
            if not attr.startswith("_") and callable(member) and member.__doc__:
                yield f"{module_name}.{name}.{attr}", inspect.getdoc(member)


def _problems(doc: str) -> list[str]:
    config = napoleon.Config(napoleon_use_rtype=False, napoleon_google_docstring=False)
    text = str(napoleon.NumpyDocstring(doc, config))
    messages: list[str] = []

    class Collect:
        def write(self, message: str) -> None:
            messages.append(message)

    docutils_core.publish_doctree(text, settings_overrides={"report_level": 2, "halt_level": 5,
                                                           "warning_stream": Collect()})
    return [m.strip() for m in messages if m.strip()]


@pytest.mark.parametrize("module_name", MODULES)
def test_public_docstrings_parse_without_warnings(module_name):
    bad = {where: problems for where, doc in _documented(module_name) if (problems := _problems(doc))}
    assert not bad, bad
