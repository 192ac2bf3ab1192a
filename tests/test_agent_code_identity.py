"""What ties a user agent's answers to its code (evaluator/plugins.py): every file of its package,
a fresh import after an edit in the same process, a class without a source file, and the
identity() hook's value as results.json holds it."""

from __future__ import annotations

import json
import sys
import textwrap
import types

import pytest

from evaluator.cli import main

AGENT = textwrap.dedent("""
    from {pkg}.helpers import reply

    class Echo:
        def __init__(self, model=None, **kw):
            pass
        def write(self, session):
            pass
        def answer(self, query):
            return reply()
""")


def _run(sample_snapshot, out, agent, *extra):
    return main(["run", "--no-progress", "--task", "memory_update", "--limit", "2", "--data",
                 str(sample_snapshot), "--output_path", str(out), "--agent", agent, *extra])


def _predictions(out):
    lines = (out / "samples_memory_update.jsonl").read_text().splitlines()
    return {json.loads(line)["prediction"] for line in lines}


def _package(tmp_path, name, word):
    pkg = tmp_path / "code" / name
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "agent.py").write_text(AGENT.format(pkg=name))
    (pkg / "helpers.py").write_text(f"def reply():\n    return {word!r}\n")
    return pkg


@pytest.fixture
def forget_modules():
    before = set(sys.modules)
    yield
    for name in set(sys.modules) - before:
        sys.modules.pop(name, None)


def test_editing_a_helper_module_of_the_agents_package_refuses_the_resume(
        sample_snapshot, tmp_path, capsys, forget_modules):
    # the audit: only agent.py was fingerprinted; a changed helpers.py reused 3 old answers
    pkg = _package(tmp_path, "pkg_ident_a", "alpha")
    out = tmp_path / "run"
    inc = ["--include_path", str(pkg.parent)]
    assert _run(sample_snapshot, out, "pkg_ident_a.agent:Echo", *inc, "--limit", "1") == 0
    (pkg / "helpers.py").write_text("def reply():\n    return 'beta'\n")
    capsys.readouterr()
    assert _run(sample_snapshot, out, "pkg_ident_a.agent:Echo", *inc) == 1
    assert "the agent's source changed" in capsys.readouterr().err
    assert _predictions(out) == {"alpha"}


def test_an_edit_between_two_runs_in_one_process_runs_the_edited_code(
        sample_snapshot, tmp_path, capsys, forget_modules):
    # the audit: the second evaluate() ran the stale class and recorded the edited file's digest,
    # so a later resume took the old answers for the new code's
    pkg = _package(tmp_path, "pkg_ident_b", "alpha")
    inc = ["--include_path", str(pkg.parent)]
    first, second = tmp_path / "first", tmp_path / "second"
    assert _run(sample_snapshot, first, "pkg_ident_b.agent:Echo", *inc) == 0
    (pkg / "helpers.py").write_text("def reply():\n    return 'beta'\n")
    assert _run(sample_snapshot, second, "pkg_ident_b.agent:Echo", *inc) == 0
    assert _predictions(first) == {"alpha"} and _predictions(second) == {"beta"}
    capsys.readouterr()
    assert _run(sample_snapshot, first, "pkg_ident_b.agent:Echo", *inc) == 1
    assert "the agent's source changed" in capsys.readouterr().err


def test_the_same_module_name_from_another_folder_is_imported_from_there(
        sample_snapshot, tmp_path, forget_modules):
    a = _package(tmp_path / "a", "pkg_ident_c", "alpha")
    b = _package(tmp_path / "b", "pkg_ident_c", "beta")
    assert _run(sample_snapshot, tmp_path / "ra", "pkg_ident_c.agent:Echo", "--include_path",
                str(a.parent)) == 0
    # a second --include_path in the same process: the module of that name is now found in b
    from evaluator import plugins

    plugins._include_paths.clear()
    assert _run(sample_snapshot, tmp_path / "rb", "pkg_ident_c.agent:Echo", "--include_path",
                str(b.parent)) == 0
    assert _predictions(tmp_path / "ra") == {"alpha"} and _predictions(tmp_path / "rb") == {"beta"}


def test_a_class_without_a_source_file_cannot_resume_a_folder(sample_snapshot, tmp_path, capsys,
                                                                forget_modules):
    # the audit: a class defined from stdin recorded source_sha256 None, and an edited class
    # then filled the rest of the folder with no warning
    module = types.ModuleType("nofile_ident")
    exec(textwrap.dedent("""
        class Echo:
            def __init__(self, model=None, **kw):
                pass
            def write(self, session):
                pass
            def answer(self, query):
                return "one"
    """), module.__dict__)
    sys.modules["nofile_ident"] = module
    out = tmp_path / "run"
    assert _run(sample_snapshot, out, "nofile_ident:Echo", "--limit", "1") == 0
    capsys.readouterr()
    assert _run(sample_snapshot, out, "nofile_ident:Echo") == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot be read" in err and "--overwrite" in err


IDENTITY_AGENT = textwrap.dedent("""
    class Echo:
        def __init__(self, model=None, **kw):
            pass
        def write(self, session):
            pass
        def answer(self, query):
            return "one"
        @staticmethod
        def identity(agent_args):
            {body}
""")


@pytest.mark.parametrize("body, resumes, error", [
    ("return {'torch': (2, 4)}", True, None),            # read back as a list: same identity
    ("raise RuntimeError('no version file')", False, "its identity() failed (RuntimeError: no version file)"),
    ("return {'x': object()}", False, "its identity() must return JSON data"),
])
def test_the_identity_hook_is_compared_as_results_json_holds_it(
        sample_snapshot, tmp_path, capsys, forget_modules, body, resumes, error):
    name = f"ident_hook_{abs(hash(body)) % 10**8}"
    (tmp_path / f"{name}.py").write_text(IDENTITY_AGENT.format(body=body))
    out = tmp_path / "run"
    inc = ["--include_path", str(tmp_path)]
    if resumes:
        assert _run(sample_snapshot, out, f"{name}:Echo", *inc, "--limit", "1") == 0
        assert _run(sample_snapshot, out, f"{name}:Echo", *inc) == 0
        return
    capsys.readouterr()
    assert _run(sample_snapshot, out, f"{name}:Echo", *inc) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and error in err and "Traceback" not in err
