#include "dereth/render/headless_context.hpp"

#include <cstdio>
#include <utility>

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <glad/gl.h>

namespace dereth::render {

namespace {

const char* egl_error_name(EGLint e) noexcept {
  switch (e) {
    case EGL_SUCCESS: return "EGL_SUCCESS";
    case EGL_NOT_INITIALIZED: return "EGL_NOT_INITIALIZED";
    case EGL_BAD_ACCESS: return "EGL_BAD_ACCESS";
    case EGL_BAD_ALLOC: return "EGL_BAD_ALLOC";
    case EGL_BAD_ATTRIBUTE: return "EGL_BAD_ATTRIBUTE";
    case EGL_BAD_CONFIG: return "EGL_BAD_CONFIG";
    case EGL_BAD_CONTEXT: return "EGL_BAD_CONTEXT";
    case EGL_BAD_CURRENT_SURFACE: return "EGL_BAD_CURRENT_SURFACE";
    case EGL_BAD_DISPLAY: return "EGL_BAD_DISPLAY";
    case EGL_BAD_MATCH: return "EGL_BAD_MATCH";
    case EGL_BAD_NATIVE_PIXMAP: return "EGL_BAD_NATIVE_PIXMAP";
    case EGL_BAD_NATIVE_WINDOW: return "EGL_BAD_NATIVE_WINDOW";
    case EGL_BAD_PARAMETER: return "EGL_BAD_PARAMETER";
    case EGL_BAD_SURFACE: return "EGL_BAD_SURFACE";
    case EGL_CONTEXT_LOST: return "EGL_CONTEXT_LOST";
    default: return "unknown EGL error";
  }
}

core::Error egl_failure(const char* call, const char* what) {
  const EGLint e = eglGetError();
  char detail[160];
  std::snprintf(detail, sizeof detail, "%s (%s 0x%04X)", what, egl_error_name(e), static_cast<unsigned>(e));
  return core::Error{core::ErrorKind::Unsupported, "EGL", call, 0, detail};
}

void* egl_proc(const char* name) {
  return reinterpret_cast<void*>(eglGetProcAddress(name));
}

std::string gl_string(GLenum name) {
  const GLubyte* s = glGetString(name);
  return s == nullptr ? std::string() : std::string(reinterpret_cast<const char*>(s));
}

}  // namespace

struct HeadlessContext::State {
  EGLDisplay display = EGL_NO_DISPLAY;
  EGLContext context = EGL_NO_CONTEXT;
  std::string version;
  std::string renderer;

  State() = default;
  State(const State&) = delete;
  State& operator=(const State&) = delete;
  ~State() {
    if (display != EGL_NO_DISPLAY) {
      if (context != EGL_NO_CONTEXT) {
        if (eglGetCurrentContext() == context) eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        eglDestroyContext(display, context);
      }
      // The display is shared per platform by Mesa; it is left initialised so
      // that other contexts on it stay valid.
    }
  }
};

HeadlessContext::HeadlessContext(std::unique_ptr<State> state) noexcept : state_(std::move(state)) {}
HeadlessContext::HeadlessContext(HeadlessContext&&) noexcept = default;
HeadlessContext& HeadlessContext::operator=(HeadlessContext&&) noexcept = default;
HeadlessContext::~HeadlessContext() = default;

core::Result<HeadlessContext> HeadlessContext::create(int major, int minor) {
  const char* client_extensions = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  if (client_extensions == nullptr) {
    return std::unexpected(
        egl_failure("eglQueryString", "no EGL client extensions (EGL 1.5 or EXT_client_extensions needed)"));
  }
  const std::string extensions(client_extensions);
  if (extensions.find("EGL_MESA_platform_surfaceless") == std::string::npos) {
    return std::unexpected(core::Error{core::ErrorKind::Unsupported, "EGL", "client extensions", 0,
                                       "EGL_MESA_platform_surfaceless is not offered (Mesa's EGL is needed)"});
  }
  auto get_platform_display =
      reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
  if (get_platform_display == nullptr) {
    return std::unexpected(egl_failure("eglGetProcAddress", "eglGetPlatformDisplayEXT is missing"));
  }
  auto state = std::make_unique<State>();
  state->display = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  if (state->display == EGL_NO_DISPLAY) {
    return std::unexpected(egl_failure("eglGetPlatformDisplayEXT", "no surfaceless display"));
  }
  EGLint egl_major = 0;
  EGLint egl_minor = 0;
  if (eglInitialize(state->display, &egl_major, &egl_minor) == EGL_FALSE) {
    state->display = EGL_NO_DISPLAY;
    return std::unexpected(egl_failure("eglInitialize", "cannot initialise the surfaceless display"));
  }
  if (eglBindAPI(EGL_OPENGL_API) == EGL_FALSE) {
    return std::unexpected(egl_failure("eglBindAPI", "desktop OpenGL is not available"));
  }
  const EGLint config_attributes[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint config_count = 0;
  if (eglChooseConfig(state->display, config_attributes, &config, 1, &config_count) == EGL_FALSE || config_count < 1) {
    config = nullptr;  // EGL_KHR_no_config_context: a context without a config is fine for FBO rendering
  }
  const EGLint context_attributes[] = {
      EGL_CONTEXT_MAJOR_VERSION,           major,   EGL_CONTEXT_MINOR_VERSION, minor, EGL_CONTEXT_OPENGL_PROFILE_MASK,
      EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
  state->context = eglCreateContext(state->display, config, EGL_NO_CONTEXT, context_attributes);
  if (state->context == EGL_NO_CONTEXT) {
    return std::unexpected(egl_failure("eglCreateContext", "no OpenGL core context of the requested version"));
  }
  if (eglMakeCurrent(state->display, EGL_NO_SURFACE, EGL_NO_SURFACE, state->context) == EGL_FALSE) {
    return std::unexpected(egl_failure("eglMakeCurrent", "cannot make the surfaceless context current"));
  }
  const GlVersion gl = load_gl_functions(&egl_proc);
  if (gl.major < 3 || (gl.major == 3 && gl.minor < 3)) {
    return std::unexpected(core::Error{core::ErrorKind::Unsupported, "EGL", "gladLoadGL", 0,
                                       "the context does not offer OpenGL 3.3 core"});
  }
  state->version = gl_string(GL_VERSION);
  state->renderer = gl_string(GL_RENDERER);
  return HeadlessContext(std::move(state));
}

bool HeadlessContext::make_current() const noexcept {
  if (!state_) return false;
  return eglMakeCurrent(state_->display, EGL_NO_SURFACE, EGL_NO_SURFACE, state_->context) == EGL_TRUE;
}

GlProcLoader HeadlessContext::loader() noexcept {
  return &egl_proc;
}

const std::string& HeadlessContext::version() const noexcept {
  static const std::string empty;
  return state_ ? state_->version : empty;
}

const std::string& HeadlessContext::renderer() const noexcept {
  static const std::string empty;
  return state_ ? state_->renderer : empty;
}

}  // namespace dereth::render
