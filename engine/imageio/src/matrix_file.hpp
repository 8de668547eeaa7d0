// OpenCV YAML/XML matrix files: checked before OpenCV's parser sees them (it recurses once per
// level of nesting, so 100,000 levels overflow its stack), then the first matrix taken, after
// its declared shape, type and number of values are checked against each other.
#pragma once

#include <opencv2/core.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace coalesce::imageio {

// The deepest nesting of YAML (indentation, "- " sequences, [ ] and { }) or XML (elements) in
// `text`, counted without parsing and at most up to limit + 1.
int nesting_depth(std::string_view text, int limit);

// The first top-level matrix of a YAML/XML text whose nesting is known to be bounded. Throws
// Refusal naming the matrix and what is wrong: no matrix, a shape or type it cannot have, more
// than `max_elements` elements, fewer or more values than it declares, values that are not
// numbers, more than 4 channels, more than two dimensions; or text OpenCV cannot parse.
cv::Mat read_first_matrix(const std::string& text, std::size_t max_elements);

}  // namespace coalesce::imageio
