#include "status.hpp"

#include <pybind11/pybind11.h>

#include <stdexcept>

#include "dlock.h"

namespace py = pybind11;

namespace dlock_python {

void raise_status(int status, const std::string& message, bool expiry) {
  py::object factory = py::module_::import("dlock._dlock").attr("_error_factory");
  if (factory.is_none()) throw std::runtime_error(message);  // the package was not imported
  py::object error = factory(status, message, expiry);
  PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(error.ptr())), error.ptr());
  throw py::error_already_set();
}

void check_status(int status) {
  if (status >= 0) return;
  std::string message = dlock_last_error();
  raise_status(status, message.empty() ? dlock_strerror(status) : message, dlock_last_error_is_expiry() == 1);
}

const char* c_string(const std::string& text, const char* argument) {
  if (text.find('\0') != std::string::npos) {
    raise_status(DLOCK_E_INVALID, std::string(argument) + " must not contain a NUL character");
  }
  return text.c_str();
}

}  // namespace dlock_python
