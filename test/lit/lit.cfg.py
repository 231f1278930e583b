# lit configuration for declone's golden tests: `# RUN:` / `# CHECK:` lines in .fx files.
import os

import lit.formats

config.name = "declone"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".fx"]
config.excludes = ["Inputs", "tools"]
config.test_source_root = config.source_root
config.test_exec_root = os.path.join(config.declone_bin_dir, "..", "test", "lit-out")

config.substitutions.append(("%declone", os.path.join(config.declone_bin_dir, "declone")))
config.substitutions.append(("%FileCheck", config.filecheck))
config.substitutions.append(("%corpus", config.corpus_dir))
config.substitutions.append(
    ("%expect-exit", os.path.join(config.source_root, "tools", "expect-exit")))
# --fake-tensor's tests expect PyTorch 2.13's FakeTensor, the virtual environment's.
if config.venv_python and os.path.exists(config.venv_python):
    config.available_features.add("fake-tensor")
    config.environment["DECLONE_PYTHON"] = config.venv_python
config.environment["PATH"] = os.pathsep.join(
    [config.declone_bin_dir, os.path.dirname(config.filecheck), config.environment.get("PATH", "")])
