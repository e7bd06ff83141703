"""The type stubs (docview/__init__.pyi) match the module: every name, every signature."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

import docview

STUB = Path(docview.__file__).with_name("__init__.pyi")


def stub_tree() -> ast.Module:
    return ast.parse(STUB.read_text(encoding="utf-8"))


def stub_params(fn: ast.FunctionDef) -> list[tuple[str, str, str | None]]:
    """(name, kind, default source) of each parameter, self left out."""
    a = fn.args
    out = []
    positional = a.posonlyargs + a.args
    defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
    for arg, default in zip(positional, defaults):
        if arg.arg == "self":
            continue
        out.append((arg.arg, "POSITIONAL_OR_KEYWORD", None if default is None else ast.unparse(default)))
    for arg, default in zip(a.kwonlyargs, a.kw_defaults):
        out.append((arg.arg, "KEYWORD_ONLY", None if default is None else ast.unparse(default)))
    return out


def runtime_params(obj) -> list[tuple[str, str, str | None]]:
    out = []
    for p in inspect.signature(obj).parameters.values():
        if p.name == "self":
            continue
        default = None if p.default is inspect.Parameter.empty else repr(p.default)
        out.append((p.name, p.kind.name, default))
    return out


def stub_functions():
    for node in stub_tree().body:
        if isinstance(node, ast.FunctionDef):
            yield node.name, node


def stub_methods():
    for node in stub_tree().body:
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and not any(
                    isinstance(d, ast.Name) and d.id == "property" for d in item.decorator_list
                ):
                    yield node.name, item.name, item


@pytest.mark.parametrize("name,fn", list(stub_functions()))
def test_functions_match(name, fn):
    assert runtime_params(getattr(docview, name)) == stub_params(fn)


@pytest.mark.parametrize("cls,name,fn", list(stub_methods()))
def test_methods_match(cls, name, fn):
    if name in ("__iter__", "__next__"):
        assert hasattr(getattr(docview, cls), name)
        return
    target = getattr(docview, cls)
    if name == "__init__":
        # A native class's __init__ has no __text_signature__ under abi3 before Python 3.10:
        # check instead that it takes the stub's parameters, by name, with the stub's defaults.
        params = stub_params(fn)
        kwargs = {n: ast.literal_eval(d) for n, _, d in params if d is not None}
        obj = target(**kwargs)
        for n, _, d in params:
            if d is not None and hasattr(obj, n):
                assert getattr(obj, n) == ast.literal_eval(d), f"{cls}.{n}"
        return
    assert runtime_params(getattr(target, name)) == stub_params(fn), f"{cls}.{name}"


def test_every_public_name_is_in_the_stub():
    names = set()
    for node in stub_tree().body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.ImportFrom):
            names.update(a.asname or a.name for a in node.names)
    assert set(docview.__all__) <= names, set(docview.__all__) - names


def test_every_property_is_in_the_stub():
    for node in stub_tree().body:
        if isinstance(node, ast.ClassDef):
            stubbed = {
                i.name
                for i in node.body
                if isinstance(i, ast.FunctionDef)
            }
            cls = getattr(docview, node.name)
            public = {n for n in dir(cls) if not n.startswith("_")}
            assert public == stubbed - {"__init__", "__iter__", "__next__"}, node.name


def test_everything_has_a_docstring():
    for name in docview.__all__:
        obj = getattr(docview, name)
        if callable(obj):
            assert obj.__doc__ and len(obj.__doc__) > 20, name
    for cls in (docview.Extraction, docview.Extractor, docview.DocViews):
        for n in dir(cls):
            if not n.startswith("_"):
                assert getattr(cls, n).__doc__, f"{cls.__name__}.{n}"


def literal_values(name: str) -> tuple[str, ...]:
    """The strings of the stub's `name = Literal[...]` alias."""
    for node in stub_tree().body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in node.targets
        ):
            sub = node.value
            assert isinstance(sub, ast.Subscript), ast.unparse(sub)
            items = sub.slice.elts if isinstance(sub.slice, ast.Tuple) else [sub.slice]
            return tuple(ast.literal_eval(i) for i in items)
    raise AssertionError(f"no {name} in the stub")


def test_the_stub_literals_are_the_modules_names():
    # The cleaner names live in the Rust library (docview_clean::CLEANERS); the stub repeats
    # them for type checkers, and must not drift.
    assert literal_values("_Cleaner") == tuple(docview.CLEANERS)
    assert literal_values("_Format") == tuple(docview.FORMATS)
