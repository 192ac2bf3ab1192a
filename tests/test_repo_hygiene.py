"""The checkout ignores what br-eval writes into it by default."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from evaluator.evaluate import default_output_path

REPO = Path(__file__).resolve().parents[1]


def test_default_run_folder_is_git_ignored(tmp_path):
    top = default_output_path("baseline", None, {}).split("/")[0]
    patterns = [line.strip() for line in (REPO / ".gitignore").read_text().splitlines()]
    assert f"{top}/" in patterns or top in patterns
    if shutil.which("git") is None:
        pytest.skip("git is not installed: the pattern is listed, git's reading of it is not checked")
    # git's own reading of the file, in a scratch repository with the same .gitignore.
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    shutil.copy(REPO / ".gitignore", tmp_path / ".gitignore")
    out = tmp_path / default_output_path("rag", "openai", {"model": "org/m"})
    out.mkdir(parents=True)
    (out / "results.json").write_text("{}")
    res = subprocess.run(["git", "-C", str(tmp_path), "check-ignore", "-q",
                          str(out.relative_to(tmp_path) / "results.json")])
    assert res.returncode == 0


def test_top_level_is_the_fixed_layout():
    """The project's top level is fixed (beyondrecall/, evaluator/, media_cache/, tests/,
    pyproject.toml, README.md, plus .ci/, bench/ and docs/, the reference pages the README links):
    a new folder there is a layout change."""
    if shutil.which("git") is None or not (REPO / ".git").exists():
        pytest.skip("not a git checkout: the tracked files cannot be listed")
    files = subprocess.run(["git", "-C", str(REPO), "ls-files"], capture_output=True, text=True,
                           check=True).stdout.splitlines()
    top = {f.split("/")[0] for f in files}
    assert top <= {"beyondrecall", "evaluator", "media_cache", "tests", "pyproject.toml",
                   "README.md", ".ci", "bench", "docs", ".gitignore"}, sorted(top)


# -- the import graph ------------------------------------------------------------------------
# Built from the source with `ast`: every `import` / `from ... import` is an edge, at the top of a
# module or inside a function alike (a function-local import is a dependency all the same; it
# only runs later). `from pkg import name` is an edge to pkg.name when that is a module, else to
# pkg. Modules loaded by a "module:attr" string (the task registry) are not edges.
PACKAGES = ("beyondrecall", "media_cache", "evaluator")
# Package -> the packages it may import (DESIGN.md: imports point one way).
MAY_IMPORT = {"evaluator": {"beyondrecall", "media_cache"}, "beyondrecall": set(),
              "media_cache": set()}
GENERATORS = ("beyondrecall.sample", "evaluator.realcompanion.sample")
FALLBACK = "evaluator.datasets"   # the one module that turns "no data" into a generated sample


def import_graph(root: Path, packages=PACKAGES) -> dict[str, dict[str, int]]:
    """{module: {imported module: first line}} for every module of `packages` under `root`."""
    import ast

    files = {}
    for pkg in packages:
        for f in sorted((root / pkg).rglob("*.py")):
            parts = list(f.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            files[".".join(parts)] = f
    graph: dict[str, dict[str, int]] = {}
    for mod, f in files.items():
        edges = graph.setdefault(mod, {})
        here = mod.split(".") if f.name == "__init__.py" else mod.split(".")[:-1]
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"), str(f))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join(here[:len(here) - node.level + 1] + ([base] if base else []))
                names = [f"{base}.{a.name}" if f"{base}.{a.name}" in files else base
                         for a in node.names]
            else:
                continue
            for name in names:
                while name and name not in files:      # a.b.c -> the module that defines it
                    name = name.rpartition(".")[0]
                if name and name != mod:
                    edges.setdefault(name, node.lineno)
    return graph


def cycles(graph: dict[str, dict[str, int]]) -> list[tuple[list[str], list[str]]]:
    """(one cycle a -> b -> ... -> a, all the modules of its group) for each group of modules
    that import each other (strongly connected), edges within one package only."""
    def same(a, b):
        return a.split(".")[0] == b.split(".")[0]

    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(v):   # Tarjan; the graph is a few hundred modules deep at most
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if not same(v, w) or w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    out = []
    for group in groups:
        members, start = set(group), group[0]
        path, seen = [start], {start}
        while True:   # walk inside the group until the walk closes on itself
            nxt = sorted(w for w in graph[path[-1]] if w in members)
            back = [w for w in nxt if w in seen]
            if back:
                out.append((path[path.index(back[0]):] + [back[0]], group))
                break
            path.append(nxt[0])
            seen.add(nxt[0])
    return out


def back_edges(graph: dict[str, dict[str, int]]) -> list[str]:
    """Imports between packages that MAY_IMPORT does not allow, as `a (line n) -> b`."""
    out = []
    for mod, edges in sorted(graph.items()):
        src = mod.split(".")[0]
        for target, line in sorted(edges.items()):
            dst = target.split(".")[0]
            if dst != src and dst in MAY_IMPORT and dst not in MAY_IMPORT.get(src, set()):
                out.append(f"{mod} (line {line}) -> {target}")
    return out


def test_no_import_cycle_inside_a_package():
    """Each package's modules form a tree: no module imports, even inside a function, one that
    imports it back (issue 27: snapshot, checksums, card and sample were one cycle)."""
    found = cycles(import_graph(REPO))
    assert not found, "import cycles: " + "; ".join(
        f"{' -> '.join(c)} (a group of {len(g)}: {', '.join(g)})" for c, g in found)


def test_imports_point_one_way_between_packages():
    """evaluator may import beyondrecall and media_cache; those two import neither evaluator nor
    each other (top-level and function-local imports alike)."""
    assert back_edges(import_graph(REPO)) == []


def test_readers_never_import_a_sample_generator():
    """The generated samples are the evaluator's fallback, decided in one place: no reader (the
    data layer, the RealCompanion loader, a command) imports a generator."""
    graph = import_graph(REPO)
    wrong = [f"{mod} (line {edges[g]}) -> {g}" for mod, edges in sorted(graph.items())
             for g in GENERATORS if g in edges and mod not in (FALLBACK, *GENERATORS)]
    assert wrong == [], "readers importing a sample generator: " + "; ".join(wrong)
    assert all(g in graph[FALLBACK] for g in GENERATORS)


def test_the_graph_sees_local_relative_and_cross_package_imports(tmp_path):
    """The checks above can fail: a planted cycle through a function-local and a relative
    import, and a planted back edge, are found and named."""
    for rel, text in {
        "beyondrecall/__init__.py": "",
        "beyondrecall/a.py": "from beyondrecall import b\n",
        "beyondrecall/b.py": "def f():\n    from .c import x\n",
        "beyondrecall/c.py": "def g():\n    import beyondrecall.a\n\nx = 1\n",
        "beyondrecall/leaf.py": "import os\n",
        "media_cache/__init__.py": "",
        "media_cache/m.py": "def h():\n    from evaluator.x import y\n",
        "evaluator/__init__.py": "",
        "evaluator/x.py": "import beyondrecall.leaf\nfrom media_cache import m\ny = 1\n",
    }.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    graph = import_graph(tmp_path)
    assert graph["evaluator.x"] == {"beyondrecall.leaf": 1, "media_cache.m": 2}
    assert cycles(graph) == [(["beyondrecall.a", "beyondrecall.b", "beyondrecall.c",
                               "beyondrecall.a"], ["beyondrecall.a", "beyondrecall.b",
                                                   "beyondrecall.c"])]
    assert back_edges(graph) == ["media_cache.m (line 2) -> evaluator.x"]


def test_pyproject_license_is_an_spdx_expression_setuptools_reads_without_warning():
    """Issue 25, item 8: the `license = {text = ...}` table is deprecated (setuptools stops
    building it after 2027-02-18); an SPDX string and license-files need setuptools >= 77."""
    import tomllib
    import warnings

    setuptools = pytest.importorskip("setuptools")
    from packaging.licenses import canonicalize_license_expression
    from setuptools.config.pyprojecttoml import apply_configuration
    from setuptools.dist import Distribution

    meta = tomllib.loads((REPO / "pyproject.toml").read_text())
    project = meta["project"]
    assert isinstance(project["license"], str)
    assert canonicalize_license_expression(project["license"]) == project["license"]
    for pattern in project["license-files"]:
        assert list(REPO.glob(pattern)), pattern
    assert "setuptools>=77" in meta["build-system"]["requires"]
    if tuple(int(x) for x in setuptools.__version__.split(".")[:2]) < (77, 0):
        pytest.skip(f"setuptools {setuptools.__version__} predates the SPDX license field")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        dist = apply_configuration(Distribution(), REPO / "pyproject.toml")
    license_warnings = [str(w.message) for w in caught if "license" in str(w.message).lower()]
    assert not license_warnings, license_warnings
    assert dist.metadata.license_expression == project["license"]


def test_readme_lists_every_extra_right_after_the_first_install_command():
    """Issue 25, item 3: `pip install .` does not cover the next steps; the README says, next to
    that first command, which extra enables what (every extra pyproject.toml defines, no other)."""
    import re
    import tomllib

    extras = set(tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"])
    readme = (REPO / "README.md").read_text()
    first = readme.index("pip install . && br-eval")
    table = readme[first:readme.index("\n\n", readme.index("| extra |", first))]
    assert readme.index("| extra |", first) < readme.index("```bash", first + 1)   # before the next step
    rows = re.findall(r"^\| `([a-z0-9]+)` \| (.+?) \| (.+?) \|$", table, re.M)
    assert {name for name, _, _ in rows} == extras
    assert all(re.search(r"\d", size) for _, _, size in rows)      # each with its size
