"""Run inside a chapter's kernel: the visible cells must not use names that only hidden cells define.

``tools/verify.py`` sends this file to the kernel before the chapter's first
cell (a silent execution: no output, no execution count, no name left in the
reader's namespace) and calls ``install(plan)``, ``plan`` being each code
cell's source and whether the cell is hidden (tagged ``remove-cell`` or
``remove-input``).

The chapter then runs as usual, in order and in one kernel, so its outputs are
those of a plain run and serve the record and the book. Around each cell an
IPython hook does two things:

- after a *hidden* cell, every name it bound that no visible cell had bound
  before is noted as hidden-only;
- while a *visible* cell runs, the hidden-only names are taken out of the
  namespace (and put back after it). A visible cell, or a function of a
  visible cell that it calls, that uses one of them fails with a NameError
  that says so, as it would if a reader copied the visible cells alone. A
  visible cell that binds such a name makes it an ordinary visible name.

This is the check of "Code that runs when copied" (CONTRIBUTING) from the
chapter's one execution. It looks at names, as that rule does: a hidden cell
that changes a visible object in place (an attribute, an item, a generator's
state) goes unnoticed, as a NameError would not reveal it either.
"""

from __future__ import annotations

import re

# Names IPython itself binds in the namespace (outputs, inputs, history).
_IPYTHON_NAMES = re.compile(r"_+|_i+|_i?\d+|_(oh|ih|dh|exit_code)|In|Out")


def install(plan: list[tuple[str, bool]]) -> None:
    from IPython import get_ipython

    shell = get_ipython()
    queue = list(plan)
    state: dict = {"hidden": False, "before": {}, "where": ""}
    visible: set[str] = set()  # names bound by a visible cell
    hidden_only: dict[str, str] = {}  # name -> the hidden cell that bound it
    held_out: dict[str, object] = {}  # hidden-only names taken out while a visible cell runs

    def pre_run_cell(info) -> None:
        # The cells run in the plan's order; a cell nbclient skips (empty,
        # skip-execution) is passed over.
        while queue and queue[0][0] != info.raw_cell:
            queue.pop(0)
        hidden = queue.pop(0)[1] if queue else False
        first = next((line for line in info.raw_cell.splitlines() if line.strip()), "")
        state.update(hidden=hidden, where=first.strip()[:60])
        namespace = shell.user_ns
        if not hidden:
            for name in hidden_only:
                if name in namespace:
                    held_out[name] = namespace.pop(name)
        state["before"] = dict(namespace)  # references, not ids: nothing is freed and reused meanwhile

    def post_run_cell(result) -> None:
        namespace, before = shell.user_ns, state["before"]
        bound = {
            name
            for name, value in namespace.items()
            if not _IPYTHON_NAMES.fullmatch(name) and (name not in before or before[name] is not value)
        }
        state["before"] = {}
        if state["hidden"]:
            for name in bound - visible:
                hidden_only.setdefault(name, state["where"])
            return
        visible.update(bound)
        for name in bound:
            hidden_only.pop(name, None)
            held_out.pop(name, None)
        for name, value in held_out.items():
            namespace.setdefault(name, value)
        held_out.clear()

    def explain(shell, etype, value, tb, tb_offset=None):
        name = getattr(value, "name", None)
        if name in hidden_only:
            value.args = (
                f"name {name!r} is defined only by a hidden cell ({hidden_only[name]!r}), "
                "but a visible cell uses it: a reader who copies the visible cells gets this error. "
                "Define it in a visible cell (CONTRIBUTING, 'Code that runs when copied').",
            )
        shell.showtraceback((etype, value, tb), tb_offset=tb_offset)  # as IPython shows any other error

    shell.events.register("pre_run_cell", pre_run_cell)
    shell.events.register("post_run_cell", post_run_cell)
    shell.set_custom_exc((NameError,), explain)
