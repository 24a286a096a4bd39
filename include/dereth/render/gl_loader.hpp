#pragma once
// The only place the OpenGL function pointers are loaded (glad, GL 3.3 core).

namespace dereth::render {

using GlProcLoader = void* (*)(const char* name);

struct GlVersion {
  int major = 0;
  int minor = 0;
};

// Loads every GL 3.3 core entry point through `loader` (SDL_GL_GetProcAddress,
// eglGetProcAddress). Returns the context's version, or {0, 0} on failure.
GlVersion load_gl_functions(GlProcLoader loader);

}  // namespace dereth::render
