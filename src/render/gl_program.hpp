#pragma once
// The one GL program builder of the render module (private header): the
// renderer's mesh and terrain programs and the overlay's program are all
// compiled and linked here, so a driver's compile or link log reaches the
// user the same way from each.

#include <initializer_list>

#include <glad/gl.h>

#include "dereth/core/error.hpp"

namespace dereth::render::gl {

// Compiles the vertex and fragment sources (each the concatenation of its
// parts, in order) and links them into a program. The error names `what`
// (the component, e.g. "OpenGL overlay"), which shader or the link failed,
// and the driver's log. No shader or program is left behind on failure.
[[nodiscard]] core::Result<GLuint> build_program(const char* what, const char* name,
                                                 std::initializer_list<const char*> vertex,
                                                 std::initializer_list<const char*> fragment);

}  // namespace dereth::render::gl
