// dlock_client_options (dlock.h) read into the client's settings; the backend a url names.
#pragma once

#include <string>

#include "backends/redis/net/url.hpp"
#include "dlock.h"

namespace dlock::c_api {

// Copies the first opts->size bytes' worth of fields over the defaults and
// checks them with the URL's bounds; NULL gives the defaults.
ClientConfig config_from_options(const dlock_client_options* opts);

// The backend `url`'s scheme names: "redis" for every scheme apply_url() reads
// (an unknown scheme is left to it), else the backend's name ("zookeeper").
// The scheme of a backend this build does not have is an UnsupportedError
// naming the backend.
const char* backend_for_url(const std::string& url);

}  // namespace dlock::c_api
