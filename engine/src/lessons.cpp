#include "coalesce/lessons.hpp"

#include <algorithm>

namespace coalesce {

const std::vector<Lesson>& lessons() {
    static const std::vector<Lesson> table = {
        {"col-sums-coalesced",
         "Coalesced column sums beat uncoalesced row sums",
         "notebook: coalesced access (Numba), exercise \"Column and Row Sums\"",
         "16384 x 16384 float32: row sums 11.6 ms, column sums 7.88 ms (\"almost 2x\")",
         "One thread per row walks along its row: at each step the 32 threads of a warp read 32 "
         "addresses a whole row apart, 32 separate memory transactions. One thread per column "
         "reads neighbouring addresses at each step, one transaction for the warp. Same data, "
         "same arithmetic; only the access pattern differs.",
         {"row_sums/global-thread-per-row", "col_sums/global-thread-per-col"},
         {{16384, 16384}},
         {},
         true,
         {}},
        {"transpose-padding",
         "A padded shared tile beats an unpadded one, which beats the naive transpose",
         "notebook: coalesced access (Numba), transpose exercises; slides: shared memory and "
         "coalesced transpose",
         "4096 x 4096 float32: naive 1.59 ms, shared tile 1.09 ms, padded tile under 0.84 ms",
         "The naive transpose reads rows and writes columns: the writes are uncoalesced. Staging "
         "a 32 x 32 tile in shared memory makes both global reads and writes coalesced, but "
         "reading the tile by columns hits one shared-memory bank 32 times. One column of padding "
         "(32 x 33) spreads a column over all 32 banks.",
         {"transpose/global-naive", "transpose/shared-tile", "transpose/shared-padded"},
         {{8192, 8192}},
         {},
         true,
         {}},
        {"offset-and-stride",
         "Offset and strided access cut the bandwidth",
         "lecture: memory coalescing (offset and strided access); slides: memory spaces "
         "(granularity)",
         "an offset of 1 turns 2 transactions per warp into 4; a stride of s spreads a warp's "
         "reads over s times as many segments",
         "A warp's loads are served in aligned segments. Shifting every address by an offset "
         "makes each warp straddle one more segment; a stride between threads makes each "
         "segment carry fewer useful bytes, until at a stride of 32 floats every thread needs a "
         "segment of its own.",
         {},
         {{8192, 8192}},
         {},
         false,
         "the offset and stride operations (the access-pattern experiments are not in Coalesce "
         "yet)"},
    };
    return table;
}

const Lesson* find_lesson(std::string_view id) {
    const auto& all = lessons();
    const auto it =
        std::find_if(all.begin(), all.end(), [id](const Lesson& l) { return l.id == id; });
    return it == all.end() ? nullptr : &*it;
}

}  // namespace coalesce
