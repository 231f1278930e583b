"""Writes the schema of every operator the installed PyTorch registers, one per line, sorted by
name and overload: lib/schema/torch.schemas, the built-in schema set (with the supplement).

    .venv/bin/python tools/gen-schemas/dump_schemas.py lib/schema/torch.schemas   # make schemas

The dispatcher holds the operators with kernels (aten, quantized, prims registered from C++,
...); the TorchScript operator table adds those only TorchScript knows (prim::,
aten::__getitem__.t, ...). `torch.ops` resolves names against both, so dumps may name either.
The file is checked in, so the build does not depend on which torch is installed.
"""

import argparse


def main(output):
    import torch  # after the arguments: --help needs no torch

    schemas = {}
    for schema in torch._C._jit_get_all_schemas():
        schemas[(schema.name, schema.overload_name)] = str(schema)
    for name in torch._C._dispatch_get_all_op_names():
        base, _, overload = name.partition(".")
        if (base, overload) not in schemas:
            schemas[(base, overload)] = str(torch._C._get_schema(base, overload))
    version = torch.__version__.split("+")[0]
    with open(output, "w") as out:
        out.write(f"# Operator schemas of PyTorch {version}, written by "
                  "tools/gen-schemas/dump_schemas.py.\n")
        for key in sorted(schemas, key=lambda key: f"{key[0]}.{key[1]}"):
            out.write(schemas[key] + "\n")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description="Writes the schema of every operator the installed PyTorch registers, one per "
                    "line (lib/schema/torch.schemas: make schemas).")
    parser.add_argument("output", help="the file to write")
    main(parser.parse_args().output)
