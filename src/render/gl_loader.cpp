#include "dereth/render/gl_loader.hpp"

#include <glad/gl.h>

namespace dereth::render {

GlVersion load_gl_functions(GlProcLoader loader) {
  if (loader == nullptr) {
    return {};
  }
  const int version = gladLoadGL(reinterpret_cast<GLADloadfunc>(loader));
  return {GLAD_VERSION_MAJOR(version), GLAD_VERSION_MINOR(version)};
}

}  // namespace dereth::render
