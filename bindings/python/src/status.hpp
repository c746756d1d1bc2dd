// Failing dlock statuses become the Python exceptions named by the package's
// status table (dlock/errors.py registers its factory when it is imported).
#pragma once

#include <string>

namespace dlock_python {

// Raises for a negative status, with dlock_last_error()'s message. Call it
// with the GIL held, on the thread that made the failing call and before that
// thread makes another dlock call (the message is thread-local).
void check_status(int status);

// Raises the exception for `status` with the given message; `expiry`: a
// DLOCK_E_LOST that dlock_last_error_is_expiry() called an expiry.
[[noreturn]] void raise_status(int status, const std::string& message, bool expiry = false);

// The C ABI takes NUL-terminated strings: a Python string holding a NUL
// would silently name something else, so it is refused.
const char* c_string(const std::string& text, const char* argument);

}  // namespace dlock_python
