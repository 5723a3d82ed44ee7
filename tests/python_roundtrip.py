"""Loads an exported azg model with torch.jit.load (no azg code), checks meta.json and
that forward reproduces azg's in-process outputs. Exits 77 (skipped) without torch."""
import array
import json
import sys

try:
    import torch
except ImportError:
    print("python3 cannot import torch: skipped")
    sys.exit(77)

d = sys.argv[1]
extra = {"meta.json": ""}
model = torch.jit.load(d + "/model.pt", _extra_files=extra)
meta = json.loads(extra["meta.json"])
b, c, h, w, a = (int(x) for x in open(d + "/shape.txt").read().split())
assert meta["game"] == "imbriqua", meta
assert meta["planes"] == [c, h, w] and meta["policy_size"] == a, meta


def floats(name):
    values = array.array("f")
    with open(d + "/" + name, "rb") as f:
        values.frombytes(f.read())
    return torch.tensor(values)


planes = floats("input.bin").reshape(b, c, h, w)
with torch.no_grad():
    policy, value = model(planes)
assert tuple(policy.shape) == (b, a) and tuple(value.shape) == (b,)
worst = max((policy.flatten() - floats("policy.bin")).abs().max().item(),
            (value - floats("value.bin")).abs().max().item())
print("max difference", worst)
sys.exit(0 if worst < 1e-4 else 1)
