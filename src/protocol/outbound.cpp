#include "dereth/protocol/outbound.hpp"

#include "dereth/protocol/messages.hpp"

#include "game_action.hpp"

namespace dereth::protocol {

namespace {

using detail::action_writer;
using detail::read_action_header;

void write_echoed(ByteWriter& w, const EchoedTimestamps& t) {
  w.u16(t.instance_ts);
  w.u16(t.server_control_ts);
  w.u16(t.teleport_ts);
  w.u16(t.force_position_ts);
}

Result<EchoedTimestamps> read_echoed(ByteReader& r) {
  DERETH_CHECK(r.require(8, "timestamps"));
  EchoedTimestamps t;
  t.instance_ts = *r.u16("instance_ts");
  t.server_control_ts = *r.u16("server_control_ts");
  t.teleport_ts = *r.u16("teleport_ts");
  t.force_position_ts = *r.u16("force_position_ts");
  return t;
}

}  // namespace

std::vector<std::uint8_t> encode(const MoveToState& m) {
  ByteWriter w = action_writer(m.sequence, opcode::MoveToState);
  write_raw_motion_state(w, m.raw);
  write_position(w, m.position);
  write_echoed(w, m.timestamps);
  w.u8(m.contact_long_jump);
  w.align4();
  return std::move(w).take();
}

std::vector<std::uint8_t> encode(const AutonomousPosition& m) {
  ByteWriter w = action_writer(m.sequence, opcode::AutonomousPosition);
  write_position(w, m.position);
  write_echoed(w, m.timestamps);
  w.u8(m.contact);
  w.align4();
  return std::move(w).take();
}

// JumpPack::Pack 0x00516D10 inside CM_Movement::Event_Jump 0x006AFA70
std::vector<std::uint8_t> encode(const Jump& m) {
  ByteWriter w = action_writer(m.sequence, opcode::Jump);
  w.f32(m.extent);
  w.f32(m.velocity.x);
  w.f32(m.velocity.y);
  w.f32(m.velocity.z);
  write_position(w, m.position);
  write_echoed(w, m.timestamps);
  w.align4();
  return std::move(w).take();
}

Result<Jump> decode_jump(std::span<const std::uint8_t> body) {
  ByteReader r(body, "F7B1/F61B Jump");
  Jump m;
  DERETH_TRY(m.sequence, read_action_header(r, opcode::Jump));
  DERETH_TRY(m.extent, r.f32("extent"));
  DERETH_TRY(m.velocity.x, r.f32("velocity.x"));
  DERETH_TRY(m.velocity.y, r.f32("velocity.y"));
  DERETH_TRY(m.velocity.z, r.f32("velocity.z"));
  DERETH_TRY(m.position, read_position(r, "position"));
  DERETH_TRY(m.timestamps, read_echoed(r));
  DERETH_CHECK(r.align4("align"));
  DERETH_CHECK(r.expect_end());
  return m;
}

Result<MoveToState> decode_move_to_state(std::span<const std::uint8_t> body) {
  ByteReader r(body, "F7B1/F61C MoveToState");
  MoveToState m;
  DERETH_TRY(m.sequence, read_action_header(r, opcode::MoveToState));
  DERETH_TRY(m.raw, read_raw_motion_state(r));
  DERETH_TRY(m.position, read_position(r, "position"));
  DERETH_TRY(m.timestamps, read_echoed(r));
  DERETH_TRY(m.contact_long_jump, r.u8("contact_long_jump"));
  DERETH_CHECK(r.align4("align"));
  DERETH_CHECK(r.expect_end());
  return m;
}

Result<AutonomousPosition> decode_autonomous_position(std::span<const std::uint8_t> body) {
  ByteReader r(body, "F7B1/F753 AutonomousPosition");
  AutonomousPosition m;
  DERETH_TRY(m.sequence, read_action_header(r, opcode::AutonomousPosition));
  DERETH_TRY(m.position, read_position(r, "position"));
  DERETH_TRY(m.timestamps, read_echoed(r));
  DERETH_TRY(m.contact, r.u8("contact"));
  DERETH_CHECK(r.align4("align"));
  DERETH_CHECK(r.expect_end());
  return m;
}

// CM_Combat::Event_QueryHealth 0x006A9B40
std::vector<std::uint8_t> encode(const QueryHealth& m) {
  ByteWriter w = action_writer(m.sequence, opcode::QueryHealth);
  w.u32(m.target);
  return std::move(w).take();
}

Result<QueryHealth> decode_query_health(std::span<const std::uint8_t> body) {
  ByteReader r(body, "F7B1/01BF QueryHealth");
  QueryHealth m;
  DERETH_TRY(m.sequence, read_action_header(r, opcode::QueryHealth));
  DERETH_TRY(m.target, r.u32("target"));
  DERETH_CHECK(r.expect_end());
  return m;
}

// CM_Movement::Event_AutonomyLevel 0x006AF850
std::vector<std::uint8_t> encode(const AutonomyLevel& m) {
  ByteWriter w = action_writer(m.sequence, opcode::AutonomyLevel);
  w.u32(m.level);
  return std::move(w).take();
}

Result<AutonomyLevel> decode_autonomy_level(std::span<const std::uint8_t> body) {
  ByteReader r(body, "F7B1/F752 AutonomyLevel");
  AutonomyLevel m;
  DERETH_TRY(m.sequence, read_action_header(r, opcode::AutonomyLevel));
  DERETH_TRY(m.level, r.u32("level"));
  DERETH_CHECK(r.expect_end());
  return m;
}

// CM_Movement::Event_Jump_NonAutonomous 0x006AFB30
std::vector<std::uint8_t> encode(const JumpNonAutonomous& m) {
  ByteWriter w = action_writer(m.sequence, opcode::JumpNonAutonomous);
  w.f32(m.extent);
  return std::move(w).take();
}

Result<JumpNonAutonomous> decode_jump_non_autonomous(std::span<const std::uint8_t> body) {
  ByteReader r(body, "F7B1/F7C9 Jump_NonAutonomous");
  JumpNonAutonomous m;
  DERETH_TRY(m.sequence, read_action_header(r, opcode::JumpNonAutonomous));
  DERETH_TRY(m.extent, r.f32("extent"));
  DERETH_CHECK(r.expect_end());
  return m;
}

// CM_Movement::Event_DoMovementCommand 0x006AF920
std::vector<std::uint8_t> encode(const DoMovementCommand& m) {
  ByteWriter w = action_writer(m.sequence, opcode::DoMovementCommand);
  w.u32(m.motion);
  w.f32(m.speed);
  w.u32(m.hold_key);
  return std::move(w).take();
}

Result<DoMovementCommand> decode_do_movement_command(std::span<const std::uint8_t> body) {
  ByteReader r(body, "F7B1/F61E DoMovementCommand");
  DoMovementCommand m;
  DERETH_TRY(m.sequence, read_action_header(r, opcode::DoMovementCommand));
  DERETH_TRY(m.motion, r.u32("motion"));
  DERETH_TRY(m.speed, r.f32("speed"));
  DERETH_TRY(m.hold_key, r.u32("hold_key"));
  DERETH_CHECK(r.expect_end());
  return m;
}

// CM_Movement::Event_StopMovementCommand 0x006AFCC0
std::vector<std::uint8_t> encode(const StopMovementCommand& m) {
  ByteWriter w = action_writer(m.sequence, opcode::StopMovementCommand);
  w.u32(m.motion);
  w.u32(m.hold_key);
  return std::move(w).take();
}

Result<StopMovementCommand> decode_stop_movement_command(std::span<const std::uint8_t> body) {
  ByteReader r(body, "F7B1/F661 StopMovementCommand");
  StopMovementCommand m;
  DERETH_TRY(m.sequence, read_action_header(r, opcode::StopMovementCommand));
  DERETH_TRY(m.motion, r.u32("motion"));
  DERETH_TRY(m.hold_key, r.u32("hold_key"));
  DERETH_CHECK(r.expect_end());
  return m;
}

}  // namespace dereth::protocol
