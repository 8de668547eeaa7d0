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
 * with their size so either side can tell an older layout from a newer one.
 *
 * Versions. The host loads only plugins of its own version and refuses any other, naming the file
 * and both versions ("...: ABI version mismatch: the plugin has version 2, this Coalesce expects
 * 3"): a plugin is rebuilt against the header of the Coalesce that loads it.
 *   2: operations by name, tiers and kernel names, named parameters, create() returns a status
 *      that can say "unsupported input" (the run is skipped, not failed).
 *   3: element types. A variant descriptor declares the element types it takes (type_mask, bits
 *      1u << enum coalesce_elem_type); a descriptor whose struct_size ends before type_mask takes
 *      f32 only. u8 and u16 images travel as raw bytes through three new instance functions,
 *      upload_typed, poison_bytes and download_typed (element type, shape, and for the output its
 *      element size), which the host maps onto Instance::upload_typed / poison_bytes /
 *      download_typed. The f32 functions (upload, poison, download) are needed only when the mask
 *      has f32, the typed ones only when it has u8 or u16. */
#ifndef COALESCE_PLUGIN_ABI_H
#define COALESCE_PLUGIN_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* See "Versions" above. */
#define COALESCE_PLUGIN_ABI_VERSION 3u

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

/* The element types of an image; a variant lists the ones it takes as a bit mask (1u << type).
 * Elements are unsigned 8-bit, unsigned 16-bit or IEEE float32, single channel, row-major with no
 * padding between rows, in the host's byte order. */
enum coalesce_elem_type { COALESCE_ELEM_U8 = 0, COALESCE_ELEM_U16 = 1, COALESCE_ELEM_F32 = 2 };

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
    /* f32 runs. Allocate and copy in the host input (rows * cols floats, row-major). Not timed.
     * NULL when type_mask lacks f32. */
    int (*upload)(void* instance, const float* h_input, char* err, size_t err_len);
    /* Fill the output with NaN. NULL when type_mask lacks f32. */
    int (*poison)(void* instance, char* err, size_t err_len);
    /* Launch the operation on `stream` (a cudaStream_t); launches only, timed by the host. */
    int (*launch)(void* instance, void* stream, char* err, size_t err_len);
    /* Copy the output (output-shape floats, row-major) to h_output. NULL when type_mask lacks f32.
     */
    int (*download)(void* instance, float* h_output, char* err, size_t err_len);
    /* Free everything; never fails. */
    void (*destroy)(void* instance);

    /* ---- ABI 3; a descriptor whose struct_size ends above takes f32 only ---- */

    /* The element types the variant takes, 1u << enum coalesce_elem_type; at least one, no
     * other bits. The host runs it only on these. */
    uint32_t type_mask;
    /* Typed runs (u8, u16; needed when type_mask has either), called in the order upload_typed,
     * then any number of poison_bytes / launch, then download_typed.
     * Copy in rows x cols elements of elem_type (enum coalesce_elem_type), rows * cols *
     * element-size bytes; rows and cols are those of create(). Not timed. */
    int (*upload_typed)(void* instance, const void* h_input, int elem_type, size_t rows,
                        size_t cols, char* err, size_t err_len);
    /* Fill every byte of the output with `byte` (integers have no NaN: the host checks under two
     * different bytes, so an element never written shows). */
    int (*poison_bytes)(void* instance, uint8_t byte, char* err, size_t err_len);
    /* Copy the output, rows x cols elements of out_elem_size [bytes] each, row-major, to h_output.
     * The output holds the input's element type, except u8/u16 row and column sums: unsigned
     * integers of out_elem_size (4 or 8) bytes, the accumulator the host chose. The plugin fails
     * when the shape or the size is not what it wrote. */
    int (*download_typed)(void* instance, void* h_output, size_t rows, size_t cols,
                          size_t out_elem_size, char* err, size_t err_len);
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
