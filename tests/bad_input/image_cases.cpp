// Images given to coalesce-bench --input: valid ones in every format the loader reads (exit 0,
// the format described on stdout), and files that are missing, special, empty, of another kind,
// cut short, damaged, lying about their size or holding NaN (exit 2, the reason on stderr).
#include "corpus.hpp"

#include "coalesce/results_io.hpp"

#include <gmock/gmock.h>

#include <cmath>
#include <limits>

namespace coalesce::bad_input {
namespace {

std::vector<std::string> run_on(const std::string& file) {
    return {"--input", "@/" + file, "--variants", "copy/cpu-naive", "--reps",
            "1",       "--warmups", "0",          "--json",         "@/r.json"};
}

// coalesce-bench --input on `file`, made by `make`.
Case image(std::string name, const std::string& file, std::function<Bytes()> make, int status,
           std::string message) {
    Case c = bench(std::move(name), run_on(file), status, std::move(message),
                   [file, make](const fs::path& dir) { write_bytes(dir / file, make()); });
    c.needs_opencv = true;
    if (status == 0) c.outputs = {"r.json"};
    return c;
}

Case special(std::string name, const std::string& file, std::function<void(const fs::path&)> setup,
             std::string message) {
    Case c = bench(std::move(name), run_on(file), 2, std::move(message), std::move(setup));
    c.needs_opencv = true;
    return c;
}

// The results of a successful case ran on an input of rows x cols.
std::function<void(const fs::path&, const Outcome&)> shape_is(std::size_t rows, std::size_t cols) {
    return [rows, cols](const fs::path& dir, const Outcome&) {
        const RunRecord record = load_results(dir / "r.json");
        ASSERT_FALSE(record.runs.empty());
        EXPECT_EQ(record.runs[0].rows, rows);
        EXPECT_EQ(record.runs[0].cols, cols);
    };
}

Bytes cut(const Bytes& bytes, std::size_t keep) { return bytes.substr(0, keep); }

Bytes without_end(const Bytes& png_bytes) { return png_bytes.substr(0, png_bytes.size() - 12); }

Bytes flip_byte(Bytes bytes, std::size_t at) {
    bytes[at] = static_cast<char>(bytes[at] ^ 0x55);
    return bytes;
}

Bytes tiff_directory_at(std::uint32_t offset) {
    Bytes t = tiff(4, 4, 1, 8, 1, Bytes(16, 'x'));
    return t.replace(4, 4, le32(offset));
}

Bytes bmp_declaring(std::int32_t width, std::int32_t height) {
    Bytes b = bmp(4, 4);
    return b.replace(
        18, 8, le32(static_cast<std::uint32_t>(width)) + le32(static_cast<std::uint32_t>(height)));
}

}  // namespace

std::vector<Case> image_cases() {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    std::vector<Case> cases = {
        // Read, and described on stdout.
        image(
            "png_gray", "g.png", [] { return png(7, 5, 0); }, 0, "PNG, 8-bit unsigned, 1 channel"),
        image(
            "png_rgba_keeps_alpha", "rgba.png", [] { return png(7, 5, 6); }, 0,
            "4 channels (RGBA)"),
        image(
            "png_gray_alpha", "ga.png", [] { return png(7, 5, 4); }, 0, "4 channels (RGBA)"),
        image(
            "png_16_bit", "g16.png", [] { return png(7, 5, 0, 16); }, 0, "16-bit unsigned"),
        image(
            "png_named_jpg", "g.jpg", [] { return png(7, 5, 2); }, 0, "PNG, 8-bit unsigned"),
        image(
            "png_named_yml", "g.yml", [] { return png(7, 5, 0); }, 0, "PNG, 8-bit unsigned"),
        image(
            "jpeg", "c.jpg", [] { return sample("colour-16x8.jpg"); }, 0,
            "JPEG, 8-bit unsigned, 3 channels (RGB)"),
        image(
            "tiff_gray", "g.tif", [] { return tiff(6, 4, 1, 8, 1, Bytes(24, 'x')); }, 0,
            "TIFF, 8-bit unsigned, 1 channel"),
        image(
            "tiff_float", "f.tif",
            [] {
                return tiff_floats(3, 2, {1, 2, 3, 4, 5, 6});
            },
            0, "TIFF, 32-bit float"),
        image(
            "tiff_rgba_keeps_alpha", "rgba.tif", [] { return tiff(4, 3, 4, 8, 1, Bytes(48, 'x')); },
            0, "4 channels (RGBA)"),
        image(
            "bmp", "b.bmp", [] { return bmp(5, 3); }, 0, "BMP, 8-bit unsigned, 3 channels"),
        image(
            "bmp_top_down", "td.bmp", [] { return bmp(5, -3); }, 0, "BMP"),
        image(
            "pgm", "g.pgm", [] { return pgm(5, 3); }, 0, "PGM, 8-bit unsigned"),
        image(
            "pgm_16_bit", "g16.pgm", [] { return pgm(5, 3, 65535); }, 0, "PGM, 16-bit unsigned"),
        image(
            "pgm_ascii", "a.pgm", [] { return pgm_ascii(5, 3); }, 0, "PGM"),
        image(
            "webp_keeps_alpha", "w.webp", [] { return sample("rgba-16x8.webp"); }, 0,
            "WebP, 8-bit unsigned, 4 channels (RGBA)"),
        image(
            "name_not_utf8", "\xff\xfe-image.png", [] { return png(3, 2); }, 0, "PNG"),

        // Not a regular file, or not there: refused before it is opened.
        special("missing", "missing.png", {}, "missing.png': no such file"),
        special(
            "a_folder", "folder.png",
            [](const fs::path& d) { fs::create_directory(d / "folder.png"); },
            "is a folder, not an image"),
        special(
            "a_named_pipe", "pipe.png", [](const fs::path& d) { make_fifo(d / "pipe.png"); },
            "is a named pipe, not a regular file"),
        special(
            "link_to_dev_zero", "zero.png",
            [](const fs::path& d) { fs::create_symlink("/dev/zero", d / "zero.png"); },
            "is a character device, not a regular file"),
        special(
            "link_to_a_folder", "dir.png",
            [](const fs::path& d) {
                fs::create_directory(d / "folder");
                fs::create_symlink("folder", d / "dir.png");
            },
            "is a folder, not an image"),
        special(
            "dangling_link", "gone.png",
            [](const fs::path& d) { fs::create_symlink("nowhere.png", d / "gone.png"); },
            "gone.png': no such file"),
        special(
            "larger_than_the_file_limit", "big.tif",
            [](const fs::path& d) { write_sparse(d / "big.tif", (std::uintmax_t{1} << 30) + 1); },
            "larger than the limit of 1024 MiB"),

        // Empty or another kind of file.
        image(
            "empty_png", "e.png", [] { return Bytes(); }, 2, "is empty (0 bytes)"),
        image(
            "empty_jpeg", "e.jpg", [] { return Bytes(); }, 2, "is empty (0 bytes)"),
        image(
            "text_named_png", "t.png", [] { return Bytes("not an image\n"); }, 2,
            "is not an image this program reads"),
        image(
            "random_bytes_named_tif", "r.tif", [] { return Bytes("\x13\x37\xde\xad\xbe\xef"); }, 2,
            "is not an image this program reads"),
        image(
            "gif", "a.gif", [] { return Bytes("GIF89a\x01\x00\x01\x00\x00\x00\x00;"); }, 2,
            "is not an image this program reads"),

        // PNG cut short, damaged, lying.
        image(
            "png_signature_only", "s.png", [] { return cut(png(7, 5), 8); }, 2,
            "is a truncated PNG"),
        image(
            "png_cut_in_header", "h.png", [] { return cut(png(7, 5), 20); }, 2,
            "is a truncated PNG"),
        image(
            "png_cut_in_data", "d.png", [] { return cut(png(40, 30), 200); }, 2,
            "is a truncated PNG: it ends inside its 'IDAT' chunk"),
        image(
            "png_without_end", "n.png", [] { return without_end(png(7, 5)); }, 2,
            "is a truncated PNG: it has no IEND chunk"),
        image(
            "png_bad_checksum", "c.png", [] { return flip_byte(png(7, 5), 50); }, 2,
            "fails its CRC check"),
        image(
            "png_declares_30000_square", "l.png", [] { return png_lying(30000, 30000); }, 2,
            "declares 30000x30000 pixels"),
        image(
            "png_declares_100000_square", "l.png", [] { return png_lying(100000, 100000); }, 2,
            "declares 100000x100000 pixels"),
        image(
            "png_declares_zero_width", "z.png", [] { return png_lying(0, 10); }, 2,
            "declares an empty image"),
        image(
            "png_declares_2g_width", "w.png", [] { return png_lying(0x80000000u, 1); }, 2,
            "declares 2147483648x1 pixels"),
        image(
            "png_lies_small", "s.png", [] { return png_lying(300, 200); }, 2,
            "cannot be decoded as a PNG"),

        // JPEG.
        image(
            "jpeg_marker_only", "m.jpg", [] { return Bytes("\xff\xd8", 2); }, 2,
            "is a truncated JPEG"),
        image(
            "jpeg_cut_in_header", "h.jpg", [] { return cut(sample("colour-16x8.jpg"), 100); }, 2,
            "is a truncated JPEG"),
        image(
            "jpeg_cut_in_scan", "s.jpg",
            [] {
                const Bytes j = sample("colour-16x8.jpg");
                return cut(j, j.size() - 4);
            },
            2, "is a truncated JPEG: it ends before its end-of-image marker"),
        image(
            "jpeg_declares_65500_square", "l.jpg",
            [] { return with_jpeg_size(sample("colour-16x8.jpg"), 65500, 65500); }, 2,
            "declares 65500x65500 pixels"),
        image(
            "jpeg_declares_zero_height", "z.jpg",
            [] { return with_jpeg_size(sample("colour-16x8.jpg"), 16, 0); }, 2,
            "declares an empty image"),
        image(
            "jpeg_exif_segment_cut", "x.jpg",
            [] { return cut(with_exif_orientation(sample("colour-16x8.jpg"), 6), 20); }, 2,
            "is a truncated JPEG"),

        // TIFF.
        image(
            "tiff_header_only", "h.tif", [] { return cut(tiff(4, 4, 1, 8, 1, Bytes(16, 'x')), 8); },
            2, "is a truncated TIFF"),
        image(
            "tiff_cut_in_pixels", "p.tif",
            [] {
                const Bytes t = tiff(40, 40, 1, 8, 1, Bytes(1600, 'x'));
                return cut(t, t.size() - 800);
            },
            2, "is a truncated TIFF"),
        image(
            "tiff_directory_past_the_end", "d.tif", [] { return tiff_directory_at(1u << 30); }, 2,
            "is a truncated TIFF"),
        image(
            "tiff_declares_100000_square", "l.tif", [] { return tiff_lying(100000, 100000); }, 2,
            "declares 100000x100000 pixels"),
        image(
            "tiff_nan", "nan.tif",
            [nan] {
                return tiff_floats(3, 2, {1, nan, 3, 4, 5, 6});
            },
            2, "a NaN pixel at row 0, column 1"),
        image(
            "tiff_infinite", "inf.tif",
            [inf] {
                return tiff_floats(3, 2, {1, 2, 3, -inf, 5, 6});
            },
            2, "an infinite pixel at row 1, column 0"),

        // BMP, PGM, WebP.
        image(
            "bmp_cut_in_pixels", "c.bmp", [] { return cut(bmp(40, 30), 500); }, 2,
            "is a truncated BMP"),
        image(
            "bmp_declares_100000_square", "l.bmp", [] { return bmp_declaring(100000, -100000); }, 2,
            "declares 100000x100000 pixels"),
        image(
            "pgm_cut_in_pixels", "c.pgm", [] { return cut(pgm(40, 30), 300); }, 2,
            "is a truncated PGM"),
        image(
            "pgm_declares_100000_square", "l.pgm",
            [] { return Bytes("P5\n100000 100000\n255\n") + Bytes(64, 'x'); }, 2,
            "declares 100000x100000 pixels"),
        image(
            "pgm_header_not_numbers", "h.pgm", [] { return Bytes("P5\nwide tall\n255\nxx"); }, 2,
            "is a damaged PGM"),
        image(
            "webp_cut", "c.webp", [] { return cut(sample("rgba-16x8.webp"), 30); }, 2,
            "is a truncated WebP"),
    };

    // EXIF orientation is honoured: orientation 6 turns the 16x8 JPEG into 8 wide, 16 tall.
    Case rotated = image(
        "jpeg_exif_rotated", "r.jpg",
        [] { return with_exif_orientation(sample("colour-16x8.jpg"), 6); }, 0,
        "EXIF orientation 6");
    rotated.check = shape_is(16, 8);
    cases.push_back(rotated);
    Case odd = image(
        "jpeg_exif_orientation_out_of_range", "o.jpg",
        [] { return with_exif_orientation(sample("colour-16x8.jpg"), 9); }, 0, "JPEG");
    odd.check = shape_is(8, 16);
    cases.push_back(odd);
    return cases;
}

}  // namespace coalesce::bad_input
