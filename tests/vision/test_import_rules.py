"""The import rules of issue 24: reader ← datasets ← training, `scoring` imports nothing of ours, no circles.

Every `import` in a module counts, the ones inside functions too (a lazy import is still a dependency);
the rules are read from the source with `ast`, so a broken rule is named with its file and line.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("torch", "torchvision", "ultralytics", "onnx")


def module_name(path: Path) -> str:
    """`vision/reader/layout/__init__.py` → `vision.reader.layout`."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(package: str) -> dict[str, Path]:
    """Every module of a top-level package of the checkout, by dotted name."""
    return {module_name(p): p for p in sorted((ROOT / package).rglob("*.py"))}


def imports(path: Path) -> list[tuple[str, int]]:
    """(imported module, line) for every import in a file; `from a import b` names `a.b` too (b may be a module)."""
    found: list[tuple[str, int]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.module, node.lineno))
            found += [(f"{node.module}.{alias.name}", node.lineno) for alias in node.names]
    return found


def within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def broken(package: str, forbidden: tuple[str, ...]) -> list[str]:
    """`file:line imports X` for each import in `package` of a module under one of `forbidden`."""
    return [f"{path.relative_to(ROOT)}:{line} imports {name}"
            for path in modules(package).values() for name, line in imports(path)
            if any(within(name, f) for f in forbidden)]


def test_the_reader_imports_no_datasets_training_or_training_stack():
    assert broken("vision/reader", ("vision.datasets", "vision.training", "app", *HEAVY)) == []


def test_the_datasets_import_no_training_and_no_torch():
    assert broken("vision/datasets", ("vision.training", "app", *HEAVY)) == []


def test_vision_imports_nothing_of_the_app():
    assert broken("vision", ("app",)) == []


def test_scoring_imports_neither_vision_nor_app():
    assert broken("scoring", ("vision", "app", *HEAVY)) == []


def test_the_app_pages_read_photos_without_the_training_code():
    pages = [p for p in (ROOT / "app").rglob("*.py") if "commands" not in p.relative_to(ROOT).parts]
    bad = [f"{p.relative_to(ROOT)}:{line} imports {name}" for p in pages for name, line in imports(p)
           if any(within(name, f) for f in ("vision.training", *HEAVY))]
    assert bad == []


def vision_graph() -> dict[str, set[str]]:
    """Module → the vision modules it imports (names that are not modules, e.g. classes, are dropped)."""
    mods = modules("vision")
    return {m: {n for n, _ in imports(p) if n in mods and n != m} for m, p in mods.items()}


def cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle of the graph (as a path that comes back to its start), or [] when there is none."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> list[str]:
        state[m] = 1
        stack.append(m)
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                return stack[stack.index(n):] + [n]
            if n not in state and (found := visit(n)):
                return found
        stack.pop()
        state[m] = 2
        return []

    for m in sorted(graph):
        if m not in state and (found := visit(m)):
            return found
    return []


def test_no_import_cycle_among_vision_modules():
    assert cycle(vision_graph()) == []


def test_a_cycle_is_found_when_there_is_one():
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) == []


def test_vision_import_and_a_reading_setup_do_not_load_the_training_stack():
    code = (
        "import sys, vision, vision.reader.detector, vision.reader.photo, vision.reader.layout, "
        "vision.datasets.store, vision.datasets.convert, vision.datasets.unlabelled\n"
        f"bad = [m for m in {HEAVY!r} if m in sys.modules]\n"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stdout + r.stderr
