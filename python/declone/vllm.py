"""declone as a vLLM plugin: safe clone elimination in place of vLLM's UnsafeCloneEliminationPass.

``pip install declone`` registers :func:`register` as a ``vllm.general_plugins`` entry point, which
vLLM calls in each of its processes. It does nothing unless ``DECLONE_VLLM`` is set:

- ``DECLONE_VLLM=safe``: every ``PostGradPassManager`` configured afterwards runs
  :class:`CloneEliminationPass` in safe mode where it would run ``UnsafeCloneEliminationPass``
  (after vLLM IR lowering, before the second cleanup and ``FixFunctionalizationPass``);
- ``DECLONE_VLLM=vllm``: the same, with declone reproducing vLLM 0.33's own decisions, so that
  its remarks explain what vLLM's pass does;
- unset or empty: vLLM is left untouched. Any other value is an error.

``DECLONE_VLLM_DEFUNCTIONALIZE=1`` (beside it, or alone) also puts :class:`DefunctionalizationPass`
where the manager runs ``FixFunctionalizationPass``: after clone elimination, as vLLM orders
them, declone rewrites every ``auto_functionalized`` call (of any op, not a list of ops) whose
copies DESIGN.md section 4b proves unneeded into the in-place call, and leaves the others to
Inductor, which decomposes them into copies after the custom passes, reinplacing what its own
analysis allows. ``0``, empty or unset leave vLLM's FixFunctionalizationPass in place; any other
value is an error.

vLLM is imported only when the plugin is used: importing this module needs neither vLLM nor
torch, so that the entry point costs nothing in a vLLM process that does not enable it.

Why safe mode analyses a different graph than the one it rewrites: ``PostGradPassManager`` runs
``FixFunctionalizationPass`` after clone elimination, and that pass turns the
``auto_functionalized`` calls of the ops it lists into the in-place calls, writing the arguments
that were only read in the functional graph, without checking whether anything still needs them
(DESIGN.md section 6). A clone that is redundant in the functional graph may be the only thing
keeping such a write off a graph input. So safe mode decides on a copy of the graph that
``FixFunctionalizationPass`` itself has already rewritten, and removes from the real graph exactly
the clones it removed from the copy. The copy has every effect of the functional graph and
more (its in-place calls write what the functional calls only read), so a clone that is safe to
remove there is safe to remove from the functional graph, and stays so after the rewrite.

With ``DECLONE_VLLM_DEFUNCTIONALIZE=1`` there is no such copy: the pass that follows is
declone's, which writes an argument in place only where nothing needs its old contents on the
graph as clone elimination left it, so safe mode decides on the functional graph itself.
What vLLM's pass rewrites and declone's keeps (each kept copy has a remark saying why): calls
whose written arguments are still read, are graph inputs the graph does not write back, or are
passed twice (vLLM's pass writes them without checking); rotary embedding's q and k, slices of
one matmul scattered back into it, are written in place when each scatter writes back exactly
its slice; vLLM's hand-written rewrite of the MLA RoPE's copy-and-scatter is not made.
"""

from __future__ import annotations

import collections
import functools
import hashlib
import json
import logging
import operator
import os
import time

__all__ = ["CloneEliminationPass", "DefunctionalizationPass", "MODES", "ENVIRONMENT_VARIABLE",
           "DEFUNCTIONALIZE_VARIABLE", "mode_from_environment",
           "defunctionalize_from_environment", "register"]

#: The environment variable that enables the plugin and chooses its mode.
ENVIRONMENT_VARIABLE = "DECLONE_VLLM"

#: The modes the plugin runs declone in (DESIGN.md section 4).
MODES = ("safe", "vllm", "vllm-0.32")

#: The environment variable that makes declone's defunctionalization replace vLLM's
#: FixFunctionalizationPass ("1"; "0" or empty: not).
DEFUNCTIONALIZE_VARIABLE = "DECLONE_VLLM_DEFUNCTIONALIZE"

_LOGGER_NAME = "vllm.declone"  # under "vllm": vLLM's handler, format and VLLM_LOGGING_LEVEL


def mode_from_environment() -> str | None:
    """The mode ``DECLONE_VLLM`` asks for, or None when it is unset or empty (the plugin is
    off). Raises ValueError for any other value."""
    value = os.environ.get(ENVIRONMENT_VARIABLE, "")
    if not value:
        return None
    if value not in MODES:
        accepted = ", ".join(repr(mode) for mode in MODES)
        raise ValueError(f"{ENVIRONMENT_VARIABLE}={value!r} is not a declone mode: accepted "
                         f"values are {accepted}, or unset/empty to leave vLLM's own "
                         f"UnsafeCloneEliminationPass in place")
    return value


def defunctionalize_from_environment() -> bool:
    """Whether ``DECLONE_VLLM_DEFUNCTIONALIZE`` asks for declone's defunctionalization ("1"), or
    not ("0", empty or unset). Raises ValueError for any other value."""
    value = os.environ.get(DEFUNCTIONALIZE_VARIABLE, "")
    if value not in ("", "0", "1"):
        raise ValueError(f"{DEFUNCTIONALIZE_VARIABLE}={value!r}: accepted values are '1' "
                         f"(declone's defunctionalization replaces vLLM's "
                         f"FixFunctionalizationPass), '0' or unset/empty (it does not)")
    return value == "1"


def _import_vllm():
    """vLLM's modules the plugin uses, with a message that says what is missing."""
    try:
        from vllm.compilation.passes import pass_manager
        from vllm.compilation.passes.inductor_pass import InductorPass, get_pass_context
        from vllm.compilation.passes.utility.fix_functionalization import (
            FixFunctionalizationPass,
        )
        from vllm.compilation.passes.vllm_inductor_pass import VllmInductorPass
        from vllm.logger import init_logger
    except ImportError as error:
        raise ImportError(
            f"declone.vllm is a vLLM plugin: it needs vLLM 0.33 or later, whose post-grad pass "
            f"manager runs clone elimination, in this Python environment ({error})") from error
    return pass_manager, InductorPass, get_pass_context, FixFunctionalizationPass, \
        VllmInductorPass, init_logger


def register() -> None:
    """The ``vllm.general_plugins`` entry point. With ``DECLONE_VLLM`` set to a mode, every
    ``PostGradPassManager`` configured from now on in this process runs declone's
    CloneEliminationPass in that mode in place of ``UnsafeCloneEliminationPass``; with
    ``DECLONE_VLLM_DEFUNCTIONALIZE=1``, declone's DefunctionalizationPass in place of
    ``FixFunctionalizationPass``. vLLM may load plugins more than once in a process; each call
    replaces the previous one's hook."""
    mode = mode_from_environment()
    defunctionalize = defunctionalize_from_environment()
    if mode is None and not defunctionalize:
        return
    pass_manager = _import_vllm()[0]
    manager_class = pass_manager.PostGradPassManager
    configure = manager_class.configure
    original = getattr(configure, "__declone_original__", configure)

    @functools.wraps(original)
    def configure_with_declone(self, config):
        original(self, config)
        # First: the clone pass decides differently when declone's defunctionalization follows.
        if defunctionalize:
            _replace_fix_functionalization(self, config)
        if mode is not None:
            _replace_clone_elimination(self, config, mode)

    configure_with_declone.__declone_original__ = original
    manager_class.configure = configure_with_declone


def _replace_clone_elimination(manager, config, mode):
    """Puts declone's pass where ``configure`` put vLLM's: the manager calls it by attribute,
    after IR lowering, and hashes it into its uuid() from there."""
    logger = _logger()
    pass_class = _pass_class()
    current = getattr(manager, "clone_elimination", None)
    if isinstance(current, pass_class):
        return
    # By name: a vLLM that keeps the class in another module is still recognised.
    if type(current).__name__ != "UnsafeCloneEliminationPass":
        logger.warning_once(
            "declone: this vLLM's PostGradPassManager runs no UnsafeCloneEliminationPass to "
            "replace (it has %r); its passes are left as they are", current)
        return
    checked = isinstance(getattr(manager, "fix_functionalization", None),
                         _defunctionalization_class())
    manager.clone_elimination = pass_class(config, mode, checked_defunctionalization=checked)
    logger.info_once("declone's clone elimination (%s mode) replaces vLLM's "
                     "UnsafeCloneEliminationPass", mode)


def _replace_fix_functionalization(manager, config):
    """Puts declone's defunctionalization where ``configure`` put FixFunctionalizationPass: the
    manager runs it last, by attribute, and hashes it into its uuid() from there."""
    logger = _logger()
    pass_class = _defunctionalization_class()
    current = getattr(manager, "fix_functionalization", None)
    if isinstance(current, pass_class):
        return
    if type(current).__name__ != "FixFunctionalizationPass":
        logger.warning_once(
            "declone: this vLLM's PostGradPassManager runs no FixFunctionalizationPass to "
            "replace (it has %r); its passes are left as they are", current)
        return
    manager.fix_functionalization = pass_class(config)
    logger.info_once("declone's defunctionalization replaces vLLM's FixFunctionalizationPass")


@functools.cache
def _logger():
    return _import_vllm()[-1](_LOGGER_NAME)


def __getattr__(name):
    # The passes subclass vLLM's VllmInductorPass, so they are defined when first asked for.
    if name == "CloneEliminationPass":
        return _pass_class()
    if name == "DefunctionalizationPass":
        return _defunctionalization_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@functools.cache
def _source_hash():
    with open(__file__, "rb") as source:
        return hashlib.sha256(source.read()).hexdigest()


def _describe(remark):
    """One remark as a log line: the node (and for a copy, the argument copied), the decision,
    and why."""
    copied = getattr(remark, "copy", "")
    text = (f"copy of '{copied}' in '{remark.node}' {remark.decision}" if copied
            else f"clone '{remark.node}' {remark.decision}")
    if remark.reason:
        text += f" [{remark.reason}]"
    if remark.detail:
        text += f": {remark.detail}"
    return text


def _custom_schemas(graph):
    """The schemas of the graph's ops from outside aten, as lines for ``declone opt --schemas``:
    the CLI knows libtorch's own ops, and a custom op (a vLLM kernel, a plugin's) is registered
    only in the process that compiles."""
    import torch
    from torch._higher_order_ops.auto_functionalize import (auto_functionalized,
                                                            auto_functionalized_v2)

    from . import _schemas

    schemas = {}
    for node in graph.nodes:
        if node.op != "call_function":
            continue
        wraps = node.target is auto_functionalized or node.target is auto_functionalized_v2
        ops = [node.target] + (list(node.args[:1]) if wraps else [])
        for op in ops:
            if isinstance(op, torch._ops.OpOverload) and op.namespace != "aten":
                # As `python -m declone schemas` writes them (`Tensor($0! -> )` as `Tensor!`).
                schemas[str(op)] = _schemas.schema_text(op._schema)
    return [schemas[name] for name in sorted(schemas)]


def _copy_graph(graph):
    """A copy of ``graph`` and a map from the copy's node names to ``graph``'s nodes. Node
    metadata is shared, not copied: the analysis only reads it."""
    import torch.fx

    copy = torch.fx.Graph(owning_module=graph.owning_module)
    copies = {}
    output = copy.graph_copy(graph, copies)
    copy.output(output)
    return copy, {node_copy.name: node for node, node_copy in copies.items()}


def _defunctionalize_every_call(graph):
    """Rewrites each ``auto_functionalized`` node of ``graph`` into the in-place call it stands
    for, as FixFunctionalizationPass does for the ops it lists: the op called on the same
    arguments, the results that are written arguments replaced by those arguments, the op's own
    results by the call's. This is the most any defunctionalization can write, for when vLLM's
    own pass cannot tell which nodes it would rewrite. A node used other than through getitem,
    or whose used written argument is not a single tensor (a list, or None), is left as it is."""
    import torch.fx
    from torch._higher_order_ops.auto_functionalize import auto_functionalized, get_mutable_args

    for node in graph.find_nodes(op="call_function", target=auto_functionalized):
        op = node.args[0]
        written, _ = get_mutable_args(op)
        returns = len(op._schema.returns)
        # auto_functionalized returns (*the op's results, *the written arguments), the op's
        # results taking one slot (None) when it has none.
        slots = max(1, returns)
        users = {user.args[1]: user for user in node.users
                 if user.op == "call_function" and user.target is operator.getitem}
        if len(users) != len(node.users):
            continue
        arguments = {index: node.kwargs.get(written[index - slots])
                     for index in users if index >= slots}
        if not all(isinstance(argument, torch.fx.Node) for argument in arguments.values()):
            continue
        if returns == 0 and 0 in users and users[0].users:
            continue
        with graph.inserting_before(node):
            call = graph.call_function(op, kwargs=dict(node.kwargs))
        for index, user in users.items():
            if index in arguments:
                user.replace_all_uses_with(arguments[index])
            elif returns == 1:
                call.meta = dict(user.meta)
                user.replace_all_uses_with(call)
            elif returns > 1:
                user.args = (call, index)
                continue
            graph.erase_node(user)
        graph.erase_node(node)


@functools.cache
def _pass_class():
    (_, InductorPass, get_pass_context, FixFunctionalizationPass, VllmInductorPass,
     _) = _import_vllm()
    import torch
    from torch._higher_order_ops.auto_functionalize import auto_functionalized

    from . import fx as declone_fx

    logger = _logger()
    clone = torch.ops.aten.clone.default

    class FixFunctionalizationOnCopy(FixFunctionalizationPass):
        """vLLM's FixFunctionalizationPass, run on the copy that safe mode analyses: the copy is
        no stage of vLLM's pipeline, so it is not dumped as one."""

        def dump_graph(self, graph, stage):
            pass

    class CloneEliminationPass(VllmInductorPass):
        """declone's clone elimination with vLLM's pass interface, for ``PostGradPassManager``.

        Donated inputs are the ones vLLM's pass context holds
        (``VllmIRInplaceFunctionalizationPass`` sets them); ``mode`` is ``"safe"`` or ``"vllm"``
        (by default ``DECLONE_VLLM``'s, or safe). In safe mode the decisions are taken on the
        graph as ``FixFunctionalizationPass`` will leave it (the module docstring says why),
        unless ``checked_defunctionalization``: the manager runs declone's
        DefunctionalizationPass in its place, which checks what it writes.
        ``remarks`` are the last graph's. Each decision is logged at debug level on the
        ``vllm.declone`` logger, a summary of the kept clones at info (once per distinct
        summary); when vLLM dumps its graphs (``compilation_config.debug_dump_path``), each
        call writes ``declone_remarks.N.json`` there, with the graph the remarks' lines refer
        to as ``declone_graph.N.py`` and its custom ops' schemas as ``declone_schemas.N.txt``
        beside it (``declone opt --schemas`` reads both)."""

        def __init__(self, vllm_config, mode=None, checked_defunctionalization=False):
            super().__init__(vllm_config)
            # Names its timing line and its graph dumps apart from vLLM's pass.
            self.pass_name = "DecloneCloneEliminationPass"
            mode = mode or mode_from_environment() or "safe"
            if mode not in MODES:
                raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
            self.mode = mode
            self.checked_defunctionalization = bool(checked_defunctionalization)
            self.remarks = []
            self.debug_dump_path = vllm_config.compile_debug_dump_path()
            self._fix_functionalization = FixFunctionalizationOnCopy(vllm_config)

        @VllmInductorPass.time_and_log
        def __call__(self, graph):
            start = time.perf_counter()
            context = get_pass_context()
            donated = sorted(context.donated_input_ids)
            analysed, originals = graph, None
            # The copy costs more than the analysis: only where it can change a decision.
            if self.mode == "safe" and not self.checked_defunctionalization \
                    and graph.find_nodes(op="call_function", target=clone) \
                    and graph.find_nodes(op="call_function", target=auto_functionalized):
                analysed, originals = self._defunctionalized_copy(graph)
            # The remarks' lines are lines of this text: it is made only for a dump.
            text = declone_fx.dumps(analysed) if self.debug_dump_path is not None else None
            self.remarks = declone_fx.eliminate_clones(analysed, donated, self.mode)
            if originals is not None:
                # Replayed in program order, as eliminate_clones does on the graph it analyses:
                # a clone of a removed clone then becomes a use of the first one's source.
                for remark in self.remarks:
                    if remark.decision == "removed":
                        node = originals[remark.node]
                        node.replace_all_uses_with(node.args[0])
                        graph.erase_node(node)
            self._log(time.perf_counter() - start)
            if self.debug_dump_path is not None:
                _dump(self.debug_dump_path, analysed, text, self.remarks, {
                    "mode": self.mode,
                    "donated_input_ids": donated,
                    "compile_range": str(context.compile_range),
                    "pass_index": VllmInductorPass.dump_prefix,
                    # Whether the remarks are about the graph as FixFunctionalizationPass will
                    # leave it rather than the graph the pass was given.
                    "defunctionalized": originals is not None,
                })

        def _defunctionalized_copy(self, graph):
            """A copy of ``graph`` as FixFunctionalizationPass will leave it (vLLM's own pass,
            so its list of ops and its special cases are the ones this vLLM has), and the map
            from the copy's node names to ``graph``'s nodes."""
            copy, originals = _copy_graph(graph)
            try:
                self._fix_functionalization(copy)
            except Exception as error:  # noqa: BLE001: vLLM's pass, on what it meets
                # Typically an op of its list that this vLLM build does not register (its
                # torch.ops._C lookups are unconditional). Without its list, every call is
                # taken as rewritten: the most it could write.
                logger.warning_once(
                    "declone: vLLM's FixFunctionalizationPass fails on this graph (%s: %s); "
                    "every auto_functionalized call is taken as written in place",
                    type(error).__name__, error)
                copy, originals = _copy_graph(graph)
                _defunctionalize_every_call(copy)
            return copy, originals

        def _log(self, seconds):
            kept = [remark for remark in self.remarks if remark.decision == "kept"]
            if logger.isEnabledFor(logging.DEBUG):
                for remark in self.remarks:
                    logger.debug("declone (%s): %s", self.mode, _describe(remark))
            reasons = collections.Counter(remark.reason for remark in kept)
            summary = ", ".join(f"{reason}: {count}" for reason, count in sorted(reasons.items()))
            logger.debug("declone (%s): %d clones, %d removed, %d kept%s in %.1f ms",
                         self.mode, len(self.remarks), len(self.remarks) - len(kept),
                         len(kept), f" ({summary})" if summary else "", seconds * 1e3)
            if kept:
                # Piecewise compilation gives every layer a graph of its own, with the same
                # decisions: once per distinct summary is what a reader of the log needs.
                logger.info_once(
                    "declone (%s mode) kept %d of %d clones of a graph (%s); "
                    "VLLM_LOGGING_LEVEL=DEBUG logs each decision", self.mode, len(kept),
                    len(self.remarks), summary)

        def __getstate__(self):
            # Inductor may pickle or deep-copy its config, this pass with it; the remarks are
            # objects of the extension, which do not pickle, and describe the last graph only.
            state = self.__dict__.copy()
            state["remarks"] = []
            return state

        def uuid(self):
            """Changes with the mode, with what follows it (checked_defunctionalization) and
            with declone's code (this plugin, declone.fx and the extension), for Inductor's and
            vLLM's compile caches."""
            return InductorPass.hash_dict({
                "plugin": _source_hash(),
                "declone": declone_fx.CloneEliminationPass(mode=self.mode).uuid(),
                "mode": self.mode,
                "checked_defunctionalization": self.checked_defunctionalization,
            })

    # Module attributes, where pickle and the documentation look for them.
    for name, cls in (("CloneEliminationPass", CloneEliminationPass),
                      ("_FixFunctionalizationOnCopy", FixFunctionalizationOnCopy)):
        cls.__module__, cls.__qualname__ = __name__, name
        globals()[name] = cls
    return CloneEliminationPass


def _dump(directory, graph, text, remarks, header):
    """Writes declone_remarks.N.json (``header`` and the remarks), the graph they are about as
    declone_graph.N.py (``text``), and its custom ops' schemas as declone_schemas.N.txt, with
    the first N that is free in ``directory``."""
    directory.mkdir(parents=True, exist_ok=True)
    index = 0
    while True:
        try:  # "x": two compilations in one process never share a file
            remarks_file = (directory / f"declone_remarks.{index}.json").open("x")
            break
        except FileExistsError:
            index += 1
    graph_path = directory / f"declone_graph.{index}.py"
    graph_path.write_text(text)
    schemas = _custom_schemas(graph)
    schemas_path = directory / f"declone_schemas.{index}.txt" if schemas else None
    if schemas_path is not None:
        schemas_path.write_text("".join(schema + "\n" for schema in schemas))
    with remarks_file:
        json.dump({
            **header,
            "graph": graph_path.name,
            "schemas": schemas_path.name if schemas_path is not None else None,
            "remarks": [json.loads(remark.json()) for remark in remarks],
        }, remarks_file, indent=1)
        remarks_file.write("\n")


@functools.cache
def _defunctionalization_class():
    (_, InductorPass, get_pass_context, _, VllmInductorPass, _) = _import_vllm()
    from vllm.platforms import current_platform

    from . import _defunctionalize
    from . import fx as declone_fx

    logger = _logger()

    class DefunctionalizationPass(VllmInductorPass):
        """declone's defunctionalization (DESIGN.md section 4b) with vLLM's pass interface, in
        place of FixFunctionalizationPass, which ``PostGradPassManager`` runs last: every
        ``auto_functionalized`` call (and v2, and Triton's functional wrapper) whose copies are
        not needed becomes the in-place call; the others stay for Inductor. Donated inputs are
        those of vLLM's pass context. ``remarks`` are the last graph's, one per copy; logged and
        dumped as CloneEliminationPass's are (``declone_remarks.N.json`` says
        ``"pass": "defunctionalize"``)."""

        def __init__(self, vllm_config):
            super().__init__(vllm_config)
            self.pass_name = "DecloneDefunctionalizationPass"
            self.remarks = []
            self.debug_dump_path = vllm_config.compile_debug_dump_path()

        @VllmInductorPass.time_and_log
        def __call__(self, graph):
            # As vLLM's pass: its XPU kernels are not used through auto_functionalization.
            if current_platform.is_xpu():
                logger.debug("declone: no defunctionalization on XPU, as vLLM's pass")
                return
            start = time.perf_counter()
            context = get_pass_context()
            donated = sorted(context.donated_input_ids)
            dump = self.debug_dump_path is not None and \
                _defunctionalize.has_functionalized_calls(graph)
            text = declone_fx.dumps(graph) if dump else None
            self.remarks = declone_fx.defunctionalize(graph, donated)
            seconds = time.perf_counter() - start
            if logger.isEnabledFor(logging.DEBUG):
                for remark in self.remarks:
                    logger.debug("declone: %s", _describe(remark))
            kept = collections.Counter(r.reason for r in self.remarks if r.decision == "kept")
            summary = ", ".join(f"{reason}: {count}" for reason, count in sorted(kept.items()))
            logger.debug("declone: %d copies, %d avoided, %d kept%s in %.1f ms",
                         len(self.remarks), len(self.remarks) - sum(kept.values()),
                         sum(kept.values()), f" ({summary})" if summary else "", seconds * 1e3)
            if kept:
                logger.info_once(
                    "declone's defunctionalization kept %d of %d copies of a graph (%s); "
                    "VLLM_LOGGING_LEVEL=DEBUG logs each decision", sum(kept.values()),
                    len(self.remarks), summary)
            if dump:
                _dump(self.debug_dump_path, graph, text, self.remarks, {
                    "pass": "defunctionalize",
                    "donated_input_ids": donated,
                    "compile_range": str(context.compile_range),
                    "pass_index": VllmInductorPass.dump_prefix,
                })

        def __getstate__(self):
            state = self.__dict__.copy()
            state["remarks"] = []  # the last graph's only
            return state

        def uuid(self):
            """Changes with declone's code (this plugin, declone.fx, the extension)."""
            return InductorPass.hash_dict({
                "plugin": _source_hash(),
                "declone": declone_fx.CloneEliminationPass(defunctionalize=True).uuid(),
                "pass": "defunctionalize",
            })

    DefunctionalizationPass.__module__ = __name__
    DefunctionalizationPass.__qualname__ = "DefunctionalizationPass"
    globals()["DefunctionalizationPass"] = DefunctionalizationPass
    return DefunctionalizationPass
