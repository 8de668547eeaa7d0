// The course's findings as data: one Lesson per finding of the five course documents
// (shared/seeds/), with the variants and sizes that reproduce it where Coalesce runs the
// experiment, and what is missing where it does not yet. The CLI (--lessons, --lesson ID) and the
// window's Lessons panel read the same table; docs/lessons.md is its commentary.
#pragma once

#include "coalesce/matrix.hpp"
#include "coalesce/operation.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace coalesce {

struct Lesson {
    std::string id;                     // unique, stable, e.g. "transpose-padding"
    std::string title;                  // one line
    std::string source;                 // the seed file and the place in it
    std::string course_figure;          // the figure the course gives, as it gives it
    std::string finding;                // the lesson in two sentences
    std::vector<std::string> variants;  // variant ids (or id prefixes) to run, in teaching order
    std::vector<Shape> sizes;           // input sizes to run them at
    OpParams params;                    // filters: radius and border
    bool runnable;                      // false: Coalesce does not run this experiment yet
    std::string missing;                // when !runnable: which experiment is missing
};

// Every lesson, in the order of the course documents.
const std::vector<Lesson>& lessons();

// The lesson with this id, or nullptr.
const Lesson* find_lesson(std::string_view id);

}  // namespace coalesce
