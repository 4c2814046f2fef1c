// A job template of the palette: what a drop onto the fleet creates.
#pragma once

#include <QString>

#include "gpuplan/model/scenario.hpp"

namespace gpuplan::ui {

struct JobTemplate {
    QString id;           ///< stable key carried by the drag
    QString label;        ///< "8×H100 fine-tune, 1 node, 6 h"
    QString description;  ///< tooltip
    QString group;        ///< the palette's heading it sits under
    JobDef job;           ///< name, submit time and pin are set by the drop
};

}  // namespace gpuplan::ui
