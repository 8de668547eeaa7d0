// Keeps the window's thread out of the kernel's memory-map lock while background jobs free large
// buffers.
#pragma once

namespace coalesce::gui {

// Freeing a 256 MiB matrix unmaps it, holding the process's memory-map lock while its pages go;
// a malloc on the window's thread that has to grow the heap (brk) waits for that lock: 50 to 70
// ms stalls of the event loop, measured. Growing the heap in 256 MiB steps (address space only,
// nothing is touched) and never shrinking it makes such a brk rare. glibc only; elsewhere a
// no-op. Call once, before the application object exists.
void pad_the_heap();

}  // namespace coalesce::gui
