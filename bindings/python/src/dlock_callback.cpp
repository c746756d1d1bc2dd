#include "dlock_callback.hpp"

#include <Python.h>

namespace dlock_python {

namespace {

thread_local bool in_callback = false;

}  // namespace

InDlockCallback::InDlockCallback() {
  in_callback = true;
}

InDlockCallback::~InDlockCallback() {
  in_callback = false;
}

bool InDlockCallback::on_this_thread() {
  return in_callback;
}

bool interpreter_running() {
#if PY_VERSION_HEX >= 0x030D0000
  return Py_IsInitialized() && !Py_IsFinalizing();
#else
  return Py_IsInitialized() && !_Py_IsFinalizing();
#endif
}

}  // namespace dlock_python
