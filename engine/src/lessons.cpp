// The findings of the five course documents in shared/seeds/ (their README says what each holds),
// in the documents' order. Figures are quoted as the documents give them. Runnable lessons name
// the classic and texture variants (and, where it teaches, an experiment) that reproduce the
// experiment and the parameters it sweeps; the others say what is missing.
#include "coalesce/lessons.hpp"

#include <sstream>
#include <utility>

namespace coalesce {
namespace {

constexpr const char* kSlidesTranspose = "000_5aa101e1dc0295b6.txt";  // shared-memory transpose
constexpr const char* kBookChapter = "001_dd22bfe62432ce4c.txt";      // rectangular shared memory
constexpr const char* kNotebook = "002_42031390f676189f.txt";         // coalescing, Numba
constexpr const char* kSlidesSpaces = "003_bacf824dcd5d0fdc.txt";     // memory spaces
constexpr const char* kLecture = "004_8d4c2e1c662df269.txt";          // coalescing lecture

const std::vector<Shape> k8192 = {{8192, 8192}};
const std::vector<Shape> k4096 = {{4096, 4096}};

std::string at(const char* seed, const char* place) { return std::string(seed) + ", " + place; }

std::vector<long long> range(long long first, long long last) {
    std::vector<long long> values;
    for (long long v = first; v <= last; ++v) values.push_back(v);
    return values;
}

Lesson runnable(std::string id, std::string title, std::string source, std::string figure,
                std::string finding, std::vector<std::string> variants,
                std::vector<Shape> sizes = k8192, std::vector<ParamAxis> sweep = {}) {
    Lesson l;
    l.id = std::move(id);
    l.title = std::move(title);
    l.source = std::move(source);
    l.course_figure = std::move(figure);
    l.finding = std::move(finding);
    l.variants = std::move(variants);
    l.sizes = std::move(sizes);
    l.sweep = std::move(sweep);
    l.runnable = true;
    return l;
}

// A lesson one of whose variants is an experiment (a tuning idea kept to show what it costs).
Lesson with_experiments(Lesson lesson) {
    lesson.tiers = all_tiers();
    return lesson;
}

Lesson missing(std::string id, std::string title, std::string source, std::string figure,
               std::string finding, std::string experiment) {
    Lesson l;
    l.id = std::move(id);
    l.title = std::move(title);
    l.source = std::move(source);
    l.course_figure = std::move(figure);
    l.finding = std::move(finding);
    l.runnable = false;
    l.missing = std::move(experiment);
    return l;
}

std::vector<Lesson> make_lessons() {
    std::vector<Lesson> l;

    // 000: slides, shared memory to support coalesced memory access (a transpose).
    l.push_back(runnable(
        "naive-transpose-writes", "A naive transpose reads coalesced but writes uncoalesced",
        at(kSlidesTranspose,
           "from 'A naive approach' to 'Therefore, the writes will not be coalesced'"),
        "No timing: a 4x4 matrix, 2x2 blocks and 2-thread warps show out[x][y] = in[y][x] reading "
        "along a row and writing down a column.",
        "Contiguous threads of a warp are adjacent along x, so in[y][x] is read along a row while "
        "out[x][y] is written down a column. The naive transpose runs well below a copy of the "
        "same bytes.",
        {"copy/global", "transpose/global-naive"}));
    l.push_back(runnable(
        "shared-tile-transpose", "A shared-memory tile makes both sides of a transpose coalesced",
        at(kSlidesTranspose, "from 'We can use shared memory to make coalesced reads and writes'"),
        "No timing: each block reads its tile by rows into shared memory, syncs, and writes the "
        "transposed tile by rows; reading the tile down a column 'has very low impact compared to "
        "doing so with global memory'.",
        "Staging a tile in shared memory lets a block read rows and write rows, moving the column "
        "access into shared memory. The tiled transpose beats the naive one.",
        {"transpose/global-naive", "transpose/shared-tile"}));

    // 001: book chapter, rectangular shared memory (one 32x16 block).
    l.push_back(runnable(
        "shared-row-vs-column-major",
        "Row-major shared access is conflict-free, column-major is not",
        at(kBookChapter,
           "'Accessing Row-Major versus Accessing Column-Major' (setRowReadRow, setColReadCol)"),
        "No timing in the excerpt: one 32x16 block stores and loads tile[threadIdx.y][threadIdx.x] "
        "or tile[threadIdx.x][threadIdx.y].",
        "A warp indexing the innermost dimension of a shared array with threadIdx.x touches 32 "
        "banks; indexing the other way it touches the same few banks and the accesses serialize. "
        "Only the index order differs between the two kernels.",
        {"smem_copy_tile/set-row-read-row", "smem_copy_tile/set-col-read-col"}, k8192,
        {{"tile_rows", {32, 16}}, {"repeat", {65}}}));
    l.push_back(runnable(
        "shared-write-row-read-column",
        "Writing a shared tile by rows and reading it by columns conflicts",
        at(kBookChapter, "'Writing Row-Major and Reading Column-Major' (setRowReadCol)"),
        "No timing in the excerpt: setRowReadCol stores tile[threadIdx.y][threadIdx.x] and loads "
        "tile[icol][irow], a column per warp.",
        "A transpose through shared memory stores by rows and loads by columns, and a warp's "
        "column loads fall into few banks. It is the tiled transpose's inner step, and padding "
        "removes the conflicts.",
        {"transpose/shared-tile", "transpose/shared-padded"}));
    l.push_back(runnable(
        "shared-dynamic", "Dynamic shared memory needs a 1-D index and keeps the same conflicts",
        at(kBookChapter, "'Dynamically Declared Shared Memory' (setRowReadColDyn)"),
        "No timing in the excerpt: setRowReadColDyn<<<grid, block, BDIMX * BDIMY * sizeof(int)>>> "
        "with col_idx = icol * blockDim.x + irow.",
        "Dynamically sized shared memory is a 1-D array, so the kernel computes its row-major and "
        "column-major indices itself. The column-major read conflicts as with the static array.",
        {"smem_transpose_tile/set-row-read-col", "smem_transpose_tile/set-row-read-col-dyn",
         "smem_transpose_tile/set-row-read-col-dyn-pad"},
        k8192, {{"tile_rows", {32, 16}}, {"repeat", {65}}}));
    l.push_back(with_experiments(runnable(
        "shared-rectangular-padding", "Padding a rectangular 32x16 tile removes its bank conflicts",
        at(kBookChapter,
           "listed in the seeds README as 'padding on 32x16 tiles'; the excerpt stops before "
           "those kernels"),
        "Not in the excerpt.",
        "A rectangular tile read by columns conflicts like a square one, and padding each row "
        "spreads a column over the banks. How many padding words are needed depends on the tile's "
        "width in banks.",
        {"smem_transpose_tile/set-row-read-col", "smem_transpose_tile/set-row-read-col-pad1",
         "smem_transpose_tile/set-row-read-col-pad",
         "smem_transpose_tile/set-row-read-col-dyn-pad"},
        k8192, {{"tile_rows", {16}}, {"repeat", {65}}})));

    // 002: notebook, effective use of the memory subsystem (Numba).
    l.push_back(runnable(
        "add-coalesced-vs-strided", "A strided 1-D add is far slower than a coalesced one",
        at(kNotebook,
           "'The Problem: Uncoalesced Memory Access Hurts Performance' (add_experiment)"),
        "n = 1M floats, 1024 threads per block, stride 16: coalesced 227 µs ± 73.6 µs, uncoalesced "
        "540 µs ± 10.9 ns",
        "Each thread adds one pair; uncoalesced, it reads a[stride*i], so a warp's 32 loads land "
        "in 32 different segments. The same useful bytes take more than twice as long.",
        {"strided_add/global"}, k8192, {{"stride", {1, 2, 4, 8, 16, 32}}}));
    l.push_back(runnable(
        "col-sums-beat-row-sums", "Coalesced column sums beat uncoalesced row sums",
        at(kNotebook, "'Exercise: Column and Row Sums'"),
        "16384x16384 float32, 256 threads per block: row_sums 11.6 ms ± 215 µs, col_sums 7.88 ms ± "
        "3.1 µs ('almost 2x')",
        "Both kernels give one thread a whole row or column. A warp of column summers reads 128 "
        "contiguous bytes per step while a warp of row summers reads from 32 rows, so the column "
        "sums finish first.",
        {"row_sums/global-thread-per-row", "col_sums/global-thread-per-col"},
        {{8192, 8192}, {16384, 16384}}));
    l.push_back(runnable(
        "matrix-add-2d", "A 2-D matrix add is coalesced only when threadIdx.x walks the columns",
        at(kNotebook, "'Exercise: Coalesced 2-Dimensional Matrix Add' (matrix_add)"),
        "2048x2048 float32, 32x32 threads: coalesced out[y][x] 203 µs ± 13.4 ns, uncoalesced "
        "out[x][y] 586 µs ± 1.21 µs",
        "With x, y = cuda.grid(2), x follows threadIdx.x, so out[y][x] = a[y][x] + b[y][x] walks "
        "rows while out[x][y] walks columns. Swapping the two indices costs almost three times the "
        "time.",
        {"matrix_add/coalesced", "matrix_add/uncoalesced"}));
    l.push_back(runnable(
        "tiled-transpose-small-gain", "The shared-tile transpose gains less than expected",
        at(kNotebook,
           "'Refactor for Coalesced Reads and Writes' and 'Why Such a Small Improvement?'"),
        "4096x4096 float32, 32x32 threads: transpose 1.59 ms ± 25.4 µs, tile_transpose 1.09 ms ± "
        "60.2 µs",
        "The naive kernel already read coalesced, so the tile fixes only half the traffic, and "
        "reading the 32x32 tile down a column causes bank conflicts. The tiled kernel is faster, "
        "but by less than the other coalescing fixes.",
        {"transpose/global-naive", "transpose/shared-tile"}, {{4096, 4096}, {8192, 8192}}));
    l.push_back(runnable(
        "transpose-padding", "Padding the tile to 32x33 removes the bank conflicts",
        at(kNotebook, "'Assessment: Resolve Memory Bank Conflicts' (tile_transpose_conflict_free)"),
        "4096x4096 float32, 32x32 threads, a 32x33 tile: 804 µs ± 2.89 µs (the assessment asks for "
        "less than 840 µs; tile_transpose took 1.09 ms)",
        "One padding column shifts each tile row by one bank, so a column of the tile spans all 32 "
        "banks. Padded beats unpadded beats naive.",
        {"transpose/global-naive", "transpose/shared-tile", "transpose/shared-padded"},
        {{4096, 4096}, {8192, 8192}}));

    // 003: slides, CUDA memory spaces.
    l.push_back(runnable(
        "granularity-mixed", "The order of lanes within a warp's segment does not matter",
        at(kSlidesSpaces, "'Granularity Example 2/4' (testMixed)"),
        "testCoalesced 0.2407 ms, 69.69 GB/s; testMixed (lane i reads element 7i mod 32) 0.2478 "
        "ms, 67.69 GB/s",
        "A warp whose lanes read a permutation of one aligned segment needs the same transactions "
        "as one reading it in order. Coalescing is about which segments a warp touches.",
        {"copy/global", "scattered/global"}, k8192, {{"span", {32}}, {"multiplier", {1, 7}}}));
    l.push_back(runnable(
        "granularity-offset", "Spreading a warp's accesses cuts bandwidth in proportion",
        at(kSlidesSpaces, "'Granularity Example 3/4' (testOffset<offset>)"),
        "testCoalesced 69.69 GB/s; testOffset<2> 40.80 GB/s (0.58), <4> 20.27 (0.29), <8> 10.06 "
        "(0.14), <32> 6.54 (0.09)",
        "testOffset reads element id * offset, so each warp needs offset times the segments for "
        "the same useful bytes. Bandwidth falls roughly as 1/offset until every lane has a segment "
        "of its own.",
        {"gather/global"}, k8192, {{"stride", {1, 2, 4, 8, 32}}}));
    l.push_back(runnable(
        "granularity-scattered", "Scattered access is the slowest of all",
        at(kSlidesSpaces, "'Granularity Example 4/4' (testScattered)"),
        "testScattered (element id * 121 mod n) 4.7023 ms, 3.57 GB/s (0.05 of coalesced)",
        "When every lane reads a distant segment, each warp load becomes 32 transactions and DRAM "
        "pages open at random. The slides measure 5% of the coalesced bandwidth.",
        {"scattered/global"}, k8192, {{"span", {32, 1024, 0}}, {"multiplier", {121}}}));
    l.push_back(runnable(
        "pitched-equals-linear", "Pitched and linear allocations run alike for row access",
        at(kSlidesSpaces,
           "'RowAfterRow' and 'Texture vs Global: Filtering' (global linear vs global 2D)"),
        "RowAfterRow: global linear (cudaMalloc) 177 GB/s, global 2D (cudaMallocPitch) 178 GB/s; "
        "FilterX 273.9 vs 274.2 GB/s; FilterY 291.1 vs 291.2 GB/s",
        "When every warp reads whole rows, aligning the row starts with cudaMallocPitch changes "
        "nothing measurable. Each pitched variant runs its dense lesson's kernel, so any "
        "difference is the allocation's.",
        {"copy/global", "copy/pitched", "transpose/shared-padded", "transpose/pitched",
         "row_sums/global-warp-per-row", "row_sums/pitched"},
        {{8192, 8192}, {8191, 8191}}));
    l.push_back(runnable(
        "constant-uniform-vs-divergent",
        "Constant memory is fast only when a warp reads one address",
        at(kSlidesSpaces, "'Constant memory' and 'Constant Memory Example'"),
        "c_array[0] or c_array[blockIdx.x]: 25 ns; c_array[threadIdx.x]: 920 ns; "
        "d_array[threadIdx.x] (global): 42 ns; in the loop 25 ns, 1195 ns and 127 ns",
        "The constant cache serves one address per warp per clock, so a uniform read is a "
        "broadcast and a per-thread index serializes 32 ways. Divergent lookups belong in global "
        "memory, uniform ones in __constant__.",
        {"constant_read/constant", "constant_read/global", "constant_read/global-ldg"}, k4096,
        {{"distinct", {0, 1, 2, 4, 8, 16, 32}}, {"repeat", {256}}}));
    l.push_back(runnable(
        "texture-row-after-row", "Reading row after row, textures and global memory tie",
        at(kSlidesSpaces, "'RowAfterRow: Texture vs Global'"),
        "global linear 177 GB/s, global 2D 178 GB/s, texture (cudaArray) 174 GB/s, texture "
        "(cudaMallocPitch) 175 GB/s",
        "A warp reading 32 neighbours of a row is coalesced for global memory and cache-friendly "
        "for a texture alike. Row access is similarly efficient with all four.",
        {"col_sums/global-split-rows", "col_sums/pitched", "col_sums/texture-array",
         "col_sums/texture-pitched"}));
    // Coalesce's column access is the transpose's: the naive kernel writes down columns of global
    // memory, the texture variants read down columns of the texture (docs/lessons.md says so).
    l.push_back(runnable(
        "texture-column-after-column", "Reading column after column, textures beat global memory",
        at(kSlidesSpaces, "'ColumnAfterColumn: Texture vs Global'"),
        "global linear 46 GB/s, global 2D 46 GB/s, texture (cudaArray) 171 GB/s, texture "
        "(cudaMallocPitch) 63 GB/s",
        "A warp walking down a column touches a new segment of global memory for every element, "
        "while the texture cache, and an array's 2-D layout most of all, keeps the neighbouring "
        "columns for the next steps. Column access through a cudaArray ran as fast as row access.",
        {"transpose/global-naive", "transpose/texture-array", "transpose/texture-pitched"}));
    l.push_back(runnable(
        "texture-filter-x", "Filter X: textures beat global memory",
        at(kSlidesSpaces, "'FilterX: Texture vs Global'"),
        "globalLinFilterX 10.78 ms, 273.9 GB/s; global2DFilterX 274.2 GB/s; texArrayFilterX 5.03 "
        "ms, 587.5 GB/s; tex2DFilterX 5.74 ms, 514.7 GB/s",
        "Each output reads 2r+1 row neighbours: through global memory the overlapping windows come "
        "from L2, through a texture from its own cache, borders resolved in hardware. On the "
        "slides' GPU the texture path doubled the bandwidth.",
        {"filter_x/global", "filter_x/pitched", "filter_x/texture-array",
         "filter_x/texture-pitched"}));
    l.push_back(runnable(
        "texture-filter-y", "Filter Y: textures beat global memory",
        at(kSlidesSpaces, "'FilterY: Texture vs Global'"),
        "globalLinFilterY 10.14 ms, 291.1 GB/s; global2DFilterY 291.2 GB/s; texArrayFilterY 8.10 "
        "ms, 364.7 GB/s; tex2DFilterY 5.95 ms, 495.9 GB/s",
        "Down a column the 2r+1 neighbours are rows apart, and the texture cache holds the rows a "
        "block shares. Here the pitched texture beat the array texture.",
        {"filter_y/global", "filter_y/pitched", "filter_y/texture-array",
         "filter_y/texture-pitched"}));
    l.push_back(runnable(
        "filter-x-faster-than-y", "Filtering along X is faster than along Y",
        at(kSlidesSpaces, "'Texture vs Global: Filtering' (summary)"),
        "texture (cudaArray): FilterX 587.5 GB/s, FilterY 364.7 GB/s; texture (cudaMallocPitch) "
        "514.7 vs 495.9; global linear 273.9 vs 291.1",
        "Along X a window's neighbours share cache lines, along Y each neighbour is another row. "
        "The slides conclude that X is faster, which their texture figures show and their global "
        "ones do not.",
        {"filter_x/global", "filter_y/global", "filter_x/shared-tile", "filter_y/shared-tile",
         "filter_x/texture-array", "filter_y/texture-array"}));
    l.push_back(runnable(
        "texture-random-sampling",
        "Random sampling in a neighbourhood: textures beat global memory",
        at(kSlidesSpaces,
           "'Random Sampling: Texture vs Global' (globalRandomSample, texRandomSmple)"),
        "global linear 112.2 GB/s, global 2D 112.2 GB/s, texture (cudaArray) 355.5 GB/s, texture "
        "(cudaMallocPitch) 356.0 GB/s",
        "Threads read random texels inside a small 2-D area: the texture cache keeps the area, "
        "global memory fetches a segment per read. The texture ran three times faster.",
        {"random_sample/global", "random_sample/pitched", "random_sample/texture-array",
         "random_sample/texture-pitched"},
        k8192, {{"area", {4, 8, 16, 32}}, {"samples", {32}}}));
    l.push_back(runnable(
        "texture-array-vs-pitched", "Array textures beat pitched textures for column access",
        at(kSlidesSpaces, "'Array vs Pitched Textures'"),
        "ColumnAfterColumn: texture (cudaArray) 171 GB/s, texture (cudaMallocPitch) 63 GB/s; cache "
        "lines: pitched global 128 B, pitched texture 32 B, array texture 32 B on a space-filling "
        "curve",
        "A pitched texture keeps row-major lines, so a column walk still touches a line per row, "
        "while a cudaArray lays texels along a space-filling curve so that 2-D neighbours share "
        "lines. For column access the array won by almost three times.",
        {"transpose/texture-array", "transpose/texture-pitched"}));
    l.push_back(runnable(
        "textures-as-good-or-better", "Textures perform as well as global memory or better",
        at(kSlidesSpaces, "'Texture vs Global Conclusion'"),
        "every texture figure of the slides at or near its global twin or above it (row after row, "
        "174-175 GB/s against 177-178, is the closest)",
        "The slides conclude that textures are never worse: less dependent on the access "
        "direction, less stress on L2, a cache apart from L1. A plain copy shows what the texture "
        "path costs when nothing favours it.",
        {"copy/global", "copy/pitched", "copy/texture-array", "copy/texture-pitched"}));
    // The conclusion's "features" line: the texture unit's interpolation and conversion, each
    // against the same work done by hand from global memory.
    l.push_back(runnable(
        "texture-interpolation", "Textures interpolate in hardware",
        at(kSlidesSpaces,
           "'Memory spaces and performance' (texture memory: interpolation) and 'Texture vs "
           "Global Conclusion' (features: border handling, interpolation, conversion)"),
        "No timing: interpolation and border handling are listed as features of textures.",
        "A texture fetch with linear filtering reads the four neighbours of a point, clamps them "
        "at the border and weights them, all in the texture unit. Resampling an image that way "
        "spares the kernel four loads and the arithmetic it would do by hand from global memory.",
        {"resample/global", "resample/texture-array", "resample/texture-pitched"}, k4096,
        {{"scale", {50, 150, 200}}, {"angle", {30}}}));
    l.push_back(runnable(
        "texture-conversion", "Textures convert 8-bit data to normalized floats in hardware",
        at(kSlidesSpaces, "'Texture vs Global Conclusion' (features: conversion)"),
        "No timing: conversion is listed as a feature of textures.",
        "An 8-bit texture read in normalized-float mode returns pixel / 255 as a float, the "
        "conversion a kernel otherwise does by hand after a one-byte load. Image data can stay in "
        "bytes and still be computed on in floats.",
        {"u8_to_float/global", "u8_to_float/texture-array", "u8_to_float/texture-pitched"}));
    l.push_back(runnable(
        "shared-padding", "Padding shared arrays avoids bank conflicts",
        at(kSlidesSpaces,
           "'Shared memory cont'd' (mydata[32*(32 + 1)]) and 'Adjust global memory access "
           "pattern' (transp)"),
        "No timing: a 32x33 array read at threadIdx.x + i*33 and at threadIdx.x*33 + i is "
        "conflict-free both ways; transp stages 32x32 tiles through it.",
        "Successive 32-bit words lie in successive banks, so a warp reading a column of a 32-wide "
        "array hits one bank 32 times. One padding word per row puts the column in 32 banks.",
        {"transpose/shared-tile", "transpose/shared-padded"}));
    l.push_back(missing(
        "device-malloc", "Dynamic allocation in device code is very slow",
        at(kSlidesSpaces, "'Dynamic Memory Allocation'"),
        "malloc / free, new / delete in kernels (cc >= 2.0): 20 000 - 10 000 000 cycles",
        "Device-side allocation goes through one heap shared by every thread and is orders of "
        "magnitude slower than a load. Allocate on the host and pass pointers.",
        "a device-side malloc experiment"));
    l.push_back(missing(
        "indexed-arrays-local-memory", "Run-time indexed per-thread arrays spill to local memory",
        at(kSlidesSpaces, "'Shared memory use cases', indexed access"),
        "No timing: uint mydata[8] indexed by (threadIdx.x + i) % 8 'will be spilled to local "
        "memory'; a per-thread slice of a shared array serves instead.",
        "Registers cannot be indexed at run time, so such an array lives in local memory, global "
        "memory behind L1. A slice of shared memory per thread keeps it on chip.",
        "an indexed-array experiment: local memory against a per-thread slice of shared memory"));

    // 004: lecture, memory access coalescing.
    l.push_back(runnable(
        "aligned-warp-one-transaction",
        "A warp reading 32 aligned consecutive words needs one transaction",
        at(kLecture, "'Coalescing Examples' (memory_access: a[tid] = a[tid] + 1)"),
        "No timing: one transaction for the warp's read and one for its write (drawn with 8-thread "
        "warps)",
        "Consecutive thread ids reading consecutive 4-byte words let the GPU merge a warp's 32 "
        "requests into one 32 x 4-byte transaction. This is the coalesced baseline every other "
        "pattern is measured against.",
        {"copy/global", "copy/pitched"}));
    l.push_back(runnable(
        "offset-two-transactions", "A misaligned offset doubles the transactions",
        at(kLecture, "'Coalescing Examples: Offset' (offset_access, s = 1)"),
        "s = 1: 2 global memory transactions for the read and 2 for the write, instead of 1 and 1",
        "Transactions are aligned to the warp width times 4 bytes, so a warp whose words start one "
        "word late straddles two segments. The same useful bytes cost twice the transactions.",
        {"offset_read/global", "offset_write/global"}, k8192, {{"offset", range(0, 32)}}));
    l.push_back(runnable(
        "strided-transactions", "A stride multiplies the transactions",
        at(kLecture, "'Coalescing Examples: Strided' (strided_access)"),
        "s = 2: 2 transactions for the read and 2 for the write; s = 4: 4 and 4 (8-thread warps in "
        "the drawing)",
        "With a[tid*s] a warp spreads over s segments, so every access costs s transactions for "
        "the same useful bytes. Strided code must be rewritten so that a warp touches consecutive "
        "words.",
        {"gather/global", "scatter/global"}, k8192, {{"stride", {1, 2, 4, 8, 16, 32}}}));
    l.push_back(runnable(
        "transactions-per-warp", "Fewer transactions per warp request make faster kernels",
        at(kLecture, "'Warp Requests to Memory'"),
        "No timing: 'A warp typically requests 32 aligned 4 byte words in one global memory "
        "transaction'; reducing the number of transactions is one of the keys to execution time",
        "The memory system serves warps, not threads: a kernel costs the transactions its warps' "
        "requests become. Every coalescing fix of the course lowers that count.",
        {"matrix_add/coalesced", "matrix_add/uncoalesced", "gather/global"}, k8192,
        {{"stride", {1, 2, 4, 8}}}));
    return l;
}

}  // namespace

const std::vector<Lesson>& lessons() {
    static const std::vector<Lesson> all = make_lessons();
    return all;
}

const Lesson* find_lesson(std::string_view id) {
    for (const Lesson& lesson : lessons())
        if (lesson.id == id) return &lesson;
    return nullptr;
}

std::string sweep_text(const std::vector<ParamAxis>& sweep) {
    std::ostringstream out;
    for (const ParamAxis& axis : sweep) {
        out << (out.tellp() > 0 ? ", " : "") << axis.name << " = ";
        const std::vector<long long>& v = axis.values;
        bool consecutive = v.size() > 3;
        for (std::size_t i = 1; i < v.size() && consecutive; ++i)
            consecutive = v[i] == v[i - 1] + 1;
        if (consecutive) {
            out << v.front() << ".." << v.back();
            continue;
        }
        for (std::size_t i = 0; i < v.size(); ++i) out << (i ? "," : "") << v[i];
    }
    return out.str();
}

}  // namespace coalesce
