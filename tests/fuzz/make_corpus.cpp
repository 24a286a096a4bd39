// fuzz_make_corpus: writes the seed corpus of the dispatcher fuzzer
// (tests/fuzz/corpus/dispatcher/, see docs/fuzzing.md).
//
//   fuzz_make_corpus OUT_DIR [CAPTURE]     write the seeds into OUT_DIR
//   fuzz_make_corpus --stats [CAPTURE]     print the capture's opcode counts
//
// CAPTURE defaults to shared/captures/example.pcap. The seeds are: the retail
// Door CreateObject and broad_projectile() (tests/protocol/fixtures.hpp), the
// seed F754/F755 fixtures, a few distinct real messages of each opcode in the
// capture (decoded and unknown, both directions), and messages of every other
// type built field by field and encoded with the writers. Each file is named
// <opcode>-<source>-<index>, e.g. f755-capture-02; the output is the same on
// every run, so regenerating over the committed corpus shows no diff.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "dereth/protocol/messages.hpp"
#include "dereth/protocol/outbound.hpp"

#include "protocol/fixtures.hpp"
#include "support/hex.hpp"
#include "support/pcap_messages.hpp"

namespace {

namespace fs = std::filesystem;
namespace p = dereth::protocol;
using Bytes = std::vector<std::uint8_t>;

std::uint32_t opcode_of(const Bytes& bytes) {
  if (bytes.size() < 4) return 0;
  return std::uint32_t{bytes[0]} | std::uint32_t{bytes[1]} << 8U | std::uint32_t{bytes[2]} << 16U |
         std::uint32_t{bytes[3]} << 24U;
}

class Corpus {
 public:
  explicit Corpus(fs::path dir) : dir_(std::move(dir)) {}

  // Writes bytes as <opcode>-<source>-<nn>; identical contents are written once.
  void add(std::string_view source, const Bytes& bytes) {
    add_named(fmt::format("{:04x}", opcode_of(bytes)), source, bytes);
  }

  // The same with a chosen first part, for inputs that have no opcode.
  void add_named(std::string_view kind, std::string_view source, const Bytes& bytes) {
    if (!seen_.insert(bytes).second) return;
    const std::string stem = fmt::format("{}-{}", kind, source);
    const int index = counters_[stem]++;
    const fs::path path = dir_ / fmt::format("{}-{:02}", stem, index);
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out) throw std::runtime_error("cannot write " + path.string());
    ++files_;
    total_ += bytes.size();
  }

  [[nodiscard]] std::size_t files() const { return files_; }
  [[nodiscard]] std::size_t total_bytes() const { return total_; }

 private:
  fs::path dir_;
  std::set<Bytes> seen_;
  std::map<std::string, int> counters_;
  std::size_t files_ = 0;
  std::size_t total_ = 0;
};

// How many distinct capture messages to keep per opcode. Opcodes not listed
// keep kOtherQuota; small quotas keep the committed corpus small.
constexpr std::size_t kOtherQuota = 2;
const std::map<std::uint32_t, std::size_t> kCaptureQuota = {
    {p::opcode::PlayScriptType, 6}, {p::opcode::ObjDescEvent, 6},
    {p::opcode::Sound, 5},          {p::opcode::PickupEvent, 4},
    {p::opcode::Movement, 8},       {p::opcode::GameEvent, 4},
    {p::opcode::GameAction, 4},     {0xF7E0, 3},
};

// A cheap proxy for a message's layout, to spread the picks: the event type
// of F7B0 (u32 at offset 12, after guid and sequence), the action type of
// F7B1 (u32 at offset 8, after the sequence), the movement type of F74C (u8
// at offset 12), else the size.
std::uint64_t layout_key(std::uint32_t op, const Bytes& bytes) {
  const auto u32_at = [&](std::size_t at) {
    return std::uint32_t{bytes[at]} | std::uint32_t{bytes[at + 1]} << 8U | std::uint32_t{bytes[at + 2]} << 16U |
           std::uint32_t{bytes[at + 3]} << 24U;
  };
  if (op == p::opcode::GameEvent && bytes.size() >= 16) return u32_at(12);
  if (op == p::opcode::GameAction && bytes.size() >= 12) return u32_at(8);
  if (op == p::opcode::Movement && bytes.size() >= 13) return bytes[12];
  return bytes.size();
}

// Picks up to quota distinct messages of each opcode, preferring ones of a
// layout not yet picked, in capture order.
void add_capture(Corpus& corpus, const dereth::test::CaptureContents& capture) {
  std::map<std::uint32_t, std::vector<const Bytes*>> by_opcode;
  for (const auto& m : capture.messages) by_opcode[m.opcode()].push_back(&m.bytes);
  for (const auto& [op, messages] : by_opcode) {
    const auto quota_it = kCaptureQuota.find(op);
    const std::size_t quota = quota_it == kCaptureQuota.end() ? kOtherQuota : quota_it->second;
    std::set<Bytes> picked;
    std::set<std::uint64_t> layouts;
    for (const bool new_layouts_only : {true, false}) {
      for (const Bytes* bytes : messages) {
        if (picked.size() >= quota) break;
        const std::uint64_t key = layout_key(op, *bytes);
        if (new_layouts_only && layouts.contains(key)) continue;
        if (picked.insert(*bytes).second) {
          layouts.insert(key);
          corpus.add("capture", *bytes);
        }
      }
    }
  }
}

p::PositionPack position_pack(std::uint32_t flags, bool full) {
  p::PositionPack pp;
  pp.flags = flags;
  pp.cell_id = 0xA9B40019;
  pp.origin = {84.5F, 23.25F, 42.0F};
  pp.qw = 0.70710677F;
  if (full) {
    pp.qx = 0.0F;
    pp.qy = 0.0F;
    pp.qz = -0.70710677F;
    pp.velocity = p::Vec3{1.0F, -2.0F, 0.5F};
    pp.placement_id = 0x65;
  }
  pp.instance_ts = 3;
  pp.position_ts = 0x1234;
  pp.teleport_ts = 2;
  pp.force_position_ts = 1;
  return pp;
}

p::ObjDesc obj_desc() {
  p::ObjDesc d;
  d.base_palette = 0x0400007E;
  d.palettes = {{0x04000BEF, 0, 8}, {0x04001071, 8, 16}};
  d.texture_changes = {{1, 0x05001234, 0x05019876}};
  d.anim_part_changes = {{2, 0x01004567}, {16, 0x01230001}};
  return d;
}

// Messages of every type, built field by field and encoded.
void add_synthetic(Corpus& corpus) {
  const auto add = [&](const auto& message) { corpus.add("synthetic", p::encode(message)); };

  add(p::PlayerCreate{0x50000042});
  add(p::DeleteObject{0x80001234, 7});
  add(p::DeleteObject{0xFFFFFFFF, 0xFFFF});
  add(p::UpdatePosition{0x50000042, position_pack(0, false)});
  add(p::UpdatePosition{0x50000042, position_pack(p::position_flag::IsGrounded, true)});
  add(p::UpdatePosition{0x80001234,
                        position_pack(p::position_flag::OrientationHasNoX | p::position_flag::OrientationHasNoY |
                                          p::position_flag::OrientationHasNoZ,
                                      false)});
  add(p::ParentEvent{0x50000042, 0x80001234, 1, 2, 3, 4});
  add(p::PickupEvent{0x80001234, 5, 6});
  add(p::SetState{0x80001234, 0x00000408, 7, 8});
  add(p::VectorUpdate{0x80001234, {0, 20.0F, 1.5F}, {0.1F, 0.2F, 0.3F}, 9, 10});
  add(p::Sound{0x50000042, 0x77, 0.5F});
  add(p::PlayerTeleport{0x0102});
  add(p::PlayScriptId{0x50000042, 0x33000099});
  add(p::PlayScriptType{0x50000042, 0x13, 0x3F400000});

  add(p::ObjDescEvent{0x50000042, obj_desc(), 11, 12});
  add(p::ObjDescEvent{0x50000042, p::ObjDesc{}, 0, 0});

  // UpdateObject: the projectile's fields under the other opcode, and a bare one.
  p::UpdateObject update;
  static_cast<p::CreateObject&>(update) = dereth::test::broad_projectile();
  add(update);
  p::UpdateObject bare;
  bare.guid = 0x80000001;
  bare.weenie.name = "x";
  add(bare);

  // CreateObject with a rich WeenieDesc and an AnimationFrame instead of Movement.
  p::CreateObject rich;
  rich.guid = 0x80005678;
  rich.model = obj_desc();
  rich.physics.animation_frame = 0x65;
  rich.physics.position = p::Position{0x7D640013, {10, 20, 30}, {1, 0, 0, 0}};
  rich.physics.setup_id = 0x02000001;
  rich.weenie.name = "Pack";
  rich.weenie.weenie_class_id = 0x12345;
  rich.weenie.icon_id = 0x06001234;
  rich.weenie.item_type = 0x200;
  rich.weenie.plural_name = "Packs";
  rich.weenie.items_capacity = 24;
  rich.weenie.containers_capacity = 1;
  rich.weenie.value = 100;
  rich.weenie.use_radius = 1.5F;
  rich.weenie.burden = 50;
  rich.weenie.house_restrictions = p::HouseRestrictions{0x10000002, 1, 0x50000042, 64, {{0x50000042, 1}}};
  rich.weenie.icon_overlay = 0x06005555;
  rich.weenie.icon_underlay = 0x06006666;
  rich.weenie.material_type = 7;
  rich.weenie.cooldown_id = 3;
  rich.weenie.cooldown_duration = 30.0;
  rich.weenie.pet_owner = 0x50000042;
  add(rich);

  // Movement F74C: one of each movement type.
  p::MovementEvent movement;
  movement.guid = 0x80001234;
  movement.instance_ts = 1;
  movement.movement_ts = 2;
  movement.server_control_ts = 3;
  movement.data.current_style = 0x3D;
  p::InterpretedMovement interpreted;
  interpreted.state.current_style = 0x3D;
  interpreted.state.forward_command = 0x07;
  interpreted.state.sidestep_command = 0x0F;
  interpreted.state.turn_command = 0x0D;
  interpreted.state.forward_speed = 1.25F;
  interpreted.state.sidestep_speed = 0.5F;
  interpreted.state.turn_speed = 1.5F;
  interpreted.state.commands = {{0x53, 0x8001, 1.0F}, {0x54, 0x0002, 2.0F}};
  interpreted.sticky_object = 0x80005678;
  movement.data.motion_flags = p::kMotionFlagStickToObject;
  movement.data.payload = interpreted;
  add(movement);
  const p::MoveToParameters params{0x1EE0F, 0.6F, 0.0F, 100.0F, 1.0F, 15.0F, 90.0F};
  movement.data.motion_flags = 0;
  movement.data.payload = p::MoveToObject{0x80005678, {0xA9B40019, {1, 2, 3}}, params, 1.5F};
  add(movement);
  movement.data.payload = p::MoveToPosition{{0xA9B40019, {4, 5, 6}}, params, 1.0F};
  add(movement);
  const p::TurnToParameters turn{0x1, 1.0F, 180.0F};
  movement.data.payload = p::TurnToObject{0x80005678, 45.0F, turn};
  add(movement);
  movement.data.payload = p::TurnToHeading{turn};
  add(movement);

  // A bare movement buffer (what PhysicsDesc carries), for decode_movement_buffer.
  p::MovementData buffer;
  buffer.current_style = 0x3D;
  p::InterpretedMovement idle;
  idle.state.current_style = 0x3D;
  buffer.payload = idle;
  corpus.add_named("movement", "buffer", p::encode_movement_buffer(buffer));

  // Outbound F7B1 actions.
  p::MoveToState move;
  move.sequence = 12;
  move.raw.current_hold_key = 2;
  move.raw.forward_command = 0x45000005;
  move.raw.forward_hold_key = 2;
  move.raw.forward_speed = 1.0F;
  move.raw.turn_command = 0x6500000D;
  move.raw.turn_speed = 1.5F;
  move.raw.commands = {{0x53, 0x8001, 1.0F}};
  move.position = p::Position{0xA9B40019, {84.5F, 23.25F, 42.0F}, {1, 0, 0, 0}};
  move.timestamps = {1, 2, 3, 4};
  move.contact_long_jump = 1;
  add(move);
  p::MoveToState still;
  still.sequence = 13;
  add(still);
  p::AutonomousPosition autonomous;
  autonomous.sequence = 14;
  autonomous.position = p::Position{0xA9B40019, {84.5F, 23.25F, 42.0F}, {0.70710677F, 0, 0, -0.70710677F}};
  autonomous.timestamps = {5, 6, 7, 8};
  autonomous.contact = 1;
  add(autonomous);
}

int print_stats(const dereth::test::CaptureContents& capture) {
  std::map<std::pair<bool, std::uint32_t>, std::pair<std::size_t, std::set<Bytes>>> counts;
  for (const auto& m : capture.messages) {
    auto& entry = counts[{m.server_to_client, m.opcode()}];
    ++entry.first;
    entry.second.insert(m.bytes);
  }
  // The wrappers' inner types: F7B0 event type, F7B1 action type.
  std::map<std::pair<std::uint32_t, std::uint64_t>, std::size_t> inner;
  for (const auto& m : capture.messages) {
    const std::uint32_t op = m.opcode();
    if (op == p::opcode::GameEvent || op == p::opcode::GameAction) ++inner[{op, layout_key(op, m.bytes)}];
  }
  std::printf("%zu messages\n", capture.messages.size());
  for (const auto& [key, entry] : counts) {
    const auto name = p::message_name(key.second);
    std::printf("%s %04X %-16s %5zu messages, %5zu distinct\n", key.first ? "S->C" : "C->S", key.second,
                name.empty() ? "(unknown)" : std::string(name).c_str(), entry.first, entry.second.size());
  }
  for (const auto& [key, count] : inner) {
    std::printf("%04X %s 0x%04llX: %zu\n", key.first, key.first == p::opcode::GameEvent ? "event" : "action",
                static_cast<unsigned long long>(key.second), count);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "usage: %s OUT_DIR|--stats [CAPTURE]\n", argv[0]);
    return 2;
  }
  const std::string capture_path =
      argc == 3 ? std::string(argv[2]) : dereth::test::shared_path("captures/example.pcap");
  const auto capture = dereth::test::read_capture(capture_path);
  if (!capture) {
    std::fprintf(stderr, "%s\n", capture.error().message().c_str());
    return 1;
  }
  if (std::string_view(argv[1]) == "--stats") return print_stats(*capture);

  try {
    const fs::path dir = argv[1];
    fs::create_directories(dir);
    Corpus corpus(dir);
    corpus.add("retail-door", dereth::test::retail_door_create_object());
    corpus.add("broad-projectile", p::encode(dereth::test::broad_projectile()));
    corpus.add("seed", dereth::test::from_hex("54F70000 42000050 99000033"));
    corpus.add("seed", dereth::test::from_hex("55F70000 42000050 A5A5A5A5 3412C07F"));
    add_capture(corpus, *capture);
    add_synthetic(corpus);
    std::printf("wrote %zu files (%zu bytes) to %s\n", corpus.files(), corpus.total_bytes(), dir.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fuzz_make_corpus: %s\n", e.what());
    return 1;
  }
  return 0;
}
