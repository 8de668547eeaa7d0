#include "lesson_list.hpp"

#include "text_table.hpp"

#include "coalesce/lessons.hpp"

#include <string>

namespace coalesce::cli {

void print_lesson_list(std::ostream& out) {
    TextTable table({{"id"}, {"runs"}, {"source"}, {"title"}});
    std::size_t runnable = 0;
    for (const Lesson& lesson : lessons()) {
        runnable += lesson.runnable ? 1 : 0;
        const std::string source = lesson.source.substr(0, lesson.source.find(','));
        std::string title = lesson.title;
        if (!lesson.runnable)
            title += " (not yet: " + lesson.missing + ")";
        else if (!lesson.sweep.empty())
            title += " [" + sweep_text(lesson.sweep) + "]";
        table.add_row({lesson.id, lesson.runnable ? "yes" : "no", source, title});
    }
    table.print(out);
    out << lessons().size() << " lessons, " << runnable
        << " runnable; coalesce-bench --lesson ID runs one (its variants at its sizes, one run per "
           "combination of the parameters in brackets)\n";
}

}  // namespace coalesce::cli
