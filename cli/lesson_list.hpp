// coalesce-bench --lessons: the course's findings (engine/include/coalesce/lessons.hpp) as a table.
#pragma once

#include <ostream>

namespace coalesce::cli {

// One row per lesson: id, whether Coalesce runs it (or what is missing), its seed file, its title.
void print_lesson_list(std::ostream& out);

}  // namespace coalesce::cli
