// dereth_bench_render (docs/benchmarks.md): frame times of the renderer at
// 1280x720 on the headless EGL context (Mesa llvmpipe on machines without a
// GPU), beside the rasteriser's floor measured in the same run.
//
// Scenes, interleaved round by round so that load from other processes falls
// on all of them alike:
// * floor: a full-screen clear plus one textured full-screen quad, then glFinish;
// * demo: the embedded demo's first N ticks (its snapshots and camera, as
//   `dereth demo --headless --ticks N --stats` draws them), each drawn again;
// * dense: 100 walking humanoids (Setup 0x02000001), 10 emitters of 200
//   particles (2,000 in all) and a 3x3 ring of landblocks, the simulation
//   stepped one 30 Hz tick per frame.
// A frame's time is Renderer::render's wall-clock time: asset loads, draw
// lists, GL submission and glFinish (the rasteriser completing the frame).
// Readback is not included (a window does not read its frames back).
//
// Not a ctest test: run it by hand. `--help` lists the options.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <glad/gl.h>

#include "dereth/app/demo.hpp"
#include "dereth/core/clock.hpp"
#include "dereth/dat/dat_file.hpp"
#include "dereth/dat/dat_writer.hpp"
#include "dereth/dat/land_block.hpp"
#include "dereth/dat/particle_emitter_info.hpp"
#include "dereth/dat/record_cache.hpp"
#include "dereth/dat/region.hpp"
#include "dereth/demo/demo_world.hpp"
#include "dereth/protocol/messages.hpp"
#include "dereth/render/camera.hpp"
#include "dereth/render/headless_context.hpp"
#include "dereth/render/renderer.hpp"
#include "dereth/render/terrain.hpp"
#include "dereth/sim/effects/effects.hpp"
#include "dereth/sim/object/dat_object_factory.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/sim_context.hpp"
#include "dereth/sim/object/smart_box.hpp"
#include "dereth/sim/object/snapshot_builder.hpp"

#include "bench_world.hpp"

namespace {

using namespace dereth;
using Clock = std::chrono::steady_clock;

struct Options {
  int width = 1280;
  int height = 720;
  int rounds = 3;
  std::uint64_t demo_ticks = 300;  // the demo ticks run
  std::uint64_t demo_every = 1;    // every Kth of them is a measured frame
  int frames = 100;                // floor and dense frames per round
  std::string pictures;            // when set, the last demo and dense frames are written there as PNG
  // Renderer options for both scenes, to find where a frame's time goes.
  bool no_sky_objects = false;
  bool fragment_lighting = false;
  bool no_terrain = false;
  bool sky_first = false;
  bool no_sky_scissor = false;
  bool terrain_grid_order = false;
  bool send_back_faces = false;
  // Left out of the dense scene's snapshots (not the demo's), to find where its time goes.
  bool no_particles = false;
  bool no_objects = false;
};

void usage() {
  std::puts(
      "usage: dereth_bench_render [--rounds N] [--demo-ticks N] [--demo-every K] [--frames N] [--size WxH]\n"
      "Frame times (median, p90, p99, max) of the rasteriser's floor (a clear and one textured full-screen\n"
      "quad), the embedded demo's first --demo-ticks ticks (default 300) and a dense scene (100 animated\n"
      "humanoids, 2,000 particles, 3x3 landblocks), interleaved over --rounds rounds (default 3); the floor\n"
      "and the dense scene draw --frames frames a round (default 100); --demo-every K measures every Kth demo\n"
      "tick only. Default size 1280x720. --pictures DIR\n"
      "writes the last demo and dense frames to DIR/bench_demo.png and DIR/bench_dense.png (DIR is created).\n"
      "--no-sky-objects, --no-terrain, --sky-first, --no-sky-scissor (sky_scissor off), --fragment-lighting\n"
      "(vertex_lighting off), --terrain-grid-order (terrain_front_to_back off), --send-back-faces\n"
      "(skip_flat_back_faces off) set those RendererOptions in both scenes (to find where the time goes);\n"
      "--no-particles and --no-objects leave the emitters or the objects out of the dense scene's snapshots.");
}

// The value, or a message naming `what` and exit status 1.
template <class T>
T or_exit(core::Result<T> result, const char* what) {
  if (!result) {
    std::fprintf(stderr, "dereth_bench_render: %s: %s\n", what, result.error().message().c_str());
    std::exit(1);
  }
  return std::move(*result);
}
void or_exit(const core::Result<void>& result, const char* what) {
  if (!result) {
    std::fprintf(stderr, "dereth_bench_render: %s: %s\n", what, result.error().message().c_str());
    std::exit(1);
  }
}

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

struct Summary {
  std::size_t frames = 0;
  double median = 0.0;
  double p90 = 0.0;
  double p99 = 0.0;
  double max = 0.0;
};

// Nearest-rank percentiles.
Summary summarise(std::vector<double> ms) {
  Summary s;
  if (ms.empty()) return s;
  std::sort(ms.begin(), ms.end());
  const auto rank = [&ms](double p) {
    const auto n = static_cast<double>(ms.size());
    const auto i = static_cast<std::size_t>(std::max(1.0, std::ceil(p * n))) - 1;
    return ms[std::min(i, ms.size() - 1)];
  };
  s.frames = ms.size();
  s.median = ms.size() % 2 == 1 ? ms[ms.size() / 2] : 0.5 * (ms[ms.size() / 2 - 1] + ms[ms.size() / 2]);
  s.p90 = rank(0.90);
  s.p99 = rank(0.99);
  s.max = ms.back();
  return s;
}

// ---- the floor ---------------------------------------------------------------------------------

constexpr const char* kFloorVertex = R"GLSL(#version 330 core
out vec2 v_uv;
void main() {
  vec2 p = vec2((gl_VertexID & 1) != 0 ? 1.0 : -1.0, (gl_VertexID & 2) != 0 ? 1.0 : -1.0);
  v_uv = p * 0.5 + 0.5;
  gl_Position = vec4(p, 0.0, 1.0);
}
)GLSL";

constexpr const char* kFloorFragment = R"GLSL(#version 330 core
in vec2 v_uv;
uniform sampler2D u_texture;
out vec4 o_color;
void main() { o_color = texture(u_texture, v_uv); }
)GLSL";

GLuint compile(GLenum kind, const char* source) {
  const GLuint s = glCreateShader(kind);
  glShaderSource(s, 1, &source, nullptr);
  glCompileShader(s);
  GLint ok = 0;
  glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
  if (ok == 0) {
    std::fprintf(stderr, "dereth_bench_render: the floor shader does not compile\n");
    std::exit(1);
  }
  return s;
}

// A clear and one textured full-screen quad into a framebuffer object of the
// renderer's kind (RGBA8 colour, 24-bit depth), then glFinish.
class Floor {
 public:
  Floor(int width, int height) : width_(width), height_(height) {
    program_ = glCreateProgram();
    const GLuint vs = compile(GL_VERTEX_SHADER, kFloorVertex);
    const GLuint fs = compile(GL_FRAGMENT_SHADER, kFloorFragment);
    glAttachShader(program_, vs);
    glAttachShader(program_, fs);
    glLinkProgram(program_);
    glDeleteShader(vs);
    glDeleteShader(fs);
    glGenVertexArrays(1, &vao_);
    std::vector<std::uint8_t> texels(256 * 256 * 4);
    for (std::size_t i = 0; i < 256 * 256; ++i) {
      const bool dark = (((i % 256) / 16) + ((i / 256) / 16)) % 2 == 0;
      texels[4 * i + 0] = dark ? 60 : 200;
      texels[4 * i + 1] = static_cast<std::uint8_t>(i % 256);
      texels[4 * i + 2] = static_cast<std::uint8_t>(i / 256);
      texels[4 * i + 3] = 255;
    }
    glGenTextures(1, &texture_);
    glBindTexture(GL_TEXTURE_2D, texture_);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 256, 256, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels.data());
    glGenerateMipmap(GL_TEXTURE_2D);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glGenFramebuffers(1, &fbo_);
    glGenRenderbuffers(1, &color_);
    glGenRenderbuffers(1, &depth_);
    glBindRenderbuffer(GL_RENDERBUFFER, color_);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
    glBindRenderbuffer(GL_RENDERBUFFER, depth_);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, width, height);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo_);
    glFramebufferRenderbuffer(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color_);
    glFramebufferRenderbuffer(GL_DRAW_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth_);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
  }
  Floor(const Floor&) = delete;
  Floor& operator=(const Floor&) = delete;
  ~Floor() {
    glDeleteFramebuffers(1, &fbo_);
    glDeleteRenderbuffers(1, &color_);
    glDeleteRenderbuffers(1, &depth_);
    glDeleteTextures(1, &texture_);
    glDeleteVertexArrays(1, &vao_);
    glDeleteProgram(program_);
  }

  double frame() {
    const auto start = Clock::now();
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fbo_);
    glViewport(0, 0, width_, height_);
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_BLEND);
    glDisable(GL_CULL_FACE);
    glDepthMask(GL_TRUE);
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    glClearColor(0.47F, 0.63F, 0.86F, 1.0F);
    glClearDepth(1.0);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    glUseProgram(program_);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, texture_);
    glUniform1i(glGetUniformLocation(program_, "u_texture"), 0);
    glBindVertexArray(vao_);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glBindVertexArray(0);
    glUseProgram(0);
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
    glFinish();
    return ms_since(start);
  }

 private:
  int width_;
  int height_;
  GLuint program_ = 0;
  GLuint vao_ = 0;
  GLuint texture_ = 0;
  GLuint fbo_ = 0;
  GLuint color_ = 0;
  GLuint depth_ = 0;
};

// ---- the demo ----------------------------------------------------------------------------------

struct DemoFrame {
  sim::SnapshotPtr snapshot;
  render::Camera camera;
};

// The demo's snapshot and camera after each of its first `ticks` ticks
// (drawn small while collecting; the measured frames are drawn again).
std::vector<DemoFrame> collect_demo(app::HeadlessDemo& demo, std::uint64_t ticks, std::uint64_t every) {
  std::vector<DemoFrame> frames;
  for (std::uint64_t t = 1; t <= ticks; ++t) {
    if (auto ran = demo.run_to_tick(t); !ran) {
      std::fprintf(stderr, "dereth_bench_render: demo tick %llu: %s\n", static_cast<unsigned long long>(t),
                   ran.error().message().c_str());
      std::exit(1);
    }
    if (t % every == 0) frames.push_back(DemoFrame{demo.world().snapshot(), demo.presenter().rig().camera()});
  }
  return frames;
}

// ---- the dense scene ---------------------------------------------------------------------------

constexpr std::uint32_t kPlayer = 0x50000001;
constexpr std::uint32_t kCentreX = demo::kLandBlock >> 24;
constexpr std::uint32_t kCentreY = (demo::kLandBlock >> 16) & 0xFFU;
constexpr std::uint32_t kCentreCell = (demo::kLandBlock & 0xFFFF0000U) | 0x21U;

// The demo landblock's heights in all nine blocks of the ring around it, with
// the terrain types turned so the blocks' surfaces differ.
dat::DatFile ring_cell_dat(const dat::DatFile& demo_cell) {
  const dat::LandBlock block =
      or_exit(dat::read_land_block(or_exit(demo_cell.read(demo::kLandBlock), "the demo landblock"), demo::kLandBlock),
              "the demo landblock");
  std::vector<dat::DatRecord> records;
  for (std::uint32_t dx = 0; dx < 3; ++dx) {
    for (std::uint32_t dy = 0; dy < 3; ++dy) {
      // Mirrored in x for odd dx and in y for odd dy, so neighbouring edges meet.
      dat::LandBlock b = block;
      b.id = ((kCentreX + dx - 1) << 24) | ((kCentreY + dy - 1) << 16) | 0xFFFFU;
      b.has_objects = 0;
      for (std::size_t x = 0; x < dat::kLandBlockSide; ++x) {
        for (std::size_t y = 0; y < dat::kLandBlockSide; ++y) {
          const std::size_t sx = dx % 2 == 1 ? dat::kLandBlockSide - 1 - x : x;
          const std::size_t sy = dy % 2 == 1 ? dat::kLandBlockSide - 1 - y : y;
          const std::size_t from = dat::land_block_vertex(sx, sy);
          const std::size_t to = dat::land_block_vertex(x, y);
          b.height[to] = block.height[from];
          const std::uint16_t word = block.terrain[from];
          const std::uint32_t type = (dat::terrain_type(word) + dx + dy) % 3;
          b.terrain[to] = static_cast<std::uint16_t>((word & ~0x7CU) | (type << 2));
        }
      }
      records.push_back({b.id, dat::write_land_block(b)});
    }
  }
  return or_exit(dat::DatFile::from_bytes(
                     or_exit(dat::build_dat(records, dat::DatWriterOptions{dat::DatKind::Cell}), "the 3x3 cell DAT"),
                     "bench 3x3 cell"),
                 "the 3x3 cell DAT");
}

// dereth_bench_effects' emitter, its particles fading and shrinking as they rise.
dat::ParticleEmitterInfo fading_emitter() {
  dat::ParticleEmitterInfo e = bench::dense_emitter_info();
  e.max_offset = 2.0F;
  e.b = {0, 0, -0.1F};
  e.c = {0, 0, 0.5F};
  e.start_scale = 1.5F;
  e.final_scale = 0.5F;
  e.start_trans = 0.2F;  // the demo's spark is an alpha-tested glow: drawn once it has translucency
  e.final_trans = 0.9F;
  return e;
}

class DenseScene {
 public:
  static constexpr std::uint32_t kHumans = 100;
  static constexpr std::uint32_t kEmitters = 10;
  static constexpr float kSpacing = 4.0F;

  DenseScene(const dat::DatFile& portal, const dat::DatFile& cell)
      : emitters_(bench::emitter_portal(fading_emitter())),
        records_(&portal),
        emitter_records_(&emitters_),
        factory_(records_),
        context_(clock_),
        effects_(&emitter_records_),
        box_(context_) {
    context_.set_effects(&effects_);
    context_.set_factory(&factory_);
    const dat::Region region =
        or_exit(dat::read_region(or_exit(portal.read(demo::kRegion), "the Region"), demo::kRegion), "the Region");
    const dat::LandBlock block = or_exit(
        dat::read_land_block(or_exit(cell.read(demo::kLandBlock), "the landblock"), demo::kLandBlock), "the landblock");
    ground_.construct_vertices(block, region.land_defs);
    ground_.construct_polygons(block.id);

    box_.handle(protocol::PlayerCreate{kPlayer});
    box_.handle(bench::humanoid(kPlayer, kCentreCell, ground_at(96.0F, 80.0F)));
    for (std::uint32_t i = 0; i < kHumans; ++i) {
      const std::uint32_t guid = 0x80000000U + i;
      const float x = 78.0F + static_cast<float>(i % 10) * kSpacing;
      const float y = 96.0F + static_cast<float>(i / 10) * kSpacing;
      box_.handle(bench::humanoid(guid, kCentreCell, ground_at(x, y)));
      bench::start_walking(box_, guid, kCentreCell, ground_at(x, y));
    }
    for (std::uint32_t i = 0; i < kEmitters; ++i) {
      const std::uint32_t guid = 0x81000000U + i;
      const float x = 80.0F + static_cast<float>(i % 5) * 8.0F;
      const float y = 100.0F + static_cast<float>(i / 5) * 16.0F;
      protocol::Vec3 above = ground_at(x, y);
      above.z += 1.0F;
      box_.handle(bench::floating_object(guid, kCentreCell, above, {0.0F, 0.0F, 0.0F}));
      if (sim::PhysicsObj* owner = box_.get_object(guid)) {
        effects_.create_particle_emitter(*owner, bench::kDenseEmitter, sim::kRootPart, dat::Frame{}, 0);
      }
    }
    for (int i = 0; i < 60; ++i) tick();  // particles spread, walkers under way
  }

  // One 30 Hz tick and its snapshot.
  sim::SnapshotPtr tick() {
    t_ += core::exact_frame_step(30.0);
    clock_.set(core::Seconds{t_});
    box_.use_time();
    auto snapshot = sim::build_render_snapshot(box_, effects_, box_.physics().tick_count(), {}, {}, std::nullopt,
                                               nullptr, &snapshots_);
    effects_.clear_sound_events();
    return snapshot;
  }

  // Behind the crowd, looking north over it into the northern blocks.
  [[nodiscard]] render::Camera camera() const {
    render::Camera c;
    c.mode = render::CameraMode::Follow;
    c.target =
        render::land_block_origin(demo::kLandBlock) + glm::vec3(96.0F, 110.0F, ground_.height_at(96.0F, 110.0F) + 1.5F);
    c.yaw = 0.0F;
    c.pitch = 0.45F;
    c.distance = 60.0F;
    return c;
  }

 private:
  [[nodiscard]] protocol::Vec3 ground_at(float x, float y) const { return {x, y, ground_.height_at(x, y)}; }

  dat::DatFile emitters_;
  dat::RecordCache records_;
  dat::RecordCache emitter_records_;
  sim::DatObjectFactory factory_;
  core::ManualClock clock_;
  sim::SimContext context_;
  sim::Effects effects_;
  sim::SmartBox box_;
  render::LandBlockStruct ground_;
  sim::SnapshotRecycler snapshots_;  // as the World builds them
  double t_ = 0.0;
};

double render_ms(render::Renderer& renderer, const sim::RenderSnapshot& snapshot, const render::Camera& camera,
                 const Options& o) {
  const auto start = Clock::now();
  if (auto drawn = renderer.render(snapshot, camera, o.width, o.height); !drawn) {
    std::fprintf(stderr, "dereth_bench_render: %s\n", drawn.error().message().c_str());
    std::exit(1);
  }
  return ms_since(start);
}

// One frame of each scene, each its own function so that a profiler can
// count them apart (docs/benchmarks.md: callgrind --toggle-collect). The
// barrier after each call keeps it from being a tail call: a jump to
// render_ms would leave the function before the frame's work, and
// --toggle-collect would count none of it.
[[gnu::always_inline]] inline double kept(double ms) {
  asm volatile("" : "+x"(ms) : : "memory");
  return ms;
}
[[gnu::noinline]] double demo_frame(render::Renderer& renderer, const DemoFrame& f, const Options& o) {
  return kept(render_ms(renderer, *f.snapshot, f.camera, o));
}
[[gnu::noinline]] double dense_frame(render::Renderer& renderer, const sim::RenderSnapshot& snapshot,
                                     const render::Camera& camera, const Options& o) {
  return kept(render_ms(renderer, snapshot, camera, o));
}
[[gnu::noinline]] double floor_frame(Floor& floor) {
  return kept(floor.frame());
}

// The dense snapshot as drawn: itself, or (with --no-particles or
// --no-objects) a copy in `store` without its emitters or objects.
const sim::RenderSnapshot& dense_parts(const sim::RenderSnapshot& snapshot, const Options& o,
                                       sim::RenderSnapshot& store) {
  if (!o.no_particles && !o.no_objects) return snapshot;
  store = snapshot;
  if (o.no_particles) store.emitters.clear();
  if (o.no_objects) store.objects.clear();
  return store;
}

bool parse(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--rounds" && has_value) {
      o.rounds = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--demo-ticks" && has_value) {
      o.demo_ticks = static_cast<std::uint64_t>(std::max(1, std::atoi(argv[++i])));
    } else if (a == "--demo-every" && has_value) {
      o.demo_every = static_cast<std::uint64_t>(std::max(1, std::atoi(argv[++i])));
    } else if (a == "--frames" && has_value) {
      o.frames = std::max(1, std::atoi(argv[++i]));
    } else if (a == "--no-sky-objects") {
      o.no_sky_objects = true;
    } else if (a == "--fragment-lighting") {
      o.fragment_lighting = true;
    } else if (a == "--no-terrain") {
      o.no_terrain = true;
    } else if (a == "--sky-first") {
      o.sky_first = true;
    } else if (a == "--no-sky-scissor") {
      o.no_sky_scissor = true;
    } else if (a == "--terrain-grid-order") {
      o.terrain_grid_order = true;
    } else if (a == "--send-back-faces") {
      o.send_back_faces = true;
    } else if (a == "--no-particles") {
      o.no_particles = true;
    } else if (a == "--no-objects") {
      o.no_objects = true;
    } else if (a == "--pictures" && has_value) {
      o.pictures = argv[++i];
    } else if (a == "--size" && has_value) {
      if (std::sscanf(argv[++i], "%dx%d", &o.width, &o.height) != 2 || o.width < 1 || o.height < 1 || o.width > 8192 ||
          o.height > 8192) {
        return false;
      }
    } else {
      return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (argc > 1 && (std::string_view(argv[1]) == "--help" || std::string_view(argv[1]) == "-h")) {
    usage();
    return 0;
  }
  if (!parse(argc, argv, o)) {
    usage();
    return 2;
  }
  if (!o.pictures.empty()) {
    // The folder is made first, so a path that cannot be one fails before the measuring.
    std::error_code ec;
    std::filesystem::create_directories(o.pictures, ec);
    if (ec) {
      std::fprintf(stderr, "dereth_bench_render: --pictures %s: cannot create the folder: %s\n", o.pictures.c_str(),
                   ec.message().c_str());
      return 1;
    }
  }
  // The demo owns the headless context (and keeps it current); the other
  // scenes draw in it too.
  app::HeadlessDemoOptions demo_options;
  demo_options.width = 160;
  demo_options.height = 90;
  auto demo = app::HeadlessDemo::create(demo_options);
  if (!demo) {
    std::fprintf(stderr, "dereth_bench_render: no headless demo: %s\n", demo.error().message().c_str());
    return 1;
  }
  const std::vector<DemoFrame> demo_frames = collect_demo(**demo, o.demo_ticks, o.demo_every);
  render::Renderer& demo_renderer = (*demo)->presenter().renderer();

  demo::DemoWorld world = or_exit(demo::build_demo_world(), "the demo world");
  const dat::DatFile portal = or_exit(dat::DatFile::from_bytes(std::move(world.portal), "demo portal"), "demo portal");
  const dat::DatFile cell = or_exit(dat::DatFile::from_bytes(std::move(world.cell), "demo cell"), "demo cell");
  const dat::DatFile ring = ring_cell_dat(cell);
  DenseScene dense(portal, ring);
  const std::unique_ptr<render::Renderer> dense_renderer =
      or_exit(render::Renderer::create(render::HeadlessContext::loader(), &portal, &ring), "the dense renderer");
  dat::RecordCache dense_records(&portal);  // the Region, as a world hands it over
  dense_renderer->set_region(dense_records.region(0x13000000));
  Floor floor(o.width, o.height);
  for (render::Renderer* r : {&demo_renderer, dense_renderer.get()}) {
    if (o.no_sky_objects) r->options().draw_sky_objects = false;
    if (o.fragment_lighting) r->options().vertex_lighting = false;
    if (o.no_terrain) r->options().draw_terrain = false;
    if (o.sky_first) r->options().sky_first = true;
    if (o.no_sky_scissor) r->options().sky_scissor = false;
    if (o.terrain_grid_order) r->options().terrain_front_to_back = false;
    if (o.send_back_faces) r->options().skip_flat_back_faces = false;
  }

  // Warm up: every asset loaded, every terrain block built.
  (void)render_ms(demo_renderer, *demo_frames.back().snapshot, demo_frames.back().camera, o);
  (void)render_ms(*dense_renderer, *dense.tick(), dense.camera(), o);
  (void)floor.frame();

  std::vector<double> floor_ms;
  std::vector<double> demo_ms;
  std::vector<double> dense_ms;
  render::RenderStats demo_stats;
  render::RenderStats dense_stats;
  sim::RenderSnapshot parted;  // the dense snapshot less what the options leave out
  for (int round = 0; round < o.rounds; ++round) {
    for (int i = 0; i < o.frames; ++i) floor_ms.push_back(floor_frame(floor));
    for (const DemoFrame& f : demo_frames) demo_ms.push_back(demo_frame(demo_renderer, f, o));
    demo_stats = demo_renderer.stats();
    for (int i = 0; i < o.frames; ++i) {
      const sim::SnapshotPtr snapshot = dense.tick();  // the simulation is not part of the frame
      const sim::RenderSnapshot& drawn = dense_parts(*snapshot, o, parted);
      dense_ms.push_back(dense_frame(*dense_renderer, drawn, dense.camera(), o));
    }
    dense_stats = dense_renderer->stats();
  }

  if (!o.pictures.empty()) {
    const std::filesystem::path dir = o.pictures;
    (void)render_ms(demo_renderer, *demo_frames.back().snapshot, demo_frames.back().camera, o);
    or_exit(demo_renderer.write_screenshot(dir / "bench_demo.png"), "--pictures");
    (void)render_ms(*dense_renderer, dense_parts(*dense.tick(), o, parted), dense.camera(), o);
    or_exit(dense_renderer->write_screenshot(dir / "bench_dense.png"), "--pictures");
  }
  std::printf("gl: %s\n", (*demo)->presenter().gl_description().c_str());
  std::printf("size: %dx%d, %d rounds\n", o.width, o.height, o.rounds);
  const Summary f = summarise(floor_ms);
  const auto row = [&f](const char* name, const Summary& s) {
    std::printf("%-6s %6zu frames  median %7.2f ms  p90 %7.2f ms  p99 %7.2f ms  max %7.2f ms  %5.2fx floor\n", name,
                s.frames, s.median, s.p90, s.p99, s.max, f.median > 0.0 ? s.median / f.median : 0.0);
  };
  row("floor", f);
  row("demo", summarise(demo_ms));
  row("dense", summarise(dense_ms));
  const auto drew = [](const char* name, const render::RenderStats& st) {
    std::printf(
        "%-6s last frame: %zu objects, %zu parts, %zu particles, %zu terrain blocks, %zu lights, %zu draw calls, "
        "%zu triangles, %d sky rows covered, %zu terrain blocks reversed, %zu back faces not sent\n",
        name, st.objects, st.parts_drawn, st.particles_drawn, st.terrain_blocks, st.lights, st.draw_calls, st.triangles,
        st.sky_rows_covered, st.terrain_blocks_reversed, st.back_faces_left_out);
  };
  drew("demo", demo_stats);
  drew("dense", dense_stats);
  return 0;
}
