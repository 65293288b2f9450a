// Progress now lives in engine/core (it is used below the backend, by shape and dock).
// This forwarding header keeps branches in flight building; new code includes "core/Progress.h".
#pragma once

#include "core/Progress.h"
