// Listing locks and holder notes: what `dlock list` and `dlock status` show.
#include <cstdlib>
#include <memory>
#include <string>

#include "c_api/c_string.hpp"
#include "c_api/guarded.hpp"
#include "c_api/handles.hpp"
#include "c_api/lock_ops.hpp"

namespace {

using dlock::c_api::c_string;
using dlock::c_api::guarded;
using dlock::c_api::require;
using dlock::c_api::with_ops;

constexpr std::size_t note_max = 1024;

// At most `max` bytes, named `what` in the error.
std::string bounded(const char* text, std::size_t max, const char* what) {
  const std::string value(text);
  if (value.size() > max) {
    throw dlock::InvalidArgument(std::string(what) + ": at most " + std::to_string(max) + " bytes, got " +
                                 std::to_string(value.size()));
  }
  return value;
}

}  // namespace

extern "C" {

int dlock_lock_list(dlock_client* client, const char* prefix, dlock_lock_name_fn each, void* user_data) {
  return guarded([&] {
    require(client, "client");
    require(prefix, "prefix");
    if (each == nullptr) throw dlock::InvalidArgument("each: must not be NULL");
    const std::string wanted = bounded(prefix, DLOCK_NAME_MAX, "prefix");
    client->client->core()->throw_if_closed();
    const std::vector<std::string> names = client->backend->list_locks(wanted);
    for (const std::string& name : names) {
      if (each(name.c_str(), name.size(), user_data) != 0) break;
    }
    return DLOCK_OK;
  });
}

int dlock_lock_note_holder(dlock_lock* lock, uint64_t owner, const char* note) {
  return guarded([&] {
    require(lock, "lock");
    require(note, "note");
    const std::string text = bounded(note, note_max, "note");
    return with_ops(lock, [&](dlock::ReentrantLock&, dlock::ClientCore& core) {
      if (!lock->ops->note_holder(lock->ops->hold_field(core.field(owner)), text)) {
        throw dlock::NotOwnerError("'" + lock->ops->name() + "' is not held by this owner: no note written");
      }
      return DLOCK_OK;
    });
  });
}

int dlock_lock_read_holder_note(dlock_lock* lock, char** holder_id_out, char** note_out) {
  return guarded([&] {
    require(holder_id_out, "holder_id_out");
    require(note_out, "note_out");
    *holder_id_out = nullptr;
    *note_out = nullptr;
    require(lock, "lock");
    return with_ops(lock, [&](dlock::ReentrantLock&, dlock::ClientCore&) {
      const std::optional<dlock::HolderNote> found = lock->ops->holder_note();
      if (found) {
        std::unique_ptr<char, void (*)(void*)> holder(c_string(found->holder), std::free);
        *note_out = c_string(found->note);
        *holder_id_out = holder.release();
      }
      return DLOCK_OK;
    });
  });
}

void dlock_lock_holder_note_free(char* text) {
  std::free(text);
}

}  // extern "C"
