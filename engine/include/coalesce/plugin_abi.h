/* The C ABI between Coalesce and a variant plugin (a shared library loaded at run time).
 *
 * A plugin exports two functions:
 *   uint32_t coalesce_plugin_abi_version(void);         returns COALESCE_PLUGIN_ABI_VERSION
 *   int coalesce_plugin_register(const coalesce_host* host, size_t host_size,
 *                                char* err, size_t err_len);   0 on success
 * and, inside coalesce_plugin_register, calls host->add_variant once per variant.
 * Nothing may throw across this boundary: every function reports failure as a non-zero status
 * and a NUL-terminated message in err (at most err_len bytes, message truncated). Structs start
 * with their size so either side can tell an older layout from a newer one. */
#ifndef COALESCE_PLUGIN_ABI_H
#define COALESCE_PLUGIN_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define COALESCE_PLUGIN_ABI_VERSION 1u

/* Matches coalesce::Op. */
enum coalesce_op {
    COALESCE_OP_COPY = 0,
    COALESCE_OP_TRANSPOSE = 1,
    COALESCE_OP_ROW_SUMS = 2,
    COALESCE_OP_COL_SUMS = 3,
    COALESCE_OP_FILTER_X = 4,
    COALESCE_OP_FILTER_Y = 5
};

/* Matches coalesce::Border; a variant lists the modes it supports as a bit mask (1u << mode). */
enum coalesce_border {
    COALESCE_BORDER_CLAMP = 0,
    COALESCE_BORDER_ZERO = 1,
    COALESCE_BORDER_WRAP = 2,
    COALESCE_BORDER_MIRROR = 3
};

typedef struct coalesce_params {
    size_t struct_size;
    int radius;
    int border; /* enum coalesce_border */
} coalesce_params;

typedef struct coalesce_variant_desc {
    size_t struct_size;
    const char* id;           /* "<op>/<name>", unique among all variants */
    int op;                   /* enum coalesce_op */
    const char* memory_space; /* "texture-array", "texture-pitched", ... */
    const char* description;  /* what it demonstrates */
    uint32_t border_mask;     /* supported enum coalesce_border values, 1u << mode */

    /* An instance for an input of rows x cols; NULL with err filled on failure. */
    void* (*create)(size_t rows, size_t cols, const coalesce_params* params, char* err, size_t err_len);
    /* Allocate and copy in the host input (rows * cols floats, row-major). Not timed. */
    int (*upload)(void* instance, const float* h_input, char* err, size_t err_len);
    /* Fill the output with NaN. */
    int (*poison)(void* instance, char* err, size_t err_len);
    /* Launch the operation on `stream` (a cudaStream_t); launches only, timed by the host. */
    int (*launch)(void* instance, void* stream, char* err, size_t err_len);
    /* Copy the output (output-shape floats, row-major) to h_output. */
    int (*download)(void* instance, float* h_output, char* err, size_t err_len);
    /* Free everything; never fails. */
    void (*destroy)(void* instance);
} coalesce_variant_desc;

typedef struct coalesce_host {
    size_t struct_size;
    void* context;
    /* Copies what it needs from desc (strings included); non-zero with err filled when refused
     * (duplicate id, bad op, missing function). */
    int (*add_variant)(void* context, const coalesce_variant_desc* desc, char* err, size_t err_len);
} coalesce_host;

typedef uint32_t (*coalesce_plugin_abi_version_fn)(void);
typedef int (*coalesce_plugin_register_fn)(const coalesce_host* host, size_t host_size, char* err,
                                           size_t err_len);

#ifdef __cplusplus
}
#endif

#endif /* COALESCE_PLUGIN_ABI_H */
