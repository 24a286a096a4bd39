#include "dereth/protocol/movement.hpp"

#include <string>
#include <type_traits>

namespace dereth::protocol {

namespace imf = interpreted_flag;
namespace rmf = raw_motion_flag;

namespace {

template <class T, class Read>
Result<void> read_if(bool present, std::optional<T>& out, Read&& read) {
  if (present) {
    DERETH_TRY(out, read());
  }
  return {};
}

Result<std::vector<MotionItem>> read_motion_items(ByteReader& r, std::uint32_t count, std::string_view field) {
  DERETH_TRY(const std::size_t n, r.checked_count(count, 8, field));
  std::vector<MotionItem> items(n);
  for (auto& item : items) {
    item.command = *r.u16(field);
    item.packed_sequence = *r.u16(field);
    item.speed = *r.f32(field);
  }
  return items;
}

void write_motion_items(ByteWriter& w, const std::vector<MotionItem>& items) {
  for (const auto& item : items) {
    w.u16(item.command);
    w.u16(item.packed_sequence);
    w.f32(item.speed);
  }
}

Result<InterpretedMotionState> read_interpreted_motion_state(ByteReader& r) {
  InterpretedMotionState s;
  DERETH_TRY(const std::uint32_t packed, r.u32("InterpretedMotionState.flags"));
  const std::uint32_t flags = packed & 0x7FU;
  const std::uint32_t num_commands = packed >> 7;
  DERETH_CHECK(read_if(flags & imf::CurrentStyle, s.current_style,
                       [&] { return r.u16("InterpretedMotionState.current_style"); }));
  DERETH_CHECK(read_if(flags & imf::ForwardCommand, s.forward_command,
                       [&] { return r.u16("InterpretedMotionState.forward_command"); }));
  DERETH_CHECK(read_if(flags & imf::SidestepCommand, s.sidestep_command,
                       [&] { return r.u16("InterpretedMotionState.sidestep_command"); }));
  DERETH_CHECK(
      read_if(flags & imf::TurnCommand, s.turn_command, [&] { return r.u16("InterpretedMotionState.turn_command"); }));
  DERETH_CHECK(read_if(flags & imf::ForwardSpeed, s.forward_speed,
                       [&] { return r.f32("InterpretedMotionState.forward_speed"); }));
  DERETH_CHECK(read_if(flags & imf::SidestepSpeed, s.sidestep_speed,
                       [&] { return r.f32("InterpretedMotionState.sidestep_speed"); }));
  DERETH_CHECK(
      read_if(flags & imf::TurnSpeed, s.turn_speed, [&] { return r.f32("InterpretedMotionState.turn_speed"); }));
  DERETH_TRY(s.commands, read_motion_items(r, num_commands, "InterpretedMotionState.commands"));
  DERETH_CHECK(r.align4("InterpretedMotionState.align"));
  return s;
}

void write_interpreted_motion_state(ByteWriter& w, const InterpretedMotionState& s) {
  w.u32(s.flags() | (static_cast<std::uint32_t>(s.commands.size()) << 7));
  if (s.current_style) w.u16(*s.current_style);
  if (s.forward_command) w.u16(*s.forward_command);
  if (s.sidestep_command) w.u16(*s.sidestep_command);
  if (s.turn_command) w.u16(*s.turn_command);
  if (s.forward_speed) w.f32(*s.forward_speed);
  if (s.sidestep_speed) w.f32(*s.sidestep_speed);
  if (s.turn_speed) w.f32(*s.turn_speed);
  write_motion_items(w, s.commands);
  w.align4();
}

Result<MoveToParameters> read_move_to_parameters(ByteReader& r) {
  DERETH_CHECK(r.require(28, "MoveToParameters"));
  MoveToParameters p;
  p.bitfield = *r.u32("MoveToParameters.bitfield");
  p.distance_to_object = *r.f32("MoveToParameters.distance_to_object");
  p.min_distance = *r.f32("MoveToParameters.min_distance");
  p.fail_distance = *r.f32("MoveToParameters.fail_distance");
  p.speed = *r.f32("MoveToParameters.speed");
  p.walk_run_threshold = *r.f32("MoveToParameters.walk_run_threshold");
  p.desired_heading = *r.f32("MoveToParameters.desired_heading");
  return p;
}

void write_move_to_parameters(ByteWriter& w, const MoveToParameters& p) {
  w.u32(p.bitfield);
  w.f32(p.distance_to_object);
  w.f32(p.min_distance);
  w.f32(p.fail_distance);
  w.f32(p.speed);
  w.f32(p.walk_run_threshold);
  w.f32(p.desired_heading);
}

Result<TurnToParameters> read_turn_to_parameters(ByteReader& r) {
  DERETH_CHECK(r.require(12, "TurnToParameters"));
  TurnToParameters p;
  p.bitfield = *r.u32("TurnToParameters.bitfield");
  p.speed = *r.f32("TurnToParameters.speed");
  p.desired_heading = *r.f32("TurnToParameters.desired_heading");
  return p;
}

void write_turn_to_parameters(ByteWriter& w, const TurnToParameters& p) {
  w.u32(p.bitfield);
  w.f32(p.speed);
  w.f32(p.desired_heading);
}

}  // namespace

std::uint32_t InterpretedMotionState::flags() const {
  std::uint32_t f = 0;
  if (current_style) f |= imf::CurrentStyle;
  if (forward_command) f |= imf::ForwardCommand;
  if (forward_speed) f |= imf::ForwardSpeed;
  if (sidestep_command) f |= imf::SidestepCommand;
  if (sidestep_speed) f |= imf::SidestepSpeed;
  if (turn_command) f |= imf::TurnCommand;
  if (turn_speed) f |= imf::TurnSpeed;
  return f;
}

MovementType MovementData::type() const {
  switch (payload.index()) {
    case 1: return MovementType::MoveToObject;
    case 2: return MovementType::MoveToPosition;
    case 3: return MovementType::TurnToObject;
    case 4: return MovementType::TurnToHeading;
    default: return MovementType::Invalid;
  }
}

Result<MovementData> read_movement_data(ByteReader& r) {
  MovementData m;
  const std::size_t type_at = r.position();
  DERETH_CHECK(r.require(4, "MovementData.header"));
  const std::uint8_t type = *r.u8("MovementData.movement_type");
  m.motion_flags = *r.u8("MovementData.motion_flags");
  m.current_style = *r.u16("MovementData.current_style");
  switch (static_cast<MovementType>(type)) {
    case MovementType::Invalid: {
      InterpretedMovement im;
      DERETH_TRY(im.state, read_interpreted_motion_state(r));
      if (m.motion_flags & kMotionFlagStickToObject) {
        DERETH_TRY(im.sticky_object, r.u32("MovementData.sticky_object"));
      }
      m.payload = std::move(im);
      break;
    }
    case MovementType::MoveToObject: {
      MoveToObject mt;
      DERETH_TRY(mt.target_guid, r.u32("MoveToObject.target_guid"));
      DERETH_TRY(mt.origin, read_origin(r, "MoveToObject.origin"));
      DERETH_TRY(mt.params, read_move_to_parameters(r));
      DERETH_TRY(mt.run_rate, r.f32("MoveToObject.run_rate"));
      m.payload = mt;
      break;
    }
    case MovementType::MoveToPosition: {
      MoveToPosition mp;
      DERETH_TRY(mp.origin, read_origin(r, "MoveToPosition.origin"));
      DERETH_TRY(mp.params, read_move_to_parameters(r));
      DERETH_TRY(mp.run_rate, r.f32("MoveToPosition.run_rate"));
      m.payload = mp;
      break;
    }
    case MovementType::TurnToObject: {
      TurnToObject t;
      DERETH_TRY(t.target_guid, r.u32("TurnToObject.target_guid"));
      DERETH_TRY(t.desired_heading, r.f32("TurnToObject.desired_heading"));
      DERETH_TRY(t.params, read_turn_to_parameters(r));
      m.payload = t;
      break;
    }
    case MovementType::TurnToHeading: {
      TurnToHeading t;
      DERETH_TRY(t.params, read_turn_to_parameters(r));
      m.payload = t;
      break;
    }
    default:
      return std::unexpected(r.error_at(type_at, core::ErrorKind::Unsupported, "MovementData.movement_type",
                                        "movement type " + std::to_string(type) + " is not sent by servers"));
  }
  return m;
}

void write_movement_data(ByteWriter& w, const MovementData& m) {
  w.u8(static_cast<std::uint8_t>(m.type()));
  w.u8(m.motion_flags);
  w.u16(m.current_style);
  std::visit(
      [&](const auto& p) {
        using T = std::decay_t<decltype(p)>;
        if constexpr (std::is_same_v<T, InterpretedMovement>) {
          write_interpreted_motion_state(w, p.state);
          if (m.motion_flags & kMotionFlagStickToObject) w.u32(p.sticky_object.value_or(0));
        } else if constexpr (std::is_same_v<T, MoveToObject>) {
          w.u32(p.target_guid);
          write_origin(w, p.origin);
          write_move_to_parameters(w, p.params);
          w.f32(p.run_rate);
        } else if constexpr (std::is_same_v<T, MoveToPosition>) {
          write_origin(w, p.origin);
          write_move_to_parameters(w, p.params);
          w.f32(p.run_rate);
        } else if constexpr (std::is_same_v<T, TurnToObject>) {
          w.u32(p.target_guid);
          w.f32(p.desired_heading);
          write_turn_to_parameters(w, p.params);
        } else {
          write_turn_to_parameters(w, p.params);
        }
      },
      m.payload);
}

Result<MovementData> decode_movement_buffer(std::span<const std::uint8_t> bytes) {
  ByteReader r(bytes, "PhysicsDesc movement buffer");
  DERETH_TRY(auto m, read_movement_data(r));
  DERETH_CHECK(r.expect_end());
  return m;
}

std::vector<std::uint8_t> encode_movement_buffer(const MovementData& m) {
  ByteWriter w;
  write_movement_data(w, m);
  return std::move(w).take();
}

std::uint32_t RawMotionState::flags() const {
  std::uint32_t f = 0;
  if (current_hold_key) f |= rmf::CurrentHoldKey;
  if (current_style) f |= rmf::CurrentStyle;
  if (forward_command) f |= rmf::ForwardCommand;
  if (forward_hold_key) f |= rmf::ForwardHoldKey;
  if (forward_speed) f |= rmf::ForwardSpeed;
  if (sidestep_command) f |= rmf::SidestepCommand;
  if (sidestep_hold_key) f |= rmf::SidestepHoldKey;
  if (sidestep_speed) f |= rmf::SidestepSpeed;
  if (turn_command) f |= rmf::TurnCommand;
  if (turn_hold_key) f |= rmf::TurnHoldKey;
  if (turn_speed) f |= rmf::TurnSpeed;
  return f;
}

Result<RawMotionState> read_raw_motion_state(ByteReader& r) {
  RawMotionState s;
  DERETH_TRY(const std::uint32_t packed, r.u32("RawMotionState.flags"));
  const std::uint32_t f = packed & 0x7FFU;
  const std::uint32_t num_commands = packed >> 11;
  DERETH_CHECK(
      read_if(f & rmf::CurrentHoldKey, s.current_hold_key, [&] { return r.u32("RawMotionState.current_hold_key"); }));
  DERETH_CHECK(read_if(f & rmf::CurrentStyle, s.current_style, [&] { return r.u32("RawMotionState.current_style"); }));
  DERETH_CHECK(
      read_if(f & rmf::ForwardCommand, s.forward_command, [&] { return r.u32("RawMotionState.forward_command"); }));
  DERETH_CHECK(
      read_if(f & rmf::ForwardHoldKey, s.forward_hold_key, [&] { return r.u32("RawMotionState.forward_hold_key"); }));
  DERETH_CHECK(read_if(f & rmf::ForwardSpeed, s.forward_speed, [&] { return r.f32("RawMotionState.forward_speed"); }));
  DERETH_CHECK(
      read_if(f & rmf::SidestepCommand, s.sidestep_command, [&] { return r.u32("RawMotionState.sidestep_command"); }));
  DERETH_CHECK(read_if(f & rmf::SidestepHoldKey, s.sidestep_hold_key,
                       [&] { return r.u32("RawMotionState.sidestep_hold_key"); }));
  DERETH_CHECK(
      read_if(f & rmf::SidestepSpeed, s.sidestep_speed, [&] { return r.f32("RawMotionState.sidestep_speed"); }));
  DERETH_CHECK(read_if(f & rmf::TurnCommand, s.turn_command, [&] { return r.u32("RawMotionState.turn_command"); }));
  DERETH_CHECK(read_if(f & rmf::TurnHoldKey, s.turn_hold_key, [&] { return r.u32("RawMotionState.turn_hold_key"); }));
  DERETH_CHECK(read_if(f & rmf::TurnSpeed, s.turn_speed, [&] { return r.f32("RawMotionState.turn_speed"); }));
  DERETH_TRY(s.commands, read_motion_items(r, num_commands, "RawMotionState.commands"));
  return s;
}

void write_raw_motion_state(ByteWriter& w, const RawMotionState& s) {
  w.u32(s.flags() | (static_cast<std::uint32_t>(s.commands.size()) << 11));
  if (s.current_hold_key) w.u32(*s.current_hold_key);
  if (s.current_style) w.u32(*s.current_style);
  if (s.forward_command) w.u32(*s.forward_command);
  if (s.forward_hold_key) w.u32(*s.forward_hold_key);
  if (s.forward_speed) w.f32(*s.forward_speed);
  if (s.sidestep_command) w.u32(*s.sidestep_command);
  if (s.sidestep_hold_key) w.u32(*s.sidestep_hold_key);
  if (s.sidestep_speed) w.f32(*s.sidestep_speed);
  if (s.turn_command) w.u32(*s.turn_command);
  if (s.turn_hold_key) w.u32(*s.turn_hold_key);
  if (s.turn_speed) w.f32(*s.turn_speed);
  write_motion_items(w, s.commands);
}

}  // namespace dereth::protocol
