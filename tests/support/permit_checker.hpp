// The semaphore's safety check, over the sections its holders logged: how
// many holders were inside at once. Each section runs from the moment its
// acquire returned to the moment its release was sent, a sub-interval of the
// server's grant, so sections that overlap were granted at the same time.
#pragma once

#include <vector>

#include "section_log.hpp"

namespace dlock_test {

// The largest number of sections open at one instant (a section ending at the
// instant another starts does not overlap it).
int max_concurrent_sections(const std::vector<Section>& sections);

// How many sections started while `permits` others were already open: each
// one a holder more than the semaphore has permits.
int sections_over_permits(const std::vector<Section>& sections, int permits);

}  // namespace dlock_test
