// The padding the window's heap gets (see heap_padding.hpp) is in effect: when the heap grows, it
// grows by at least 256 MiB of address space, so the window's thread seldom calls brk.
#include "heap_padding.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <vector>

#if defined(__GLIBC__)
#include <unistd.h>
#endif

TEST(HeapPadding, TheHeapGrowsInSteps256MiBLarge) {
#if defined(__GLIBC__)
    coalesce::gui::pad_the_heap();  // as main() did; calling it again changes nothing
    // Small blocks (below the size glibc maps on its own) come from the heap: allocate until the
    // heap's end moves, then see how far it moved.
    std::vector<void*> blocks;
    const auto end_of_heap = [] { return reinterpret_cast<std::uintptr_t>(sbrk(0)); };
    const std::uintptr_t before = end_of_heap();
    std::uintptr_t after = before;
    for (int i = 0; i < 40000 && after == before; ++i) {  // at most 40000 x 16 KiB = 625 MiB
        blocks.push_back(std::malloc(16 << 10));
        after = end_of_heap();
    }
    for (void* block : blocks) std::free(block);
    ASSERT_NE(after, before) << "the heap never grew";
    EXPECT_GE(after - before, std::uintptr_t{256} << 20);
#else
    GTEST_SKIP() << "heap padding is a glibc setting";
#endif
}
