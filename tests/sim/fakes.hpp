#pragma once
// Recording fakes for the sim seams, and builders for protocol messages.
// Every fake appends to one shared EventLog so tests can check the order of
// side effects across seams.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dereth/core/clock.hpp"
#include "dereth/protocol/messages.hpp"
#include "dereth/sim/object/physics_obj.hpp"
#include "dereth/sim/object/seams.hpp"
#include "dereth/sim/object/sim_context.hpp"
#include "dereth/sim/object/smart_box.hpp"

#include "support/fake_part_array.hpp"

namespace dereth::sim::test {

using EventLog = dereth::test::EventLog;

struct ResolveCall {
  std::uint32_t table = 0;
  std::uint32_t type = 0;
  float intensity = 0;
};

struct PlayCall {
  LocalId owner = LocalId::None;
  std::uint32_t script = 0;
};

// EffectsSink: a PhysicsScriptTable stand-in keyed by (table, type) that
// returns a fixed DID for any intensity at or below its threshold (stored
// order is the effects issue's concern), plus a record of every call.
class RecordingEffects final : public EffectsSink {
 public:
  explicit RecordingEffects(EventLog& log) : log_(&log) {}

  void add_entry(std::uint32_t table, std::uint32_t type, float threshold, std::uint32_t script) {
    entries_[{table, type}] = {threshold, script};
  }
  std::uint32_t resolve_script(std::uint32_t table, std::uint32_t type, float intensity) override {
    resolves.push_back({table, type, intensity});
    log_->push_back("resolve");
    auto it = entries_.find({table, type});
    if (it == entries_.end()) return 0;
    return intensity <= it->second.first ? it->second.second : 0;
  }
  bool play_script(PhysicsObj& owner, std::uint32_t script) override {
    plays.push_back({owner.local_id(), script});
    log_->push_back("play_script");
    return true;
  }
  bool play_sound(PhysicsObj& owner, std::uint32_t type, float /*volume*/) override {
    sounds.emplace_back(owner.local_id(), type);
    return true;
  }
  void update_particles(PhysicsObj& owner) override {
    log_->push_back("particles:" + std::to_string(static_cast<std::uint32_t>(owner.local_id())));
    ++particle_updates;
  }
  void update_scripts(PhysicsObj& owner) override {
    log_->push_back("scripts:" + std::to_string(static_cast<std::uint32_t>(owner.local_id())));
    ++script_updates;
  }
  void object_destroyed(PhysicsObj& owner) override { destroyed.push_back(owner.local_id()); }

  std::vector<ResolveCall> resolves;
  std::vector<PlayCall> plays;
  std::vector<std::pair<LocalId, std::uint32_t>> sounds;
  std::vector<LocalId> destroyed;
  int particle_updates = 0;
  int script_updates = 0;

 private:
  EventLog* log_;
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::pair<float, std::uint32_t>> entries_;
};

// The one configurable fake part array (tests/support/fake_part_array.hpp).
using FakePartArray = dereth::test::FakePartArray;

class FakeMovementManager final : public MovementManager {
 public:
  void unpack_movement(const protocol::MovementData& data, bool autonomous) override {
    unpacked.emplace_back(data.current_style, autonomous);
  }
  std::vector<std::pair<std::uint16_t, bool>> unpacked;
};

class FakePositionManager final : public PositionManager {
 public:
  explicit FakePositionManager(PhysicsObj& owner) : PositionManager(owner) {}
  void adjust_offset(core::Frame& offset, FloatSeconds /*quantum*/) override {
    offset.origin += offset_per_quantum;
    ++adjusts;
  }
  void interpolate_to(const Position& p, bool keep_heading) override { interpolations.emplace_back(p, keep_heading); }
  void constrain_to(const Position& p, float start_distance, float max_distance) override {
    constraints.push_back(p);
    constraint_distances.emplace_back(start_distance, max_distance);
  }
  void stop_interpolating() override { ++stops; }

  glm::vec3 offset_per_quantum{0.0f};
  int adjusts = 0;
  int stops = 0;
  std::vector<std::pair<Position, bool>> interpolations;
  std::vector<Position> constraints;
  std::vector<std::pair<float, float>> constraint_distances;
};

// Hands out fake parts for every object and remembers them by GUID.
class FakeFactory final : public ObjectFactory {
 public:
  explicit FakeFactory(EventLog& log) : log_(&log) {}

  std::optional<SetupDefaults> setup_defaults(std::uint32_t setup) override {
    if (auto it = setups.find(setup); it != setups.end()) return it->second;
    return std::nullopt;
  }
  std::unique_ptr<PartArray> make_part_array(PhysicsObj& owner, std::uint32_t /*setup*/) override {
    if (!with_part_arrays) return nullptr;
    auto parts = std::make_unique<FakePartArray>(*log_);
    parts->sphere_count = spheres;
    parts->sphere_list = sphere_list;
    parts->step_up = step_up;
    parts->step_down = step_down;
    parts->holding = holding;
    part_arrays[owner.id()] = parts.get();
    return parts;
  }
  std::unique_ptr<MovementManager> make_movement_manager(PhysicsObj& owner) override {
    auto m = std::make_unique<FakeMovementManager>();
    movement_managers[owner.id()] = m.get();
    return m;
  }
  std::unique_ptr<PositionManager> make_position_manager(PhysicsObj& owner) override {
    if (!with_position_managers) return nullptr;
    auto m = std::make_unique<FakePositionManager>(owner);
    position_managers[owner.id()] = m.get();
    return m;
  }

  bool with_part_arrays = true;
  bool with_position_managers = false;
  std::size_t spheres = 0;
  std::vector<dat::Sphere> sphere_list;  // the collision spheres (Setup space)
  std::vector<dat::CylSphere> cyl_list;
  float step_up = 0.0099999998f;
  float step_down = 0.0099999998f;
  std::map<std::uint32_t, HoldingLocation> holding;
  std::map<std::uint32_t, SetupDefaults> setups;
  std::map<std::uint32_t, FakePartArray*> part_arrays;
  std::map<std::uint32_t, FakeMovementManager*> movement_managers;
  std::map<std::uint32_t, FakePositionManager*> position_managers;

 private:
  EventLog* log_;
};

class FakeController final : public PlayerController {
 public:
  bool server_controls_player() const override { return server_controls; }
  bool keep_heading_on_interpolate() const override { return keep_heading; }
  void send_position_event(const PhysicsObj& /*player*/) override { ++position_events; }
  void movement_applied(const PhysicsObj& /*player*/) override { ++movements; }
  void player_teleported(const PhysicsObj& /*player*/) override { ++teleports; }

  bool server_controls = true;
  bool keep_heading = false;
  int position_events = 0;
  int movements = 0;
  int teleports = 0;
};

class RecordingTrace final : public TraceSink {
 public:
  void on_message(const MessageRecord& r) override { records.push_back(r); }
  std::vector<MessageRecord> records;
};

// A whole world: a manual clock, the context with every fake installed, and
// a SmartBox.
struct World {
  World() : context(clock), effects(log), factory(log), box(context) {
    context.set_effects(&effects);
    context.set_factory(&factory);
    context.set_controller(&controller);
    box.set_trace_sink(&trace);
  }
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  HandleResult handle(const protocol::Message& m) { return box.handle(m); }
  // PlayerCreate for `guid` (opens the SmartBox's dispatch gate).
  void start(std::uint32_t player_guid = 0x50000001) { box.handle(protocol::PlayerCreate{player_guid}); }
  FakePartArray& parts(std::uint32_t guid) { return *factory.part_arrays.at(guid); }
  PhysicsObj& object(std::uint32_t guid) { return *box.get_object(guid); }

  core::ManualClock clock;
  EventLog log;
  SimContext context;
  RecordingEffects effects;
  FakeFactory factory;
  FakeController controller;
  RecordingTrace trace;
  SmartBox box;
};

// --- message builders ----------------------------------------------------------

inline constexpr std::uint32_t kCell = 0xA9B40021;  // an outdoor cell (block A9B4, cell 0x21)

// A CreateObject with a Position in kCell at (x, y, z), the given Instance
// and state; every other stamp zero.
inline protocol::CreateObject create(std::uint32_t guid, std::uint16_t instance, std::uint32_t state = 0x00400C08,
                                     glm::vec3 origin = {10.0f, 20.0f, 30.0f}) {
  protocol::CreateObject m;
  m.guid = guid;
  m.physics.state = state;
  m.physics.position = protocol::Position{kCell, {origin.x, origin.y, origin.z}, {1, 0, 0, 0}};
  m.physics.timestamps[static_cast<std::size_t>(protocol::TimestampIndex::Instance)] = instance;
  return m;
}

inline void set_stamp(protocol::CreateObject& m, protocol::TimestampIndex i, std::uint16_t v) {
  m.physics.timestamps[static_cast<std::size_t>(i)] = v;
}

inline protocol::UpdatePosition position(std::uint32_t guid, std::uint16_t instance, std::uint16_t position_ts,
                                         glm::vec3 origin, std::uint16_t teleport_ts = 0, std::uint16_t force_ts = 0) {
  protocol::UpdatePosition m;
  m.guid = guid;
  m.position.cell_id = kCell;
  m.position.origin = {origin.x, origin.y, origin.z};
  m.position.qw = 1.0f;
  m.position.qx = 0.0f;
  m.position.qy = 0.0f;
  m.position.qz = 0.0f;
  m.position.instance_ts = instance;
  m.position.position_ts = position_ts;
  m.position.teleport_ts = teleport_ts;
  m.position.force_position_ts = force_ts;
  return m;
}

// Encodes and decodes a message through the protocol codecs, so a test
// drives the SmartBox with exactly what the wire would deliver.
inline protocol::Message wire(const protocol::Message& m) {
  auto decoded = protocol::decode_message(protocol::encode(m));
  if (!decoded) throw std::runtime_error(decoded.error().message());
  return *decoded;
}

}  // namespace dereth::sim::test
