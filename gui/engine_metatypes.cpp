#include "engine_metatypes.hpp"

namespace coalesce::gui {

void register_engine_metatypes() {
    qRegisterMetaType<coalesce::DeviceInfo>("coalesce::DeviceInfo");
    qRegisterMetaType<coalesce::RunConfig>("coalesce::RunConfig");
    qRegisterMetaType<coalesce::RunResult>("coalesce::RunResult");
    qRegisterMetaType<coalesce::RunRecord>("coalesce::RunRecord");
    qRegisterMetaType<coalesce::Progress>("coalesce::Progress");
}

}  // namespace coalesce::gui
