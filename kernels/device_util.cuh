// Kept for the kernel files that include it: the indexing and launch-geometry helpers live in
// device_index.cuh.
#pragma once

#include "device_index.cuh"
