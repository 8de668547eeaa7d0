// The C functions behind every texture variant's descriptor. Each catches everything: nothing
// crosses the C boundary but a status and a message.
#pragma once

#include "addressing.hpp"
#include "texture_instance.hpp"
#include "texture_ops.hpp"

#include "coalesce/plugin_abi.h"

#include <cstddef>

namespace coalesce::textures {

void write_message(char* err, std::size_t err_len, const char* message) noexcept;

// create() gets no variant context through the ABI, so each (operation, family) pair has its own.
// Returns a coalesce_status: an input outside the texture's limits is COALESCE_STATUS_UNSUPPORTED.
int create_instance(int op, Family family, Texels texels, size_t rows, size_t cols,
                    const coalesce_params* params, void** instance, char* err,
                    size_t err_len) noexcept;

template <int Op, Family F, Texels T = Texels::float32>
int create_variant(size_t rows, size_t cols, const coalesce_params* params, void** instance,
                   char* err, size_t err_len) noexcept {
    return create_instance(Op, F, T, rows, cols, params, instance, err, err_len);
}

int upload_variant(void* instance, const float* h_input, char* err, size_t err_len) noexcept;
int poison_variant(void* instance, char* err, size_t err_len) noexcept;
int launch_variant(void* instance, void* stream, char* err, size_t err_len) noexcept;
int download_variant(void* instance, float* h_output, char* err, size_t err_len) noexcept;
void destroy_variant(void* instance) noexcept;

// The typed runs (ABI 3) of the unorm variants.
int upload_typed_variant(void* instance, const void* h_input, int elem_type, size_t rows,
                         size_t cols, char* err, size_t err_len) noexcept;
int poison_bytes_variant(void* instance, uint8_t byte, char* err, size_t err_len) noexcept;
int download_typed_variant(void* instance, void* h_output, size_t rows, size_t cols,
                           size_t out_elem_size, char* err, size_t err_len) noexcept;

}  // namespace coalesce::textures
