"""`pip install .` from this checkout into a fresh virtual environment, then the installed
declone: the console script and `python -m declone` (the packaged C++ CLI), `--version` against
`declone.__version__`, `declone opt` on the Mamba example, the verify plugin (its RPATH into
site-packages/torch/lib, and `declone verify` running libtorch) and `import declone.fx` with
torch 2.13.

The install compiles the project (minutes on 2 cores; ccache, where installed, shortens a second
run), so the suite's directory runs leave this file out (conftest.py); CTest runs it on its own:

    python -m pytest -q test/python/test_packaging.py

DECLONE_SKIP_PACKAGING=1 skips it. It is skipped too when pip cannot fetch the build
requirements (no index reachable and none in pip's cache or find-links).
"""

import os
import pathlib
import re
import shutil
import subprocess
import sys
import time

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "mamba_slice.fx"
TORCH = "torch==2.13.0"
INSTALL_TIMEOUT = 1800

pytestmark = pytest.mark.skipif(os.environ.get("DECLONE_SKIP_PACKAGING") == "1",
                                reason="DECLONE_SKIP_PACKAGING=1")


# The environment of every command: without the build tree's declone (CTest puts it on
# PYTHONPATH for conftest.py), which would stand in for the installed one.
ENVIRONMENT = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}


def run(command, *, timeout=120, check=True, env=None, **kwargs):
    result = subprocess.run([str(part) for part in command], capture_output=True, text=True,
                            timeout=timeout, env=env or ENVIRONMENT, **kwargs)
    if check and result.returncode != 0:
        pytest.fail(f"{' '.join(map(str, command))} exited {result.returncode}\n"
                    f"--- stdout ---\n{result.stdout[-4000:]}\n"
                    f"--- stderr ---\n{result.stderr[-4000:]}")
    return result


def build_requirements():
    tomllib = pytest.importorskip("tomllib", reason="reading pyproject.toml needs Python 3.11")
    with open(REPO / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["build-system"]["requires"]


def project_version():
    text = (REPO / "CMakeLists.txt").read_text()
    return re.search(r"project\(declone\s+VERSION\s+([0-9.]+)", text).group(1)


class Installation:
    """The fresh environment declone was installed into, and what it took."""

    def __init__(self, root):
        self.root = root
        self.venv = root / "venv"
        self.bin = self.venv / "bin"
        self.python = self.bin / "python"
        self.timings = {}
        self.torch = None  # how torch 2.13 was made available

    @property
    def package(self):
        found = run([self.python, "-c", "import declone; print(declone.__file__)"], cwd=self.root)
        return pathlib.Path(found.stdout.strip()).parent

    def timed(self, what, command, **kwargs):
        start = time.monotonic()
        result = run(command, **kwargs)
        self.timings[what] = time.monotonic() - start
        return result


def provide_torch(installation):
    """torch 2.13 in the fresh environment's site-packages, where a user's lies, so that the
    plugin finds libtorch through $ORIGIN/../../torch/lib as it will for them:
    - this interpreter's torch (the venv `make deps` creates, which CTest runs this file with),
      linked in: a symlink to its package folder and a .pth file for its dependencies. Installing
      the 900 MB wheel again costs about 70 s, and deleting it 80 s more, on 2 cores;
    - else PyTorch's CPU wheel where it lies on disk (pip's find-links), installed. Never from an
      index: there torch==2.13.0 is the multi-GB CUDA build."""
    purelib = pathlib.Path(run([installation.python, "-c",
                                "import sysconfig; print(sysconfig.get_paths()['purelib'])"]
                               ).stdout.strip())
    try:
        import torch
    except ImportError:
        torch = None
    if torch is not None and torch.__version__.startswith("2.13"):
        package = pathlib.Path(torch.__file__).parent
        (purelib / "torch").symlink_to(package, target_is_directory=True)
        (purelib / "declone-test-torch-dependencies.pth").write_text(f"{package.parent}\n")
        installation.torch = f"linked from {package}"
        return
    pip = [installation.python, "-m", "pip", "install", "--quiet"]
    start = time.monotonic()
    local = run(pip + ["--no-index", "--no-deps", TORCH], timeout=600, check=False)
    if local.returncode == 0:
        run(pip + [TORCH], timeout=600)  # its dependencies, small and pure Python
        installation.timings["pip install torch (wheel on disk)"] = time.monotonic() - start
        installation.torch = "installed from the wheel on disk"


@pytest.fixture(scope="module")
def installed(tmp_path_factory, request):
    root = tmp_path_factory.mktemp("packaging")
    installation = Installation(root)
    try:
        installation.timed("python -m venv", [sys.executable, "-m", "venv", installation.venv])
        # The build requirements, fetched (or found in pip's cache or find-links) as pip's build
        # isolation will: without them there is nothing to test.
        probe = run([installation.python, "-m", "pip", "download", "--quiet", "--dest",
                     root / "build-requirements", *build_requirements()],
                    timeout=300, check=False)
        if probe.returncode != 0:
            reason = (probe.stderr.strip().splitlines() or ["?"])[-1]
            pytest.skip("pip cannot fetch the build requirements (no index reachable, none in "
                        f"its cache or find-links): {reason}")
        provide_torch(installation)

        environment = dict(ENVIRONMENT)
        if shutil.which("ccache") and "CMAKE_CXX_COMPILER_LAUNCHER" not in environment:
            # A build folder inside `root`, and paths under `root` made relative to it, give the
            # same compile commands every run, so that ccache can answer them; the sloppiness
            # lets it cache the runtime's precompiled header and the files that use it.
            environment.update(CMAKE_CXX_COMPILER_LAUNCHER="ccache", CCACHE_BASEDIR=str(root),
                               CCACHE_SLOPPINESS="pch_defines,time_macros,include_file_mtime,"
                                                 "include_file_ctime")
        log = root / "pip-install.log"
        start = time.monotonic()
        with open(log, "w") as out:
            status = subprocess.run(
                [installation.python, "-m", "pip", "install", "-v",
                 f"--config-settings=build-dir={root / 'build'}", REPO],
                stdout=out, stderr=subprocess.STDOUT, env=environment, cwd=root,
                timeout=INSTALL_TIMEOUT).returncode
        installation.timings["pip install ."] = time.monotonic() - start
        installation.log = log.read_text()
        if status != 0:
            pytest.fail(f"pip install {REPO} exited {status}:\n{installation.log[-6000:]}")
        shutil.rmtree(root / "build", ignore_errors=True)  # keeps only the environment
        yield installation
    finally:
        plugins = request.config.pluginmanager
        reporter = plugins.get_plugin("terminalreporter")
        capture = plugins.get_plugin("capturemanager")
        if reporter and capture and installation.timings:
            with capture.global_and_fixture_disabled():
                reporter.write_line("")
                reporter.write_line(f"packaging: torch {installation.torch or 'not available'}")
                for what, seconds in installation.timings.items():
                    reporter.write_line(f"packaging: {what}: {seconds:.1f} s")
        shutil.rmtree(root, ignore_errors=True)


def test_package_contents(installed):
    package = installed.package
    names = {path.name for path in package.iterdir()}
    assert {"__init__.py", "__main__.py", "fx.py", "_version.py"} <= names
    assert any(name.startswith("_declone.") and name.endswith(".so") for name in names)
    assert os.access(package / "_bin" / "declone", os.X_OK)
    # No runtime dependency: torch is the user's.
    requires = run([installed.python, "-c",
                    "import importlib.metadata as m; print(m.requires('declone'))"])
    assert requires.stdout.strip() == "None"


def test_version_agrees(installed):
    cli = run([installed.bin / "declone", "--version"])
    module = run([installed.python, "-c", "import declone; print(declone.__version__)"],
                 cwd=installed.root)
    assert cli.stdout.strip() == f"declone {module.stdout.strip()}"
    assert module.stdout.strip() == project_version()


def test_opt_on_the_example(installed):
    result = run([installed.bin / "declone", "opt", EXAMPLE, "--remarks"])
    assert result.stdout.startswith("class GraphModule(torch.nn.Module):")
    # The Mamba clone stays (the custom op needs its strides); the other one goes.
    assert result.stdout.count("torch.ops.aten.clone.default") == 1
    assert "clone 'clone' kept [layout-changed]" in result.stderr
    assert "clone 'clone_1' removed" in result.stderr


def test_python_dash_m_and_exit_status(installed):
    help_text = run([installed.python, "-m", "declone", "--help"], cwd=installed.root)
    assert help_text.stdout.startswith("usage: declone")
    for launcher in ([installed.bin / "declone"], [installed.python, "-m", "declone"]):
        missing = run([*launcher, "opt", installed.root / "missing.fx"], check=False,
                      cwd=installed.root)
        assert missing.returncode == 2, missing.stderr
        assert "missing.fx" in missing.stderr


def test_declone_fx_with_torch(installed):
    if not installed.torch:
        pytest.skip("no torch 2.13: neither this interpreter's nor a wheel on disk")
    script = (
        "import torch, declone.fx\n"
        "from torch.fx.experimental.proxy_tensor import make_fx\n"
        "assert torch.__version__.startswith('2.13'), torch.__version__\n"
        "gm = make_fx(lambda x: x.clone() * 2)(torch.ones(3))\n"
        "remarks = declone.fx.eliminate_clones(gm.graph)\n"
        "print(*remarks, sep='\\n')\n")
    result = run([installed.python, "-c", script], cwd=installed.root)
    assert "removed" in result.stdout


def test_fake_tensor_runs_in_the_installed_python(installed):
    """The console script hands its own interpreter, where declone and torch are installed, to
    --fake-tensor; the op no rule covers (tril) gets FakeTensor's strides."""
    if not installed.torch:
        pytest.skip("no torch 2.13 in the environment")
    dump = installed.root / "tril.fx"
    dump.write_text('def forward(self, x: "f32[3, 4][1, 3]cpu"):\n'
                    '    tril: "f32[3, 4]cpu" = torch.ops.aten.tril.default(x, 1)\n'
                    '    return (tril,)\n')
    environment = {k: v for k, v in ENVIRONMENT.items() if k != "DECLONE_PYTHON"}
    result = run([installed.bin / "declone", "print", "--annotate", "--fake-tensor", dump],
                 env=environment)
    assert 'tril: "f32[3, 4][4, 1]cpu"' in result.stdout, result.stderr
    assert "warning" not in result.stderr, result.stderr


def test_verify_plugin(installed):
    if not installed.torch:
        pytest.skip("no torch 2.13 to build the verify plugin against")
    assert "declone verify runs libtorch 2.13" in installed.log
    plugin = installed.package / "_bin" / "libdeclone-verify.so"
    assert plugin.exists()
    if shutil.which("ldd"):
        ldd = run(["ldd", plugin])
        assert "not found" not in ldd.stdout, ldd.stdout
        # Found through the relative entry, as it will be wherever the environment moves.
        assert "_bin/../../torch/lib/libtorch_cpu.so" in ldd.stdout, ldd.stdout
    optimized = installed.root / "optimized.fx"
    run([installed.bin / "declone", "opt", EXAMPLE, "-o", optimized])
    verified = run([installed.bin / "declone", "verify", EXAMPLE, optimized], timeout=300)
    assert "equivalent" in verified.stdout + verified.stderr
    run([installed.bin / "declone", "opt", "--verify", EXAMPLE], timeout=300)


def test_without_the_plugin_verify_says_what_to_install(installed):
    bin_dir = installed.package / "_bin"
    plugin = bin_dir / "libdeclone-verify.so"
    aside = bin_dir / "libdeclone-verify.so.aside"
    if plugin.exists():
        plugin.rename(aside)
    try:
        result = run([installed.bin / "declone", "verify", EXAMPLE, EXAMPLE], check=False)
    finally:
        if aside.exists():
            aside.rename(plugin)
    assert result.returncode == 2
    assert "pip install torch" in result.stderr, result.stderr
