#include "heap_padding.hpp"

#include <cstdlib>  // defines __GLIBC__ where glibc is the C library

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace coalesce::gui {

void pad_the_heap() {
#if defined(__GLIBC__)
    mallopt(M_TOP_PAD, 256 << 20);          // [bytes] extra each time the heap grows
    mallopt(M_TRIM_THRESHOLD, 1024 << 20);  // [bytes] free top of heap kept before giving it back
#endif
}

}  // namespace coalesce::gui
