#pragma once
// Helpers for the effects tests (fx_*_test.cpp): the demo portal DAT, a
// recording part array with parts and per-part render state, a recording
// trace sink, and a small world (manual clock, context, Effects).

#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <glm/geometric.hpp>

#include "dereth/core/clock.hpp"
#include "dereth/dat/dat_file.hpp"
#include "dereth/dat/dat_writer.hpp"
#include "dereth/demo/demo_world.hpp"
#include "dereth/sim/effects/effects.hpp"
#include "dereth/sim/effects/fp_hook.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/sim_context.hpp"

#include "support/fake_part_array.hpp"

namespace dereth::sim::fxtest {

// An outdoor cell of landblock (0, 0): global coordinates equal local ones.
inline constexpr std::uint32_t kTestCell = 0x00000001;

// The demo world's client_portal.dat, built once per test program.
inline const dat::DatFile& demo_portal() {
  static const dat::DatFile file = [] {
    auto world = demo::build_demo_world();
    if (!world) throw std::runtime_error(world.error().message());
    auto opened = dat::DatFile::from_bytes(std::move(world->portal), "demo client_portal.dat");
    if (!opened) throw std::runtime_error(opened.error().message());
    return std::move(*opened);
  }();
  return file;
}

// A portal DAT holding exactly `records`.
inline dat::DatFile make_dat(const std::vector<dat::DatRecord>& records) {
  auto bytes = dat::build_dat(records, dat::DatWriterOptions{dat::DatKind::Portal});
  if (!bytes) throw std::runtime_error(bytes.error().message());
  auto opened = dat::DatFile::from_bytes(std::move(*bytes), "test client_portal.dat");
  if (!opened) throw std::runtime_error(opened.error().message());
  return std::move(*opened);
}

inline bool near(const glm::vec3& a, const glm::vec3& b, float eps = 1e-4f) {
  return glm::length(a - b) <= eps;
}

inline std::uint32_t float_bits(float f) {
  std::uint32_t u = 0;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

// The effects tests' part array: `count` parts, settable part frames
// (object-local cell coordinates, as PartArray::part_frame returns them) and
// a record of every per-part render setter; placement frames refused, as
// PartArray's default.
using FxParts = dereth::test::FakePartArray;
inline std::unique_ptr<FxParts> fx_parts(std::size_t count = 1) {
  auto p = std::make_unique<FxParts>();
  p->parts = count;
  p->accept_placement = false;
  return p;
}

struct ResolvedRecord {
  LocalId owner;
  std::uint32_t table;
  std::uint32_t type;
  std::uint32_t intensity_bits;
  std::uint32_t chosen;
};
struct EnqueuedRecord {
  LocalId owner;
  std::uint32_t script;
  double start;
};
struct HookRecord {
  LocalId owner;
  dat::HookType type;
  double time;
};
struct EmitterRecord {
  LocalId owner;
  std::uint32_t info;
  std::uint32_t id;
  EmitterEvent event;
};

class RecordingFxTrace final : public EffectsTraceSink {
 public:
  void on_script_resolved(LocalId owner, std::uint32_t table, std::uint32_t type, float intensity,
                          std::uint32_t chosen) override {
    resolved.push_back({owner, table, type, float_bits(intensity), chosen});
    log.push_back("resolved");
  }
  void on_script_enqueued(LocalId owner, std::uint32_t script, core::Seconds start) override {
    enqueued.push_back({owner, script, start.count()});
    log.push_back("enqueued");
  }
  void on_hook_executed(LocalId owner, dat::HookType type, core::Seconds time) override {
    hooks.push_back({owner, type, time.count()});
    log.push_back(std::string("hook:") + std::string(dat::hook_type_name(type)));
  }
  void on_emitter(LocalId owner, std::uint32_t info, std::uint32_t id, EmitterEvent event) override {
    emitters.push_back({owner, info, id, event});
    log.push_back(std::string("emitter:") + to_string(event));
  }

  std::vector<ResolvedRecord> resolved;
  std::vector<EnqueuedRecord> enqueued;
  std::vector<HookRecord> hooks;
  std::vector<EmitterRecord> emitters;
  std::vector<std::string> log;
};

// A world for effects tests: the effects are the context's seam.
struct FxWorld {
  explicit FxWorld(const dat::DatFile* portal = &demo_portal(), std::uint32_t seed = 1234)
      : context(clock, seed), records(portal), effects(portal != nullptr ? &records : nullptr) {
    context.set_effects(&effects);
    effects.set_trace_sink(&trace);
  }
  FxWorld(const FxWorld&) = delete;
  FxWorld& operator=(const FxWorld&) = delete;

  // An object in kTestCell at `origin`, in the world, optionally with a part
  // array of `parts` parts (returned through `out_parts`).
  std::unique_ptr<PhysicsObj> make(std::uint32_t guid, glm::vec3 origin = {10.0f, 10.0f, 0.0f}, std::size_t parts = 0,
                                   FxParts** out_parts = nullptr) {
    auto object = std::make_unique<PhysicsObj>(context, guid, LocalId{guid});
    if (parts > 0) {
      auto p = fx_parts(parts);
      if (out_parts != nullptr) *out_parts = p.get();
      object->set_part_array(std::move(p));
    }
    object->enter_world(Position{kTestCell, core::Frame(origin, glm::quat(1, 0, 0, 0))});
    return object;
  }

  // Sets both clocks (a test drives physics_time itself unless update_object does).
  void at(double seconds) {
    clock.set(core::Seconds{seconds});
    context.physics_time = core::Seconds{seconds};
  }

  core::ManualClock clock;
  SimContext context;
  dat::RecordCache records;
  Effects effects;
  RecordingFxTrace trace;
};

// Builds one AnimationHook.
inline dat::AnimationHook hook(dat::HookPayload payload) {
  return dat::AnimationHook{dat::HookDirection::Forward, std::move(payload)};
}

}  // namespace dereth::sim::fxtest
