"""Which GPU a training child gets: counted without a CUDA context in the app, one device per run
slot (transformer.ops.runs.launch)."""
from __future__ import annotations


def cuda_device_count() -> int:
    """CUDA devices this process can see (0 without torch or without CUDA). Counting does not
    create a CUDA context in this process."""
    try:
        import torch
    except ImportError:
        return 0
    try:
        return int(torch.cuda.device_count()) if torch.cuda.is_available() else 0
    except Exception:  # noqa: BLE001 - a broken driver means: no GPU for the children
        return 0


def gpu_for_slot(index: int, env: dict, n_devices: int) -> str | None:
    """The CUDA_VISIBLE_DEVICES value for the child holding slot `index`: one device, the
    index-th (modulo their number) of those the launcher sees. None on a machine without CUDA."""
    if n_devices <= 0:
        return None
    visible = [d.strip() for d in (env.get("CUDA_VISIBLE_DEVICES") or "").split(",") if d.strip()]
    if not visible:
        visible = [str(i) for i in range(n_devices)]
    return visible[index % len(visible)]
