// smem_transpose_tile: the book's setRowReadCol (seed 001) over a whole matrix. Each block stores
// its tile row-major and loads it column-major, `repeat` times, each round's load being the next
// round's store: the tile's cells end up permuted by the transposing permutation applied `repeat`
// times (a plain transpose for an odd count on the square tile).
#include "smem_tiles.hpp"

namespace coalesce::ops {
namespace {

// Where the value at each tile position came from after `repeat` rounds.
std::vector<int> sources(int tile_rows, long long repeat) {
    const int cells = tile_rows * onchip::kTileCols;
    std::vector<int> source(static_cast<std::size_t>(cells));
    for (int t = 0; t < cells; ++t) {
        int s = t;
        for (long long k = 0; k < repeat; ++k) s = onchip::transposed_position(s, tile_rows);
        source[static_cast<std::size_t>(t)] = s;
    }
    return source;
}

void smem_transpose_host(const Matrix& in, Matrix& out, const OpParams& p) {
    smem::round_trips(in, out, p, [](std::size_t t, std::size_t h) {
        return static_cast<std::size_t>(
            onchip::transposed_position(static_cast<int>(t), static_cast<int>(h)));
    });
}

Reference smem_transpose_reference(const Matrix& in, const OpParams& p) {
    const int tile_rows = static_cast<int>(p.value("tile_rows"));
    Matrix out(in.rows(), in.cols());
    smem::permute_tiles(in, out, tile_rows, sources(tile_rows, p.value("repeat")));
    return exact_reference(std::move(out));
}

}  // namespace

const OpDesc& describe_smem_transpose_tile() {
    static const OpDesc desc{
        .op = Op("smem_transpose_tile"),
        .aliases = {"smem_rowcol", "set_row_read_col"},
        .summary =
            "a tile stored to shared memory by rows and loaded by columns, repeat times "
            "(setRowReadCol): per-tile transposes; GB/s counts shared-memory bytes",
        .filter = false,
        .exact = true,
        .params = smem::tile_params(),
        .output_shape = same_shape,
        .bytes_moved = smem::shared_bytes,
        .reference = smem_transpose_reference,
        .host =
            {{"cpu-naive",
              "Host loop passing each tile through a tile buffer `repeat` times, stored by rows "
              "and loaded by columns.",
              smem_transpose_host,
              {}}},
        .check = smem::check_tile_rows,
        .accesses = {},
    };
    return desc;
}

}  // namespace coalesce::ops
