// Engine value types carried by queued signals between the worker thread and the window.
// The engine knows no Qt, so its metatypes are declared here, in gui/ only.
#pragma once

#include "coalesce/runner.hpp"

#include <QMetaType>

Q_DECLARE_METATYPE(coalesce::DeviceInfo)
Q_DECLARE_METATYPE(coalesce::RunConfig)
Q_DECLARE_METATYPE(coalesce::RunResult)
Q_DECLARE_METATYPE(coalesce::RunRecord)
Q_DECLARE_METATYPE(coalesce::Progress)

namespace coalesce::gui {

// Registers the types above for queued connections; call once before the first connection.
void register_engine_metatypes();

}  // namespace coalesce::gui
