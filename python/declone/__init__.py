"""declone: remove redundant aten.clone nodes from PyTorch FX graphs, safely.

``declone.fx`` works on live ``torch.fx`` graphs; the C++ core lives in ``declone._declone``.
"""

from ._version import __version__

__all__ = ["fx"]
