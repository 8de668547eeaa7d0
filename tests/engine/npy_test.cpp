// NumPy .npy files: the header numpy.lib.format specifies (magic, version 1.0, dict, 64-byte
// boundary), every bit of the data kept, and files the reader cannot take refused with a reason.
#include "coalesce/npy.hpp"

#include "support/temp_dir.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <string>

namespace coalesce {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using namespace std::string_literals;

std::string read_bytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_bytes(const fs::path& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

bool same_bits(const Matrix& a, const Matrix& b) {
    return a.shape() == b.shape() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

class NpyTest : public ::testing::Test {
protected:
    void SetUp() override {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        temp_.emplace(std::string("npy-") + info->name());
    }
    fs::path dir() const { return temp_->path(); }
    std::optional<test::TempDir> temp_;
};

TEST_F(NpyTest, HeaderIsVersionOneWithTheDictEndingOnA64ByteBoundary) {
    for (const Shape shape : {Shape{1, 1}, Shape{7, 5}, Shape{5, 7}, Shape{8192, 8192},
                              Shape{4097, 3001}, Shape{123456789, 3}}) {
        const std::string h = npy_header(shape);
        ASSERT_GE(h.size(), 10u);
        EXPECT_EQ(h.substr(0, 6), "\x93NUMPY");
        EXPECT_EQ(h[6], '\x01');
        EXPECT_EQ(h[7], '\x00');
        const std::size_t length =
            static_cast<unsigned char>(h[8]) + 256u * static_cast<unsigned char>(h[9]);
        EXPECT_EQ(length, h.size() - 10);
        EXPECT_EQ(h.size() % 64, 0u) << h;
        EXPECT_EQ(h.back(), '\n');
        EXPECT_EQ(h.substr(10, h.find('}') - 9),
                  "{'descr': '<f4', 'fortran_order': False, 'shape': (" +
                      std::to_string(shape.rows) + ", " + std::to_string(shape.cols) + "), }");
        EXPECT_EQ(h.find_first_not_of(' ', h.find('}') + 1), h.size() - 1);  // spaces, then '\n'

        const NpyHeader parsed = parse_npy_header(h);
        EXPECT_EQ(parsed.major, 1);
        EXPECT_EQ(parsed.minor, 0);
        EXPECT_EQ(parsed.descr, "<f4");
        EXPECT_FALSE(parsed.fortran_order);
        EXPECT_EQ(parsed.shape, (std::vector<std::size_t>{shape.rows, shape.cols}));
        EXPECT_EQ(parsed.data_offset, h.size());
    }
}

TEST_F(NpyTest, RoundTripKeepsEveryBitNaNsInfinitiesAndNegativeZeroIncluded) {
    Matrix m = Matrix::random(7, 5, 42);
    m.at(0, 0) = std::numeric_limits<float>::quiet_NaN();
    m.at(1, 2) = std::numeric_limits<float>::infinity();
    m.at(2, 3) = -std::numeric_limits<float>::infinity();
    m.at(3, 4) = -0.0f;
    m.at(6, 4) = std::numeric_limits<float>::denorm_min();
    const fs::path path = dir() / "m.npy";
    write_npy(path, m);
    const std::string bytes = read_bytes(path);
    ASSERT_EQ(bytes.size(), 128u + 7 * 5 * 4);  // this dict fits in 128 bytes
    // Little-endian, C order: element (1, 2) is the 8th float after the header.
    const auto bits = std::bit_cast<std::uint32_t>(std::numeric_limits<float>::infinity());
    EXPECT_EQ(static_cast<unsigned char>(bytes[128 + 7 * 4]), bits & 0xFF);
    EXPECT_EQ(static_cast<unsigned char>(bytes[128 + 7 * 4 + 3]), bits >> 24);
    EXPECT_TRUE(same_bits(read_npy(path), m));

    // Replacing a file leaves only the new one, and no temporary beside it.
    const Matrix other = Matrix::random(2, 3, 7);
    write_npy(path, other);
    EXPECT_TRUE(same_bits(read_npy(path), other));
    EXPECT_EQ(std::distance(fs::directory_iterator(dir()), fs::directory_iterator()), 1);
}

TEST_F(NpyTest, TypedImagesKeepTheirElementTypeAndBytes) {
    TypedImage<std::uint16_t> u16(3, 5, 1);
    for (std::size_t i = 0; i < u16.size(); ++i)
        u16.data()[i] = static_cast<std::uint16_t>(i * 4099);
    TypedImage<std::uint8_t> u8(2, 3, 1);
    for (std::size_t i = 0; i < u8.size(); ++i) u8.data()[i] = static_cast<std::uint8_t>(250 + i);
    TypedImage<std::uint64_t> u64(4, 1, 1, std::uint64_t{1} << 40);
    struct Case {
        AnyImage image;
        std::string descr;
        std::size_t elem;
    };
    for (const Case& c : {Case{u16, "<u2", 2}, Case{u8, "|u1", 1}, Case{u64, "<u8", 8},
                          Case{TypedImage<std::uint32_t>(1, 2, 1, 7u), "<u4", 4}}) {
        EXPECT_EQ(npy_descr(c.image), c.descr);
        const fs::path path = dir() / ("t" + c.descr.substr(1) + ".npy");
        write_npy(path, c.image);
        const std::string bytes = read_bytes(path);
        const NpyHeader h = parse_npy_header(bytes);
        EXPECT_EQ(h.descr, c.descr);
        const std::size_t elements = std::visit([](const auto& i) { return i.size(); }, c.image);
        ASSERT_EQ(bytes.size(), h.data_offset + elements * c.elem) << c.descr;
        std::visit(
            [&](const auto& i) {
                EXPECT_EQ(h.shape, (std::vector<std::size_t>{i.rows(), i.cols()}));
                EXPECT_EQ(std::memcmp(bytes.data() + h.data_offset, i.data(), elements * c.elem), 0)
                    << c.descr;
            },
            c.image);
    }
    // Colour is (rows, cols, channels), interleaved as held.
    TypedImage<std::uint8_t> rgb(2, 3, 3);
    for (std::size_t i = 0; i < rgb.size(); ++i) rgb.data()[i] = static_cast<std::uint8_t>(i);
    write_npy(dir() / "rgb.npy", AnyImage(rgb));
    const std::string bytes = read_bytes(dir() / "rgb.npy");
    const NpyHeader h = parse_npy_header(bytes);
    EXPECT_EQ(h.shape, (std::vector<std::size_t>{2, 3, 3}));
    ASSERT_EQ(bytes.size(), h.data_offset + 18);
    EXPECT_EQ(std::memcmp(bytes.data() + h.data_offset, rgb.data(), 18), 0);
}

TEST_F(NpyTest, WriteFailureNamesThePathAndLeavesNothing) {
    write_bytes(dir() / "file", "x");
    try {
        write_npy(dir() / "file" / "m.npy", Matrix(2, 2));
        FAIL() << "a path under a regular file was written";
    } catch (const std::runtime_error& e) {
        EXPECT_THAT(e.what(), HasSubstr("cannot write '"));
        EXPECT_THAT(e.what(), HasSubstr("file/m.npy': Not a directory"));
    }
    fs::create_directory(dir() / "taken.npy");  // a folder where the file should go
    fs::create_directory(dir() / "taken.npy" / "inside");
    EXPECT_THROW(write_npy(dir() / "taken.npy", Matrix(2, 2)), std::runtime_error);
    EXPECT_EQ(std::distance(fs::directory_iterator(dir()), fs::directory_iterator()), 2);
}

struct Damaged {
    std::string name;
    std::string bytes;
    std::string message;
};

std::string with_dict(std::string dict, std::size_t data_bytes, char major = '\x01') {
    dict += '\n';
    std::string h = "\x93NUMPY";
    h += major;
    h += '\x00';
    h += static_cast<char>(dict.size() & 0xFF);
    h += static_cast<char>(dict.size() >> 8);
    if (major != '\x01') h += std::string(2, '\0');
    return h + dict + std::string(data_bytes, '\0');
}

TEST_F(NpyTest, ReaderRefusesWhatItCannotTakeWithTheReason) {
    const std::string good = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
    const Damaged cases[] = {
        {"empty", "", "no \\x93NUMPY magic"},
        {"magic", "\x93NUMPX\x01\x00"s + std::string(60, ' '), "no \\x93NUMPY magic"},
        {"version", "\x93NUMPY\x01\x05\x00\x00"s, "version 1.5 is not supported"},
        {"short", "\x93NUMPY\x01\x00\x40\x00{"s, "cut short"},
        {"newline", with_dict(good, 24).replace(10 + good.size(), 1, " "), "newline"},
        {"f8", with_dict("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }", 48),
         "holds '<f8', not little-endian float32"},
        {"big", with_dict("{'descr': '>f4', 'fortran_order': False, 'shape': (2, 3), }", 24),
         "holds '>f4'"},
        {"fortran", with_dict("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }", 24),
         "Fortran order"},
        {"dims", with_dict("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3, 1), }", 24),
         "has 3 dimensions, not 2"},
        {"vector", with_dict("{'descr': '<f4', 'fortran_order': False, 'shape': (6,), }", 24),
         "has 1 dimensions, not 2"},
        {"missing", with_dict("{'descr': '<f4', 'shape': (2, 3), }", 24), "lacks 'fortran_order'"},
        {"unknown", with_dict("{'descr': '<f4', 'colour': 1}", 24), "unknown key 'colour'"},
        {"truncated", with_dict(good, 23), "holds 23 data bytes; shape (2, 3) needs 24"},
        {"longer", with_dict(good, 25), "holds 25 data bytes"},
        {"huge",
         with_dict("{'descr': '<f4', 'fortran_order': False, 'shape': "
                   "(99999999999999999999999, 3), }",
                   0),
         "too large"},
    };
    for (const Damaged& d : cases) {
        const fs::path path = dir() / (d.name + ".npy");
        write_bytes(path, d.bytes);
        try {
            read_npy(path);
            ADD_FAILURE() << d.name << " was read";
        } catch (const std::runtime_error& e) {
            EXPECT_THAT(e.what(), HasSubstr(d.name + ".npy': ")) << d.name;
            EXPECT_THAT(e.what(), HasSubstr(d.message)) << d.name;
        }
    }
    // NumPy's own spellings of the same header read: double quotes, no trailing comma, version 2.
    write_bytes(
        dir() / "v2.npy",
        with_dict("{\"descr\": \"<f4\", \"shape\": (2, 3), \"fortran_order\": False}", 24, '\x02'));
    EXPECT_EQ(read_npy(dir() / "v2.npy").shape(), (Shape{2, 3}));
    EXPECT_THROW(read_npy(dir()), std::runtime_error);  // a folder
}

}  // namespace
}  // namespace coalesce
