"""Custom ops for fake-tensor-import.fx: defined with torch.library, as a user's program does, so
that they exist in a Python only once this module is imported there."""

import torch


@torch.library.custom_op("declone_test::scale_rows", mutates_args=())
def scale_rows(x: torch.Tensor, s: float) -> torch.Tensor:
    return x * s


@scale_rows.register_fake
def _(x, s):
    # Contiguous, whatever x's layout: what a kernel that allocates its output with empty() gives.
    return x.new_empty(x.shape)


@torch.library.custom_op("declone_test::column_major", mutates_args=())
def column_major(x: torch.Tensor) -> torch.Tensor:
    return x.t().contiguous().t()


@column_major.register_fake
def _(x):
    # Column-major: strides no rule could guess.
    return x.new_empty(x.shape[::-1]).t()
