// smem_copy_tile: the book's setRowReadRow and setColReadCol (seed 001) over a whole matrix. Each
// block stores its tile of the input into shared memory and loads it back in the same order,
// `repeat` times, so the output is the input; what differs between the variants is only the
// shared-memory layout, hence the bank conflicts, hence the time.
#include "smem_tiles.hpp"

namespace coalesce::ops {
namespace {

void smem_copy_host(const Matrix& in, Matrix& out, const OpParams& p) {
    smem::round_trips(in, out, p, [](std::size_t t, std::size_t) { return t; });
}

}  // namespace

const OpDesc& describe_smem_copy_tile() {
    static const OpDesc desc{
        .op = Op("smem_copy_tile"),
        .aliases = {"smem_rowrow", "smem_colcol", "set_row_read_row"},
        .summary =
            "a tile stored to and loaded from shared memory in the same order, repeat "
            "times (setRowReadRow, setColReadCol); GB/s counts shared-memory bytes",
        .filter = false,
        .exact = true,
        .params = smem::tile_params(),
        .output_shape = same_shape,
        .bytes_moved = smem::shared_bytes,
        .reference = [](const Matrix& in, const OpParams&) { return exact_reference(Matrix(in)); },
        .host = {{"cpu-naive",
                  "Host loop passing each tile through a tile buffer `repeat` times, same order "
                  "both ways.",
                  smem_copy_host,
                  {}}},
        .check = smem::check_tile_rows,
        .accesses = {},
    };
    return desc;
}

}  // namespace coalesce::ops
