/* The C ABI between Coalesce and a variant plugin (a shared library loaded at run time).
 *
 * A plugin exports two functions:
 *   uint32_t coalesce_plugin_abi_version(void);         returns COALESCE_PLUGIN_ABI_VERSION
 *   int coalesce_plugin_register(const coalesce_host* host, size_t host_size,
 *                                char* err, size_t err_len);   0 on success
 * and, inside coalesce_plugin_register, calls host->add_variant once per variant.
 * Operations are named by their stable names ("transpose", "filter_x", ...: coalesce-bench --list
 * shows them); the host refuses a name it does not know, so a plugin written for a newer
 * Coalesce with more operations is refused by name, never misread.
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

/* 2: operations by name, tiers and kernel names, named parameters, create() returns a status
 *    that can say "unsupported input" (the run is skipped, not failed). */
#define COALESCE_PLUGIN_ABI_VERSION 2u

/* Statuses of create(); the other functions return 0 or non-zero. */
enum coalesce_status {
    COALESCE_STATUS_OK = 0,
    COALESCE_STATUS_UNSUPPORTED =
        1, /* the input is outside what the variant can run; err says why */
    COALESCE_STATUS_ERROR = 2
};

/* Matches coalesce::Border; a variant lists the modes it supports as a bit mask (1u << mode). */
enum coalesce_border {
    COALESCE_BORDER_CLAMP = 0,
    COALESCE_BORDER_ZERO = 1,
    COALESCE_BORDER_WRAP = 2,
    COALESCE_BORDER_MIRROR = 3
};

/* A named integer parameter of an operation ("offset", "stride", ...). */
typedef struct coalesce_named_value {
    const char* name;
    long long value;
} coalesce_named_value;

typedef struct coalesce_params {
    size_t struct_size;
    int radius;
    int border; /* enum coalesce_border */
    size_t value_count;
    const coalesce_named_value* values; /* value_count entries, valid during create() only */
} coalesce_params;

typedef struct coalesce_variant_desc {
    size_t struct_size;
    const char* id;           /* "<op>/<name>", unique among all variants */
    const char* op;           /* the operation's stable name: "transpose", "filter_x", ... */
    const char* memory_space; /* "texture-array", "texture-pitched", ... */
    const char* description;  /* what it demonstrates */
    uint32_t border_mask;     /* supported enum coalesce_border values, 1u << mode */
    const char* tier;         /* "classic", "tuned" or "experiment"; NULL: "classic" */
    const char* kernel;       /* the __global__ function(s) it runs; may be NULL */

    /* An instance for an input of rows x cols in *instance: COALESCE_STATUS_OK, or
     * COALESCE_STATUS_UNSUPPORTED / COALESCE_STATUS_ERROR with err filled. */
    int (*create)(size_t rows, size_t cols, const coalesce_params* params, void** instance,
                  char* err, size_t err_len);
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
