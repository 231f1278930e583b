"""`-o FILE` replaces FILE whole: a write that is interrupted, fails or races another leaves
either the old file or a complete new one, never a truncated or interleaved one, and no
temporary file behind. And the schema generator's --help prints help, not a file named --help."""

import os
import pathlib
import signal
import subprocess
import sys
import time

import pytest

import declone_test_support as support

cli = support.cli  # the session fixture


@pytest.fixture(scope="module")
def big_graphs(cli, tmp_path_factory):
    """Two different graphs of 300,000 statements (40 MB each): printing one takes long enough
    to be caught in the middle."""
    generate = pathlib.Path(cli).with_name("declone-generate")
    if not generate.exists():
        pytest.skip("declone-generate not built")
    folder = tmp_path_factory.mktemp("big")
    graphs = []
    for seed in (1, 2):
        path = folder / f"graph{seed}.fx"
        subprocess.run([str(generate), "--nodes", "300000", "--seed", str(seed), "-o", str(path)],
                       check=True)
        graphs.append(path)
    return graphs


def _temporaries(folder):
    return [name for name in os.listdir(folder) if name.endswith(".tmp")]


def _interrupt_while_writing(cli, source, out, signal_number):
    """Runs `declone print SOURCE -o OUT` and sends it the signal once its temporary file
    exists; returns the exit status, or None if the write finished first."""
    # A shell that ran the tests in the background may have set the signal to be ignored.
    def restore_default():
        if signal_number != signal.SIGKILL:
            signal.signal(signal_number, signal.SIG_DFL)
    process = subprocess.Popen([cli, "print", str(source), "-o", str(out)],
                               preexec_fn=restore_default)
    deadline = time.monotonic() + 60
    while process.poll() is None and time.monotonic() < deadline:
        if _temporaries(out.parent):
            process.send_signal(signal_number)
            status = process.wait(timeout=60)
            return status if status != 0 else None
        time.sleep(0.001)
    process.wait(timeout=60)
    return None


@pytest.mark.parametrize("signal_number",
                         [signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGKILL],
                         ids=["SIGINT", "SIGTERM", "SIGHUP", "SIGKILL"])
def test_a_writer_killed_mid_file_leaves_the_old_file(cli, big_graphs, tmp_path, signal_number):
    out = tmp_path / "out.fx"
    for _ in range(5):  # the write may finish before the signal is sent: try again
        out.write_text("the old file\n")
        status = _interrupt_while_writing(cli, big_graphs[0], out, signal_number)
        # Killed between the rename and the exit, it leaves the complete new file: try again.
        if status is not None and out.read_text() == "the old file\n":
            break
    else:
        pytest.skip("every write finished before it could be interrupted")
    assert status == -signal_number
    # SIGKILL cannot be caught: its temporary file stays (beside, never instead of, the output).
    assert len(_temporaries(tmp_path)) == (1 if signal_number == signal.SIGKILL else 0)


def test_concurrent_writers_leave_one_complete_output(cli, big_graphs):
    texts = [path.read_text() for path in big_graphs]
    out = big_graphs[0].parent / "shared.fx"
    for _ in range(3):
        writers = [subprocess.Popen([cli, "print", str(path), "-o", str(out)])
                   for path in big_graphs]
        assert [writer.wait(timeout=120) for writer in writers] == [0, 0]
        assert out.read_text() in texts
    assert _temporaries(out.parent) == []


def test_the_output_keeps_the_mode_of_the_file_it_replaces(cli, tmp_path):
    source = support.REPO / "examples" / "mamba_slice.fx"
    out = tmp_path / "out.fx"
    out.write_text("old\n")
    out.chmod(0o640)
    done = support.run_cli(cli, "print", source, "-o", out)
    assert done.returncode == 0, done.stderr
    assert out.read_text() == source.read_text()
    assert out.stat().st_mode & 0o777 == 0o640


def test_through_a_link_the_file_it_names_is_replaced(cli, tmp_path):
    source = support.REPO / "examples" / "mamba_slice.fx"
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "target.fx"
    target.write_text("old\n")
    link = tmp_path / "link.fx"
    link.symlink_to(target)
    done = support.run_cli(cli, "print", source, "-o", link)
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and target.read_text() == source.read_text()
    # A link to a file not there yet creates it.
    dangling = tmp_path / "dangling.fx"
    dangling.symlink_to(tmp_path / "real" / "new.fx")
    assert support.run_cli(cli, "print", source, "-o", dangling).returncode == 0
    assert dangling.is_symlink() and (tmp_path / "real" / "new.fx").read_text() == \
        source.read_text()


def test_what_is_not_a_regular_file_is_written_in_place(cli, tmp_path):
    source = support.REPO / "examples" / "mamba_slice.fx"
    done = support.run_cli(cli, "print", source, "-o", "/dev/null")
    assert done.returncode == 0, done.stderr
    assert os.path.exists("/dev/null") and not os.path.isfile("/dev/null")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    writer = subprocess.Popen([cli, "print", str(source), "-o", str(fifo)])
    with open(fifo) as pipe:
        assert pipe.read() == source.read_text()
    assert writer.wait(timeout=60) == 0
    assert not os.path.isfile(fifo)


def test_opt_may_replace_its_own_input(cli, tmp_path):
    graph = tmp_path / "graph.fx"
    graph.write_text((support.REPO / "examples" / "mamba_slice.fx").read_text())
    expected = support.run_cli(cli, "opt", graph).stdout
    done = support.run_cli(cli, "opt", graph, "-o", graph)
    assert done.returncode == 0, done.stderr
    assert graph.read_text() == expected
    assert _temporaries(tmp_path) == []


def test_write_errors_name_the_file_and_the_reason(cli, tmp_path):
    source = support.REPO / "examples" / "mamba_slice.fx"
    done = support.run_cli(cli, "print", source, "-o", tmp_path / "missing" / "out.fx")
    assert done.returncode == 2
    assert "out.fx': No such file or directory" in done.stderr
    done = support.run_cli(cli, "print", source, "-o", tmp_path)
    assert done.returncode == 2 and "Is a directory" in done.stderr
    if os.path.exists("/dev/full"):
        with open("/dev/full", "w") as full:
            done = subprocess.run([cli, "print", str(source)], stdout=full,
                                  stderr=subprocess.PIPE, text=True)
        assert done.returncode == 2
        assert "cannot write '<stdout>': No space left on device" in done.stderr


def test_the_schema_generator_prints_help_instead_of_writing_a_file(tmp_path):
    script = support.REPO / "tools" / "gen-schemas" / "dump_schemas.py"
    done = subprocess.run([sys.executable, str(script), "--help"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "usage: dump_schemas.py" in done.stdout
    assert list(tmp_path.iterdir()) == []
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and "the following arguments are required: output" in done.stderr


def test_ctrl_c_in_report_prints_the_table_of_what_finished(cli, tmp_path):
    """The first Ctrl-C stops starting files; the table of those that finished is printed with
    how many did not run, and the exit status is 130 (128 + SIGINT)."""
    generate = pathlib.Path(cli).with_name("declone-generate")
    if not generate.exists():
        pytest.skip("declone-generate not built")
    original = tmp_path / "graph.fx"
    subprocess.run([str(generate), "--nodes", "20000", "--seed", "3", "-o", str(original)],
                   check=True)
    folder = tmp_path / "dumps"
    folder.mkdir()
    files = 400
    for i in range(files):  # hard links: 400 inputs, one file's worth of disk
        os.link(original, folder / f"graph{i:03}.fx")

    process = subprocess.Popen([cli, "report", str(folder), "-j1"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    first = process.stderr.readline()  # the first progress line: the work has begun
    assert first.startswith("report: "), first
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=120)
    assert process.returncode == 128 + signal.SIGINT, err
    assert "interrupted; finishing the files in progress" in err
    lines = out.splitlines()
    assert lines[0].startswith(str(folder) + "/ ")  # the folder heads the table
    assert lines[-2].startswith("total ")
    done = sum(1 for line in lines if line.startswith("graph"))
    assert 0 < done < files
    count = lambda n, word: f"{n} {word}{'' if n == 1 else 's'}"  # noqa: E731
    assert lines[-1] == f"{count(done, 'file')}; interrupted: {count(files - done, 'file')} not run"


def test_report_heading_names_the_folder_whatever_the_row_count(cli, tmp_path):
    graph = "def forward(self, x: \"f32[2][1]cpu\"):\n    clone = torch.ops.aten.clone.default(x)\n    return (clone,)\n"
    for count in (1, 2):
        folder = tmp_path / str(count)
        folder.mkdir()
        for i in range(count):
            (folder / f"g{i}.fx").write_text(graph)
        for top in ([], ["--top", "1"]):
            out = subprocess.run([cli, "report", str(folder), "-q", *top], capture_output=True,
                                 text=True, check=True).stdout
            assert out.splitlines()[0].startswith(f"{folder}/ "), out
            assert out.splitlines()[2].startswith("g0.fx "), out
