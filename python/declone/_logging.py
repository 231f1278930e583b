"""declone's remarks where PyTorch users already look: ``TORCH_LOGS`` and ``TORCH_TRACE``.

- ``TORCH_LOGS=declone_remarks`` (a ``torch._logging`` artifact) prints every clone decision of
  the Python pass, led by the user's source line, and a summary per graph; ``TORCH_LOGS=declone``
  the summaries (the ``declone`` log, INFO), ``TORCH_LOGS=+declone`` both.
- Under ``TORCH_TRACE`` each pass run writes a ``declone_remarks`` artifact (JSON: mode, counts,
  the remarks as ``--remarks=json`` writes them), which tlparse shows beside the graph.
- A graph that Inductor's FX graph cache or AOTAutograd's cache hands back is not compiled
  again, and no post-grad pass runs on it: the pass says so on the same channel and in its
  ``cache_hits`` instead of leaving its ``runs`` silently empty.

All of it needs torch 2.x's ``torch._logging``; with torch 1.13 nothing is logged.

Why an entry point: ``import torch`` parses ``TORCH_LOGS`` and raises for a name nobody has
registered yet. ``declone.fx`` imports torch, so it registers ``declone_remarks`` too late for
a ``TORCH_LOGS`` set in the environment. PyTorch loads the ``torch.backends`` entry points
just before it parses ``TORCH_LOGS``, so that out-of-tree packages can register their log names
(torch/__init__.py says so); ``pip install`` declares :func:`register_names` there. Without it
(a build tree on PYTHONPATH) ``TORCH_LOGS=declone`` / ``+declone`` still work: torch accepts
any importable module's name.
"""

import collections
import json
import logging
import weakref

ARTIFACT = "declone_remarks"
_LOG_NAME = "declone"

#: One compile in which Inductor took graphs from its caches while a CloneEliminationPass was
#: installed, so the pass did not run on them: the compile's id (``"0/1"``, as TORCH_LOGS
#: prints it, or None), and how many graphs came from the FX graph cache and how many
#: AOTAutograd cache entries (a forward and its backward) were reused.
CacheHit = collections.namedtuple("CacheHit", "compile_id fx_graph_cache_hits "
                                              "autograd_cache_hits")


def register_names():
    """Registers the ``declone`` log and the ``declone_remarks`` artifact with torch._logging.
    The ``torch.backends`` entry point: it runs inside ``import torch`` of every program in the
    environment, so it does nothing else, and never raises (an exception there would make
    ``import torch`` fail)."""
    try:
        from torch._logging import _internal
        _internal.register_log(_LOG_NAME, [_LOG_NAME])
        _internal.register_artifact(
            ARTIFACT, "declone's decision on each clone, at the user's source line",
            visible=True)
    except Exception:  # noqa: BLE001: torch 1.13 (no torch._logging), or an API that moved
        pass


_UNSET = object()
_CHANNEL = _UNSET


def channel():
    """The ``declone_remarks`` artifact logger, or None where torch has no torch._logging.
    Its records propagate to the ``declone`` log, which torch gives a handler when TORCH_LOGS
    or ``torch._logging.set_logs`` names it or the artifact."""
    global _CHANNEL
    if _CHANNEL is _UNSET:
        _CHANNEL = None
        try:
            import torch._logging
            register_names()
            _CHANNEL = torch._logging.getArtifactLogger("declone.fx", ARTIFACT)
        except (ImportError, AttributeError, ValueError):
            pass
    return _CHANNEL


def _counts(remarks):
    removed = sum(remark.decision == "removed" for remark in remarks)
    kept = collections.Counter(r.reason for r in remarks if r.decision == "kept")
    return removed, dict(sorted(kept.items(), key=lambda item: (-item[1], str(item[0]))))


def _summary(remarks, mode, verify, seconds, noun="clones"):
    """``declone (safe): 2 clones, 1 removed, 1 kept (layout-changed: 1) in 0.9 ms``; ``noun``
    is "clones" or "copies" (defunctionalization)."""
    removed, kept = _counts(remarks)
    singular = {"clones": "clone", "copies": "copy"}[noun]
    clones = f"{len(remarks)} {noun if len(remarks) != 1 else singular}"
    text = f"declone ({mode}{', verified' if verify else ''}): {clones}, {removed} removed, " \
           f"{len(remarks) - removed} kept"
    if kept:
        text += " (" + ", ".join(f"{reason}: {count}" for reason, count in kept.items()) + ")"
    return text + f" in {1000 * seconds:.1f} ms"


_TRACE_STRUCTURED = _UNSET


def _trace_structured():
    """torch._logging.trace_structured, and whether it takes ``expect_trace_id``; None with
    torch 1.13."""
    global _TRACE_STRUCTURED
    if _TRACE_STRUCTURED is _UNSET:
        _TRACE_STRUCTURED = None
        try:
            import inspect

            from torch._logging import trace_structured
            _TRACE_STRUCTURED = (trace_structured, "expect_trace_id" in
                                 inspect.signature(trace_structured).parameters)
        except (ImportError, TypeError, ValueError):
            pass
    return _TRACE_STRUCTURED


def report(remarks, mode, verify, donated, seconds, noun="clones"):
    """Logs one pass run: each remark (DEBUG) and a summary (INFO) on the channel, and the
    ``declone_remarks`` artifact into TORCH_TRACE. Nothing is formatted unless asked for.
    ``noun`` says what the remarks are about: "clones", or "copies" for defunctionalization
    (``mode`` "defunctionalize"), whose artifact counts them under that key."""
    log = channel()
    if log is None:
        return
    if log.isEnabledFor(logging.DEBUG):
        for remark in remarks:
            log.debug("%s", remark)
        if not remarks:
            log.debug("declone (%s): the graph has no %s", mode,
                      "clones" if noun == "clones" else "functionalized calls")
    if remarks and log.isEnabledFor(logging.INFO):
        log.info("%s", _summary(remarks, mode, verify, seconds, noun))

    def payload():
        removed, kept = _counts(remarks)
        return json.dumps({"mode": mode, "verify": verify, "donated_input_ids": list(donated),
                           noun: len(remarks), "removed": removed, "kept": kept,
                           "seconds": seconds,
                           "remarks": [json.loads(remark.json()) for remark in remarks]},
                          indent=1)

    traced = _trace_structured()
    if traced is None:
        return
    trace_structured, takes_expect_trace_id = traced
    # Called every time: it checks whether TORCH_TRACE is on before it calls payload(). A pass
    # run outside a compile has no compile id, and torch would record the call's stack to
    # explain its absence, which says nothing here.
    options = {"expect_trace_id": False} if takes_expect_trace_id else {}
    trace_structured("artifact", metadata_fn=lambda: {"name": ARTIFACT, "encoding": "json"},
                     payload_fn=payload, **options)


# --- cache hits ------------------------------------------------------------------------------

_HIT_COUNTERS = (("inductor", "fxgraph_cache_hit"), ("aot_autograd", "autograd_cache_hit"))
#: Passes whose uuid() Inductor asked for (a cache key with the pass in it) since the last
#: compile ended, with torch's cache-hit counters at that moment.
_WATCHED = weakref.WeakKeyDictionary()


def _hit_counts():
    try:
        from torch._dynamo.utils import counters
    except ImportError:
        return None
    return tuple(counters[group][name] for group, name in _HIT_COUNTERS)


def _callback_handler():
    try:
        from torch._dynamo.callback import callback_handler
    except ImportError:
        return None
    return callback_handler if hasattr(callback_handler, "register_end_callback") else None


def cache_key_computed(pass_):
    """Called from the pass's uuid(), which Inductor and AOTAutograd call to compute the cache
    key of a graph they are about to look up: remembers the cache-hit counters, to compare when
    the compile ends. A hit is only visible there: the pass itself is never called for it."""
    if pass_ in _WATCHED:
        return
    handler = _callback_handler()
    counts = _hit_counts()
    if handler is None or counts is None:
        return
    # torch._dynamo.reset() clears the callbacks: the check runs on every key computation.
    if _compile_ended not in handler.end_callbacks:
        handler.register_end_callback(_compile_ended)
    _WATCHED[pass_] = counts


def _compile_ended(args=None):
    """Dynamo's end-of-compile callback: a watched pass whose compile took graphs from a cache
    gets a CacheHit, and the channel says that the pass did not run on them."""
    try:
        watched = list(_WATCHED.items())
        _WATCHED.clear()
        now = _hit_counts()
        compile_id = getattr(args, "compile_id", None)
        compile_id = None if compile_id is None else str(compile_id)
        for pass_, before in watched:
            fx_hits, autograd_hits = (after - then for after, then in zip(now, before))
            if fx_hits <= 0 and autograd_hits <= 0:
                continue
            hit = CacheHit(compile_id, max(fx_hits, 0), max(autograd_hits, 0))
            pass_.cache_hits.append(hit)
            log = channel()
            if log is not None:
                log.info("%s", describe_cache_hit(hit))
    except Exception:  # noqa: BLE001: a failure here must not fail the user's compile
        logging.getLogger("declone.fx").debug("cache-hit check failed", exc_info=True)


def describe_cache_hit(hit):
    """``compile 0/0: Inductor reused compiled graphs from its caches (FX graph cache: 1 hit,
    AOTAutograd cache: 1 hit); declone's pass did not run on them. To run it: ...``"""
    where = f"compile {hit.compile_id}: " if hit.compile_id else ""
    counts = ", ".join(f"{cache}: {count} hit{'s' if count != 1 else ''}" for cache, count in (
        ("FX graph cache", hit.fx_graph_cache_hits),
        ("AOTAutograd cache", hit.autograd_cache_hits)) if count)
    return (f"{where}Inductor reused compiled graphs from its caches ({counts}); declone's pass "
            "did not run on them. To run it: torch._inductor.config.force_disable_caches = True "
            "or TORCHINDUCTOR_FORCE_DISABLE_CACHES=1")
