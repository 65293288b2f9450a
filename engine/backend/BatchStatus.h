// BatchStatus now lives in engine/core (dock reports it below the backend).
// This forwarding header keeps branches in flight building; new code includes "core/BatchStatus.h".
#pragma once

#include "core/BatchStatus.h"
