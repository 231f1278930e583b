"""The ``declone`` command: the console script and ``python -m declone`` run the C++ CLI.

pip installs the executable inside the package (``declone/_bin/declone``), with the verify plugin
(``libdeclone-verify.so``, the part that links libtorch) beside it when PyTorch was installed
before declone; without the plugin, ``declone verify`` says what to install. In a build tree
(``make build``) the executable is ``build/bin/declone``, next to ``build/python``. The CLI's
``--fake-tensor`` runs ops in this Python (``DECLONE_PYTHON``), where declone and torch are.

``python -m declone schemas MODULE...`` is this Python's own: it imports the modules, which only a
Python with torch can, and writes the schemas of the custom ops they register (_schemas.py).
"""

import os
import subprocess
import sys
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def executable():
    """The CLI executable: inside the installed package, else the build tree's."""
    for candidate in (_PACKAGE / "_bin" / "declone", _PACKAGE.parents[1] / "bin" / "declone"):
        if os.access(candidate, os.X_OK):
            return candidate
    return None


_PYTHON_COMMANDS = """
python -m declone also has:
  schemas MODULE...  write the schemas of the custom ops a Python module registers, for
                     --schemas ('python -m declone schemas --help')
"""


def python_module_main(args=None):
    """``python -m declone``: the CLI, but ``schemas MODULE...`` runs here, and the help says
    so."""
    args = sys.argv[1:] if args is None else list(args)
    if args[:1] == ["schemas"] or args[:2] == ["help", "schemas"]:
        from . import _schemas
        return _schemas.main(args[1:] if args[0] == "schemas" else ["--help"])
    binary = executable()
    if binary is not None and args in (["help"], ["--help"], ["-h"]):
        result = subprocess.run([str(binary), *args], stdout=subprocess.PIPE, text=True)
        sys.stdout.write(result.stdout.rstrip("\n") + "\n" + _PYTHON_COMMANDS)
        return result.returncode
    return main(args)


def main(args=None):
    """Replaces this process with the CLI: same arguments, streams and exit status."""
    args = sys.argv[1:] if args is None else list(args)
    binary = executable()
    if binary is None:
        sys.stderr.write(f"declone: error: the declone executable is missing from {_PACKAGE}; "
                         "reinstall declone\n")
        return 2
    sys.stdout.flush()
    sys.stderr.flush()
    # --fake-tensor runs ops under PyTorch in this interpreter, the one declone is installed in.
    os.environ.setdefault("DECLONE_PYTHON", sys.executable)
    os.execv(binary, [str(binary), *args])


if __name__ == "__main__":
    sys.exit(python_module_main())
