// The course's findings as data: one Lesson per finding of the five course documents
// (shared/seeds/), with the variants, sizes and parameter sweep that reproduce it where Coalesce
// runs the experiment, and what is missing where it does not. The CLI (--lessons, --lesson ID) and
// the window's Lessons panel read the same table; docs/lessons.md is its commentary.
#pragma once

#include "coalesce/matrix.hpp"
#include "coalesce/operation.hpp"
#include "coalesce/variant.hpp"

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
    // Named parameters (offset, stride, area...): each combination of the axes' values is a run,
    // for the variants whose operation takes the parameter; a one-value axis fixes a parameter.
    std::vector<ParamAxis> sweep;
    // The tiers the lesson's variants belong to (an experiment that lost is a lesson too).
    std::vector<Tier> tiers = {Tier::classic, Tier::tuned};
    bool runnable = false;  // false: Coalesce does not run this experiment yet
    std::string missing;    // when !runnable: which experiment is missing
};

// Every lesson, in the order of the course documents.
const std::vector<Lesson>& lessons();

// The lesson with this id, or nullptr.
const Lesson* find_lesson(std::string_view id);

// The sweep as a user reads it, e.g. "offset = 0..32, repeat = 65"; empty when there is none.
std::string sweep_text(const std::vector<ParamAxis>& sweep);

}  // namespace coalesce
