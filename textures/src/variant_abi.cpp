#include "variant_abi.hpp"

#include "texture_instance.hpp"

#include <cstring>
#include <exception>
#include <utility>

namespace coalesce::textures {

namespace {

template <class Body>
int guarded(char* err, size_t err_len, Body&& body) noexcept {
    try {
        std::forward<Body>(body)();
        return 0;
    } catch (const std::exception& e) {
        write_message(err, err_len, e.what());
    } catch (...) {
        write_message(err, err_len, "unknown error in the texture plugin");
    }
    return 1;
}

TextureInstance& as_instance(void* instance) {
    if (instance == nullptr) throw TextureError("null instance");
    return *static_cast<TextureInstance*>(instance);
}

}  // namespace

void write_message(char* err, std::size_t err_len, const char* message) noexcept {
    if (err == nullptr || err_len == 0) return;
    const std::size_t n = std::min(std::strlen(message), err_len - 1);
    std::memcpy(err, message, n);
    err[n] = '\0';
}

int create_instance(int op, Family family, Texels texels, size_t rows, size_t cols,
                    const coalesce_params* params, void** instance, char* err,
                    size_t err_len) noexcept {
    if (instance == nullptr) {
        write_message(err, err_len, "null instance pointer");
        return COALESCE_STATUS_ERROR;
    }
    *instance = nullptr;
    try {
        if (params == nullptr) throw TextureError("null parameters");
        *instance = new TextureInstance(op, family, rows, cols, *params, texels);
        return COALESCE_STATUS_OK;
    } catch (const TextureUnsupported& e) {
        write_message(err, err_len, e.what());
        return COALESCE_STATUS_UNSUPPORTED;
    } catch (const std::exception& e) {
        write_message(err, err_len, e.what());
    } catch (...) {
        write_message(err, err_len, "unknown error in the texture plugin");
    }
    return COALESCE_STATUS_ERROR;
}

int upload_variant(void* instance, const float* h_input, char* err, size_t err_len) noexcept {
    return guarded(err, err_len, [&] { as_instance(instance).upload(h_input); });
}

int poison_variant(void* instance, char* err, size_t err_len) noexcept {
    return guarded(err, err_len, [&] { as_instance(instance).poison(); });
}

int launch_variant(void* instance, void* stream, char* err, size_t err_len) noexcept {
    return guarded(err, err_len,
                   [&] { as_instance(instance).launch(static_cast<cudaStream_t>(stream)); });
}

int download_variant(void* instance, float* h_output, char* err, size_t err_len) noexcept {
    return guarded(err, err_len, [&] { as_instance(instance).download(h_output); });
}

int upload_typed_variant(void* instance, const void* h_input, int elem_type, size_t rows,
                         size_t cols, char* err, size_t err_len) noexcept {
    return guarded(err, err_len, [&] {
        if (h_input == nullptr) throw TextureError("upload of a null input");
        as_instance(instance).upload_typed(h_input, elem_type, rows, cols);
    });
}

int poison_bytes_variant(void* instance, uint8_t byte, char* err, size_t err_len) noexcept {
    return guarded(err, err_len, [&] { as_instance(instance).poison_bytes(byte); });
}

int download_typed_variant(void* instance, void* h_output, size_t rows, size_t cols,
                           size_t out_elem_size, char* err, size_t err_len) noexcept {
    return guarded(err, err_len, [&] {
        as_instance(instance).download_typed(h_output, rows, cols, out_elem_size);
    });
}

void destroy_variant(void* instance) noexcept { delete static_cast<TextureInstance*>(instance); }

}  // namespace coalesce::textures
