// Small helpers over CPython's API that the importer's halves share.
#pragma once

#include <pybind11/pybind11.h>
#include <string_view>

namespace declone::python {

namespace py = pybind11;

/// FX graphs nest arguments a few levels deep; anything deeper is not a graph FX can print.
inline constexpr int kMaxArgDepth = 256;

inline std::string_view utf8(py::handle text) {
  Py_ssize_t size = 0;
  const char* data = PyUnicode_AsUTF8AndSize(text.ptr(), &size);
  if (!data)
    throw py::error_already_set();
  return {data, static_cast<size_t>(size)};
}

inline py::object getattr(py::handle object, const py::str& name) {
  PyObject* result = PyObject_GetAttr(object.ptr(), name.ptr());
  if (!result)
    throw py::error_already_set();
  return py::reinterpret_steal<py::object>(result);
}

/// isinstance(value, types) for a type or a tuple of types, by the C-level subtype check:
/// PyObject_IsInstance first looks up __instancecheck__ on the metaclass, which costs more than
/// the check itself, and torch's tensor and FX types do not customise it.
inline bool isInstance(py::handle value, const py::object& types) {
  PyTypeObject* type = Py_TYPE(value.ptr());
  if (reinterpret_cast<PyObject*>(type) == types.ptr()) // the common case: exactly the type
    return true;
  if (PyTuple_Check(types.ptr())) {
    for (py::handle candidate : py::reinterpret_borrow<py::tuple>(types))
      if (PyType_IsSubtype(type, reinterpret_cast<PyTypeObject*>(candidate.ptr())))
        return true;
    return false;
  }
  return PyType_IsSubtype(type, reinterpret_cast<PyTypeObject*>(types.ptr()));
}

} // namespace declone::python
