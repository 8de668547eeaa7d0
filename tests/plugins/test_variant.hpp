// A host-only variant behind the plugin C ABI, for the deliberately built test plugins: it copies
// its input on launch, so the loader's Instance adapter can be exercised without a GPU.
#pragma once

#include "coalesce/plugin_abi.h"

#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <new>
#include <vector>

namespace coalesce_test_plugin {

struct HostCopy {
    std::size_t elements = 0;
    std::vector<float> input, output;
};

inline void write_message(char* err, size_t err_len, const char* message) {
    if (err == nullptr || err_len == 0) return;
    std::strncpy(err, message, err_len - 1);
    err[err_len - 1] = '\0';
}

inline int create(size_t rows, size_t cols, const coalesce_params*, void** out, char* err,
                  size_t err_len) {
    auto* instance = new (std::nothrow) HostCopy;
    if (instance == nullptr) {
        write_message(err, err_len, "out of memory");
        return COALESCE_STATUS_ERROR;
    }
    instance->elements = rows * cols;
    instance->input.assign(rows * cols, 0.0f);
    instance->output.assign(rows * cols, 0.0f);
    *out = instance;
    return COALESCE_STATUS_OK;
}

// Refuses inputs wider than 8 columns as a texture refuses sizes beyond the device's limits.
inline int create_narrow_only(size_t rows, size_t cols, const coalesce_params* params, void** out,
                              char* err, size_t err_len) {
    if (cols > 8) {
        write_message(err, err_len, "wider than the 8 columns this test variant handles");
        return COALESCE_STATUS_UNSUPPORTED;
    }
    return create(rows, cols, params, out, err, err_len);
}

inline int upload(void* instance, const float* h_input, char*, size_t) {
    auto* self = static_cast<HostCopy*>(instance);
    std::memcpy(self->input.data(), h_input, self->elements * sizeof(float));
    return 0;
}

inline int poison(void* instance, char*, size_t) {
    auto* self = static_cast<HostCopy*>(instance);
    self->output.assign(self->elements, std::numeric_limits<float>::quiet_NaN());
    return 0;
}

inline int launch(void* instance, void*, char*, size_t) {
    auto* self = static_cast<HostCopy*>(instance);
    self->output = self->input;
    return 0;
}

inline int launch_refused(void*, void*, char* err, size_t err_len) {
    write_message(err, err_len, "launch refused on purpose");
    return 7;
}

inline int download(void* instance, float* h_output, char*, size_t) {
    auto* self = static_cast<HostCopy*>(instance);
    std::memcpy(h_output, self->output.data(), self->elements * sizeof(float));
    return 0;
}

inline void destroy(void* instance) { delete static_cast<HostCopy*>(instance); }

// A typed host copy (ABI 3): keeps the uploaded bytes, copies them to the output on launch.
struct HostBytes {
    size_t rows = 0, cols = 0, elem_size = 0;
    std::vector<unsigned char> input, output;
};

inline int create_typed(size_t rows, size_t cols, const coalesce_params*, void** out, char* err,
                        size_t err_len) {
    auto* instance = new (std::nothrow) HostBytes;
    if (instance == nullptr) {
        write_message(err, err_len, "out of memory");
        return COALESCE_STATUS_ERROR;
    }
    instance->rows = rows;
    instance->cols = cols;
    *out = instance;
    return COALESCE_STATUS_OK;
}

inline int upload_typed(void* instance, const void* h_input, int elem_type, size_t rows,
                        size_t cols, char* err, size_t err_len) {
    auto* self = static_cast<HostBytes*>(instance);
    if (rows != self->rows || cols != self->cols) {
        write_message(err, err_len, "upload of another shape than create()'s");
        return 1;
    }
    self->elem_size = elem_type == COALESCE_ELEM_U8 ? 1 : elem_type == COALESCE_ELEM_U16 ? 2 : 4;
    const auto* bytes = static_cast<const unsigned char*>(h_input);
    self->input.assign(bytes, bytes + rows * cols * self->elem_size);
    self->output.assign(self->input.size(), 0);
    return 0;
}

inline int poison_bytes(void* instance, uint8_t byte, char*, size_t) {
    auto* self = static_cast<HostBytes*>(instance);
    self->output.assign(self->output.size(), byte);
    return 0;
}

inline int launch_typed(void* instance, void*, char*, size_t) {
    auto* self = static_cast<HostBytes*>(instance);
    self->output = self->input;
    return 0;
}

inline int download_typed(void* instance, void* h_output, size_t rows, size_t cols,
                          size_t out_elem_size, char* err, size_t err_len) {
    auto* self = static_cast<HostBytes*>(instance);
    if (rows != self->rows || cols != self->cols || out_elem_size != self->elem_size) {
        write_message(err, err_len, "download of another shape or element size than uploaded");
        return 1;
    }
    std::memcpy(h_output, self->output.data(), self->output.size());
    return 0;
}

inline void destroy_typed(void* instance) { delete static_cast<HostBytes*>(instance); }

// A descriptor for a host-copy variant; every op with an output of the input's shape works.
inline coalesce_variant_desc host_copy_desc(const char* id, const char* op,
                                            uint32_t border_mask = 0xFu) {
    coalesce_variant_desc desc{};
    desc.struct_size = sizeof desc;
    desc.id = id;
    desc.op = op;
    desc.memory_space = "test-host";
    desc.description = "copies its input on the host (loader tests)";
    desc.border_mask = border_mask;
    desc.create = &create;
    desc.upload = &upload;
    desc.poison = &poison;
    desc.launch = &launch;
    desc.download = &download;
    desc.destroy = &destroy;
    desc.type_mask = 1u << COALESCE_ELEM_F32;
    return desc;
}

// A typed host-copy variant taking the types in type_mask (u8 and/or u16), without f32 functions.
inline coalesce_variant_desc typed_copy_desc(const char* id, const char* op, uint32_t type_mask) {
    coalesce_variant_desc desc = host_copy_desc(id, op);
    desc.description = "copies its typed input on the host (loader tests)";
    desc.type_mask = type_mask;
    desc.create = &create_typed;
    desc.upload = nullptr;
    desc.poison = nullptr;
    desc.download = nullptr;
    desc.launch = &launch_typed;
    desc.destroy = &destroy_typed;
    desc.upload_typed = &upload_typed;
    desc.poison_bytes = &poison_bytes;
    desc.download_typed = &download_typed;
    return desc;
}

// Registers every descriptor; the first refusal's status is returned.
template <size_t N>
int add_all(const coalesce_host* host, const coalesce_variant_desc (&descs)[N], char* err,
            size_t err_len) {
    for (const coalesce_variant_desc& desc : descs)
        if (int status = host->add_variant(host->context, &desc, err, err_len); status != 0)
            return status;
    return 0;
}

}  // namespace coalesce_test_plugin

#define TEST_PLUGIN_EXPORT extern "C" __attribute__((visibility("default")))
