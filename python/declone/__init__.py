"""declone: remove redundant aten.clone nodes from PyTorch FX graphs, safely.

``declone.fx`` works on live ``torch.fx`` graphs; the C++ core lives in ``declone._declone``.
"""

__all__ = ["fx"]
