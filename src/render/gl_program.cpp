#include "gl_program.hpp"

#include <string>
#include <vector>

namespace dereth::render::gl {

namespace {

core::Error program_error(const char* what, std::string field, std::string detail) {
  return core::Error{core::ErrorKind::Unsupported, what, std::move(field), 0, std::move(detail)};
}

core::Result<GLuint> compile(const char* what, GLenum kind, std::initializer_list<const char*> sources,
                             const std::string& name) {
  const GLuint shader = glCreateShader(kind);
  const std::vector<const char*> parts(sources);
  glShaderSource(shader, static_cast<GLsizei>(parts.size()), parts.data(), nullptr);
  glCompileShader(shader);
  GLint ok = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (ok != GL_TRUE) {
    char log[2048] = {};
    glGetShaderInfoLog(shader, sizeof log, nullptr, log);
    glDeleteShader(shader);
    return std::unexpected(program_error(what, name, log));
  }
  return shader;
}

}  // namespace

core::Result<GLuint> build_program(const char* what, const char* name, std::initializer_list<const char*> vertex,
                                   std::initializer_list<const char*> fragment) {
  const std::string base(name);
  DERETH_TRY(const GLuint vs, compile(what, GL_VERTEX_SHADER, vertex, base + " vertex shader"));
  auto fs = compile(what, GL_FRAGMENT_SHADER, fragment, base + " fragment shader");
  if (!fs) {
    glDeleteShader(vs);
    return std::unexpected(std::move(fs.error()));
  }
  const GLuint program = glCreateProgram();
  glAttachShader(program, vs);
  glAttachShader(program, *fs);
  glLinkProgram(program);
  glDeleteShader(vs);
  glDeleteShader(*fs);
  GLint ok = GL_FALSE;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (ok != GL_TRUE) {
    char log[2048] = {};
    glGetProgramInfoLog(program, sizeof log, nullptr, log);
    glDeleteProgram(program);
    return std::unexpected(program_error(what, base + " program", log));
  }
  return program;
}

}  // namespace dereth::render::gl
