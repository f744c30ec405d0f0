"""A stand-in for SGLang's `sgl_kernel` package, for SGLang on a CPU without its kernels.

Why it exists: SGLang imports `sgl_kernel` while it loads (sglang/srt/mem_cache/memory_pool.py
imports sglang/kernels/ops/kvcache/cache_move.py, which imports it), but PyPI's only builds of it,
`sglang-kernel` 0.4.10 and `sgl-kernel` 0.3.21, are CUDA wheels that fail to import without
libcuda.so.1, and there is no sdist to build a CPU one from. With SGLANG_USE_CPU_ENGINE=1,
`--device cpu` and `--attention-backend torch_native`, on a CPU without AMX, SGLang runs every
layer in plain PyTorch and calls no kernel, so the import is all it needs.

What it does: any name, and any submodule (`from sgl_kernel.kvcacheio import ...`), imports; a
kernel it names raises NotImplementedError when called, naming it, so a path that does need a
real kernel fails loudly instead of computing something else.

What would make it unnecessary: a CPU build of sgl-kernel on PyPI (SGLang's own CPU images build
one from source: sgl-kernel/pyproject_cpu.toml), or SGLang importing it only where it calls it.

scripts/engines/fetch-sglang.sh installs this file as the venv's sgl_kernel/__init__.py.
"""

import importlib.abc
import importlib.machinery
import sys
import types

STANDIN = True  # tests and the installer recognise the stand-in by this


class _Kernel:
    """A kernel that is not here: any attribute is another one, calling one raises."""

    def __init__(self, name: str):
        self._name = name

    def __getattr__(self, attr: str) -> "_Kernel":
        if attr.startswith("__"):
            raise AttributeError(attr)
        return _Kernel(f"{self._name}.{attr}")

    def __call__(self, *args, **kwargs):
        raise NotImplementedError(
            f"{self._name} is a CUDA kernel of sgl_kernel; this is the CPU stand-in "
            "(scripts/engines/sgl_kernel_standin.py), which has none")


def _standin_module(name: str) -> types.ModuleType:
    m = types.ModuleType(name)
    m.__getattr__ = lambda attr: _Kernel(f"{name}.{attr}")  # PEP 562
    return m


class _Submodules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds every sgl_kernel.* submodule as a stand-in module."""

    def find_spec(self, fullname, path, target=None):
        if fullname.startswith(__name__ + "."):
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec):
        m = _standin_module(spec.name)
        m.__path__ = []
        return m

    def exec_module(self, module):
        pass


if not any(isinstance(f, _Submodules) for f in sys.meta_path):
    sys.meta_path.insert(0, _Submodules())


def __getattr__(attr: str) -> _Kernel:
    if attr.startswith("__"):
        raise AttributeError(attr)
    return _Kernel(f"{__name__}.{attr}")
