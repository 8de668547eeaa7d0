// The course's findings as data: what each one says, where the course says it, and the variants,
// sizes and parameters that reproduce it (coalesce-bench and the window's Lessons panel read it).
#pragma once

#include "coalesce/matrix.hpp"
#include "coalesce/operation.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace coalesce {

struct Lesson {
    std::string id;             // "transpose-padding"
    std::string title;          // one line
    std::string source;         // the course document it comes from
    std::string course_figure;  // what the course measured, as it says it
    std::string finding;        // the lesson, a few sentences
    std::vector<std::string> variants;  // variant ids that show it
    std::vector<Shape> sizes;
    OpParams params;
    bool runnable;              // false: Coalesce does not run its experiment yet
    std::string missing;        // what is missing when not runnable
};

// Every finding, in the course's order.
const std::vector<Lesson>& lessons();
// nullptr when there is no lesson `id`.
const Lesson* find_lesson(std::string_view id);

}  // namespace coalesce
