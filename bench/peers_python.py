#!/usr/bin/env python3
"""PyTorch and CuPy peers of Coalesce's fast variants, timed like the engine's Runner.

Each call is timed between its own pair of CUDA events after warm-ups; the median of the calls is
reported. Each library measures its own device-to-device copy in this process for its % of copy.
Every result is checked on a sample of outputs against NumPy (float64, or exact int64 for integer
input) before it is printed, so a wrong call is never reported as fast. One JSON object per line on
stdout.

--types picks the element types: f32 (the default; PyTorch and CuPy), u8 and u16 (CuPy only:
transpose, sums in the narrowest of uint32/uint64 that cannot overflow, as Coalesce's typed
references, and uniform_filter1d on the integer array). Lines of u8/u16 carry "type".

    python3 bench/peers_python.py --sizes 8192x8192,8000x6000 --radii 4,32 --reps 50
    python3 bench/peers_python.py --only cupy --types u8,u16 --radii 1,4,16,32,64 --reps 20
"""
import argparse
import json
import statistics
import sys

import numpy as np

WARMUPS = 5
INT_TYPES = {"u8": np.uint8, "u16": np.uint16}


def parse_sizes(text):
    out = []
    for part in text.split(","):
        r, c = part.lower().split("x")
        out.append((int(r), int(c)))
    return out


def bytes_moved(op, rows, cols, elem=4, sum_elem=4):
    """Input read once + output written once [bytes]; elem and sum_elem are element sizes."""
    n = rows * cols
    if op == "row_sums":
        return elem * n + sum_elem * rows
    if op == "col_sums":
        return elem * n + sum_elem * cols
    return 2 * elem * n  # copy, transpose, filters


def sum_dtype(terms, dtype):
    """The narrowest of uint32 and uint64 that holds a sum of `terms` elements of an integer dtype
    (coalesce/typed_reference.hpp's sum_width)."""
    return np.uint32 if terms * int(np.iinfo(dtype).max) <= 2**32 - 1 else np.uint64


def make_input(rows, cols, tname):
    """The host input: uniform in [-1, 1) for f32, over the whole range for u8/u16."""
    rng = np.random.default_rng(rows * 1000003 + cols)
    if tname == "f32":
        return rng.uniform(-1.0, 1.0, (rows, cols)).astype(np.float32)
    dtype = INT_TYPES[tname]
    return rng.integers(0, np.iinfo(dtype).max, (rows, cols), dtype=dtype, endpoint=True)


def describe_rounding(got, nearest, floor):
    """Which integer rounding of the mean the sampled outputs fit."""
    n = len(got)
    at_nearest, at_floor = int(np.sum(got == nearest)), int(np.sum(got == floor))
    if at_nearest == n:
        return "rounds to nearest on all of %d samples" % n
    if at_floor == n:
        return "truncates (floor) on all of %d samples" % n
    return "nearest on %d, floor on %d of %d samples" % (at_nearest, at_floor, n)


class Sampler:
    """Checks sampled outputs against references computed from the host input: float64 for float
    input; exact int64 for integer input, where transposes and sums must match exactly and the
    filters must lie within 1 of the mean rounded to nearest, (2s + k) // (2k), as Coalesce rounds;
    the note names the rounding the samples fit (cupyx.scipy.ndimage's kernels cast the float64
    weighted sum to the integer output type, so truncation is expected there)."""

    def __init__(self, h_in, seed=7):
        self.integer = np.issubdtype(h_in.dtype, np.integer)
        self.x = h_in.astype(np.int64 if self.integer else np.float64)
        self.rng = np.random.default_rng(seed)

    def points(self, rows, cols, k=2000):
        i = self.rng.integers(0, rows, k)
        j = self.rng.integers(0, cols, k)
        i[:4] = [0, 0, rows - 1, rows - 1]
        j[:4] = [0, cols - 1, 0, cols - 1]
        return i, j

    def check(self, op, out, radius=0, border="clamp"):
        """out: a host numpy array of the peer's output. Returns (ok, max_err, note)."""
        x = self.x
        rows, cols = x.shape
        if op == "transpose":
            i, j = self.points(cols, rows)
            want, got, mag = x[j, i], out[i, j].astype(np.float64), None
        elif op == "row_sums":
            i = self.points(rows, 1)[0][:200]
            want = x[i].sum(axis=1)
            mag = np.abs(x[i]).sum(axis=1)
            got = out.reshape(-1)[i].astype(np.float64)
        elif op == "col_sums":
            j = self.points(1, cols)[1][:200]
            want = x[:, j].sum(axis=0)
            mag = np.abs(x[:, j]).sum(axis=0)
            got = out.reshape(-1)[j].astype(np.float64)
        elif op in ("filter_x", "filter_y") and self.integer:
            return self.check_integer_filter(op, out, radius)
        elif op in ("filter_x", "filter_y"):
            i, j = self.points(rows, cols)
            vals, inside = self.window(op, i, j, radius)
            if border == "zero":
                vals = np.where(inside, vals, 0.0)
            want = vals.mean(axis=1)
            mag = np.abs(vals).mean(axis=1)
            got = out[i, j].astype(np.float64)
        else:
            raise ValueError(op)
        err = np.abs(got - want)
        max_err = float(np.nanmax(err)) if err.size else 0.0
        exact = mag is None or self.integer
        good = err == 0 if exact else err <= 1e-4 * mag + 1e-30  # NaN compares false: fails
        ok = bool(np.all(good))
        note = "" if ok else "sample %d: got %r want %r" % (int(np.argmin(good)), float(got[np.argmin(good)]),
                                                             float(want[np.argmin(good)]))
        return ok, max_err, note

    def window(self, op, i, j, radius):
        """The 2r+1 neighbours of each (i, j) along its row (filter_x) or column, borders clamped,
        and whether each lies inside the image."""
        rows, cols = self.x.shape
        d = np.arange(-radius, radius + 1)
        if op == "filter_x":
            jj = j[:, None] + d[None, :]
            ii = np.broadcast_to(i[:, None], jj.shape)
            inside = (jj >= 0) & (jj < cols)
        else:
            ii = i[:, None] + d[None, :]
            jj = np.broadcast_to(j[:, None], ii.shape)
            inside = (ii >= 0) & (ii < rows)
        return self.x[np.clip(ii, 0, rows - 1), np.clip(jj, 0, cols - 1)], inside

    def check_integer_filter(self, op, out, radius):
        rows, cols = self.x.shape
        i, j = self.points(rows, cols)
        s = self.window(op, i, j, radius)[0].sum(axis=1)
        k = 2 * radius + 1
        nearest, floor = (2 * s + k) // (2 * k), s // k
        got = out[i, j].astype(np.int64)
        err = np.abs(got - nearest)
        ok = bool(np.all(err <= 1))
        note = describe_rounding(got, nearest, floor)
        if not ok:
            bad = int(np.argmax(err))
            note = "sample %d: got %d want %d; %s" % (bad, got[bad], nearest[bad], note)
        return ok, float(err.max()), note


def median_ms(fn, new_event, sync, reps, elapsed_ms=lambda a, b: a.elapsed_time(b)):
    for _ in range(WARMUPS):
        fn()
    sync()
    pairs = []
    for _ in range(reps):
        a, b = new_event(), new_event()
        a.record()
        fn()
        b.record()
        pairs.append((a, b))
    sync()
    return statistics.median(elapsed_ms(a, b) for a, b in pairs)


def emit(source, op, impl, rows, cols, radius, ms, copy_gbps, ok=True, max_err=0.0, note="", tname=None,
         nbytes=None):
    """One JSON line; nbytes defaults to the f32 model, and "type" is written for u8/u16 only, as
    bench/peers_native_typed.cu does."""
    b = bytes_moved(op, rows, cols) if nbytes is None else nbytes
    gbps = b / (ms * 1e-3) / 1e9
    line = {"source": source, "op": op, "impl": impl}
    if tname is not None and tname != "f32":
        line["type"] = tname
    line.update({"rows": rows, "cols": cols, "radius": radius, "ms": ms, "bytes": b, "gbps": round(gbps, 2),
                 "copy_gbps": round(copy_gbps, 2),
                 "pct_of_copy": round(100.0 * gbps / copy_gbps, 2) if copy_gbps else 0.0,
                 "verified": ok, "max_err": max_err, "note": note})
    print(json.dumps(line), flush=True)


def run_torch(sizes, radii, reps):
    import torch
    import torch.nn.functional as F

    # float32 semantics for the convolutions (no TF32), and let cuDNN pick its fastest algorithm.
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.benchmark = True
    dev = torch.device("cuda")
    new_event = lambda: torch.cuda.Event(enable_timing=True)
    sync = torch.cuda.synchronize
    for rows, cols in sizes:
        h = make_input(rows, cols, "f32")
        sampler = Sampler(h)
        x = torch.from_numpy(h).to(dev)
        y = torch.empty_like(x)
        ms = median_ms(lambda: y.copy_(x), new_event, sync, reps)
        copy_gbps = bytes_moved("copy", rows, cols) / (ms * 1e-3) / 1e9
        emit("torch", "copy", "PyTorch copy_ (D2D)", rows, cols, 0, ms, copy_gbps)

        def bench(op, impl, fn, radius=0, border="clamp"):
            try:
                ms = median_ms(fn, new_event, sync, reps)
                out = fn()
                sync()
                ok, err, note = sampler.check(op, out.detach().cpu().numpy(), radius, border)
                emit("torch", op, impl, rows, cols, radius, ms, copy_gbps, ok, err, note)
            except Exception as e:  # one failing peer call never ends the run
                print("peers_python: torch %s %s: %s" % (op, impl, e), file=sys.stderr)

        bench("transpose", "PyTorch x.t().contiguous()", lambda: x.t().contiguous())
        bench("row_sums", "PyTorch x.sum(1)", lambda: x.sum(dim=1))
        bench("col_sums", "PyTorch x.sum(0)", lambda: x.sum(dim=0))
        x4 = x.view(1, 1, rows, cols)
        for r in radii:
            k = 2 * r + 1
            wx = torch.full((1, 1, 1, k), 1.0 / k, device=dev)
            wy = torch.full((1, 1, k, 1), 1.0 / k, device=dev)
            bench("filter_x", "PyTorch conv2d 1x%d (zero pad)" % k,
                  lambda: F.conv2d(x4, wx, padding=(0, r))[0, 0], r, "zero")
            bench("filter_y", "PyTorch conv2d %dx1 (zero pad)" % k,
                  lambda: F.conv2d(x4, wy, padding=(r, 0))[0, 0], r, "zero")
            bench("filter_x", "PyTorch pad(replicate)+conv2d 1x%d" % k,
                  lambda: F.conv2d(F.pad(x4, (r, r, 0, 0), mode="replicate"), wx)[0, 0], r, "clamp")
            bench("filter_y", "PyTorch pad(replicate)+conv2d %dx1" % k,
                  lambda: F.conv2d(F.pad(x4, (0, 0, r, r), mode="replicate"), wy)[0, 0], r, "clamp")
        del x, y, x4
        torch.cuda.empty_cache()


def run_cupy(sizes, radii, reps, tname="f32"):
    import cupy as cp
    import cupyx.scipy.ndimage as ndi

    new_event = lambda: cp.cuda.Event()
    sync = cp.cuda.runtime.deviceSynchronize

    def cp_median(fn):
        return median_ms(fn, new_event, sync, reps, elapsed_ms=cp.cuda.get_elapsed_time)

    for rows, cols in sizes:
        h = make_input(rows, cols, tname)
        sampler = Sampler(h)
        x = cp.asarray(h)
        y = cp.empty_like(x)
        stream = cp.cuda.get_current_stream()
        nbytes = x.nbytes
        ms = cp_median(lambda: cp.cuda.runtime.memcpyAsync(y.data.ptr, x.data.ptr, nbytes,
                                                           cp.cuda.runtime.memcpyDeviceToDevice, stream.ptr))
        copy_bytes = bytes_moved("copy", rows, cols, x.itemsize)
        copy_gbps = copy_bytes / (ms * 1e-3) / 1e9
        emit("cupy", "copy", "CuPy memcpyAsync D2D", rows, cols, 0, ms, copy_gbps, tname=tname, nbytes=copy_bytes)

        def bench(op, impl, fn, radius=0, border="clamp"):
            try:
                ms = cp_median(fn)
                out = fn()
                sync()
                ok, err, note = sampler.check(op, cp.asnumpy(out), radius, border)
                b = bytes_moved(op, rows, cols, x.itemsize, out.itemsize)
                emit("cupy", op, impl, rows, cols, radius, ms, copy_gbps, ok, err, note, tname=tname, nbytes=b)
            except Exception as e:  # one failing peer call never ends the run
                print("peers_python: cupy %s %s %s: %s" % (tname, op, impl, e), file=sys.stderr)

        bench("transpose", "CuPy ascontiguousarray(x.T)", lambda: cp.ascontiguousarray(x.T))
        if tname == "f32":
            bench("row_sums", "CuPy x.sum(axis=1)", lambda: x.sum(axis=1))
            bench("col_sums", "CuPy x.sum(axis=0)", lambda: x.sum(axis=0))
        else:
            row_t, col_t = sum_dtype(cols, x.dtype), sum_dtype(rows, x.dtype)
            bench("row_sums", "CuPy x.sum(axis=1, dtype=%s)" % np.dtype(row_t).name,
                  lambda: x.sum(axis=1, dtype=row_t))
            bench("col_sums", "CuPy x.sum(axis=0, dtype=%s)" % np.dtype(col_t).name,
                  lambda: x.sum(axis=0, dtype=col_t))
        for r in radii:
            k = 2 * r + 1
            bench("filter_x", "CuPy uniform_filter1d(axis=1, nearest)",
                  lambda: ndi.uniform_filter1d(x, k, axis=1, mode="nearest"), r, "clamp")
            bench("filter_y", "CuPy uniform_filter1d(axis=0, nearest)",
                  lambda: ndi.uniform_filter1d(x, k, axis=0, mode="nearest"), r, "clamp")
        del x, y
        cp.get_default_memory_pool().free_all_blocks()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="8192x8192,8000x6000")
    ap.add_argument("--radii", default="4,32")
    ap.add_argument("--reps", type=int, default=50)
    ap.add_argument("--only", choices=["torch", "cupy"], default=None)
    ap.add_argument("--types", default="f32", help="comma-separated: f32 (PyTorch, CuPy), u8, u16 (CuPy)")
    a = ap.parse_args()
    sizes = parse_sizes(a.sizes)
    radii = [int(r) for r in a.radii.split(",")]
    types = a.types.split(",")
    for t in types:
        if t != "f32" and t not in INT_TYPES:
            ap.error("unknown type %s (f32, u8, u16)" % t)
    status = 0
    for tname in types:
        for name, fn in (("torch", run_torch), ("cupy", run_cupy)):
            if a.only and a.only != name:
                continue
            if name == "torch" and tname != "f32":
                # The u8/u16 peers are CuPy's: PyTorch has no integer conv2d, and its uint16 tensors lack
                # most kernels (sum among them on many versions).
                continue
            try:
                if name == "torch":
                    fn(sizes, radii, a.reps)
                else:
                    fn(sizes, radii, a.reps, tname)
            except Exception as e:
                print("peers_python: %s %s failed: %s" % (name, tname, e), file=sys.stderr)
                status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
