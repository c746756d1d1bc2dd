// dlock_client_options (dlock.h) read into the client's settings.
#pragma once

#include "backends/redis/net/url.hpp"
#include "dlock.h"

namespace dlock::c_api {

// Copies the first opts->size bytes' worth of fields over the defaults and
// checks them with the URL's bounds; NULL gives the defaults.
ClientConfig config_from_options(const dlock_client_options* opts);

}  // namespace dlock::c_api
